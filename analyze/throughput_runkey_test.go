package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
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
	in := readFiles(t, trace, rate)
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
	if _, err := Throughput(readFiles(t, rate), Options{}); err == nil || !strings.Contains(err.Error(), "every run was made under a rate limit") {
		t.Errorf("rate log alone: %v", err)
	}
}

// readFiles reads benchmark files as fbdiag throughput does.
func readFiles(t *testing.T, paths ...string) Input {
	t.Helper()
	var in Input
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		tables, runs, notes, err := parse.ReadThroughput(f, p)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		in.Tables = append(in.Tables, tables...)
		in.Runs = append(in.Runs, runs...)
		in.Notices = append(in.Notices, notes...)
	}
	return in
}
