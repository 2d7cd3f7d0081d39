package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The pgbench 15 trace holds five runs, all "scaling factor: 2", with 4
// or 2 clients: they were read as a degradation against scale with one
// size, every fit failing. A size key that does not vary is no x.
func TestRunsConstantScaleIsNoDegradation(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Throughput(readString(t, "trace.txt", string(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// (the fifth, under -R 200, is left out)
	if r.Mode != ModeAB || len(r.Series) != 1 || len(r.Series[0].Points) != 4 {
		t.Fatalf("mode %s, %d series", r.Mode, len(r.Series))
	}
	var ys []float64
	for _, p := range r.Series[0].Points {
		ys = append(ys, p.Y)
	}
	want := []float64{1349.556154, 973.127095, 1097.994770}
	for i, w := range want {
		near(t, "tps", ys[i], w, 1e-6)
	}
	// --x clients makes it the sweep it is.
	r, err = Throughput(readString(t, "trace.txt", string(data)), Options{X: "clients"})
	if err != nil || r.Mode != ModeSweep {
		t.Fatalf("--x clients: %v, %+v", err, r)
	}
}

// The trace's last run (-R 200) ran at the rate it was given: its 201 tps
// beside the others read "-82.3 % slower". It is left out with a notice,
// and so is the aggregate log of that run; a throttled run alone is no
// analysis.
func TestRunsUnderRateLimitLeftOut(t *testing.T) {
	trace := testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt")
	rate := testutil.Corpus(t, "bench", "pgbench-aggregate-rate-log.txt")
	in := readInput(t, trace, rate)
	r, err := Throughput(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ys []string
	for _, s := range r.Series {
		for _, p := range s.Points {
			ys = append(ys, fmt.Sprintf("%.0f", p.Y))
		}
	}
	testutil.EqualLines(t, "tps kept", ys, []string{"1350", "973", "1098", "1109"})
	var left []string
	for _, n := range r.Notices {
		if strings.Contains(n.Msg, "rate limit") {
			left = append(left, fmt.Sprintf("%s:%d: %s", filepath.Base(n.File), n.Line, n.Msg))
		}
	}
	testutil.EqualLines(t, "notices", left, []string{
		"pgbench15-runs-trace.txt:114: tps 201 under a rate limit (pgbench -R): the schedule's rate, not the server's capacity: left out",
		"pgbench-aggregate-rate-log.txt:1: tps 194 under a rate limit (pgbench -R): the schedule's rate, not the server's capacity: left out",
	})
	if _, err := Throughput(readInput(t, rate), Options{}); err == nil || !strings.Contains(err.Error(), "every run was made under a rate limit") {
		t.Errorf("rate log alone: %v", err)
	}
}

// The trace's runs at -c 4 -j 2, -c 2 -j 1 (twice: -t 200 and -T 4, a
// length only) and -c 2 -j 2 were one configuration, "pgbench15-runs-trace"
// of five runs; each is now the configuration its settings make, the
// settings first: a label cut to fit (text's 32 columns) kept the common
// "pgbench15-runs-trace clients=2 …" and lost what told two apart.
func TestRunsLabelledBySettingsThatDiffer(t *testing.T) {
	r, err := Throughput(readInput(t, testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range r.Series[0].Points {
		got = append(got, fmt.Sprintf("%s %.0f", p.Label, p.Y))
	}
	testutil.EqualLines(t, "runs", got, []string{
		"clients=4 threads=2 · pgbench15-runs-trace 1350",
		"clients=2 threads=1 · pgbench15-runs-trace 973",
		"clients=2 threads=2 · pgbench15-runs-trace 1098",
		"clients=2 threads=1 · pgbench15-runs-trace 1109",
	})
	var ab []string
	for _, e := range r.Series[0].AB {
		ab = append(ab, fmt.Sprintf("%s n=%d", e.Label, e.After.N))
	}
	testutil.EqualLines(t, "configurations", ab, []string{
		"clients=2 threads=1 · pgbench15-runs-trace n=2",
		"clients=2 threads=2 · pgbench15-runs-trace n=1",
	})
}

// fbdiag bench's runs at terminals 1 and 4 and page buffers 256 to 4096
// were fitted as one size degradation ("lost per size doubling 69.6 %",
// a prediction of -5097 tpmC); the warehouses (1 and 2) make the size, the
// duration is a length: one series per configuration, and a warning.
func TestBenchRunsOneSeriesPerConfiguration(t *testing.T) {
	dir := testutil.Testdata(t, "bench")
	paths := []string{filepath.Join(dir, "page_buffers-512-run1.jsonl"), filepath.Join(dir, "run-w1-t1-1s.jsonl"), filepath.Join(dir, "run-w1-t4.jsonl")}
	more, _ := filepath.Glob(filepath.Join(dir, "sweep-w1", "*.jsonl"))
	r, err := Throughput(readInput(t, append(paths, more...)...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Series {
		got = append(got, fmt.Sprintf("%s: %d", s.Name, len(s.Points)))
	}
	testutil.EqualLines(t, "series", got, []string{
		"terminals=4 page_buffers=512 · fbdiag bench TPC-C-like (sp): 1",
		"terminals=1 page_buffers=2048 · fbdiag bench TPC-C-like (sp): 1",
		"terminals=4 page_buffers=2048 · fbdiag bench TPC-C-like (sp): 1",
		"terminals=4 page_buffers=256 · fbdiag bench TPC-C-like (sp): 3",
		"terminals=4 page_buffers=4096 · fbdiag bench TPC-C-like (sp): 3",
	})
	if r.Mode != ModeDegradation || !slices.Contains(r.Warnings, "the runs differ in terminals, page_buffers besides db_bytes: one series per configuration") {
		t.Errorf("mode %s, warnings %q", r.Mode, r.Warnings)
	}
}

// HammerDB's autopilot runs one test per virtual-user count, each result
// line after "Vuser 1:N Active Virtual Users configured". Runs at 4, 8, 16
// and 32 virtual users were one configuration, "NOPM 60750 (median of 4
// runs)", a step of the sweep read as a repeat; each is now its own
// configuration, labelled by its virtual users, and --x vusers sweeps.
func TestHammerDBVirtualUsersAreASetting(t *testing.T) {
	log := "Vuser 1:Beginning rampup time of 2 minutes\n" +
		"Vuser 1:4 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n" +
		"Vuser 1:8 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 61500 NOPM from 141000 PostgreSQL TPM\n" +
		"Vuser 1:16 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 65000 NOPM from 150100 PostgreSQL TPM\n" +
		"Vuser 1:32 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 60000 NOPM from 139000 PostgreSQL TPM\n"
	r, err := Throughput(readString(t, "hdb.log", log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeAB || len(r.Series) != 1 {
		t.Fatalf("mode %s, %d series", r.Mode, len(r.Series))
	}
	var got []string
	for _, e := range r.Series[0].AB {
		got = append(got, fmt.Sprintf("%s vs %s n=%d ratio %.3f", e.Label, e.Baseline, e.After.N, e.Ratio))
	}
	testutil.EqualLines(t, "configurations", got, []string{
		"vusers=8 · hdb vs vusers=4 · hdb n=1 ratio 1.453",
		"vusers=16 · hdb vs vusers=4 · hdb n=1 ratio 1.535",
		"vusers=32 · hdb vs vusers=4 · hdb n=1 ratio 1.417",
	})
	r, err = Throughput(readString(t, "hdb.log", log), Options{X: "vusers"})
	if err != nil || r.Mode != ModeSweep || r.Series[0].Sweep == nil || r.Series[0].Sweep.Best.X != 16 {
		t.Fatalf("--x vusers: %v, %+v", err, r)
	}
}
