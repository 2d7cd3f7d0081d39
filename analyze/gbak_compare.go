package analyze

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// GbakRun is one log of a comparison; runs with the same Label are
// repeated runs of one side (one configuration).
//
// Steps, when set, are the run's steps as a comparison keeps them: the
// Timeline's Steps are then not read (a streamed timeline has none).
type GbakRun struct {
	Label    string
	Timeline *Timeline
	Steps    *GbakRunSteps
}

// GbakRunSummary describes one run of a comparison. SpanSeconds is the
// time covered by the steps found in every run: from the start of the
// first to the end of the last (its start when its cost is unknown, or
// only a lower bound, in any run).
//
// TotalSeconds is the run's total, null for an incomplete log (see
// Timeline.TotalSeconds), whose LastTimeSeconds is only when its last
// line was printed; for a run that failed before its closing line it is
// a lower bound (Timeline.TotalLowerBound), not compared, and
// TotalLowerBound says so, as gbak's JSON does.
type GbakRunSummary struct {
	Label           string   `json:"label"`
	File            string   `json:"file"`
	Kind            *string  `json:"kind"`
	Outcome         string   `json:"outcome"`
	TotalSeconds    *float64 `json:"total_seconds"`
	TotalLowerBound bool     `json:"total_lower_bound,omitempty"`
	LastTimeSeconds *float64 `json:"last_time_seconds"`
	SpanSeconds     *float64 `json:"span_seconds"`
	Matched         int      `json:"matched_steps"`
	Unmatched       int      `json:"unmatched_steps"`
}

// GbakSide groups the runs of one label.
type GbakSide struct {
	Label string `json:"label"`
	Runs  int    `json:"runs"`
}

// GbakStepComparison sets one step (or a total) side by side. Seconds has
// one value per run, nil where the step is absent or its cost unknown;
// Median one per side. The first side is the baseline: Versus compares
// every other side with it, and Ratio, Change, Difference, P, PAdjusted,
// Significant, Direction, Verdict and Warnings repeat Versus[0], the
// second side against the baseline: Ratio = median(second) /
// median(base), so 1.848 means the second side took 1.848 times as long.
type GbakStepComparison struct {
	Key     string     `json:"key"`
	Name    string     `json:"name"`
	Kind    string     `json:"kind"`
	Seconds []*float64 `json:"seconds"`
	Median  []*float64 `json:"median"`
	// Spread is benchstat's "± x %" of each side: the 95 % interval of
	// the median, nil below 6 runs (benchstat's "± ∞"). Range is each
	// side's [min, max], nil with one run.
	Spread []*float64    `json:"spread"`
	Range  []*[2]float64 `json:"range"`
	GbakVersus
	Versus []GbakVersus `json:"versus"`
	// Only is the label of the only side the step appears in.
	Only *string `json:"only"`
}

