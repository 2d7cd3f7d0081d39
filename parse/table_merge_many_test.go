package parse

import (
	"fmt"
	"strings"
	"testing"
)

// A file a script appended a result table to, header and all, run after
// run, is one table, its parts merged in time linear in them: each part
// made the rows seen so far and read the whole table again (4,000 parts:
// 5.5 s).
func TestMergeManyParts(t *testing.T) {
	allocs := map[int]float64{}
	for _, n := range []int{500, 2000} {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "size_gb,tps\n%d,2\n%d,3\n%d,5\n\n", 3*i+1, 3*i+2, 3*i+3)
		}
		b.WriteString("size_gb,tps\n1,2\n4,9\n") // (one row again, one new)
		parts, _, err := ReadTables(strings.NewReader(b.String()), "runs.csv")
		if err != nil || len(parts) != n+1 {
			t.Fatalf("%d parts read, %v", len(parts), err)
		}
		var merged []*Table
		var notes []Notice
		allocs[n] = testing.AllocsPerRun(1, func() {
			cp := make([]*Table, len(parts))
			for i, p := range parts {
				c := *p
				c.Rows = append([]Row(nil), p.Rows...)
				cp[i] = &c
			}
			merged, notes = MergeTables(cp)
		})
		if len(merged) != 1 || len(merged[0].Rows) != 3*n+1 || len(notes) != n {
			t.Fatalf("%d parts: %d tables, %d notices", n, len(merged), len(notes))
		}
		if last := notes[n-1].String(); last != fmt.Sprintf("runs.csv:%d: table continues the table of line 1: 1 new rows, 1 repeated", 5*n+1) {
			t.Errorf("%d parts: %s", n, last)
		}
		m := merged[0]
		if y := m.Columns[1].Values; len(y) != 3*n+1 || y[3*n] != 9 || m.Columns[0].Unit.Symbol != "GB" {
			t.Errorf("%d parts: %d values, last %v, unit %q", n, len(y), y[len(y)-1], m.Columns[0].Unit.Symbol)
		}
	}
	if ratio := allocs[2000] / allocs[500]; ratio > 6 {
		t.Errorf("allocations: %.0f for 500 parts, %.0f for 2000 (×%.1f)", allocs[500], allocs[2000], ratio)
	}
}
