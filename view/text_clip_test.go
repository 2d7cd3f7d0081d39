package view

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
)

// A text table measures its columns on its first 1000 rows and prints
// the rest with those widths: two names past them that clip alike were
// printed alike. RDB$RELATION_FIELDS and RDB$RELATION_CONSTRAINTS, the
// 1001st and 1002nd rows of a 14-column name, read "RDB$RELATION_…" twice;
// the second now reads whole (past its column) rather than as the first.
func TestTextClipAfterMeasuredRows(t *testing.T) {
	tb := &Table{Name: "tables", Columns: []Column{{Key: "table", Title: "table", Max: 14}, {Key: "pages", Title: "pages", Kind: CountKind}}}
	for i := range measureRows {
		tb.Rows = append(tb.Rows, []Cell{Str(fmt.Sprintf("CUSTOMER_%05d", i)), Int(int64(i))})
	}
	for _, n := range []string{"RDB$RELATION_FIELDS", "RDB$RELATION_CONSTRAINTS", "RDB$RELATION_FIELDS", "RDB$RELATIONS"} {
		tb.Rows = append(tb.Rows, []Cell{Str(n), Int(7)})
	}
	var out strings.Builder
	b := bufio.NewWriter(&out)
	textTable(b, tb, Options{All: true})
	b.Flush()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"RDB$RELATION_…      7", "RDB$RELATION_CONSTRAINTS      7", "RDB$RELATION_…      7", "RDB$RELATIONS       7"}
	if got := lines[len(lines)-4:]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("last rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if lines[0] != "table           pages" || lines[1] != "CUSTOMER_00000      0" {
		t.Errorf("head %q", lines[:2])
	}
}
