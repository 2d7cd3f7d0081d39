package view

import "github.com/fbdiag/fbdiag/parse"

// Detect lays out what each input was recognised as (fbdiag detect): one
// table, "files", a row per input in the order given.
func Detect(files []parse.Detected) *Doc {
	t := &Table{Name: "files", Noun: "files", Columns: []Column{
		{Key: "file", Title: "file"},
		{Key: "kind", Title: "kind"},
		{Key: "reason", Title: "why"},
	}, Rows: [][]Cell{}}
	for _, f := range files {
		t.Rows = append(t.Rows, []Cell{Str(f.File), Str(string(f.Kind)), Str(f.Reason)})
	}
	return &Doc{Main: "files", Tables: []*Table{t}}
}
