package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

// A size past 8 EiB (2^63 bytes, what an int64 byte count holds) is a
// typo or a wrong unit: the row or run is left out with a notice naming
// it, once whatever the number of y columns, instead of a size that
// wraps to -8 EiB in every output (FuzzThroughput's find, 2026-12-05).
func TestThroughputSizeBeyondBytes(t *testing.T) {
	cases := []struct {
		name, text string
		points     int
		notices    []string
	}{
		{"table", "size_gb,tps,qps\n1,100,1000\n2,90,900\n4,80,800\n16000000000000,5,50\n,6,60\n8589934592,70,700\n", 6,
			[]string{`table.csv:5: size_gb "16000000000000" is beyond 8 EiB, more than a byte count holds: row skipped`,
				"table.csv:6: row without x: skipped",
				`table.csv:7: size_gb "8589934592" is beyond 8 EiB, more than a byte count holds: row skipped`}},
		{"just under", "size_gb,tps\n1,100\n2,90\n8589934591.99,80\n", 3, nil},
		{"runs", "scale=1 db_bytes=1e308\npgbench (15)\ntps = 5 (without initial connection time)\n" +
			"scale=2 db_bytes=2000000\npgbench (15)\ntps = 4 (without initial connection time)\n", 1,
			[]string{`runs.txt:3: db_bytes="1e308" is beyond 8 EiB, more than a byte count holds: run skipped`}},
		{"load", "size_gb,load_time_s\n1,10\n2,21\n4,40\n-9000000000000,50\n", 3,
			[]string{`load.csv:5: size_gb "-9000000000000" is beyond 8 EiB, more than a byte count holds: row skipped`}},
	}
	for _, c := range cases {
		file := map[string]string{"table": "table.csv", "just under": "under.csv", "runs": "runs.txt", "load": "load.csv"}[c.name]
		r, err := Throughput(readString(t, file, c.text), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		points := 0
		for _, s := range r.Series {
			points += len(s.Points)
		}
		notices := noticeTexts(r.Notices)
		if points != c.points || fmt.Sprint(notices) != fmt.Sprint(c.notices) {
			t.Errorf("%s: %d points, notices %q; want %d, %q", c.name, points, notices, c.points, c.notices)
		}
	}
}

// Y columns of different units: each series judges best by its own unit
// (a latency's best is its lowest, whatever the first column measures),
// and y is named by the columns, without a unit, rather than as the
// first one; columns of one unit keep it.
func TestThroughputMixedYUnits(t *testing.T) {
	text := "page_buffers,tps,latency_ms\n256,100,20\n512,150,12\n1024,140,15\n2048,120,18\n"
	r, err := Throughput(readString(t, "sw.csv", text), Options{Y: "tps,latency_ms"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeSweep || len(r.Series) != 2 || deref(r.Y) != "tps, latency_ms" || r.YUnit != nil {
		t.Fatalf("mode %s, %d series, y %q (%v)", r.Mode, len(r.Series), deref(r.Y), r.YUnit)
	}
	if u0, u1 := deref(r.Series[0].Unit), deref(r.Series[1].Unit); u0 != "tps" || u1 != "ms" {
		t.Errorf("series units %q, %q; want tps, ms", u0, u1)
	}
	for i, want := range []struct{ x, median float64 }{{512, 150}, {512, 12}} {
		if b := r.Series[i].Sweep.Best; b.X != want.x || b.Median != want.median {
			t.Errorf("%s: best at %g (median %g), want %g (%g)", r.Series[i].Name, b.X, b.Median, want.x, want.median)
		}
	}
	r, err = Throughput(readString(t, "two.csv", "page_buffers,classic_tps,super_tps\n256,100,110\n512,150,160\n1024,140,150\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if deref(r.Y) != "tps" || deref(r.YUnit) != "tps" || len(r.Series) != 2 {
		t.Errorf("one unit: y %q (%q), %d series", deref(r.Y), deref(r.YUnit), len(r.Series))
	}
	// Columns without a unit are not of mixed units: y stays unnamed, as
	// before y columns were told apart by unit.
	r, err = Throughput(readString(t, "plain.csv", "page_buffers,classic,super\n256,100,110\n512,150,160\n1024,140,150\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Y != nil || r.YUnit != nil || len(r.Series) != 2 || r.Series[1].Name != "super" || r.Series[1].Unit != nil {
		t.Errorf("no unit: y %v (%v), %d series", r.Y, r.YUnit, len(r.Series))
	}
}

// A size with a latency and nothing else is how the latency degrades, not
// a load (a latency_ms read as a load time gave 921,600 MiB/s); its loss
// per doubling is its rise, positive, as a throughput's fall is.
func TestThroughputLatencyAgainstSize(t *testing.T) {
	text := "size_gb,latency_ms\n9,10\n18,11\n36,12.5\n72,14\n144,16\n288,19\n"
	r, err := Throughput(readString(t, "lat.csv", text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeDegradation || len(r.Series) != 1 || deref(r.Y) != "latency_ms" {
		t.Fatalf("mode %s, %d series, y %q", r.Mode, len(r.Series), deref(r.Y))
	}
	s := r.Series[0]
	if !s.LowerIsBetter || s.Best.Y != 10 {
		t.Errorf("lower is better %v, best %g; want true, 10", s.LowerIsBetter, s.Best.Y)
	}
	for _, m := range s.Models {
		if m.LossPerDoubling == nil {
			t.Fatalf("%s: no loss per doubling", m.Name)
		}
		if m.Name == Power {
			k := m.Params[1].Value
			if want := math.Pow(2, k) - 1; math.Abs(*m.LossPerDoubling-want) > 1e-12 || math.Abs(*m.LossPerDoubling-0.1355) > 5e-4 {
				t.Errorf("power: loss per doubling %g, want 2^k − 1 = %g (k %g), about 0.1355", *m.LossPerDoubling, want, k)
			}
		}
		if *m.LossPerDoubling <= 0 {
			t.Errorf("%s: loss per doubling %g for a latency that grows", m.Name, *m.LossPerDoubling)
		}
	}
	// --mode load still reads the latency as the load time it is told it is.
	r, err = Throughput(readString(t, "lat.csv", text), Options{Mode: ModeLoad})
	if err != nil || r.Mode != ModeLoad {
		t.Fatalf("--mode load: %v, %v", r, err)
	}
	for _, name := range []string{"latency_ms", "lat_ms", "p95_ms", "p99.9_ms", "rt_avg_ms", "response_time_ms",
		"95th percentile (ms)", "latencia_ms", "tiempo_respuesta_ms", "temps_de_réponse_ms", "doba_odezvy_ms", "지연_ms", "응답시간_ms"} {
		if !latencyLike(name) {
			t.Errorf("%q not taken for a latency", name)
		}
	}
	for _, name := range []string{"load_time_s", "time_s", "elapsed_min", "restore_s", "duration_h", "start_s", "tiempo_carga_s", "temps_s"} {
		if latencyLike(name) {
			t.Errorf("%q taken for a latency", name)
		}
	}
	// A load time beside a latency is the load's.
	r, err = Throughput(readString(t, "load.csv", "size_gb,p95_ms,load_time_s\n9,10,2535\n18,11,3197\n36,12,4057\n"), Options{})
	if err != nil || r.Mode != ModeLoad || r.Series[0].Load == nil {
		t.Fatalf("load time with a latency: %+v, %v", r, err)
	}
}

// A later table joins the first input's analysis when its x measures the
// same thing: sizes in any unit (converted to the first's), bare numbers
// of the same name, or two concurrencies (clients, threads); else it is
// left out with a notice and the analysis is the first's alone.
func TestThroughputTablesJoin(t *testing.T) {
	cases := []struct {
		name, a, b string
		points     int
		lastX      float64
		notice     string
	}{
		{"sizes", "size_gb,tps\n1,100\n2,90\n", "size_mb,tps\n4096,80\n", 3, 4, ""},
		{"same setting", "page_buffers,tps\n256,100\n512,110\n", "Page_Buffers,tps\n1024,105\n", 3, 1024, ""},
		{"concurrencies", "clients,tps\n1,100\n2,180\n", "threads,tps\n4,300\n", 3, 4, ""},
		{"two settings", "page_buffers,tps\n256,100\n512,110\n", "clients,tps\n4,300\n", 2, 512,
			"b.csv:1: left out: throughput against clients (a number), where the first input, a.csv, is throughput against page_buffers (a number): another experiment; " + alone},
		{"size and count", "size_gb,tps\n1,100\n2,90\n", "warehouses,tps\n10,80\n", 2, 2,
			"b.csv:1: left out: throughput against warehouses (a number), where the first input, a.csv, is throughput against size_gb (a size): another experiment; " + alone},
	}
	for _, c := range cases {
		a, b := readString(t, "a.csv", c.a), readString(t, "b.csv", c.b)
		r, err := Throughput(Input{Tables: append(a.Tables, b.Tables...)}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var xs []float64
		for _, s := range r.Series {
			for _, p := range s.Points {
				xs = append(xs, *p.X)
			}
		}
		notices := noticeTexts(r.Notices)
		wantInputs := []string{"a.csv", "b.csv"}
		if c.notice != "" {
			wantInputs = wantInputs[:1]
		}
		if len(xs) != c.points || slices.Max(xs) != c.lastX || strings.Join(notices, "\n") != c.notice || !slices.Equal(r.Inputs, wantInputs) {
			t.Errorf("%s: x %v, notices %q, inputs %q", c.name, xs, notices, r.Inputs)
		}
	}
}

// An A/B whose test cannot reach p ≤ 0.05 with its runs (2+2: least p
// 0.33) says so, rather than "within the noise", which four runs a side
// that overlap earn.
func TestABTooFewRunsToTell(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"config,tps\nA,100\nA,104\nB,120\nB,126\n", "B vs A: ×1.21, +20.6 % faster, too few runs to tell (p=0.333, n=2+2)"},
		{"config,tps\nA,100\nA,110\nA,120\nA,130\nB,105\nB,115\nB,125\nB,135\n", "B vs A: ×1.04, +4.3 % faster, not significant (p=0.686, n=4+4)"},
	} {
		r, err := Throughput(readString(t, "ab.csv", c.text), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v := r.Series[0].AB[0].Verdict; v != c.want {
			t.Errorf("verdict %q, want %q", v, c.want)
		}
	}
}

// A row whose y cell is empty ("13,", a size measured whose throughput was
// not written down) was left out of its series without a word, where a
// cell "n/a" had a notice and a row without x "row without x: skipped":
// the 7-row table gave 4 points and named only 2 of the 3 rows it lost.
// Each empty y cell of a row that has its x is now said at its line, once
// per series it leaves; so is a row whose configuration name is empty.
func TestThroughputEmptyYCellSaid(t *testing.T) {
	text := "size_gb,tps\n9.04,494.73\n10.8,n/a\n13,\nfoo,480\n30.3,407.97\n30.3,410\n1813.97,169.33\n"
	r, err := Throughput(readString(t, "missing.csv", text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	notices := noticeTexts(r.Notices)
	slices.Sort(notices)
	want := []string{
		`missing.csv:3: column "tps": "n/a" is not a number; cell left out`,
		`missing.csv:4: column "tps": empty cell; row left out of series "tps"`,
		`missing.csv:5: column "size_gb": "foo" is not a number; cell left out`,
		"missing.csv:5: row without x: skipped",
	}
	if len(r.Series) != 1 || len(r.Series[0].Points) != 4 || strings.Join(notices, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d points, notices:\n%s\nwant:\n%s", len(r.Series[0].Points), strings.Join(notices, "\n"), strings.Join(want, "\n"))
	}

	// Two series: the SSD column has no figure at 1.7 TB (the article ran
	// none there); the SATA series keeps the row.
	text = "size_gb;sata_tps;ssd_tps\n9,04;494,73;1540\n30,3;407,97;1420\n1813,97;169,33;\n"
	r, err = Throughput(readString(t, "two.csv", text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	notices = noticeTexts(r.Notices)
	if len(r.Series) != 2 || len(r.Series[0].Points) != 3 || len(r.Series[1].Points) != 2 ||
		strings.Join(notices, "\n") != `two.csv:4: column "ssd_tps": empty cell; row left out of series "ssd_tps"` {
		t.Errorf("two series: notices %q", notices)
	}

	text = "plan,tps\nBalanced,17029\n,19000\nHigh performance,21226\n"
	r, err = Throughput(readString(t, "ab.csv", text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	notices = noticeTexts(r.Notices)
	if strings.Join(notices, "\n") != `ab.csv:3: no name in column "plan": row skipped` {
		t.Errorf("unnamed configuration: notices %q", notices)
	}
}

// Inputs whose throughputs are in different units were read in the first
// one's. A degradation of a tps table and a tpmC table had y "tps" and
// y_unit "tps": text's, markdown's and CSV's column headed "tps" held the
// tpmC figures (29640). A pgbench run (1468 tps) and a HammerDB log (42332
// NOPM) were one A/B series in NOPM: "vusers=4 … vs pgbench TPC-B …:
// +2783.0 % (×28.8, faster)", a per-minute figure over a per-second one.
// y_unit is now null and y names both, as for two columns of one table,
// and runs of different units are a series each, named by its unit and
// compared with its own first run, its labels naming a workload only when
// the series holds several.
func TestThroughputInputsOfDifferentUnits(t *testing.T) {
	in := readString(t, "a_tps.csv", "size_gb,tps\n9,494\n30,408\n1700,169\n")
	b := readString(t, "b_tpm.csv", "size_gb,tpmC\n9,29640\n30,24480\n1700,10140\n")
	in.Tables = append(in.Tables, b.Tables...)
	r, err := Throughput(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Y == nil || *r.Y != "tps, tpmC" || r.YUnit != nil || len(r.Series) != 2 ||
		r.Series[0].Unit == nil || *r.Series[0].Unit != "tps" || r.Series[1].Unit == nil || *r.Series[1].Unit != "tpmC" {
		t.Errorf("tables: y %v, y_unit %v, %d series", r.Y, r.YUnit, len(r.Series))
	}

	runs := readString(t, "pgbench-rw.txt", "pgbench (15.18)\ntransaction type: <builtin: TPC-B (sort of)>\n"+
		"number of clients: 4\ntps = 1468.339673 (without initial connection time)\n")
	hdb := readString(t, "hdb.log", "Vuser 1:4 Active Virtual Users configured\n"+
		"Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n"+
		"Vuser 1:8 Active Virtual Users configured\n"+
		"Vuser 1:TEST RESULT : System achieved 61500 NOPM from 141000 PostgreSQL TPM\n")
	runs.Runs = append(runs.Runs, hdb.Runs...)
	r, err = Throughput(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Series {
		line := fmt.Sprintf("%s (%s): %d points", s.Name, *s.Unit, len(s.Points))
		for _, e := range s.AB {
			line += fmt.Sprintf("; %s vs %s ×%.3f", e.Label, e.Baseline, e.Ratio)
		}
		got = append(got, line)
	}
	want := []string{
		"tps (tps): 1 points",
		"NOPM (NOPM): 2 points; vusers=8 · hdb vs vusers=4 · hdb ×1.453",
	}
	if r.Y == nil || *r.Y != "tps, NOPM" || r.YUnit != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs: y %v, y_unit %v, series:\n%s\nwant:\n%s", r.Y, r.YUnit, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A degradation with a cliff (1 to 8 GiB at ~990 tps, 64 to 256 GiB at
// ~410) was predicted at 512 GiB by the curve fitted across the cliff:
// "predicted at 512 GiB 259 (95 % interval up to 606, no lower bound,
// loglinear fit)", with no word that the cliff test, two lines below,
// found the step no smooth curve has; above it the sizes lose 2.4 % per
// doubling, not 13.3 %. The prediction now says so.
func TestPredictionAcrossACliffSaysSo(t *testing.T) {
	r, err := Throughput(readString(t, "cliff.csv", "size_gb,tps\n1,1000\n2,990\n4,985\n8,975\n64,420\n128,410\n256,400\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Series[0]
	if s.Knee == nil || !s.Knee.Cliff {
		t.Fatalf("no cliff: %+v", s.Knee)
	}
	var got []string
	for _, m := range s.Models {
		if m.Prediction != nil {
			got = append(got, fmt.Sprintf("%s %.0f: %s", m.Name, m.Prediction.Y, caveatOf(m)))
		}
	}
	want := []string{
		"loglinear 259: the curve runs across the cliff at 8.00 GiB (a step of -64.7 % beyond the loglinear trend): above it the sizes lose 2.4 % per doubling",
		"power 326: the curve runs across the cliff at 8.00 GiB (a step of -64.7 % beyond the loglinear trend): above it the sizes lose 2.4 % per doubling",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("predictions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func caveatOf(m *Model) string {
	if m.PredictionCaveat == nil {
		return "<nil>"
	}
	return *m.PredictionCaveat
}

// A database size of 0 or less (a typo, a minus sign) was a point: the
// text read "first to last size -65.8 % (-9.00 GiB → 1.66 TiB)", the
// log-scale chart left the point out without a word, and the loglinear and
// power fits failed ("power fit needs positive values; got x=-9 y=494"),
// leaving a linear fit through a size no database has. Such a row, or
// run, is left out with a notice at its line, as one past 8 EiB is.
func TestThroughputSizeNotPositive(t *testing.T) {
	r, err := Throughput(readString(t, "negx.csv", "size_gb,tps\n-9,494\n0,450\n30,408\n60,380\n1700,169\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	notices := noticeTexts(r.Notices)
	want := []string{
		`negx.csv:2: size_gb "-9" is no database size (0 or less): row skipped`,
		`negx.csv:3: size_gb "0" is no database size (0 or less): row skipped`,
	}
	if strings.Join(notices, "\n") != strings.Join(want, "\n") || len(r.Series[0].Points) != 3 || len(r.Series[0].Models) != 3 {
		t.Errorf("%d points, %d models, notices:\n%s", len(r.Series[0].Points), len(r.Series[0].Models), strings.Join(notices, "\n"))
	}
	r, err = Throughput(readString(t, "runs.txt", "db_bytes=0\npgbench (15)\ntps = 5 (without initial connection time)\n"+
		"db_bytes=2000000\npgbench (15)\ntps = 4 (without initial connection time)\n"+
		"db_bytes=4000000\npgbench (15)\ntps = 3 (without initial connection time)\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notices) != 1 || r.Notices[0].String() != `runs.txt:3: db_bytes="0" is no database size (0 or less): run skipped` {
		t.Errorf("runs: notices %v", r.Notices)
	}
}

// A load table dropped rows without a word: a load time of 0, an empty
// time or size; and read a size of 0 or less as a database (0 B at 0
// MiB/s, -2 GiB at -102 MiB/s), whose ln failed the trend test ("not
// tested: loglinear fit needs positive values; got x=0 y=0"). Each is now
// left out with a notice at its line, and the trend is tested.
func TestLoadRowsLeftOutSaid(t *testing.T) {
	text := "size_gb,load_time_s\n0,10\n-2,20\n4,40\n8,80\n16,170\n32,0\n64,\n,100\n128,1400\n"
	r, err := Throughput(readString(t, "loadneg.csv", text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	notices := noticeTexts(r.Notices)
	want := []string{
		`loadneg.csv:2: size_gb "0" is no database size (0 or less): row skipped`,
		`loadneg.csv:3: size_gb "-2" is no database size (0 or less): row skipped`,
		`loadneg.csv:7: load_time_s "0" is no load time (0 or less): row skipped`,
		`loadneg.csv:8: column "load_time_s": empty cell; row skipped`,
		`loadneg.csv:9: column "size_gb": empty cell; row skipped`,
	}
	if strings.Join(notices, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(notices, "\n"), strings.Join(want, "\n"))
	}
	s := r.Series[0]
	if len(s.Points) != 4 || s.Load == nil || s.Load.TrendP == nil {
		t.Errorf("%d points, load %+v", len(s.Points), s.Load)
	}
}

// A column headed "queries per second" (or "transactions per second") was
// read as a time in seconds: beside a size it made a load table, "median
// load speed 33.5 MiB/s, +89.6 % per size doubling", of a throughput that
// falls by 20 %. It is a rate, and the table the degradation it is.
func TestThroughputCountPerSecondIsARate(t *testing.T) {
	r, err := Throughput(readString(t, "qps.csv", "size_gb,queries per second\n1,100\n2,95\n4,90\n8,80\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Series[0]
	if r.Mode != ModeDegradation || s.Name != "queries per second" || s.Unit == nil || *s.Unit != "queries/s" ||
		s.FirstToLastChange == nil || math.Abs(*s.FirstToLastChange+0.2) > 1e-12 {
		t.Errorf("mode %s, series %q, unit %v, first to last %v", r.Mode, s.Name, s.Unit, s.FirstToLastChange)
	}
}

// "Transactions/sec", "req/s" and DBT-2's "NOTPM" had no unit (y_unit
// null, where tps and NOPM have theirs), so a negative figure in them was
// a point: "first to last size -1700.0 %" of a NOTPM series going from
// -5 to 80. "ops/min" read as ops/s. Each is now a rate in its own time.
func TestThroughputCountPerTimeHeaders(t *testing.T) {
	for _, c := range []struct{ header, unit string }{
		{"Transactions/sec", "transactions/s"}, {"req/s", "req/s"}, {"NOTPM", "NOTPM"}, {"ops/min", "ops/min"},
	} {
		r, err := Throughput(readString(t, "rate.csv", "size_gb,"+c.header+"\n1,-5\n2,95\n4,90\n8,80\n"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := r.Series[0]
		if r.YUnit == nil || *r.YUnit != c.unit || s.Unit == nil || *s.Unit != c.unit || len(s.Points) != 3 ||
			s.FirstToLastChange == nil || math.Abs(*s.FirstToLastChange-(80.0/95-1)) > 1e-12 {
			t.Errorf("%s: y_unit %v, unit %v, %d points, first to last %v; want %s, 3 points, %.4f",
				c.header, derefS(r.YUnit), derefS(s.Unit), len(s.Points), derefF(s.FirstToLastChange), c.unit, 80.0/95-1)
		}
	}
}

// A negative throughput (a typo, "-5" tps) was a point: "first to last
// size -500.0 % (1.00 GiB → 4.00 GiB)" for a series that went from -5 to
// 20 tps, and the power fit failed on it. A figure below 0 in a column of
// a throughput unit is left out with a notice at its line.
func TestThroughputNegativeRateLeftOut(t *testing.T) {
	r, err := Throughput(readString(t, "neg.csv", "size_gb,tps\n1,-5\n2,10\n4,20\n8,18\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Series[0]
	if len(r.Notices) != 1 || r.Notices[0].String() != `neg.csv:2: column "tps": "-5" is no throughput (less than 0): row left out of series "tps"` ||
		len(s.Points) != 3 || s.FirstToLastChange == nil || math.Abs(*s.FirstToLastChange-0.8) > 1e-12 {
		t.Errorf("notices %v, %d points, first to last %v", r.Notices, len(s.Points), s.FirstToLastChange)
	}
}

// noticeTexts is each notice as it is printed (file:line: message).
func noticeTexts(ns []parse.Notice) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.String())
	}
	return out
}
