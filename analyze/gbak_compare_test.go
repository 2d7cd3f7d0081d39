package analyze

import (
	"fmt"
	"math"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// remoteVsService reads testdata/restores: the shop backup restored five
// times over the remote protocol and five times through the service
// manager (Firebird 3.0.11).
func remoteVsService(t *testing.T) *GbakComparison {
	t.Helper()
	var runs []GbakRun
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			runs = append(runs, GbakRun{side, timelineOf(t, testutil.Testdata(t, "restores", fmt.Sprintf("restore-%s-run%d.log", side, i)))})
		}
	}
	return CompareTimelines(runs...)
}

func stepByKey(t *testing.T, c *GbakComparison, key string) GbakStepComparison {
	t.Helper()
	for _, s := range c.Steps {
		if s.Key == key {
			return s
		}
	}
	t.Fatalf("no step %q", key)
	return GbakStepComparison{}
}

// Issue 13: 22 steps are tested; the p of each is adjusted for the other
// 21 (Benjamini-Hochberg). The data steps (p = 2/252, all runs of one side
// faster than all of the other) stay significant; two steps that an
// uncorrected test would call different do not.
func TestGbakCompareAdjustsSteps(t *testing.T) {
	c := remoteVsService(t)
	if c.Tests != 22 || c.Adjustment != BenjaminiHochberg || len(c.Sides) != 2 || c.Sides[1].Runs != 5 {
		t.Fatalf("tests %d adjustment %q sides %+v", c.Tests, c.Adjustment, c.Sides)
	}
	minP := 2.0 / 252 // 5+5 runs, no overlap
	for _, w := range []struct {
		key         string
		p, adjusted float64
		significant bool
	}{
		{"data|table|ORDER_LINE", minP, minP * 22 / 7, true}, // 7 steps share the smallest p
		{"data|table|CUSTOMER", minP, minP * 22 / 7, true},
		{"metadata|privilege for user|SYSDBA#54", 10.0 / 252, 10.0 / 252 * 22 / 8, false},
		{"activate_index|index|RDB$PRIMARY1", 12.0 / 252, 12.0 / 252 * 22 / 9, false},
		{"activate_index|index|RDB$PRIMARY4", 56.0 / 252, 0.3492, false},
	} {
		s := stepByKey(t, c, w.key)
		if s.P == nil || math.Abs(*s.P-w.p) > 1e-4 || math.Abs(*s.PAdjusted-w.adjusted) > 1e-4 || s.Significant != w.significant {
			t.Errorf("%s: p %v adjusted %v significant %v; want %.4f %.4f %v", w.key, derefF(s.P), derefF(s.PAdjusted), s.Significant,
				w.p, w.adjusted, w.significant)
		}
	}
	if v := stepByKey(t, c, "metadata|privilege for user|SYSDBA#54").Verdict; v != "~ (p_adj=0.109 n=5+5)" {
		t.Errorf("verdict %q", v)
	}
	// The total answers the question asked: one test, not adjusted.
	total := c.Totals[0]
	if total.Key != "total" || !nearMs(total.Median[0], 52.371) || !nearMs(total.Median[1], 3.036) ||
		math.Abs(*total.P-minP) > 1e-12 || *total.PAdjusted != *total.P || !total.Significant ||
		total.Verdict != "+1625.00% (p=0.008 n=5+5)" {
		t.Errorf("total %+v", total)
	}
	// Five runs a side: no 95 % interval of the median (benchstat: ± ∞),
	// so no spread; the range instead.
	if total.Spread[0] != nil || total.Spread[1] != nil || *total.Range[0] != [2]float64{42.912, 56.430} || *total.Range[1] != [2]float64{2.202, 9.051} {
		t.Errorf("spread %v range %v %v", total.Spread, *total.Range[0], *total.Range[1])
	}
}
