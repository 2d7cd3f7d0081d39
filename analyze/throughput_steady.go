package analyze

import (
	"fmt"

	"github.com/fbdiag/fbdiag/parse"
)

// intervalsSteady judges a benchmark run by its own interval reports
// (pgbench -P progress lines, sysbench --report-interval lines, the
// intervals of pgbench's aggregate log) with the rule fbdiag bench
// judges its window by (bench-steady-state), each interval a block: its
// throughput drifts across the run by no more than max_drift of its mean
// and its intervals vary by no more than max_cv. A run's figure is the
// mean over all its intervals, warm-up included (pgbench and sysbench
// have none of their own), so a run still warming up is not steady.
// Fewer than min_blocks intervals are not judged (st.Verdict says so).
func intervalsSteady(iv []parse.Interval) SteadyTest {
	th := NewThresholds()
	st := SteadyTest{
		MaxDrift:  th.Get("bench-steady-state", "max_drift"),
		MaxCV:     th.Get("bench-steady-state", "max_cv"),
		MinBlocks: int(th.Get("bench-steady-state", "min_blocks")),
		Rates:     make([]float64, 0, len(iv)),
	}
	for _, i := range iv {
		if !i.Partial { // (as the run's figure: an aggregate log's ends)
			st.Rates = append(st.Rates, i.Value)
		}
	}
	st.Blocks = len(st.Rates)
	if st.Blocks < st.MinBlocks || st.Blocks < 2 {
		st.Verdict = fmt.Sprintf("not judged: %d interval reports, fewer than %d", st.Blocks, st.MinBlocks)
		return st
	}
	if !st.level("its interval reports", "its interval reports") {
		st.Verdict = "not judged: no throughput in its interval reports"
	}
	return st
}

// judged says whether st gave a verdict, steady or not.
func (st *SteadyTest) judged() bool { return st.Drift != nil }

// fewIntervalsMoved says, of a run with too few interval reports to
// judge (intervalsSteady), whether its first and last differ by more than
// the drift a steady run may have, and by how much: a fact about the
// run worth a line, not a verdict (three points cannot tell a trend from
// noise).
func fewIntervalsMoved(st *SteadyTest) (float64, bool) {
	if st.judged() || len(st.Rates) < 2 || !(st.Rates[0] > 0) {
		return 0, false
	}
	change := st.Rates[len(st.Rates)-1]/st.Rates[0] - 1
	return change, change > st.MaxDrift || change < -st.MaxDrift
}
