package plot

import (
	"bytes"
	"image/png"
	"math"
	"slices"
	"testing"
	"time"
)

// The real pair of corpus/fb30 (shop-gstat-a-r.txt at 14:09:54, then
// shop-gstat-r-later.txt at 14:14:32 after garbage collection): back
// versions per table as gstat printed them.
func shopVersions() History {
	t0 := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)
	return History{
		Kind: KindHistoryVersions, Title: "Back versions", YLabel: "back versions",
		Times: []time.Time{t0, t0.Add(278 * time.Second)},
		Series: []HistorySeries{
			{Name: "database", Values: []float64{30000, 0}},
			{Name: "STOCK", Values: []float64{15000, 0}},
			{Name: "CUSTOMER", Values: []float64{10000, 0}},
			{Name: "ORDERS", Values: []float64{5000, 0}},
			// A table only the second snapshot shows: one point.
			{Name: "NEW_TABLE", Values: []float64{math.NaN(), 7}},
		},
	}
}

func TestHistoryChartPlotsTheValues(t *testing.T) {
	d := shopVersions()
	ch, err := HistoryChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if ch.File() != "history-versions.png" {
		t.Errorf("file %s", ch.File())
	}
	x0, x1 := float64(d.Times[0].Unix()), float64(d.Times[1].Unix())
	stock := ch.Series("STOCK")
	if stock == nil || !slices.Equal(stock.X, []float64{x0, x1}) || !slices.Equal(stock.Y, []float64{15000, 0}) {
		t.Errorf("STOCK plotted %+v", stock)
	}
	// The unknown value is left out, not drawn as 0.
	if nt := ch.Series("NEW_TABLE"); nt == nil || !slices.Equal(nt.X, []float64{x1}) || !slices.Equal(nt.Y, []float64{7}) {
		t.Errorf("NEW_TABLE plotted %+v", nt)
	}
	if len(ch.Plotted) != 5 {
		t.Errorf("%d series plotted", len(ch.Plotted))
	}
	b, err := ch.PNG(Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != DefaultWidth || Variance(img) < 100 {
		t.Errorf("size %v, grey variance %.1f: blank chart?", img.Bounds(), Variance(img))
	}
	// Deterministic: the same input gives the same bytes.
	again, _ := ch.PNG(Options{})
	if !bytes.Equal(b, again) {
		t.Error("two renderings differ")
	}
}

func TestHistoryChartFitAndErrors(t *testing.T) {
	d := shopVersions()
	d.Kind = KindHistorySize
	d.Fit = &HistoryFit{Name: "linear fit", Times: d.Times, Values: []float64{30000, 0}}
	ch, err := HistoryChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if f := ch.Series("linear fit"); f == nil || len(f.X) != 2 || ch.File() != "history-size.png" {
		t.Errorf("fit %+v, file %s", f, ch.File())
	}
	if _, err := HistoryChart(History{Kind: KindHistorySize}); err == nil {
		t.Error("no snapshots: no error")
	}
	empty := History{Kind: KindHistorySize, Times: d.Times, Series: []HistorySeries{{Name: "db", Values: []float64{math.NaN(), math.NaN()}}}}
	if _, err := HistoryChart(empty); err == nil || err.Error() != "plot history-size: no values to draw" {
		t.Errorf("all values unknown: %v", err)
	}
}

// Ticks fall on round times whatever the hour of the first snapshot.
func TestTimeTicks(t *testing.T) {
	at := func(s string) float64 {
		v, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return float64(v.Unix())
	}
	labels := func(lo, hi string) []string {
		var out []string
		for _, tk := range (timeTicks{}).Ticks(at(lo), at(hi)) {
			out = append(out, tk.Label)
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi string
		want   []string
	}{
		// The real pair: 4 min 38 s.
		{"2026-12-02 14:09:54", "2026-12-02 14:14:32", []string{"14:10", "14:11", "14:12", "14:13", "14:14"}},
		{"2026-12-02 14:09:54", "2026-12-05 14:09:54", []string{"Dec 3", "Dec 4", "Dec 5"}},
		{"2026-01-15 08:00:00", "2026-11-20 08:00:00", []string{"Apr 2026", "Jul 2026", "Oct 2026"}},
	} {
		if got := labels(tc.lo, tc.hi); !slices.Equal(got, tc.want) {
			t.Errorf("%s – %s: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// The forecast chart of a database growing 800 KiB a day from 61.1 MiB
// (the real -a -r sizes with ORDERS growing 100 pages a day) to 100 MiB.
func TestHistoryForecastChart(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)
	day := func(d float64) time.Time { return t0.Add(time.Duration(d * 24 * float64(time.Hour))) }
	const mib = 1 << 20
	base := 64069632.0 / mib
	d := HistoryForecast{
		Title: "Database forecast", YLabel: "size (MiB)",
		Times:    []time.Time{day(0), day(1), day(2), day(3)},
		Measured: HistorySeries{Name: "database", Values: []float64{base, base + 0.78125, base + 1.5625, base + 2.34375}},
		Fit: HistoryFit{Name: "linear fit", Times: []time.Time{day(0), day(49.79)},
			Values: []float64{base, base + 0.78125*49.79}},
		Target: 100, TargetLabel: "target 100 MiB",
		Crossing: day(49.79),
	}
	lo, hi := day(48), day(52)
	d.Earliest, d.Latest = &lo, &hi
	ch, err := HistoryForecastChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if ch.File() != "history-forecast.png" {
		t.Errorf("file %s", ch.File())
	}
	if c := ch.Series("crossing"); c == nil || c.X[0] != float64(day(49.79).Unix()) || c.Y[0] != 100 {
		t.Errorf("crossing %+v", c)
	}
	if iv := ch.Series("interval"); iv == nil || !slices.Equal(iv.X, []float64{float64(lo.Unix()), float64(hi.Unix())}) {
		t.Errorf("interval %+v", iv)
	}
	if m := ch.Series("database"); m == nil || len(m.Y) != 4 || m.Y[3] != base+2.34375 {
		t.Errorf("measured %+v", m)
	}
	b, err := ch.PNG(Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || Variance(img) < 100 {
		t.Errorf("PNG: %v, variance %.1f", err, Variance(img))
	}
	d.Target = 0
	if _, err := HistoryForecastChart(d); err == nil {
		t.Error("no target: no error")
	}
}
