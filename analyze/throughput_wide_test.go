package analyze

import (
	"fmt"
	"strings"
	"testing"
)

// wideCSV is a one-row table of n columns: c0 the x, c1..c(n-1) each a
// series of one point.
func wideCSV(n int) string {
	var h, v strings.Builder
	for i := range n {
		if i > 0 {
			h.WriteByte(',')
			v.WriteByte(',')
		}
		fmt.Fprintf(&h, "c%d", i)
		fmt.Fprintf(&v, "%d", i)
	}
	return h.String() + "\n" + v.String() + "\n"
}

// A table of thousands of columns is thousands of series, each read once:
// the work grows with the columns, not with their square (25,000 columns,
// a 300 KB CSV, ran for minutes: each series looked for its points among
// all of them, each point for its series among all of them).
func TestThroughputWideTable(t *testing.T) {
	allocs := map[int]float64{}
	for _, n := range []int{500, 2000} {
		in := readString(t, "wide.csv", wideCSV(n))
		var r *Result
		allocs[n] = testing.AllocsPerRun(1, func() {
			var err error
			if r, err = Throughput(in, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		if r.Mode != ModeSweep || len(r.Series) != n-1 || r.Series[0].Name != "c1" || r.Series[n-2].Name != fmt.Sprintf("c%d", n-1) {
			t.Fatalf("%d columns: mode %s, %d series", n, r.Mode, len(r.Series))
		}
		if s := r.Series[n/2]; len(s.Points) != 1 || s.Points[0].Y != float64(n/2+1) || *s.Points[0].X != 0 {
			t.Fatalf("%d columns: series %s: %+v", n, s.Name, s.Points)
		}
	}
	// Four times the columns: about four times the allocations (16 times
	// before).
	if ratio := allocs[2000] / allocs[500]; ratio > 6 {
		t.Errorf("allocations: %.0f for 500 columns, %.0f for 2000 (×%.1f)", allocs[500], allocs[2000], ratio)
	}
}
