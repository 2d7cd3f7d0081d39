package view

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// plotted is the named entry of a chart's Plotted data.
func plotted(t *testing.T, c *plot.Chart, name string) *plot.Plotted {
	t.Helper()
	p := c.Series(name)
	if p == nil {
		var names []string
		for _, q := range c.Plotted {
			names = append(names, q.Name)
		}
		t.Fatalf("%s: no plotted %q (have %q)", c.Kind, name, names)
	}
	return p
}

// Issue 15: the A/B chart of 25 restores (5 per page buffers setting,
// 64 the baseline) shows every run as a dot and each setting's range as
// a whisker, not bare medians, and marks the four changes the text
// calls "within the noise" with "~".
func TestABChartRunsSpreadAndNoise(t *testing.T) {
	r := throughputResult(t, analyze.Options{Mode: analyze.ModeAB, X: "page_buffers", Y: "restore_seconds"},
		testutil.Testdata(t, "restores", "restore-page-buffers.csv"))
	c, err := plot.ABChart(ABChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	runs := plotted(t, c, "runs")
	if len(runs.Y) != 25 || runs.X[0] != 0 || runs.Y[0] != 3.347 || runs.Y[4] != 4.766 || runs.X[24] != 4 {
		t.Errorf("runs %v %v", runs.X, runs.Y)
	}
	lo, hi := plotted(t, c, "spread min"), plotted(t, c, "spread max")
	// 64: 3.35–4.77 (the baseline), 4096: 2.33–3.4, as the table's min and
	// max print them.
	if !slices.Equal(lo.Y, []float64{3.347, 3.006, 2.512, 2.331, 2.893}) || !slices.Equal(hi.Y, []float64{4.766, 4.541, 5.952, 3.398, 4.45}) {
		t.Errorf("spread %v–%v", lo.Y, hi.Y)
	}
	if ns := plotted(t, c, "not significant"); !slices.Equal(ns.X, []float64{1, 2, 3, 4}) {
		t.Errorf("not significant at %v", ns.X)
	}
	d := ABChart(r, "x")
	if d.Labels[3] != "3.08\n×0.871, -12.9 %\n~ not significant" || strings.Contains(d.Labels[0], "~") {
		t.Errorf("labels %q", d.Labels)
	}
	// A test that finds the difference (pgbench select-only against
	// TPC-B, p=0.002) keeps its word.
	files := pgbenchScales(t)
	r = throughputResult(t, analyze.Options{Mode: analyze.ModeAB, X: "none"}, files...)
	c, err = plot.ABChart(ABChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Series("not significant") != nil || len(plotted(t, c, "runs").Y) != 12 {
		t.Errorf("pgbench A/B: %+v", c.Plotted)
	}
}

// pgbenchScales are the twelve pgbench runs of the corpus (six scales,
// TPC-B and select-only); the test skips without them.
func pgbenchScales(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales", "*.txt"))
	if len(files) != 12 {
		t.Skipf("%d pgbench-scales files in the corpus, want 12", len(files))
	}
	return files
}

// Issue 15: the sweep of the same 25 restores joins the medians, shows
// the 25 runs and each setting's range, on a log axis (the settings
// grow ×4), and marks the four settings the text finds within the noise
// of the best (4096) with "~"; seed 001's page buffers (one run a
// setting) marks superclassic 768 and 1024, as its table does.
func TestSweepChartRunsSpreadAndNoise(t *testing.T) {
	r := throughputResult(t, analyze.Options{X: "page_buffers", Y: "restore_seconds"},
		testutil.Testdata(t, "restores", "restore-page-buffers.csv"))
	d := SweepChart(r, "x")
	if !d.LogX {
		t.Error("settings 64…16384 (×4 each) not on a log axis")
	}
	c, err := plot.SweepChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if runs := plotted(t, c, "restore_seconds"); len(runs.Y) != 25 {
		t.Errorf("%d runs drawn", len(runs.Y))
	}
	if med := plotted(t, c, "restore_seconds median"); !slices.Equal(med.X, []float64{64, 256, 1024, 4096, 16384}) || med.Y[3] != r.Series[0].Sweep.Best.Median {
		t.Errorf("medians %v %v", med.X, med.Y)
	}
	if lo, hi := plotted(t, c, "restore_seconds min"), plotted(t, c, "restore_seconds max"); lo.Y[0] != 3.347 || hi.Y[0] != 4.766 || lo.Y[3] != 2.331 || hi.Y[3] != 3.398 {
		t.Errorf("ranges %v–%v", lo.Y, hi.Y)
	}
	if ns := plotted(t, c, "not told apart"); !slices.Equal(ns.X, []float64{64, 256, 1024, 16384}) {
		t.Errorf("~ at %v", ns.X)
	}
	// The legend said "~: within the noise of it" where the text says
	// "not told apart from the best (p adjusted 0.127 to 0.841)".
	if d.Near != "not told apart from it" {
		t.Errorf("~ reads %q", d.Near)
	}
	r = throughputResult(t, analyze.Options{}, seed(t, "page-buffers-1.7tb.csv"))
	d = SweepChart(r, "x")
	if d.Near != "within the assumed 2.0 % noise of it" {
		t.Errorf("one run a setting: ~ reads %q", d.Near)
	}
	c, err = plot.SweepChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if ns := plotted(t, c, "not told apart"); !slices.Equal(ns.X, []float64{768, 1024}) {
		t.Errorf("page buffers: ~ at %v", ns.X)
	}
	if c.Series("classic_points median") != nil || len(plotted(t, c, "classic_points").Y) != 6 {
		t.Errorf("one run a setting: %+v", c.Plotted)
	}
}

// Issue 15: pgbench TPC-B (1400–1760 tps) and select-only (17000–37000)
// get a panel each instead of one axis where TPC-B is a flat line at
// zero; both best fits, whose slopes the text calls not significant
// (p=0.537, p=0.124), are drawn faint and say so.
func TestSizeThroughputChartScalesAndFaintFits(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, pgbenchScales(t)...)
	d := SizeThroughputChart(r, "x")
	c, err := plot.SizeThroughputChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if c.Panels() != 2 || plotted(t, c, "pgbench TPC-B (sort of)").Panel != 0 || plotted(t, c, "pgbench select only").Panel != 1 {
		t.Errorf("%d panels", c.Panels())
	}
	if len(d.Fits) != 2 || !d.Fits[0].Faint || !d.Fits[1].Faint ||
		d.Fits[0].Name != "pgbench TPC-B (sort of): linear fit, R² 0.102, not significant (p=0.537)" ||
		d.Fits[1].Name != "pgbench select only: power fit, R² 0.586, not significant (p=0.124)" {
		t.Errorf("fits %+v", d.Fits)
	}
	if p := plotted(t, c, d.Fits[1].Name); p.Panel != 1 {
		t.Errorf("select-only fit in panel %d", p.Panel)
	}
	if p := plotted(t, c, "prediction"); p.Panel != 0 || p.Y[0] != r.Series[0].Models[0].Prediction.Y {
		t.Errorf("prediction %+v", p)
	}
}

// Issue 15: the seed degradation measured 11 sizes from 9.04 to 30.3 GiB
// and one at 1.77 TiB; the line between 30.3 GiB and 1.77 TiB is a gap
// (dashed), not a measured trend. Its linear fit (slope significant,
// R² 0.872) falls below zero past 2.6 TiB on the way to the 3.54 TiB
// prediction and is cut there; the others are drawn whole.
func TestSizeThroughputChartGapAndCut(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, seed(t, "degradation-throughput-sata.csv"))
	d := SizeThroughputChart(r, "x")
	c, err := plot.SizeThroughputChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if g := plotted(t, c, "ops_per_s gap"); !slices.Equal(g.X, []float64{30.3, 1813.969025}) || !slices.Equal(g.Y, []float64{407.97, 169.33}) {
		t.Errorf("gap %v %v", g.X, g.Y)
	}
	if c.Panels() != 1 {
		t.Errorf("%d panels", c.Panels())
	}
	for i, m := range r.Series[0].Models {
		if d.Fits[i].Faint {
			t.Errorf("%s faint (slope p %v)", m.Name, m.SlopeP)
		}
		p := plotted(t, c, d.Fits[i].Name)
		last := p.X[len(p.X)-1]
		switch m.Name {
		case "linear":
			if last >= 2*1813.969025 || m.Curve(last) <= 0 || len(p.X) >= CurvePoints || m.Curve(d.Fits[i].X[len(p.X)]) > 0 {
				t.Errorf("linear fit drawn to %v (%d points)", last, len(p.X))
			}
		default:
			if len(p.X) != CurvePoints {
				t.Errorf("%s: %d points", m.Name, len(p.X))
			}
		}
	}
}

