package plot_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

// tablesChart draws the tables chart of a gstat sample as fbdiag gstat
// --png and the report do.
func tablesChart(t *testing.T, rel ...string) *plot.Chart {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, rel...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, filepath.Base(f.Name()))
	if err != nil || len(reps) != 1 {
		t.Fatalf("%d reports, %v", len(reps), err)
	}
	a := analyze.Gstat(reps[0], analyze.NewThresholds())
	c, err := plot.TablesChart(report.GstatTablesChart(a, report.TopObjects))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Issue 15: a measure that is zero in every table is a sentence, not a
// panel of stacked "0" labels on a −1…1 axis. shop-gstat-r-later.txt
// (after a sweep) has no back versions but CUSTOMER's 0.104 fragments
// per record; codes-4k has neither, and its chart is one panel.
func TestTablesChartEmptyMeasures(t *testing.T) {
	c := tablesChart(t, "fb30", "shop-gstat-r-later.txt")
	if c.Panels() != 2 || c.Series("versions per record") != nil ||
		!slices.Equal(c.Notes, []string{"no record versions in this snapshot"}) {
		t.Errorf("r-later: %d panels, notes %q", c.Panels(), c.Notes)
	}
	size, frag := c.Series("size"), c.Series("fragments per record")
	if frag == nil || size.Labels[3] != "CUSTOMER" || frag.Y[3] != 3125.0/30000 || frag.Panel != 1 {
		t.Errorf("fragments %+v", frag)
	}
	c = tablesChart(t, "gstat", "codes-4k-gstat-a-r.txt")
	if c.Panels() != 1 || c.Series("fragments per record") != nil ||
		!slices.Equal(c.Notes, []string{"no record versions and no fragmented records in this snapshot"}) {
		t.Errorf("codes-4k: %d panels, notes %q", c.Panels(), c.Notes)
	}
	// The shop before the sweep has versions: both measures, no note.
	c = tablesChart(t, "fb30", "shop-gstat-a-r.txt")
	if c.Panels() != 2 || c.Series("versions per record") == nil || len(c.Notes) != 0 {
		t.Errorf("shop: %d panels, notes %q", c.Panels(), c.Notes)
	}
}
