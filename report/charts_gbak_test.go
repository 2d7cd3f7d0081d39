package report

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

func timeline(t *testing.T, rel ...string) *analyze.Timeline {
	t.Helper()
	p := testutil.Testdata(t, rel...)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := analyze.ReadGbakTimeline(f, filepath.Base(p))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestGbakTimelineChart: the restore of the shop database
// (testdata/fb30/shop-gbak-restore-v-st.log): ORDER_LINE's data starts at
// 3.747 s, the next step at 28.629 s.
func TestGbakTimelineChart(t *testing.T) {
	tl := timeline(t, "fb30", "shop-gbak-restore-v-st.log")
	d := GbakTimelineChart(tl, 4)
	if len(d.Items) != 4 {
		t.Fatalf("items %+v", d.Items)
	}
	var ol *plot.Span
	for i := range d.Items {
		if d.Items[i].Name == "ORDER_LINE" {
			ol = &d.Items[i]
		}
	}
	if ol == nil || ol.Start != 3.747 || math.Abs(ol.Duration-24.882) > 0.0005 || ol.Kind != "table data" {
		t.Fatalf("ORDER_LINE %+v", ol)
	}
	// Every item is a step of the analysis with its start and cost.
	for _, it := range d.Items {
		found := false
		for _, st := range tl.Steps {
			if st.Name == it.Name && st.Start != nil && *st.Start == it.Start && st.Seconds != nil && *st.Seconds == it.Duration {
				found = true
			}
		}
		if !found {
			t.Errorf("item %+v is not a step of the analysis", it)
		}
	}
	// Items in time order; phases cover the analysis's phases, and each
	// phase's bars add up to no less than its summed step costs.
	for i := 1; i < len(d.Items); i++ {
		if d.Items[i].Start < d.Items[i-1].Start {
			t.Errorf("items not in time order: %+v", d.Items)
		}
	}
	sum := map[string]float64{}
	for _, p := range d.Phases {
		sum[p.Name] += p.Duration
	}
	for _, p := range tl.Phases {
		if p.Seconds != nil && sum[p.Name]+0.0005 < *p.Seconds {
			t.Errorf("phase %s: bars %.3f s, analysis %.3f s", p.Name, sum[p.Name], *p.Seconds)
		}
	}
	if _, err := plot.RestoreTimelineChart(d); err != nil {
		t.Fatal(err)
	}
}

// TestGbakComparisonChart: seed 003's two restores. gbak prints a step
// before doing it, so INDMF_TAG_PLC_DATA_DT_D costs the next line's delta:
// 1258.270 s under Balanced, 622.882 s under High performance.
func TestGbakComparisonChart(t *testing.T) {
	a := timeline(t, "seeds", "restore-balanced.log")
	b := timeline(t, "seeds", "restore-high-performance.log")
	c := analyze.CompareTimelines(analyze.GbakRun{Label: "balanced", Timeline: a}, analyze.GbakRun{Label: "high performance", Timeline: b})
	d := GbakComparisonChart(c, 3)
	if d.A != "balanced" || d.B != "high performance" || len(d.Steps) != 3 {
		t.Fatalf("%+v", d)
	}
	s := d.Steps[0]
	if s.Name != "index INDMF_TAG_PLC_DATA_DT_D" || s.A != 1258.27 || s.B != 622.882 {
		t.Errorf("top step %+v", s)
	}
	for i, st := range c.Slowest(3) {
		if d.Steps[i].A != *st.Median[0] || d.Steps[i].B != *st.Median[1] {
			t.Errorf("step %d: chart %+v, analysis %v %v", i, d.Steps[i], *st.Median[0], *st.Median[1])
		}
	}
	ch, err := plot.RestoreComparisonChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if p := ch.Series("balanced"); p == nil || p.Y[0] != 1258.27 {
		t.Errorf("plotted %+v", p)
	}
}

// A log cut inside ORDER_LINE's data: the bar is what was logged, marked
// as a lower bound on the row and on the data phase; the HTML section
// says so in a finding.
func TestGbakTimelineChartCut(t *testing.T) {
	tl := timeline(t, "gbak", "shop-restore-cut.log")
	d := GbakTimelineChart(tl, 4)
	want := map[string]plot.Span{
		"ORDER_LINE (incomplete)": {Name: "ORDER_LINE (incomplete)", Start: 3.747, Duration: 5.375, Kind: "table data", AtLeast: true},
		"STOCK":                   {Name: "STOCK", Start: 0.569, Duration: 3.176, Kind: "table data"},
	}
	for _, it := range d.Items {
		if w, ok := want[it.Name]; ok && (math.Abs(it.Duration-w.Duration) > 1e-9 || it.Start != w.Start || it.AtLeast != w.AtLeast || it.Kind != w.Kind) {
			t.Errorf("item %+v, want %+v", it, w)
		}
		delete(want, it.Name)
	}
	if len(want) != 0 {
		t.Errorf("items missing: %v", want)
	}
	// The data phase is drawn in two runs (gbak returns to metadata for
	// STOCK's indices): the last one, ORDER_LINE's, is the bound.
	bounds := 0
	for _, p := range d.Phases {
		if p.AtLeast {
			bounds++
			if p.Name != "data" || p.Start != 3.747 {
				t.Errorf("phase %+v", p)
			}
		}
	}
	if bounds != 1 {
		t.Errorf("%d phase spans are bounds: %+v", bounds, d.Phases)
	}
	s := GbakSection(tl)
	if n := len(s.Findings); n != 1 || s.Findings[0].Text != "shop-restore-cut.log: the log ends inside data ORDER_LINE: ≥ 5.375 s (incomplete), 90000 records logged" {
		t.Errorf("findings %+v", s.Findings)
	}
}
