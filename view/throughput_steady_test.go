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
