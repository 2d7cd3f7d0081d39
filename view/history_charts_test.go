package view

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// Issue 13: the charts say what the text says. testdata/growth: the -d
// and -h runs are gaps in the database line, not a drop; the 1 GiB
// forecast is unreliable, so no forecast chart and the size chart says it;
// the first and last run alone give a line with no R².
func TestHistoryChartsLimits(t *testing.T) {
	snaps := growthSnaps(t)
	tr := analyze.TrendOf(snaps, 1<<30)
	d := historySizeChart(tr, 3)
	if d.Title != "Database and fastest growing tables; 1.00 GiB forecast unreliable" || d.Fit == nil || d.Fit.Name != "linear fit, R² 0.9999" {
		t.Errorf("title %q fit %+v", d.Title, d.Fit)
	}
	db := d.Series[0].Values
	if !math.IsNaN(db[2]) || !math.IsNaN(db[4]) || math.Abs(db[1]-8.664) > 0.001 || math.Abs(db[3]-10.695) > 0.001 {
		t.Errorf("database MiB %v", db)
	}
	if names := []string{d.Series[1].Name, d.Series[2].Name, d.Series[3].Name}; strings.Join(names, ",") != "ORDER_LINE,ORDERS,STOCK" || len(d.Series) != 4 {
		t.Errorf("tables drawn %v of %d series", names, len(d.Series))
	}
	if fc := historyForecastChart(tr); fc != nil {
		t.Errorf("forecast chart for an unreliable forecast: %+v", fc)
	}
	charts, err := HistoryTrendCharts(tr, 0)
	if err != nil || len(charts) != 2 || charts[0].Kind != plot.KindHistorySize || charts[1].Kind != plot.KindHistoryVersions {
		t.Errorf("charts %d, %v", len(charts), err)
	}
	two := analyze.TrendOf([]*analyze.HistorySnapshot{snaps[0], snaps[6]}, 1<<30)
	if d := historySizeChart(two, 3); d.Fit == nil || d.Fit.Name != "line through 2 sizes (no fit statistics)" ||
		d.Title != "Database and fastest growing tables; 1.00 GiB forecast refused" {
		t.Errorf("two sizes: title %q fit %+v", d.Title, d.Fit)
	}
	// A header-only series has no sizes and no back versions: no chart,
	// each named in the error.
	h := analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "fb30", "shop-gstat-h.txt")}, 0)
	if charts, err := HistoryTrendCharts(h, 0); len(charts) != 0 || err == nil ||
		!strings.Contains(err.Error(), "no history-size chart") || !strings.Contains(err.Error(), "no history-versions chart") {
		t.Errorf("header only: %d charts, %v", len(charts), err)
	}
}

// A forecast within the span the snapshots cover gets its chart: the
// daily ORDERS growth of 100 pages (800 KiB) reaches 65 MiB on
// 2026-12-07, 2 days after the last of 4 daily snapshots.
func TestHistoryForecastChartDaily(t *testing.T) {
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	var snaps []*analyze.HistorySnapshot
	for i, pages := range []string{"808", "908", "1008", "1108"} {
		s := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026",
			"Gstat execution time "+[]string{"Wed Dec  2", "Thu Dec  3", "Fri Dec  4", "Sat Dec  5"}[i]+" 14:09:54 2026", 1)
		s = strings.Replace(s, "Data pages: 808, average fill: 67%", "Data pages: "+pages+", average fill: 67%", 1)
		reps, err := parse.ReadGstat(strings.NewReader(s), "day"+pages+".txt")
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{}))
	}
	tr := analyze.TrendOf(snaps, 65<<20)
	fc := historyForecastChart(tr)
	if fc == nil || fc.Title != "Database forecast: 65.0 MiB on 2026-12-07" || fc.TargetLabel != "target 65.0 MiB" || fc.Target != 65 {
		t.Fatalf("forecast chart %+v", fc)
	}
	charts, err := HistoryTrendCharts(tr, 0)
	if err != nil || len(charts) != 3 || charts[2].Kind != plot.KindHistoryForecast {
		t.Errorf("%d charts, %v", len(charts), err)
	}
}

// A Firebird 6 upgrade is a labelled line on the charts.
func TestHistoryChartsFillBreak(t *testing.T) {
	raw := testutil.ReadTestdata(t, "gstat", "shop-fb6-names.txt")
	later := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026", "Gstat execution time Thu Dec  3 14:09:54 2026", 1)
	reps, err := parse.ReadGstat(strings.NewReader(later), "fb6.txt")
	if err != nil {
		t.Fatal(err)
	}
	tr := analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "fb30", "shop-gstat-a-r.txt"),
		historySnap(t, "fb30", "shop-gstat-r-later.txt"), analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{})}, 0)
	for _, d := range []plot.History{historySizeChart(tr, 3), historyVersionsChart(tr, 3)} {
		if len(d.Breaks) != 1 || d.Breaks[0].Label != "ODS 12.0 → 14.0: fill not comparable" || !d.Breaks[0].Time.Equal(tr.Breaks[0].Time) {
			t.Errorf("%s breaks %+v", d.Kind, d.Breaks)
		}
	}
	ch, err := plot.HistoryChart(historySizeChart(tr, 3))
	if err != nil {
		t.Fatal(err)
	}
	if s := ch.Series("break: ODS 12.0 → 14.0: fill not comparable"); s == nil || s.X[0] != float64(tr.Breaks[0].Time.Unix()) {
		t.Errorf("break not plotted: %+v", s)
	}
}

