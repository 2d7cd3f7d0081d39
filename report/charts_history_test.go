package report

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

func snapshotOfText(t *testing.T, name, text string) *analyze.HistorySnapshot {
	t.Helper()
	reps, err := parse.ReadGstat(strings.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	return analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{})
}

func historyFile(t *testing.T, rel ...string) *analyze.HistorySnapshot {
	t.Helper()
	data, err := os.ReadFile(testutil.Testdata(t, rel...))
	if err != nil {
		t.Fatal(err)
	}
	return snapshotOfText(t, rel[len(rel)-1], string(data))
}

// Issue 13: the charts say what the text says. testdata/growth: the -d
// and -h runs are gaps in the database line, not a drop; the 1 GiB
// forecast is unreliable, so no forecast chart and the size chart says it;
// the first and last run alone give a line with no R².
func TestHistoryChartsLimits(t *testing.T) {
	var snaps []*analyze.HistorySnapshot
	for _, n := range []string{"grow-00-a-r.txt", "grow-10-a-r.txt", "grow-15-d.txt", "grow-20-a-r.txt", "grow-20-h.txt", "grow-30-a-r.txt", "grow-40-a-r.txt"} {
		snaps = append(snaps, historyFile(t, "growth", n))
	}
	tr := analyze.TrendOf(snaps, 1<<30)
	d := HistorySizeChart(tr, 3)
	if d.Title != "Database and fastest growing tables; 1.0 GiB forecast unreliable" || d.Fit == nil || d.Fit.Name != "linear fit, R² 0.9999" {
		t.Errorf("title %q fit %+v", d.Title, d.Fit)
	}
	db := d.Series[0].Values
	if !math.IsNaN(db[2]) || !math.IsNaN(db[4]) || math.Abs(db[1]-8.664) > 0.001 || math.Abs(db[3]-10.695) > 0.001 {
		t.Errorf("database MiB %v", db)
	}
	if fc := HistoryForecastChart(tr); fc != nil {
		t.Errorf("forecast chart for an unreliable forecast: %+v", fc)
	}
	two := analyze.TrendOf([]*analyze.HistorySnapshot{snaps[0], snaps[6]}, 1<<30)
	if d := HistorySizeChart(two, 3); d.Fit == nil || d.Fit.Name != "line through 2 sizes (no fit statistics)" ||
		d.Title != "Database and fastest growing tables; 1.0 GiB forecast refused" {
		t.Errorf("two sizes: title %q fit %+v", d.Title, d.Fit)
	}
}

// A Firebird 6 upgrade is a labelled line on the charts.
func TestHistoryChartsFillBreak(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "gstat", "shop-fb6-names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	later := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026", "Gstat execution time Thu Dec  3 14:09:54 2026", 1)
	tr := analyze.TrendOf([]*analyze.HistorySnapshot{historyFile(t, "fb30", "shop-gstat-a-r.txt"),
		historyFile(t, "fb30", "shop-gstat-r-later.txt"), snapshotOfText(t, "fb6.txt", later)}, 0)
	for _, d := range []plot.History{HistorySizeChart(tr, 3), HistoryVersionsChart(tr, 3)} {
		if len(d.Breaks) != 1 || d.Breaks[0].Label != "ODS 12.0 → 14.0: fill not comparable" || !d.Breaks[0].Time.Equal(tr.Breaks[0].Time) {
			t.Errorf("%s breaks %+v", d.Kind, d.Breaks)
		}
	}
	ch, err := plot.HistoryChart(HistorySizeChart(tr, 3))
	if err != nil {
		t.Fatal(err)
	}
	if s := ch.Series("break: ODS 12.0 → 14.0: fill not comparable"); s == nil || s.X[0] != float64(tr.Breaks[0].Time.Unix()) {
		t.Errorf("break not plotted: %+v", s)
	}
}