// GbakVersus compares one side with the baseline (the first side).
type GbakVersus struct {
	// Side is the label of the side compared with the baseline.
	Side string `json:"side"`
	// Ratio is median(side) / median(base); Change is (side − base) /
	// base and Difference side − base, in seconds.
	Ratio      *float64 `json:"ratio"`
	Change     *float64 `json:"change"`
	Difference *float64 `json:"difference"`
	P          *float64 `json:"p"`
	// PAdjusted is P adjusted over every test of the comparison (see
	// GbakComparison.Adjustment); Significant is PAdjusted ≤ Alpha.
	PAdjusted   *float64 `json:"p_adjusted"`
	Significant bool     `json:"significant"`
	// Direction is "slower" (Ratio above 1), "faster" (below) or "same";
	// empty without a ratio. Lower is better: these are durations.
	Direction string `json:"direction,omitempty"`
	// Verdict is benchstat's wording: "+84.84% (n=1+1, no test)",
	// "~ (p_adj=0.109 n=5+5)".
	Verdict  string   `json:"verdict,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// WithinClock is set when a side of one run differs from the
	// baseline by no more than gbak's 1 ms clock can tell (withinClock),
	// or when every run of both sides took under gbak-compare.min_seconds
	// (allUnderClock: no test): Direction is then "same" and the word
	// "~", whatever the ratio.
	WithinClock bool `json:"within_clock,omitempty"`

	cmp Comparison
}

// Word is the one word a table or a chart shows for the comparison: "~"
// when a test found no significant difference (benchstat's mark) or the
// difference is within gbak's clock (WithinClock), else the Direction
// ("slower", "faster", "same"); "" without a ratio.
func (v *GbakVersus) Word() string {
	if v.WithinClock || v.P != nil && !v.Significant {
		return "~"
	}
	return v.Direction
}

// GbakComparison compares two or more gbak runs step by step.
type GbakComparison struct {
	Runs []GbakRunSummary `json:"runs"`
	// Sides are the labels, the baseline first.
	Sides []GbakSide `json:"sides"`
	// Base is the label of the baseline: every ratio is other / base.
	Base string `json:"base"`
	// Totals compares total_seconds and the span of the matched steps.
	Totals []GbakStepComparison `json:"totals"`
	Steps  GbakSteps            `json:"steps"`
	// Tests counts the Mann-Whitney tests of the steps (one per step and
	// side after the baseline); Adjustment is how their p were adjusted
	// for that number (benjamini-hochberg: of the steps called
	// significant, at most 5 % are expected to be so by chance). The
	// totals answer the question asked, one test each, and are not
	// adjusted.
	Tests      int      `json:"tests"`
	Adjustment string   `json:"adjustment"`
	Warnings   []string `json:"warnings"`
	// notSharing is the first run with no table or index step in common
	// with the first run, -1 when every run has one (SharesObjects).
	notSharing int
	// untimed marks the runs whose log has no time or delta column
	// (Untimed).
	untimed []bool
	// inactiveDiffer: the runs' restores left different numbers of
	// indices inactive (InactiveIndicesDiffer).
	inactiveDiffer bool
}

// InactiveIndicesDiffer reports whether the runs' restores left different
// numbers of indices inactive: their times compare restores that did not
// do the same work (a warning says which).
func (c *GbakComparison) InactiveIndicesDiffer() bool { return c.inactiveDiffer }

// Untimed reports whether the run's log (a position of Runs) has neither
// a time nor a delta column: none of its steps has a cost, and a warning
// says so.
func (c *GbakComparison) Untimed(run int) bool { return run < len(c.untimed) && c.untimed[run] }

// Slowest returns the n steps with the largest median on any side.
func (c *GbakComparison) Slowest(n int) []GbakStepComparison {
	s := []GbakStepComparison{}
	for _, i := range c.Steps.Slowest() {
		if c.Steps.top[i] < 0 || n >= 0 && len(s) == n {
			break
		}
		s = append(s, c.Steps.At(int(i)))
	}
	return s
}

// ErrNoBase is a baseline label that no run has.
var ErrNoBase = errors.New("no run has the baseline's label")

// CompareTimelines matches the steps of several runs by kind and object
// name (the n-th occurrence with the n-th) and compares their costs. The
// first label met is the baseline: every other side is compared with it.
func CompareTimelines(runs ...GbakRun) *GbakComparison {
	c, _ := CompareTimelinesBase("", runs...)
	return c
}

// CompareTimelinesBase is CompareTimelines with the side labelled base as
// the baseline ("" for the first); a label no run has is ErrNoBase.
func CompareTimelinesBase(base string, runs ...GbakRun) (*GbakComparison, error) {
	c := &GbakComparison{Runs: []GbakRunSummary{}, Sides: []GbakSide{}, Warnings: []string{}}
	if base != "" && !slices.ContainsFunc(runs, func(r GbakRun) bool { return r.Label == base }) {
		var labels []string
		for _, r := range runs {
			if !slices.Contains(labels, r.Label) {
				labels = append(labels, r.Label)
			}
		}
		return nil, fmt.Errorf("%w: %q (the labels are %s)", ErrNoBase, base, strings.Join(labels, ", "))
	}
	sideOf := make([]int, len(runs))
	sideIdx := map[string]int{}
	if base != "" {
		sideIdx[base] = 0
		c.Sides = append(c.Sides, GbakSide{Label: base})
	}
	for i, r := range runs {
		s, ok := sideIdx[r.Label]
		if !ok {
			s = len(c.Sides)
			sideIdx[r.Label] = s
			c.Sides = append(c.Sides, GbakSide{Label: r.Label})
		}
		c.Sides[s].Runs++
		sideOf[i] = s
	}
	if len(c.Sides) > 0 {
		c.Base = c.Sides[0].Label
	}
	for _, r := range runs[1:] {
		if k0, k := runs[0].Timeline.Kind, r.Timeline.Kind; k0 != nil && k != nil && *k0 != *k {
			c.Warnings = append(c.Warnings, "comparing a "+*k0+" with a "+*k+": only steps of the same kind and name match")
			break
		}
	}
	if len(c.Sides) < 2 {
		c.Warnings = append(c.Warnings, "all runs have one label: nothing to compare them with")
	}
	// A log without a time or delta column (gbak run without -st, or
	// with -st r, w) gives no step a cost: its blanks are not lines
	// missing, and the fix is gbak's switch.
	var untimed []string
	c.untimed = make([]bool, len(runs))
	for i, r := range runs {
		if !strings.ContainsAny(r.Timeline.Columns, "TD") {
			c.untimed[i] = true
			untimed = append(untimed, filepath.Base(r.Timeline.File))
		}
	}
	if len(untimed) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("no time or delta column in %s (gbak run without -st, or with -st r or w alone): "+
			"no step of theirs has a cost to compare; run gbak with -st tdrw (Firebird 2.5.5 and later)", strings.Join(untimed, ", ")))
	}
	c.Steps = newGbakSteps(c, runs, sideOf)
	c.shareObjects(runs)
	c.inactiveIndices(runs)
	matched := make([]int, len(runs))
	lo := make([]float64, len(runs))
	hi := make([]float64, len(runs))
	for i := range runs {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	st := &c.Steps
	for row := range st.n {
		at := st.at[row*len(runs) : (row+1)*len(runs)]
		if slices.Contains(at, -1) {
			continue
		}
		// The step's cost counts in the span of every run or of none:
		// a run whose cost is unknown or only a bound (a log cut inside
		// ORDER_LINE, a run that failed there) ends it at the step's
		// start, and the others must too. The span of a restore cut at
		// 9.122 s inside ORDER_LINE read 9.122 s against the whole
		// run's 28.629 s, "×0.319 faster" for the same run.
		known := true
		for run, i := range at {
			if f := st.runs[run].steps[i].flags; f&hasSeconds == 0 || f&lowerBound != 0 {
				known = false
			}
		}
		for run, i := range at {
			s := &st.runs[run].steps[i]
			matched[run]++
			if s.flags&hasStart == 0 {
				// A line without the time column (3.0's closing
				// "adjusting the ONLINE and FORCED WRITES flags")
				// neither starts nor ends the span.
				continue
			}
			end := s.start
			if known {
				end += s.sec
			}
			lo[run] = math.Min(lo[run], s.start)
			hi[run] = math.Max(hi[run], end)
		}
	}
	total := GbakStepComparison{Key: "total", Name: "total seconds", Seconds: make([]*float64, len(runs))}
	last := GbakStepComparison{Key: "last_time", Name: "last timestamp (log incomplete)", Seconds: make([]*float64, len(runs))}
	span := GbakStepComparison{Key: "span", Name: "span of matched steps", Seconds: make([]*float64, len(runs))}
	var incomplete, failed []string
	lastKeys := map[string]bool{}
	for i, r := range runs {
		t := r.Timeline
		rs := GbakRunSummary{Label: r.Label, File: t.File, Kind: t.Kind, Outcome: t.Outcome,
			TotalSeconds: t.TotalSeconds, TotalLowerBound: t.TotalLowerBound, LastTimeSeconds: t.LastTimeSeconds, Matched: matched[i], Unmatched: len(st.runs[i].steps) - matched[i]}
		if hi[i] >= lo[i] {
			rs.SpanSeconds = f64(round3(hi[i] - lo[i]))
		}
		c.Runs = append(c.Runs, rs)
		total.Seconds[i], last.Seconds[i], span.Seconds[i] = rs.TotalSeconds, rs.LastTimeSeconds, rs.SpanSeconds
		if rs.TotalSeconds == nil && rs.LastTimeSeconds != nil {
			incomplete = append(incomplete, filepath.Base(t.File))
		}
		if t.TotalLowerBound {
			// A bound is no total to set against another: the public
			// 07 backup, failed at least 558.685 s in, read "×255
			// slower" than a whole 2.194 s backup, and a run failed
			// early would read faster.
			total.Seconds[i] = nil
			failed = append(failed, filepath.Base(t.File))
		}
		if n := len(st.runs[i].steps); n > 0 {
			lastKeys[st.runs[i].steps[n-1].key] = true
		}
	}
	c.compareRow(&total, sideOf)
	c.compareRow(&span, sideOf)
	c.Totals = []GbakStepComparison{total}
	if len(failed) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("failed before their closing line: %s; "+
			"gbak stopped after their last timestamp, when the log does not say: their total is at least that and not compared", strings.Join(failed, ", ")))
	}
	if len(incomplete)+len(failed) > 0 {
		// The last timestamps of excerpts compare only when they end at
		// the same step: then they are the time to reach it.
		if len(incomplete) > 0 {
			c.Warnings = append(c.Warnings, fmt.Sprintf("incomplete logs (no closing line): %s; "+
				"their last timestamps are when the last line shown was printed, not the run's total", strings.Join(incomplete, ", ")))
		}
		if len(lastKeys) == 1 {
			c.compareRow(&last, sideOf)
		} else {
			c.Warnings = append(c.Warnings, "the logs end at different steps: their last timestamps are not compared")
		}
		c.Totals = append(c.Totals, last)
	}
	c.Totals = append(c.Totals, span)
	c.adjust()
	return c, nil
}

// adjust ranks the steps for Slowest and adjusts their p for their
// number, making each row once: with repeated runs a restore of 46 steps
// runs 46 tests (per side after the baseline), and at Alpha 0.05 two of
// them would come out "significant" by chance. The rows are made again
// when they are read (GbakSteps.At): the adjusted p are kept, one per
// row and side after the baseline.
func (c *GbakComparison) adjust() {
	st := &c.Steps
	per := len(c.Sides) - 1
	var ps []*float64
	if per > 0 {
		ps = make([]*float64, 0, st.n*per)
	}
	st.top = make([]float64, st.n)
	var row GbakStepComparison
	for i := range st.n {
		st.row(i, &row)
		st.top[i] = topMedian(&row)
		for j := range row.Versus {
			ps = append(ps, row.Versus[j].cmp.P)
		}
	}
	st.sortSlowest()
	c.Adjustment = BenjaminiHochberg
	n := countTests(ps)
	c.Tests = n
	if n < 2 {
		return // a single test: its p is its adjusted p
	}
	st.padj = make([]float64, len(ps))
	for i, adj := range AdjustP(ps, c.Adjustment) {
		st.padj[i] = math.NaN()
		if adj != nil {
			st.padj[i] = *adj
		}
	}
}

// adjusted sets the adjusted p of a row made again (see adjust) as
// AdjustComparisons does.
func (s *GbakSteps) adjusted(i int, row *GbakStepComparison) {
	per := len(s.c.Sides) - 1
	for j := range row.Versus {
		v := &row.Versus[j]
		if s.padj != nil && !math.IsNaN(s.padj[i*per+j]) {
			v.cmp.setAdjusted(s.padj[i*per+j], s.c.Adjustment, s.c.Tests)
		}
		if v.P == nil {
			continue
		}
		v.PAdjusted, v.Significant = v.cmp.PAdjusted, v.cmp.Significant
		v.Verdict = v.verdict()
	}
	if len(row.Versus) > 0 {
		row.GbakVersus = row.Versus[0]
	}
}

// compareRow fills the per-side medians and the comparison of every side
// after the baseline with it, through Summarize and Compare.
func (c *GbakComparison) compareRow(row *GbakStepComparison, sideOf []int) {
	vals := make([][]float64, len(c.Sides))
	for run, v := range row.Seconds {
		if v != nil {
			vals[sideOf[run]] = append(vals[sideOf[run]], *v)
		}
	}
	row.Median = make([]*float64, len(c.Sides))
	row.Spread = make([]*float64, len(c.Sides))
	row.Range = make([]*[2]float64, len(c.Sides))
	for s, xs := range vals {
		if len(xs) == 0 {
			continue
		}
		sum := Summarize(xs)
		row.Median[s] = f64(halfMs(sum.Median))
		if sp := sum.Spread(); !math.IsNaN(sp) {
			row.Spread[s] = f64(sp)
		}
		if sum.N > 1 {
			row.Range[s] = &[2]float64{sum.Min, sum.Max}
		}
	}
	row.Versus = []GbakVersus{}
	for s := 1; s < len(c.Sides); s++ {
		row.Versus = append(row.Versus, versus(c.Sides[s].Label, vals[0], vals[s], row.Median[0], row.Median[s]))
	}
	if len(row.Versus) > 0 {
		row.GbakVersus = row.Versus[0]
	}
}

// halfMs rounds a median of gbak's times to its resolution: a time is
// whole milliseconds, so a median is, or the mean of two, a half
// millisecond (36.2835, not 36.283500000000004).
func halfMs(v float64) float64 {
	if !(math.Abs(v) < 1<<52/2000) { // (NaN, or too large to have halves left)
		return v
	}
	return math.Round(v*2000) / 2000
}

// versus compares the values of one side with the baseline's.
func versus(side string, base, other []float64, mb, mo *float64) GbakVersus {
	v := GbakVersus{Side: side}
	if len(base) == 0 || len(other) == 0 {
		return v
	}
	v.Difference = f64(round3(*mo - *mb))
	untested := len(base) < 2 || len(other) < 2
	if *mb == 0 {
		// No ratio to a zero cost, but a direction and a test all the
		// same: the baseline's 0.000 s against 0.021 s read nothing, where
		// the runs the other way round read "faster, p_adj 0.028".
		switch {
		case untested && withinClock(*mb, *mo) || !untested && allUnderClock(base, other):
			v.sameByClock(len(base), len(other))
		case *mo > 0:
			v.Direction = "slower"
			v.cmp = Comparison{N1: len(base), N2: len(other), Test: "none"}
			if !untested {
				v.cmp = Compare(base, other)
				honestSmallN(&v.cmp)
			}
			v.P, v.PAdjusted, v.Significant, v.Warnings = v.cmp.P, v.cmp.PAdjusted, v.cmp.Significant, v.cmp.Warnings
			v.Verdict = v.verdict()
		}
		return v
	}
	cmp := Compare(base, other) // Ratio = median(other)/median(base)
	honestSmallN(&cmp)
	clockOnly := !untested && allUnderClock(base, other)
	if clockOnly {
		// not tested: see allUnderClock
		cmp.P, cmp.PAdjusted, cmp.Significant, cmp.Test, cmp.Warnings = nil, nil, false, "none", nil
	}
	v.cmp = cmp
	v.Ratio = f64(cmp.Ratio)
	v.Change = f64(cmp.Delta)
	switch {
	case cmp.Ratio > 1:
		v.Direction = "slower"
	case cmp.Ratio < 1:
		v.Direction = "faster"
	default:
		v.Direction = "same"
	}
	v.P, v.PAdjusted, v.Significant = cmp.P, cmp.PAdjusted, cmp.Significant
	v.Verdict = cmp.String()
	v.Warnings = cmp.Warnings
	if untested && withinClock(*mb, *mo) || clockOnly {
		v.sameByClock(len(base), len(other))
	}
	return v
}

// verdict is benchstat's wording of the comparison, as Comparison's
// String, but for a baseline of 0 s, which has no change in per cent:
// the difference in seconds instead ("+0.021 s (p_adj=0.028 n=5+5)").
func (v *GbakVersus) verdict() string {
	if v.Ratio != nil || v.Difference == nil {
		return v.cmp.String()
	}
	return v.cmp.stated(fmt.Sprintf("%+.3f s", *v.Difference))
}

// allUnderClock says whether every run of both sides took less than
// gbak-compare.min_seconds, where gbak's clock measures itself more
// than the step (withinClock). Such a step is not tested: read from the
// time column, its runs scatter over a tick or two (0.000, 0.001) and a
// test of each would only dilute the adjustment of the steps that take
// time (five data steps 5+5 runs apart, p = 2/252, went from p_adj
// 0.027 to 0.051 over 18 such tests). The filter looks at the pooled
// runs only, not at which side each came from, so the adjusted p of the
// others stay valid (independent filtering: Bourgon, Gentleman and
// Huber, PNAS 107(21), 2010).
func allUnderClock(base, other []float64) bool {
	small := NewThresholds().Get("gbak-compare", "min_seconds")
	for _, xs := range [][]float64{base, other} {
		for _, x := range xs {
			if !(x < small) {
				return false
			}
		}
	}
	return true
}

// honestSmallN withdraws a "significant" verdict that the exact test could
// not give at these sample sizes. With tied values (identical step times,
// common at gbak's millisecond resolution) Compare falls back to the normal
// approximation, which can print p < 0.05 for 3+3 runs although no
// arrangement of 3+3 values reaches p below 0.100.
func honestSmallN(c *Comparison) {
	if c.P == nil || !c.Significant || 2/binom(c.N1+c.N2, c.N1) <= Alpha {
		return
	}
	c.Significant = false
	c.Warnings = append(c.Warnings, needMoreRuns())
}

// objects are the keys of run i's table data and index steps.
func (c *GbakComparison) objects(i int) map[string]bool {
	o := map[string]bool{}
	for _, s := range c.Steps.runs[i].steps {
		if s.kind == parse.GbakData || s.kind == parse.GbakActivateIndex {
			o[s.key] = true
		}
	}
	return o
}

// firebirdNamed says whether the step key names an index whose name
// Firebird made for a constraint (RDB$PRIMARY1, RDB$FOREIGN3, RDB$7;
// 6.0: "PUBLIC"."RDB$PRIMARY1"): numbered in the order of each database's
// constraints, they name indices of any two databases alike.
func firebirdNamed(key string) bool {
	_, rest, _ := strings.Cut(key, "|")
	object, name, _ := strings.Cut(rest, "|")
	if object != "index" {
		return false
	}
	if i := strings.LastIndex(name, `"."`); i >= 0 {
		name = name[i+2:]
	}
	return strings.HasPrefix(strings.TrimPrefix(name, `"`), "RDB$")
}

