package view

import (
	"strings"
	"testing"
)

// TestShownFindingsMaxRows: Options.MaxRows bounds the findings as it
// does a table's rows, All or not, under the document's own limit and
// with the findings the analysis did not keep counted in the note.
func TestShownFindingsMaxRows(t *testing.T) {
	fs := []Finding{{Severity: "critical"}, {Severity: "critical"}, {Severity: "warning"}, {Severity: "warning"}, {Severity: "info"}}
	for _, c := range []struct {
		limit   int
		omitted []SeverityCount
		opt     Options
		shown   int
		note    string
	}{
		{0, nil, Options{}, 5, ""},
		{0, nil, Options{MaxRows: 5}, 5, ""},
		{0, nil, Options{MaxRows: 2, MoreHint: " in this page"}, 2, "2 of 5 warnings shown in this page; not shown: 2 warning, 1 info"},
		{0, nil, Options{All: true, MaxRows: 3}, 3, "3 of 5 warnings shown; not shown: 1 warning, 1 info"},
		{4, nil, Options{MaxRows: 2}, 2, "2 of 5 warnings shown; not shown: 2 warning, 1 info"},
		{2, nil, Options{MaxRows: 3}, 2, "2 of 5 warnings shown; not shown: 2 warning, 1 info"},
		{2, nil, Options{All: true}, 5, ""},
		{5, []SeverityCount{{Severity: "critical", Count: 7}}, Options{}, 5, "5 of 12 warnings shown; not shown: 7 critical"},
		{5, []SeverityCount{{Severity: "critical", Count: 7}}, Options{MaxRows: 1}, 1, "1 of 12 warnings shown; not shown: 8 critical, 2 warning, 1 info"},
	} {
		d := &Doc{FindingsTitle: "Warnings", Findings: fs, FindingsLimit: c.limit, FindingsOmitted: c.omitted}
		shown, note := shownFindings(d, c.opt)
		if len(shown) != c.shown || note != c.note {
			t.Errorf("limit %d, omitted %v, %+v: %d shown, %q; want %d, %q", c.limit, c.omitted, c.opt, len(shown), note, c.shown, c.note)
		}
	}
}

// Options.MaxRows bounds a table's rows, --all or not, in every human
// format, and the note counts the rest (the report's page: HTMLRows).
func TestTableMaxRows(t *testing.T) {
	tb := &Table{Name: "lines", Title: "Lines", Noun: "page count lines", Columns: []Column{{Key: "n", Title: "n", Kind: CountKind}}}
	for i := range 5 {
		tb.Rows = append(tb.Rows, []Cell{Int(int64(100 + i))})
	}
	d := &Doc{Title: "x", Tables: []*Table{tb}}
	for _, f := range []Format{Text, Markdown, HTML} {
		var b strings.Builder
		if err := Write(&b, f, Options{All: true, MaxRows: 2, MoreHint: " (--all lists them)"}, d); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, "101") || strings.Contains(out, "102") || !strings.Contains(out, "2 of 5 page count lines shown (--all lists them)") {
			t.Errorf("%s:\n%s", f, out)
		}
	}
}
