package plot

import (
	"bytes"
	"encoding/csv"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// readSeed reads a seed table (CSV, or TSV when the name ends in .tsv)
// from testdata/seeds: the real figures of the articles.
func readSeed(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	if strings.HasSuffix(name, ".tsv") {
		r.Comma = '\t'
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

func col(t testing.TB, rows [][]string, i int) []float64 {
	t.Helper()
	out := make([]float64, len(rows))
	for j, r := range rows {
		v, err := strconv.ParseFloat(r[i], 64)
		if err != nil {
			t.Fatal(err)
		}
		out[j] = v
	}
	return out
}

// sampleData builds one input per chart kind from the real samples. The
// throughput, load, sweep and A/B figures are read from testdata/seeds;
// the gstat and gbak figures were copied by hand from
// testdata/fb30/shop-gstat-a-r.txt and shop-gbak-restore-v-st.log (the
// readers live in parse and are tested there).
func sampleData(t testing.TB) map[Kind]func() (*Chart, error) {
	thr := readSeed(t, "degradation-throughput-sata.csv")
	load := readSeed(t, "degradation-load-sata.csv")
	pb := readSeed(t, "page-buffers-1.7tb.csv")
	ab := readSeed(t, "power-plan-tpcc.tsv")
	sizes, ops := col(t, thr, 1), col(t, thr, 2)
	// A log fit over the measured points, sampled as the analysis would.
	var lx []float64
	for _, s := range sizes {
		lx = append(lx, math.Log(s))
	}
	a, b := linreg(lx, ops)
	var fx, fy []float64
	for x := 9.0; x <= 4000; x *= 1.25 {
		fx = append(fx, x)
		fy = append(fy, a+b*math.Log(x))
	}
	knee := 30.3
	loadNames := make([]string, len(load))
	for i, r := range load {
		loadNames[i] = "#" + r[0]
	}
	median := 3.38
	abNames := make([]string, len(ab))
	for i, r := range ab {
		abNames[i] = r[0]
	}
	return map[Kind]func() (*Chart, error){
		KindSizeThroughput: func() (*Chart, error) {
			return SizeThroughputChart(SizeThroughput{
				Title: "Throughput vs database size (SATA)", XUnit: "GiB", YLabel: "business operations/s",
				Series:      []Series{{Name: "SATA", X: sizes, Y: ops}},
				Fits:        []Curve{{Name: "log fit", X: fx, Y: fy}},
				Predictions: []Prediction{{Point: Point{X: 4000, Y: a + b*math.Log(4000)}, Interval: &Interval{Lo: 100, Hi: 160}, Fit: -1}},
				Knee:        &knee,
			})
		},
		KindLoadSpeed: func() (*Chart, error) {
			return LoadSpeedChart(LoadSpeed{Title: "Load speed per database", Unit: "MB/s", Names: loadNames, Values: col(t, load, 3), Median: &median})
		},
		KindRestoreComparison: func() (*Chart, error) {
			// Seed 003's two restores, deltas in seconds.
			return RestoreComparisonChart(RestoreComparison{Title: "Restore: Balanced vs High performance", Runs: []string{"restore-balanced.log", "restore-high-performance.log"},
				Steps: []StepRow{
					{Name: "INDMF_TAG_PLC_DATA_DT_D", Seconds: []float64{1230.343, 600.1}, Notes: []string{"", "×0.488 faster"}},
					{Name: "INDMF_TAG_PLC_DATA_TAG_D", Seconds: []float64{1258.270, 640.2}, Notes: []string{"", "×0.509 faster"}},
					{Name: "a very long index name that would overlap the bars INDMF_X", Seconds: []float64{746.683, math.NaN()}},
				}})
		},
		KindRestoreTimeline: func() (*Chart, error) {
			return RestoreTimelineChart(RestoreTimeline{Title: "Restore of shop.fbk",
				Phases: []Span{{Name: "metadata", Start: 0, Duration: 0.112, Kind: "phase"}, {Name: "data", Start: 0.112, Duration: 34.242, Kind: "phase"}, {Name: "indices", Start: 34.354, Duration: 0.799, Kind: "phase"}},
				Items:  []Span{{Name: "ORDER_LINE", Start: 3.747, Duration: 24.882, Kind: "table"}, {Name: "ORDERS", Start: 28.632, Duration: 4.232, Kind: "table"}, {Name: "OL_ITEM", Start: 34.426, Duration: 0.286, Kind: "index"}},
			})
		},
		KindBackupTimeline: func() (*Chart, error) {
			// The 3.0.11 shop backup (testdata/fb30/shop-gbak-backup-v-st.log).
			return RestoreTimelineChart(RestoreTimeline{Title: "Timeline: shop-gbak-backup-v-st.log", Backup: true,
				Phases: []Span{{Name: "open", Start: 0.028, Duration: 0.005, Kind: "phase"}, {Name: "data", Start: 0.053, Duration: 2.092, Kind: "phase"}, {Name: "finish", Start: 2.167, Duration: 0.027, Kind: "phase"}},
				Items:  []Span{{Name: "ORDER_LINE", Start: 0.615, Duration: 1.189, Kind: "table"}, {Name: "DOCS", Start: 0.053, Duration: 0.424, Kind: "table"}},
			})
		},
		KindBackupComparison: func() (*Chart, error) {
			return RestoreComparisonChart(RestoreComparison{Title: "The 2 slowest steps (baseline bk1)", Runs: []string{"bk1", "bk2"}, Backup: true,
				Steps: []StepRow{
					{Name: "data ORDER_LINE", Seconds: []float64{1.189, 1.189}, Notes: []string{"", "×1.00 ~"}},
					{Name: "data DOCS", Seconds: []float64{0.424, 0.424}, Notes: []string{"", "×1.00 ~"}},
				}})
		},
		KindIndices: func() (*Chart, error) {
			return IndicesChart(Indices{Title: "Indices of shop.fdb", SizeUnit: "leaf buckets",
				Depths:  []DepthCount{{Depth: 1, Count: 2}, {Depth: 2, Count: 7}, {Depth: 3, Count: 1, Severity: SeverityWarning}},
				Largest: []IndexBar{{Name: "OL_ITEM", Table: "ORDER_LINE", Size: 1013, Severity: SeverityCritical}, {Name: "RDB$PRIMARY4", Table: "ORDER_LINE", Size: 687}, {Name: "CUSTOMER_LAST", Table: "CUSTOMER", Size: 23, Severity: SeverityWarning}},
			})
		},
		KindTables: func() (*Chart, error) {
			return TablesChart(Tables{Title: "Largest tables of shop.fdb", SizeUnit: "data pages", Tables: []TableBar{
				{Name: "ORDER_LINE", Size: 4552, Records: 500000, Versions: 0, Fragments: 0},
				{Name: "ORDERS", Size: 808, Records: 50000, Versions: 5000, Fragments: 0, Severity: SeverityWarning},
				{Name: "STOCK", Size: 464, Records: 100000, Versions: 15000, Fragments: 0, Severity: SeverityWarning},
				{Name: "CUSTOMER", Size: 392, Records: 30000, Versions: 10000, Fragments: 3125, Severity: SeverityCritical},
			}})
		},
		KindFill: func() (*Chart, error) {
			return FillChart(Fill{Title: "Page fill", Groups: []FillGroup{{Name: "CUSTOMER data", Pages: [5]float64{1, 0, 0, 245, 146}}, {Name: "CUSTOMER_LAST", Pages: [5]float64{0, 0, 12, 6, 5}}}})
		},
		KindSweep: func() (*Chart, error) {
			x := col(t, pb, 0)
			return SweepChart(Sweep{Title: "1.7 TB database: page buffers", XLabel: "page buffers (pages per connection)", YLabel: "score (points)",
				Series: []Series{{Name: "Classic", X: x, Y: col(t, pb, 1)}, {Name: "SuperClassic", X: x, Y: col(t, pb, 2)}},
				Best:   []Point{{X: 1500, Y: 390, Label: "Classic"}, {X: 1500, Y: 392, Label: "SuperClassic"}},
			})
		},
		KindAB: func() (*Chart, error) {
			return ABChart(AB{Title: "Windows power plan", YLabel: "TPC-C score", Names: abNames, Values: col(t, ab, 1)})
		},
		// A bench run of 4 terminals on 1 warehouse of the live test
		// server (2 cores, load average 12): 5 s of warm-up, a 20 s
		// window, the operations committed per second.
		KindBenchTimeline: func() (*Chart, error) {
			ts := make([]float64, 26)
			for i := range ts {
				ts[i] = float64(i)
			}
			return BenchTimelineChart(BenchTimeline{Title: "Throughput", YLabel: "transactions per second", T: ts,
				Series: []Series{
					{Name: "all", Y: []float64{227, 214, 164, 66, 121, 160, 180, 219, 180, 163, 229, 221, 147, 96, 88, 53, 50, 100, 142, 172, 264, 225, 222, 166, 199, 7}},
					{Name: "new_order", Y: []float64{106, 91, 78, 27, 49, 73, 77, 105, 84, 72, 97, 98, 68, 41, 35, 28, 26, 53, 63, 68, 124, 90, 105, 64, 86, 6}},
				},
				Shaded: []Shade{{From: 0, To: 5, Label: "warm-up"}, {From: 25, To: 26, Label: "drain"}}})
		},
		KindBenchLatency: func() (*Chart, error) {
			return BenchLatencyChart(BenchLatency{Title: "Latency", Rows: []LatencyRow{
				{Name: "new_order", P50: 16.05, P90: 36.87, P95: 60.49, P99: 194.58, Max: 641.91},
				{Name: "payment", P50: 11.93, P90: 52.66, P95: 93.52, P99: 277.91, Max: 556.48},
				{Name: "order_status", P50: 3.04, P90: 5.85, P95: 7.41, P99: 11.93, Max: 21.25},
				{Name: "delivery", P50: 31.47, P90: 68.12, P95: 76.72, P99: 150.42, Max: 294.24},
				{Name: "stock_level", P50: 4.01, P90: 9.59, P95: 15.12, P99: 21.18, Max: 114.59},
			}})
		},
	}
}

func linreg(x, y []float64) (a, b float64) {
	n := float64(len(x))
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	b = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - b*sx) / n, b
}

// TestChartsRender renders every kind at two sizes: the PNG decodes, has
// the requested size, is not blank, and renders to the same bytes twice.
func TestChartsRender(t *testing.T) {
	data := sampleData(t)
	if len(data) != len(Kinds) {
		t.Fatalf("%d sample charts for %d kinds", len(data), len(Kinds))
	}
	out := os.Getenv("FBDIAG_PLOT_OUT") // set to look at the charts
	for _, k := range Kinds {
		t.Run(string(k), func(t *testing.T) {
			c, err := data[k]()
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != k {
				t.Fatalf("kind %q", c.Kind)
			}
			for _, o := range []Options{{}, {Width: 800, Height: 500, DPI: 96}} {
				b1, err := c.PNG(o)
				if err != nil {
					t.Fatal(err)
				}
				checkPNG(t, b1, o.norm())
				b2, _ := c.PNG(o)
				if !bytes.Equal(b1, b2) {
					t.Errorf("%v: two renders differ", o)
				}
				if out != "" && o.Width == 0 {
					if err := WritePNG(filepath.Join(out, c.File()), c, o); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// checkPNG decodes b and checks its size and that it is not blank.
func checkPNG(t *testing.T, b []byte, o Options) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != (image.Point{X: o.Width, Y: o.Height}) {
		t.Fatalf("size %v, want %dx%d", got, o.Width, o.Height)
	}
	if v := Variance(img); v < 100 {
		t.Fatalf("pixel variance %.1f: blank chart?", v)
	}
}

func TestPlottedValues(t *testing.T) {
	data := sampleData(t)
	ab, err := data[KindAB]()
	if err != nil {
		t.Fatal(err)
	}
	// power-plan-tpcc.tsv: Balanced 17029, High performance 21226: +24.6 %.
	d := ab.Series("delta %")
	if d == nil || len(d.Y) != 2 || !math.IsNaN(d.Y[0]) && d.Y[0] != 0 || math.Abs(d.Y[1]-24.6465) > 0.001 {
		t.Fatalf("A/B deltas %+v", d)
	}
	if v := ab.Series("values"); v == nil || v.Y[0] != 17029 || v.Y[1] != 21226 || v.Labels[1] != "High performance" {
		t.Fatalf("A/B values %+v", v)
	}
	sw, err := data[KindSweep]()
	if err != nil {
		t.Fatal(err)
	}
	sc := sw.Series("SuperClassic")
	if sc == nil || len(sc.X) != 6 || sc.X[4] != 1500 || sc.Y[4] != 392 || sc.Y[5] != 284 {
		t.Fatalf("sweep SuperClassic %+v", sc)
	}
	st, err := data[KindSizeThroughput]()
	if err != nil {
		t.Fatal(err)
	}
	sata := st.Series("SATA")
	if sata == nil || len(sata.X) != 12 || sata.X[11] != 1813.969025 || sata.Y[11] != 169.33 {
		t.Fatalf("size-throughput SATA %+v", sata)
	}
	if k := st.Series("knee"); k == nil || k.X[0] != 30.3 {
		t.Fatalf("knee %+v", k)
	}
	tb, err := data[KindTables]()
	if err != nil {
		t.Fatal(err)
	}
	// CUSTOMER: 10000 back versions and 3125 fragments for 30000 records.
	v, f := tb.Series("versions per record"), tb.Series("fragments per record")
	if v == nil || f == nil || v.Y[3] != 10000.0/30000 || f.Y[3] != 3125.0/30000 || v.Y[0] != 0 {
		t.Fatalf("tables versions %+v fragments %+v", v, f)
	}
	fl, err := data[KindFill]()
	if err != nil {
		t.Fatal(err)
	}
	// CUSTOMER data pages: 245 of 392 in 60–79 %.
	if c := fl.Series("CUSTOMER data"); c == nil || math.Abs(c.Y[3]-62.5) > 0.01 {
		t.Fatalf("fill %+v", c)
	}
	rc, err := data[KindRestoreComparison]()
	if err != nil {
		t.Fatal(err)
	}
	if b := rc.Series("restore-high-performance.log"); b == nil || !math.IsNaN(b.Y[2]) || b.Y[0] != 600.1 {
		t.Fatalf("restore comparison B %+v", b)
	}
}

func TestSizeTicks(t *testing.T) {
	var labels []string
	for _, tk := range (sizeTicks{Unit: "GB"}).Ticks(9, 1813.97) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, ","); got != "10 GB,20 GB,50 GB,100 GB,200 GB,500 GB,1 TB" {
		t.Fatalf("labels %s", got)
	}
	labels = nil
	for _, tk := range (sizeTicks{Unit: "GB"}).Ticks(9, 31) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, ","); got != "10 GB,20 GB,30 GB" {
		t.Fatalf("narrow labels %s", got)
	}
	for in, want := range map[float64]string{1000: "1 TB", 0.5: "500 MB", 1813.969025: "1.81 TB", 10: "10 GB"} {
		if got := FormatSize(in, "GB"); got != want {
			t.Errorf("FormatSize(%v GB) = %q, want %q", in, got, want)
		}
	}
	if got := FormatSize(1024, "GiB"); got != "1 TiB" {
		t.Errorf("FormatSize(1024 GiB) = %q", got)
	}
}

func TestEllipsis(t *testing.T) {
	if got := Ellipsis("INDMF_TAG_PLC_DATA_TAG_D_VERY_LONG_NAME", 12); got != "INDMF_TAG_P…" {
		t.Fatalf("got %q", got)
	}
	if got := Ellipsis("ORDERS", 12); got != "ORDERS" {
		t.Fatalf("got %q", got)
	}
	if got := SafeName("Order Lines <x>/../a"); got != "Order-Lines-x-..-a" {
		t.Fatalf("SafeName %q", got)
	}
}

func TestNoData(t *testing.T) {
	if _, err := SweepChart(Sweep{Title: "x"}); err == nil {
		t.Fatal("empty sweep drew")
	}
	if _, err := SizeThroughputChart(SizeThroughput{Series: []Series{{Name: "s", X: []float64{0, -1}, Y: []float64{1, 2}}}}); err == nil {
		t.Fatal("non-positive sizes drew on a log axis")
	}
	if _, err := ABChart(AB{Names: []string{"a"}, Values: []float64{1}, Baseline: 3}); err == nil {
		t.Fatal("bad baseline accepted")
	}
}

func benchChart(b *testing.B, k Kind) {
	c, err := sampleData(b)[k]()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := testutil.CPUTime()
	for i := 0; i < b.N; i++ {
		if _, err := c.PNG(Options{}); err != nil {
			b.Fatal(err)
		}
	}
	// The machine is shared: the process's CPU time a chart reads
	// better than the wall time.
	b.ReportMetric(float64(testutil.CPUTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func BenchmarkSizeThroughput(b *testing.B)    { benchChart(b, KindSizeThroughput) }
func BenchmarkLoadSpeed(b *testing.B)         { benchChart(b, KindLoadSpeed) }
func BenchmarkRestoreComparison(b *testing.B) { benchChart(b, KindRestoreComparison) }
func BenchmarkRestoreTimeline(b *testing.B)   { benchChart(b, KindRestoreTimeline) }
func BenchmarkIndices(b *testing.B)           { benchChart(b, KindIndices) }
func BenchmarkTables(b *testing.B)            { benchChart(b, KindTables) }
func BenchmarkFill(b *testing.B)              { benchChart(b, KindFill) }
func BenchmarkSweep(b *testing.B)             { benchChart(b, KindSweep) }
func BenchmarkAB(b *testing.B)                { benchChart(b, KindAB) }

// A fit is solid over its own series' sizes only: the bench mix's 4096
// series, measured from 121 to 137 MiB, was solid to the 211 MiB another
// series reached, as if measured there.
func TestFitSolidOverItsSeries(t *testing.T) {
	mib := func(v float64) float64 { return v * (1 << 20) }
	d := SizeThroughput{Title: "mix", XUnit: "bytes", Series: []Series{
		{Name: "page_buffers=4096", X: []float64{mib(121), mib(129), mib(137)}, Y: []float64{14890, 11989, 11966}},
		{Name: "terminals=1", X: []float64{mib(211)}, Y: []float64{5520}},
	}}
	seriesMax, all := seriesMaxima(d.Series, func(int) bool { return true })
	for of, want := range map[string]float64{"page_buffers=4096": mib(137), "": mib(137), "terminals=1": mib(211), "another panel's": mib(211)} {
		if got := solidEnd(of, seriesMax, all); got != want {
			t.Errorf("solidEnd(%q) = %.0f MiB, want %.0f MiB", of, got/(1<<20), want/(1<<20))
		}
	}
	if _, err := SizeThroughputChart(d); err != nil {
		t.Fatal(err)
	}
}