// SharesObjects says whether every run restored or backed up a table's
// data or built an index that the first run did: logs of different
// databases share only the steps every gbak run prints (the backup
// version, the system domains) and the builds of indices Firebird named
// (RDB$PRIMARY1), whose times compare neither database.
// A run with no such step (an excerpt) shares nothing.
func (c *GbakComparison) SharesObjects() bool { return c.notSharing < 0 }

// shareObjects finds the first run with no table or index in common with
// the first run (SharesObjects) and, when both have some, warns that the
// logs are of different databases. An index Firebird named counts only
// when a run has nothing else (an excerpt of deferred builds): a restore
// of the shop's database and one of another database both build
// RDB$PRIMARY1 and RDB$PRIMARY2.
func (c *GbakComparison) shareObjects(runs []GbakRun) {
	c.notSharing = -1
	first := c.objects(0)
	for i := 1; i < len(runs); i++ {
		other := c.objects(i)
		shared, named := false, false
		for k := range other {
			if first[k] {
				shared = true
				if !firebirdNamed(k) {
					named = true
				}
			}
		}
		if shared && (named || !userNamed(first) || !userNamed(other)) {
			continue
		}
		c.notSharing = i
		if len(first) > 0 && len(other) > 0 { // (an excerpt without them says nothing of its database)
			also := ""
			if shared {
				also = "; the indices Firebird named for constraints (RDB$PRIMARY1 …) are in every database"
			}
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s and %s have no table or index in common (%d and %d tables and indices%s): logs of different databases, "+
				"of which only the steps every gbak run prints match", filepath.Base(runs[0].Timeline.File), filepath.Base(runs[i].Timeline.File), len(first), len(other), also))
		}
		return
	}
}

