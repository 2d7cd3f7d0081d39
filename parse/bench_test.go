package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func readRuns(t *testing.T, path string) ([]*Run, []Notice) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readRunsFrom(t, f, path)
}

func readRunsFrom(t *testing.T, r interface{ Read([]byte) (int, error) }, name string) ([]*Run, []Notice) {
	t.Helper()
	br := NewBenchReader(r, name)
	var runs []*Run
	for br.Next() {
		runs = append(runs, br.Run())
	}
	if err := br.Err(); err != nil {
		t.Fatal(err)
	}
	return runs, br.Notices()
}

func TestPgbenchScales(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales")
	want := map[string]struct {
		tps   float64
		bytes string
		scale string
		name  string
		line  int
	}{
		"pgbench-rw-scale1.txt":       {1468.339673, "23502183", "1", "TPC-B (sort of)", 19},
		"pgbench-rw-scale100.txt":     {1400.795184, "1575927143", "100", "TPC-B (sort of)", 19},
		"pgbench-select-scale10.txt":  {20420.469797, "164650343", "10", "select only", 18},
		"pgbench-select-scale100.txt": {24094.993323, "1575927143", "100", "select only", 19},
	}
	for file, w := range want {
		runs, notes := readRuns(t, filepath.Join(dir, file))
		if len(runs) != 1 || len(notes) != 0 {
			t.Fatalf("%s: %d runs, notices %v", file, len(runs), notes)
		}
		r := runs[0]
		if r.Tool != "pgbench" || r.Name != w.name || r.Value != w.tps || r.Unit.Symbol != "tps" || r.Line != w.line {
			t.Errorf("%s: %s %q %v %s at line %d", file, r.Tool, r.Name, r.Value, r.Unit.Symbol, r.Line)
		}
		if r.Config["db_bytes"] != w.bytes || r.Config["scale"] != w.scale || r.Config["clients"] != "4" || r.Config["duration_s"] != "15" {
			t.Errorf("%s: config %v", file, r.Config)
		}
	}
	// select-scale10 has two progress lines, the others three.
	runs, _ := readRuns(t, filepath.Join(dir, "pgbench-select-scale10.txt"))
	if iv := runs[0].Intervals; len(iv) != 2 || iv[0].T != 5 || iv[0].Value != 20058.9 || iv[1].Value != 21514.7 {
		t.Errorf("intervals = %v", iv)
	}
	if m := runs[0].Metrics; m["latency_avg_ms"] != 0.188 || m["latency_stddev_ms"] != 0.280 {
		t.Errorf("metrics = %v", m)
	}
	if v, ok := runs[0].Key("scale"); !ok || v != "10" {
		t.Errorf("Key(scale) = %q %v", v, ok)
	}
}

