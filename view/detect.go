package view

import (
	"fmt"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Detect lays out what each input was recognised as (fbdiag detect): one
// table, "files", a row per input in the order given. When an input held
// several kinds, a row per part, with its first and last line in the
// file, and a note per such file on the prose skipped.
func Detect(files []parse.Detected) *Doc {
	parts := false
	for _, f := range files {
		parts = parts || f.Source != ""
	}
	t := &Table{Name: "files", Noun: "files", Columns: []Column{
		{Key: "file", Title: "file"},
		{Key: "kind", Title: "kind"},
	}, Rows: [][]Cell{}}
	if parts {
		t.Columns = append(t.Columns, Column{Key: "first_line", Title: "first line", Kind: CountKind},
			Column{Key: "last_line", Title: "last line", Kind: CountKind})
	}
	t.Columns = append(t.Columns, Column{Key: "reason", Title: "why"})
	for i, f := range files {
		row := []Cell{Str(f.File), Str(string(f.Kind))}
		if parts {
			if f.Source == "" {
				row = append(row, Null(CountKind), Null(CountKind))
			} else {
				row = append(row, Int(int64(f.FirstLine)), Int(int64(f.LastLine)))
			}
		}
		t.Rows = append(t.Rows, append(row, Str(f.Reason)))
		if f.Source != "" && (i+1 == len(files) || files[i+1].Source != f.Source) {
			t.Notes = append(t.Notes, splitNote(files, i))
		}
	}
	return &Doc{Main: "files", Tables: []*Table{t}}
}

// splitNote says how the source of files[last], its last part, was cut.
func splitNote(files []parse.Detected, last int) string {
	f := files[last]
	kinds := map[parse.InputKind]bool{}
	n := 0
	for i := last; i >= 0 && files[i].Source == f.Source; i-- {
		kinds[files[i].Kind] = true
		n++
	}
	skipped := 0
	if f.SkippedLines != nil {
		skipped = *f.SkippedLines
	}
	return SplitNote(f.Source, n, len(kinds), skipped)
}

// SplitNote is the sentence fbdiag detect and the report's inputs say of
// a file cut into parts (parse.SplitInput): how many, of how many kinds,
// and the lines of prose skipped.
func SplitNote(source string, parts, kinds, skipped int) string {
	return fmt.Sprintf("%s: %d parts of %s; %s of prose around them skipped (blank lines not counted).", source, parts, units.Count(kinds, "kind"), units.Count(skipped, "line"))
}
