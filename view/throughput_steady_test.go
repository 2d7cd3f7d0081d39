package view

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A run judged by its interval reports has its verdict in the CSV, as
// JSON's points[].steady_verdict.
func TestThroughputCSVSteadyVerdict(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "pgbench-select-progress.txt"), testutil.Testdata(t, "bench", "pgbench-tpcb-progress.txt"))
	csv := write(t, CSV, Options{}, Throughput(r, "x"))
	for _, want := range []string{
		"series,configuration,tps,source,steady,steady_verdict\n",
		",pgbench-tpcb-progress.txt:30,false,not steady: throughput fell by 42.7% of its mean across its interval reports (more than 10%)\n",
	} {
		if !strings.Contains(csv, want) {
			t.Errorf("csv lacks %q:\n%s", want, csv)
		}
	}
}

// An A/B headline counts the runs not steady among those judged: a run
// of three progress lines is not judged, and "1 of 2 runs not steady"
// would say it was steady.
func TestThroughputABUnsteadyOfJudged(t *testing.T) {
	r := throughputResult(t, analyze.Options{Mode: analyze.ModeAB, X: "none"}, testutil.Testdata(t, "bench", "pgbench-tpcb-progress.txt"),
		testutil.Corpus(t, "bench", "pgbench-scales", "pgbench-rw-scale1.txt"))
	f := fieldOf(t, Throughput(r, "x"), "change")
	if f.Detail != "(×0.831, slower; 1 run each, no test; 1 of 2 runs not steady, 1 judged)" {
		t.Errorf("headline %q %q", f.Value.Human(), f.Detail)
	}
}