// userNamed says whether objects has a table or an index not named by
// Firebird.
func userNamed(objects map[string]bool) bool {
	for k := range objects {
		if !firebirdNamed(k) {
			return true
		}
	}
	return false
}

// inactiveIndices warns when the runs' restores left different numbers of
// indices inactive: an index left inactive is never built, so a restore
// with gbak -i reads faster than one of the same backup that built them
// (testdata/gbak/fb30-restore-same-inactive.log against
// fb30-restore-same-built.log: "×0.508 faster", 0.775 s against 1.526 s,
// of which 0.720 s were the four builds).
func (c *GbakComparison) inactiveIndices(runs []GbakRun) {
	var counts []string
	differ, some := false, false
	first := -1
	for _, r := range runs {
		t := r.Timeline
		if t.InactiveIndices == nil || t.RestoredIndices == nil {
			continue
		}
		n := *t.InactiveIndices
		if first < 0 {
			first = n
		}
		differ = differ || n != first
		some = some || n > 0
		counts = append(counts, fmt.Sprintf("%s %d of %d", filepath.Base(t.File), n, *t.RestoredIndices))
	}
	if !some || !differ {
		return
	}
	c.inactiveDiffer = true
	c.Warnings = append(c.Warnings, fmt.Sprintf("the restores left different numbers of indices inactive (%s): "+
		"an index left inactive is never built, so a restore that left more of them inactive skipped those builds "+
		"and its time reads faster than one whose indices all work (gbak -i leaves every index inactive)", strings.Join(counts, ", ")))
}