// Issue 15: seed 000's load speeds stand on a numeric size axis, 30.3 GiB
// and 1.77 TiB far apart with a dashed gap between them, not as
// neighbouring bars.
func TestLoadSpeedChartOnSizeAxis(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, seed(t, "degradation-load-sata.csv"))
	c, err := plot.LoadSpeedChart(LoadSpeedChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	l := plotted(t, c, "load speed")
	if len(l.X) != 12 || l.X[0] != 9.04 || l.X[10] != 30.3 || l.X[11] != 1813.969025 || l.Y[11] != r.Series[0].Points[11].Y {
		t.Errorf("load speed at %v", l.X)
	}
	if g := plotted(t, c, "load speed gap"); !slices.Equal(g.X, []float64{30.3, 1813.969025}) {
		t.Errorf("gap %v", g.X)
	}
	if m := plotted(t, c, "median"); m.Y[0] != r.Series[0].Load.Summary.Median {
		t.Errorf("median %v", m.Y)
	}
}

// Issue 15: the gbak compare chart marks a step whose difference a test
// finds within the noise with "~", as the text's verdict column does:
// five remote against five service restores (testdata/restores), every
// step drawn.
func TestGbakCompareChartMarksNoise(t *testing.T) {
	var runs []analyze.GbakRun
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			rel := "restores/restore-" + side + "-run" + string(rune('0'+i)) + ".log"
			runs = append(runs, analyze.GbakRun{Label: side, Timeline: readTimeline(t, rel)})
		}
	}
	c := analyze.CompareTimelines(runs...)
	steps := c.Slowest(c.Steps.Len())
	ch := GbakComparisonChart(c, c.Steps.Len())
	similar := 0
	for i, s := range ch.Steps {
		word := steps[i].Versus[0].Word()
		noted := strings.HasSuffix(s.Notes[1], " ~") || s.Notes[1] == "~" // (no ratio to 0 s)
		if s.Name != steps[i].Name || noted != (word == "~") {
			t.Errorf("%s: note %q, text's verdict %q", s.Name, s.Notes[1], word)
		}
		if word == "~" {
			similar++
		}
	}
	if similar == 0 || similar == len(ch.Steps) {
		t.Errorf("%d of %d steps ~", similar, len(ch.Steps))
	}
}

