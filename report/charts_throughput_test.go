package report

import (
	"math"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// seedResult analyses one seed table (testdata/seeds) as the report does.
func seedResult(t *testing.T, name string) *analyze.Result {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, runs, notices, err := parse.ReadThroughput(f, name)
	if err != nil {
		t.Fatal(err)
	}
	in := analyze.Input{Tables: tables, Runs: runs, Notices: notices}
	res, err := analyze.Throughput(in, analyze.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSizeThroughputChartInput: seed 000's Figures 6 and 11, 9.04 GB to
// 1813.969025 GB, 494.73 down to 169.33 operations/s.
func TestSizeThroughputChartInput(t *testing.T) {
	res := seedResult(t, "degradation-throughput-sata.csv")
	if res.Mode != analyze.ModeDegradation {
		t.Fatalf("mode %s", res.Mode)
	}
	d := SizeThroughputChart(res, "x")
	if d.XUnit != "GB" || len(d.Series) != 1 || len(d.Series[0].X) != 12 ||
		d.Series[0].X[0] != 9.04 || d.Series[0].Y[0] != 494.73 || d.Series[0].X[11] != 1813.969025 || d.Series[0].Y[11] != 169.33 {
		t.Fatalf("series %+v unit %q", d.Series, d.XUnit)
	}
	s := res.Series[0]
	if len(d.Fits) != len(s.Models) || len(d.Fits) == 0 {
		t.Fatalf("%d fits for %d models", len(d.Fits), len(s.Models))
	}
	// Each curve is its model, from the smallest size to the prediction
	// at twice the largest.
	for i, m := range s.Models {
		c := d.Fits[i]
		if len(c.X) != CurvePoints || c.X[0] != 9.04 || math.Abs(c.X[CurvePoints-1]-2*1813.969025) > 1e-6 {
			t.Fatalf("%s: x from %v to %v", m.Name, c.X[0], c.X[len(c.X)-1])
		}
		for j, x := range c.X {
			if c.Y[j] != m.Curve(x) {
				t.Fatalf("%s at %v: %v, model %v", m.Name, x, c.Y[j], m.Curve(x))
			}
		}
	}
	b := analyze.BestModel(s.Models)
	if d.Prediction == nil || b.Prediction == nil || d.Prediction.X != b.Prediction.X || d.Prediction.Y != b.Prediction.Y ||
		d.PredictionInterval.Lo != b.Prediction.Lo || d.PredictionInterval.Hi != b.Prediction.Hi {
		t.Fatalf("prediction %+v %+v, best %s %+v", d.Prediction, d.PredictionInterval, b.Name, b.Prediction)
	}
	if _, err := plot.SizeThroughputChart(d); err != nil {
		t.Fatal(err)
	}
}

// TestSweepChartInput: seed 001's Table 1, best at 1500 page buffers for
// both Classic (390) and SuperClassic (392).
func TestSweepChartInput(t *testing.T) {
	res := seedResult(t, "page-buffers-1.7tb.csv")
	d := SweepChart(res, "x")
	if len(d.Series) != 2 || len(d.Best) != 2 {
		t.Fatalf("%+v", d)
	}
	want := map[string][2]float64{"classic_points": {1500, 390}, "superclassic_points": {1500, 392}}
	for _, b := range d.Best {
		if w, ok := want[b.Label]; !ok || b.X != w[0] || b.Y != w[1] {
			t.Errorf("best %+v", b)
		}
	}
	if s := d.Series[0]; len(s.X) != 6 || s.X[0] != 256 || s.Y[0] != 299 || s.Y[5] != 285 {
		t.Errorf("classic %+v", s)
	}
}

// TestABChartInput: seed 003's power plans (TPC-C), 17029 and 21226: +24.6 %.
func TestABChartInput(t *testing.T) {
	res := seedResult(t, "power-plan-tpcc.tsv")
	d := ABChart(res, "x")
	if len(d.Names) != 2 || d.Names[0] != "Balanced" || d.Names[1] != "High performance" ||
		d.Values[0] != 17029 || d.Values[1] != 21226 || math.Abs(d.Deltas[1]-24.6465) > 0.001 {
		t.Fatalf("%+v", d)
	}
	if d.Deltas[1] != res.Series[0].AB[0].Change*100 {
		t.Fatalf("delta %v, analysis change %v", d.Deltas[1], res.Series[0].AB[0].Change)
	}
	c, err := plot.ABChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Series("delta %"); p == nil || p.Y[1] != d.Deltas[1] {
		t.Fatalf("plotted %+v", p)
	}
}

// TestLoadSpeedChartInput: seed 000's Figure 4: database #1, 9.04 GB in
// 2535 s, 3.65 MB/s (1024 MB per GB, as the article counts).
func TestLoadSpeedChartInput(t *testing.T) {
	res := seedResult(t, "degradation-load-sata.csv")
	d := LoadSpeedChart(res, "x")
	if len(d.Values) != 12 || d.Names[0] != "9.04 GB" || d.Names[11] != "1.81 TB" || math.Abs(d.Values[0]-3.6517) > 0.0001 {
		t.Fatalf("%+v", d)
	}
	s := res.Series[0]
	for i, p := range s.Points {
		if d.Values[i] != p.Y {
			t.Errorf("db %d: %v, analysis %v", i+1, d.Values[i], p.Y)
		}
	}
	if d.Median == nil || *d.Median != s.Load.Summary.Median {
		t.Fatalf("median %v, analysis %v", d.Median, s.Load.Summary.Median)
	}
}

// The knee line carries the cliff test's answer and the far point is
// ringed: the chart says what the text and the JSON say.
func TestKneeChartLabel(t *testing.T) {
	r := throughputSeed(t, "degradation-throughput-sata.csv", analyze.Options{Knee: analyze.At{Value: 16 << 30, Size: true}, Predict: analyze.At{Value: 2 << 40, Size: true}})
	d := SizeThroughputChart(r, "x")
	if d.Knee == nil || *d.Knee != 16 || d.KneeLabel != "16 GB: no cliff (+0.8%, p=0.541)" {
		t.Errorf("knee %v %q", d.Knee, d.KneeLabel)
	}
	if len(d.HighLeverage) != 1 || d.HighLeverage[0].X != 1813.969025 || d.HighLeverage[0].Y != 169.33 ||
		d.HighLeverage[0].Label != "leverage 0.93 in the power fit: 1813.97 GB" {
		t.Errorf("high leverage %+v", d.HighLeverage)
	}
	ch, err := plot.SizeThroughputChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := ch.Series("high leverage"); s == nil || s.X[0] != 1813.969025 {
		t.Errorf("plotted %+v", s)
	}
	k := r.Series[0].Knee
	k.Cliff, k.StepFraction = true, -0.295
	if got := kneeLabel(k, "GB"); got != "16 GB: cliff, -29.5%" {
		t.Errorf("cliff label %q", got)
	}
}