func TestPgbenchTrace(t *testing.T) {
	runs, notes := readRuns(t, testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt"))
	tps := []float64{1349.556154, 973.127095, 1097.994770, 1109.089073, 201.013038}
	lines := []int{36, 51, 78, 93, 114}
	if len(runs) != len(tps) || len(notes) != 0 {
		t.Fatalf("%d runs (want %d), notices %v", len(runs), len(tps), notes)
	}
	for i, r := range runs {
		if r.Value != tps[i] || r.Line != lines[i] || r.Config["scale"] != "2" {
			t.Errorf("run %d: %v at line %d, scale %q", i, r.Value, r.Line, r.Config["scale"])
		}
	}
	if len(runs[0].Intervals) != 3 || runs[1].Config["transactions_per_client"] != "200" || runs[4].Metrics["latency_stddev_ms"] != 0.921 {
		t.Errorf("run details: %d intervals, %v, %v", len(runs[0].Intervals), runs[1].Config, runs[4].Metrics)
	}
}

func TestPgbench13(t *testing.T) {
	// PG ≤ 13 prints tps twice; the figure without connection time wins.
	in := "pgbench (13.4)\ntransaction type: <builtin: TPC-B (sort of)>\nscaling factor: 10\n" +
		"tps = 85.184871 (including connections establishing)\ntps = 85.296346 (excluding connections establishing)\n"
	runs, _ := readRunsFrom(t, strings.NewReader(in), "pg13.txt")
	if len(runs) != 1 || runs[0].Value != 85.296346 || runs[0].Line != 5 || runs[0].Metrics["tps_including_connections"] != 85.184871 {
		t.Fatalf("runs = %+v", runs)
	}
}

func TestPgbenchProgressOnly(t *testing.T) {
	in := "progress: 5.0 s, 1592.0 tps, lat 2.484 ms stddev 1.485, 0 failed\nprogress: 10.0 s, 1699.0 tps, lat 2.351 ms stddev 1.497, 0 failed\n"
	runs, notes := readRunsFrom(t, strings.NewReader(in), "stderr.txt")
	if len(runs) != 1 || runs[0].Value != 1645.5 || len(notes) != 1 || !strings.Contains(notes[0].Msg, "mean of 2 interval") {
		t.Fatalf("runs %+v notices %v", runs, notes)
	}
}

func TestPgbenchAggregateLog(t *testing.T) {
	runs, notes := readRuns(t, testutil.Corpus(t, "bench", "pgbench-aggregate-log.txt"))
	// Intervals 884, 1023, 1370 and 122 (first, partial) transactions in 1 s:
	// the two full inner intervals give (1023+884)/2.
	if len(runs) != 1 || len(runs[0].Intervals) != 4 || len(notes) != 1 {
		t.Fatalf("runs %+v notices %v", runs, notes)
	}
	if r := runs[0]; r.Value != (884+1023)/2.0 || r.Intervals[0].Value != 122 {
		t.Errorf("tps %v, first interval %v", r.Value, r.Intervals[0])
	}
}

func TestSysbench(t *testing.T) {
	runs, notes := readRuns(t, testutil.Corpus(t, "bench", "sysbench-oltp-rw.txt"))
	if len(runs) != 1 || len(notes) != 0 {
		t.Fatalf("%d runs, notices %v", len(runs), notes)
	}
	r := runs[0]
	if r.Tool != "sysbench" || r.Value != 819.85 || r.Line != 22 || r.Config["threads"] != "4" || r.Config["version"] != "1.0.20" {
		t.Errorf("run = %s %v line %d config %v", r.Tool, r.Value, r.Line, r.Config)
	}
	if len(r.Intervals) != 3 || r.Intervals[2].T != 6 || r.Intervals[2].Value != 822.18 {
		t.Errorf("intervals = %v", r.Intervals)
	}
	if r.Metrics["latency_95th_ms"] != 8.58 || r.Metrics["qps"] != 16432.77 || r.Metrics["transactions"] != 4955 {
		t.Errorf("metrics = %v", r.Metrics)
	}
}

// The HammerDB and Go lines are those quoted from the tools' sources and
// a real go test run in benchmark-formats.md.
func TestHammerDBAndGo(t *testing.T) {
	in := "warehouses=50\n" +
		"Vuser 1:5 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n" +
		"Vuser 1:TEST RESULT : System achieved 60501 SQL Server TPM at 13207 NOPM\n"
	runs, _ := readRunsFrom(t, strings.NewReader(in), "hdb.log")
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	if r := runs[0]; r.Tool != "hammerdb" || r.Value != 42332 || r.Unit.Symbol != "NOPM" || r.Metrics["tpm"] != 97427 ||
		r.Name != "TPROC-C PostgreSQL" || r.Config["warehouses"] != "50" || r.Config["vusers"] != "5" {
		t.Errorf("run 1 = %+v", r)
	}
	if r := runs[1]; r.Value != 13207 || r.Metrics["tpm"] != 60501 || r.Name != "TPROC-C SQL Server" || r.Line != 4 {
		t.Errorf("run 2 = %+v", r)
	}

	goIn := "goos: linux\ngoarch: amd64\nfbver: 3.0.11\nUnit tps better=higher\n" +
		"BenchmarkJoin/n=10-2         \t    2000\t       202.9 ns/op\t        10.00 parts/op\t      24 B/op\t       1 allocs/op\n" +
		"BenchmarkOLTP/dbsize=10GiB/clients=16 1 812.5 tps 2.95 ms-lat\n" +
		"BenchmarkRestore/dbsize=10GiB 1 oops sec/op\nPASS\nok  \tperftry/bm\t0.081s\n"
	runs, notes := readRunsFrom(t, strings.NewReader(goIn), "bench.txt")
	if len(runs) != 2 || len(notes) != 1 || notes[0].Line != 7 {
		t.Fatalf("%d runs, notices %v", len(runs), notes)
	}
	if r := runs[0]; r.Name != "Join/n=10" || r.Value != 202.9 || r.Unit.Symbol != "ns/op" || r.Config["n"] != "10" || r.Config["goos"] != "linux" {
		t.Errorf("go run 1 = %+v", r)
	}
	if r := runs[1]; r.Name != "OLTP/dbsize=10GiB/clients=16" || r.Value != 812.5 || r.Unit.Symbol != "tps" ||
		r.Config["dbsize"] != "10GiB" || r.Config["fbver"] != "3.0.11" || r.Metrics["ms-lat"] != 2.95 {
		t.Errorf("go run 2 = %+v", r)
	}
}

func TestFileNameKeys(t *testing.T) {
	k := FileNameKeys("/x/pgbench-rw-scale10.txt")
	if k["scale"] != "10" || len(k) != 1 {
		t.Errorf("keys = %v", k)
	}
	if k := FileNameKeys("oltp_size=16GB.log"); k["size"] != "16GB" {
		t.Errorf("keys = %v", k)
	}
}

func TestPgbenchTransactionLog(t *testing.T) {
	runs, notes := readRuns(t, testutil.Corpus(t, "bench", "pgbench-transaction-log.txt"))
	if len(runs) != 1 || len(notes) != 1 {
		t.Fatalf("runs %+v notices %v", runs, notes)
	}
	// 20 transactions completed between 1796221179.659196 and .734921.
	r := runs[0]
	if r.Metrics["transactions"] != 20 || r.Name != "transaction log" {
		t.Errorf("run = %+v", r)
	}
	if want := 19 / 0.075725; r.Value < want-1e-6 || r.Value > want+1e-6 {
		t.Errorf("tps = %v, want %v", r.Value, want)
	}
	// One client's transactions (client id 0 on every line): a thread's
	// file, whose tps is that client's, says so.
	if r.Config["clients"] != "1" || !strings.Contains(notes[0].Msg, "20 transactions of 1 client over 0.076 s") {
		t.Errorf("clients %q, notice %q", r.Config["clients"], notes[0].Msg)
	}
}

func TestReadThroughputSniffs(t *testing.T) {
	for _, c := range []struct {
		path         string
		tables, runs int
	}{
		{testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"), 1, 0},
		{testutil.Corpus(t, "bench", "sysbench-oltp-rw.txt"), 0, 1},
		{testutil.Corpus(t, "bench", "pgbench-aggregate-rate-log.txt"), 0, 1},
		{testutil.Corpus(t, "bench", "pgbench-transaction-log.txt"), 0, 1},
		{testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt"), 0, 5},
	} {
		f, err := os.Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		tables, runs, _, err := ReadThroughput(f, c.path)
		f.Close()
		if err != nil || len(tables) != c.tables || len(runs) != c.runs {
			t.Errorf("%s: %d tables, %d runs, %v", filepath.Base(c.path), len(tables), len(runs), err)
		}
	}
}

// A run under pgbench -R/--rate measures the schedule: the trace's last
// run (-R 200, "rate limit schedule lag: avg 0.207 (max 4.137) ms") and
// the aggregate log of that run (lag columns 7 to 10 not zero) say so in
// their Config; the others, and the unthrottled aggregate log (zeros in
// those columns), do not.
func TestPgbenchRateLimit(t *testing.T) {
	runs, _ := readRuns(t, testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt"))
	var got []string
	for _, r := range runs {
		got = append(got, fmt.Sprintf("%.0f %s", r.Value, r.Config[RateLimitKey]))
	}
	testutil.EqualLines(t, "trace runs", got, []string{"1350 ", "973 ", "1098 ", "1109 ", "201 yes"})
	if lag := runs[4].Metrics["schedule_lag_avg_ms"]; lag != 0.207 {
		t.Errorf("schedule lag %v, want 0.207", lag)
	}
	for file, want := range map[string]string{"pgbench-aggregate-rate-log.txt": "yes", "pgbench-aggregate-log.txt": ""} {
		runs, _ := readRuns(t, testutil.Corpus(t, "bench", file))
		if len(runs) != 1 {
			t.Fatalf("%s: %d runs", file, len(runs))
		}
		if got := runs[0].Config[RateLimitKey]; got != want {
			t.Errorf("%s: rate_limited %q, want %q", file, got, want)
		}
	}
}