// The charts say what the text says of a test with too few runs: no "~"
// on the bench sweep's settings, "~ too few runs to tell" on a 2+2 A/B.
func TestChartsTooFewRuns(t *testing.T) {
	sw := SweepChart(throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "buffers.csv")), "x")
	for _, st := range sw.Settings[0] {
		if st.WithinNoise {
			t.Errorf("setting %v marked within the noise", st.X)
		}
	}
	ab := ABChart(textResult(t, "ab.csv", "config,tps\nA,100\nA,104\nB,120\nB,126\n", analyze.Options{}), "x")
	if len(ab.Labels) != 2 || ab.Labels[1] != "123\n×1.21, +20.6 %\n~ too few runs to tell" || !ab.NotSignificant[1] {
		t.Errorf("labels %q, pale %v", ab.Labels, ab.NotSignificant)
	}
}

// The runs fbdiag bench judged not steady are hollow on the charts, as
// the measurements say "no": the page-buffer sweep's 6 of 8 and the
// warehouses degradation's 6 of 8; the restore sweep, whose table says
// nothing of it, has none.
func TestChartsUnsteadyRuns(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "buffers.csv"))
	c, err := plot.SweepChart(SweepChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	u := plotted(t, c, "tpmc not steady")
	if !slices.Equal(u.X, []float64{256, 512, 512, 1024, 2048, 2048}) || !slices.Equal(u.Y, []float64{2565, 3867, 6489, 4875, 6579, 3615}) {
		t.Errorf("hollow runs %v %v", u.X, u.Y)
	}
	r = throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "sizes.csv"))
	c, err = plot.SizeThroughputChart(SizeThroughputChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if u := plotted(t, c, "tpmc not steady"); len(u.X) != 6 {
		t.Errorf("sizes: %d hollow runs, want 6", len(u.X))
	}
	r = throughputResult(t, analyze.Options{X: "page_buffers", Y: "restore_seconds"}, testutil.Testdata(t, "restores", "restore-page-buffers.csv"))
	c, err = plot.SweepChart(SweepChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Series("restore_seconds not steady") != nil {
		t.Error("restore sweep: hollow runs without a steady column")
	}
	// An A/B of pgbench runs judged by their progress reports: the
	// TPC-B run's throughput fell by 42.7 % across them, and its dot
	// is hollow as the text says "1 of 2 runs not steady".
	r = throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "pgbench-select-progress.txt"), testutil.Testdata(t, "bench", "pgbench-tpcb-progress.txt"))
	c, err = plot.ABChart(ABChart(r, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if u := plotted(t, c, "runs not steady"); !slices.Equal(u.X, []float64{1}) || !slices.Equal(u.Y, []float64{1767.584284}) {
		t.Errorf("A/B hollow runs %v %v", u.X, u.Y)
	}
}

// A sweep's best mark names its series and median; a long series name
// ("fbdiag bench TPC-C-like (sp)") is shortened, not the median, which
// the chart's cut at 32 runes took off ("… (sp) 13…"). (13,270: the
// New-Orders rolled back by design count in tpmC since 2026-12-06; the
// files say 13,100.)
func TestSweepChartBestKeepsMedian(t *testing.T) {
	runs, _ := filepath.Glob(testutil.Testdata(t, "bench", "sweep-w1", "*.jsonl"))
	d := SweepChart(throughputResult(t, analyze.Options{}, runs...), "x")
	if len(d.BestText) != 1 || d.BestText[0] != "fbdiag bench TPC-C-li… 13270" {
		t.Errorf("best text %q", d.BestText)
	}
}

// The first measurement of the SATA degradation seed alone (9.04 GiB,
// 494.73 ops/s), or measured twice at that size: the size chart drew a
// dot against an empty log axis, a trend chart with no trend in it. No
// chart now; the note says why. The first two sizes still draw one.
func TestSizeThroughputChartOneSize(t *testing.T) {
	for _, text := range []string{
		"db,size_gb,ops_per_s\n1,9.04,494.73\n",
		"db,size_gb,ops_per_s\n1,9.04,494.73\n1,9.04,491.94\n",
	} {
		d := Throughput(textResult(t, "one.csv", text, analyze.Options{}), "one.csv")
		if len(d.Charts) != 0 {
			t.Errorf("%q: %d charts", text, len(d.Charts))
		}
		want := "chart not drawn: every measurement is at one database size (9.04 GiB): a chart against it needs two or more"
		if !slices.Contains(d.Notes, want) {
			t.Errorf("%q: notes %q", text, d.Notes)
		}
	}
	d := Throughput(textResult(t, "two.csv", "db,size_gb,ops_per_s\n1,9.04,494.73\n2,10.80,491.94\n", analyze.Options{}), "two.csv")
	if len(d.Charts) != 1 || d.Charts[0].Kind != plot.KindSizeThroughput {
		t.Errorf("two sizes: %d charts, notes %q", len(d.Charts), d.Notes)
	}
}

// Points on the loglinear curve exactly (1000, 900 and 800 tps at 10, 20
// and 40 GiB): the headline's caveat says the 700–700 interval measures
// no scatter, and the chart's legend, which has no room for the caveat,
// says "exact fit" instead of the interval; the seed's prediction keeps its legend.
func TestSizeChartExactFit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exact.csv")
	if err := os.WriteFile(path, []byte("size_gb,tps\n10,1000\n20,900\n40,800\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := SizeThroughputChart(throughputResult(t, analyze.Options{}, path), "x")
	if len(st.Predictions) != 1 || st.Predictions[0].Label != "loglinear at 80.0 GiB: 700 (exact fit)" {
		t.Errorf("predictions %+v", st.Predictions)
	}
}
