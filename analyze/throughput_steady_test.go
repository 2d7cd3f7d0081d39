package analyze

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// pgbench and sysbench print their throughput at intervals (-P,
// --report-interval); fbdiag judges those by the rule it judges its
// own runs' windows by. Two real PostgreSQL 15 runs (capture-pgbench.sh):
// the select-only one steady, the TPC-B-like one falling from some 2,300
// to 1,100 tps halfway.
func TestThroughputIntervalsSteady(t *testing.T) {
	dir := testutil.Testdata(t, "bench") + string(filepath.Separator)
	r := analyse(t, Options{}, dir+"pgbench-select-progress.txt", dir+"pgbench-tpcb-progress.txt")
	pts := r.Series[0].Points
	if len(pts) != 2 || pts[0].Steady == nil || !*pts[0].Steady || pts[0].SteadyVerdict != "steady" ||
		pts[1].Steady == nil || *pts[1].Steady ||
		pts[1].SteadyVerdict != "not steady: throughput fell by 42.7% of its mean across its interval reports (more than 10%)" {
		t.Fatalf("points %+v", pts)
	}
	want := "1 of 2 runs was not steady by its own interval reports (rule bench-steady-state, each report a block): " +
		"pgbench-tpcb-progress.txt:30 (throughput fell by 42.7% of its mean across its interval reports (more than 10%))"
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(strings.ReplaceAll(w, dir, ""), want) }) {
		t.Errorf("warnings %q", r.Warnings)
	}
	// The comparison counts the run that was not steady.
	if ab := r.Series[0].AB; len(ab) != 1 || ab[0].Unsteady != 1 || ab[0].Judged != 2 {
		t.Errorf("A/B %+v", ab)
	}
	// The rates judged are the 15 reports of 2 s.
	st := intervalsSteady(readInput(t, testutil.Testdata(t, "bench", "pgbench-tpcb-progress.txt")).Runs[0].Intervals)
	if st.Blocks != 15 || st.Rates[0] != 1338.9 || st.Rates[14] != 1760.6 || st.CV == nil || *st.CV < 0.25 {
		t.Errorf("test %+v", st)
	}
}

// Three progress lines are too few to judge (min_blocks 5), but a first
// and a last 52 % apart are worth a line: pgbench15-runs-trace's first
// run, 1101 then 1679 tps, a warm-up its 1350 tps averages in. Runs
// whose few reports agree get none (the rate-limited run's 193, 198,
// 201).
func TestThroughputFewIntervals(t *testing.T) {
	dir := testutil.Corpus(t, "bench") + string(filepath.Separator)
	r := analyse(t, Options{}, dir+"pgbench15-runs-trace.txt")
	want := "1 run prints too few interval reports to judge a steady state (rule bench-steady-state needs 5) and its first and last differ by more than a steady run drifts (10 %): " +
		"pgbench15-runs-trace.txt:36 1101 → 1679 tps (+52 %, 3 reports)"
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(strings.ReplaceAll(w, dir, ""), want) }) {
		t.Errorf("warnings %q", r.Warnings)
	}
	for _, s := range r.Series {
		for _, p := range s.Points {
			if p.Steady != nil {
				t.Errorf("%s: judged on 3 reports: %v", p.Source, *p.Steady)
			}
		}
	}
	// An aggregate log's first and last intervals are partial: left out,
	// as from its figure (884 and 1023 tps of the 4 lines).
	st := intervalsSteady(readInput(t, testutil.Corpus(t, "bench", "pgbench-aggregate-log.txt")).Runs[0].Intervals)
	if len(st.Rates) != 2 || st.Rates[0] != 884 || st.Rates[1] != 1023 {
		t.Errorf("aggregate log rates %v", st.Rates)
	}
}

// A run whose first and last reports are 10.07 % apart passed the 10 %
// a steady run may drift: its change is not rounded onto the limit
// (pgbench-rw-scale100.txt's 1512.6 → 1360.3 tps read "-10 %" beside
// "by more than a steady run drifts (10 %)").
func TestThroughputFewIntervalsPastLimit(t *testing.T) {
	dir := testutil.Corpus(t, "bench", "pgbench-scales") + string(filepath.Separator)
	r := analyse(t, Options{}, dir+"pgbench-rw-scale100.txt", dir+"pgbench-rw-scale25.txt")
	for _, want := range []string{"pgbench-rw-scale100.txt:19 1513 → 1360 tps (-10.1 %, 3 reports)", "pgbench-rw-scale25.txt:19 1381 → 1776 tps (+29 %, 3 reports)"} {
		if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(strings.ReplaceAll(w, dir, ""), want) }) {
			t.Errorf("no %q in warnings %q", want, r.Warnings)
		}
	}
}