// Issue 15: no redundant or empty history charts. The 200 runs of the
// shop database at one execution time (as a file of appended runs is)
// would draw the last run's tables again: no chart, a sentence instead;
// two snapshots where back versions are zero in both (the shop after a
// sweep, twice) get a versions chart of notes only, the sentence in
// place of the picture.
func TestHistoryChartsNotRedundant(t *testing.T) {
	a := historySnap(t, "fb30", "shop-gstat-a-r.txt")
	same := analyze.TrendOf([]*analyze.HistorySnapshot{a, historySnap(t, "fb30", "shop-gstat-a-r.txt")}, 0)
	charts, err := HistoryTrendCharts(same, 0)
	if len(charts) != 0 || err == nil || !strings.Contains(err.Error(), "no history-size chart: every figure is from one point in time") {
		t.Errorf("one time: %d charts, %v", len(charts), err)
	}
	later := historySnap(t, "fb30", "shop-gstat-r-later.txt")
	swept := *later
	tm := later.Time.Add(24 * time.Hour)
	swept.Time = &tm
	charts, err = HistoryTrendCharts(analyze.TrendOf([]*analyze.HistorySnapshot{later, &swept}, 0), 0)
	if len(charts) != 2 || err != nil {
		t.Fatalf("no versions: %d charts, %v", len(charts), err)
	}
	// The same snapshot a day later: no size changed either.
	for i, want := range []struct {
		kind        plot.Kind
		title, note string
	}{
		{plot.KindHistorySize, "Database and largest tables (none grows)",
			"no size changed in these 2 snapshots: the database (tables + indices) is 60.6 MiB in each"},
		{plot.KindHistoryVersions, "Back versions (garbage) over time", "no record versions in these snapshots"},
	} {
		c := charts[i]
		if c.Kind != want.kind || c.Drawn() || c.Title != want.title || len(c.Notes) != 1 || c.Notes[0] != want.note {
			t.Errorf("chart %d: %s %q drawn %v, notes %q", i, c.Kind, c.Title, c.Drawn(), c.Notes)
		}
	}
	// After a sweep a day later (shop-gstat-a-r, then r-later): sizes
	// and versions change, both are drawn.
	swept.Time = &tm
	charts, err = HistoryTrendCharts(analyze.TrendOf([]*analyze.HistorySnapshot{a, &swept}, 0), 0)
	if len(charts) != 2 || err != nil || !charts[0].Drawn() || !charts[1].Drawn() {
		t.Errorf("before and after the sweep: %d charts, %v", len(charts), err)
	}
}

// The back versions chart of testdata/growth draws the database and
// STOCK, which holds all of them (0, 1000, 2000, 3000, 1000 at the runs
// with -r): its line lies on the database's, and the legend says so. The
// four tables that never held a back version are not drawn (flat lines
// on the axis, over the others). With back versions in ORDERS too, STOCK
// no longer covers the database and nothing is said.
func TestHistoryVersionsChartCovers(t *testing.T) {
	tr := analyze.TrendOf(growthSnaps(t), 1<<30)
	d := historyVersionsChart(tr, 5)
	var names []string
	for _, s := range d.Series {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "database,STOCK" || !slices.Equal(d.Notes, []string{"STOCK holds every back version: its line covers the database's"}) {
		t.Fatalf("series %v, notes %q", names, d.Notes)
	}
	ch, err := plot.HistoryChart(d)
	if err != nil || !slices.Equal(ch.Notes, d.Notes) || ch.Series("STOCK").Y[3] != 3000 {
		t.Fatalf("chart notes %q, %v", ch.Notes, err)
	}
	for i := range tr.Tables {
		if tr.Tables[i].Name != "ORDERS" {
			continue
		}
		for j := range tr.Tables[i].Points {
			v := int64(7)
			tr.Tables[i].Points[j].Versions = &v
			if p := &tr.Database.Points[j]; p.Versions != nil {
				w := *p.Versions + v
				p.Versions = &w
			}
		}
	}
	d = historyVersionsChart(tr, 5)
	if len(d.Series) != 3 || d.Series[2].Name != "ORDERS" || len(d.Notes) != 0 {
		t.Fatalf("with ORDERS' versions: %d series, notes %q", len(d.Series), d.Notes)
	}
}
