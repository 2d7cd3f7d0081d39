package analyze

import (
	"fmt"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
)

// ABEntry compares one configuration with the baseline, the first one in
// the input (the "before"): ratio and percent change of the medians and,
// with repeated runs on both sides, whether the difference is significant.
type ABEntry struct {
	Baseline string  `json:"baseline"`
	Label    string  `json:"label"`
	Before   Summary `json:"before"`
	After    Summary `json:"after"`
	// BeforeSpread and AfterSpread are each side's 95 % interval around
	// its median as benchstat's "± x %" (see Summary.Spread); null below
	// 6 runs, where Before and After still give min and max.
	BeforeSpread *float64   `json:"before_spread"`
	AfterSpread  *float64   `json:"after_spread"`
	Ratio        float64    `json:"ratio"`
	Change       float64    `json:"change"` // Ratio − 1, as a fraction
	Comparison   Comparison `json:"comparison"`
	// LowerIsBetter is true for times (a restore): a negative change is
	// then the improvement.
	LowerIsBetter bool `json:"lower_is_better"`
	// Direction says which way the median moved from the baseline, in
	// the words of throughput: "faster" (more throughput, or less time),
	// "slower" or "same". Whether the move is more than noise is the
	// Comparison's answer.
	Direction string `json:"direction"`
	Verdict   string `json:"verdict"`
	// Unsteady counts the runs of the two configurations that were not
	// steady (Point.Steady false): their medians average a moving
	// throughput, which the headline says beside the change. Judged
	// counts those whose steadiness is known (Point.Steady set).
	Unsteady int `json:"unsteady"`
	Judged   int `json:"judged"`
}

// The directions of an ABEntry.
const (
	Faster = "faster"
	Slower = "slower"
	Same   = "same"
)

// direction names the move from the baseline: a ratio above 1 is faster
// where higher is better and slower where lower is.
func direction(ratio float64, lowerIsBetter bool) string {
	switch {
	case ratio == 1 || !finite(ratio):
		return Same
	case (ratio > 1) != lowerIsBetter:
		return Faster
	}
	return Slower
}

// ByLabel gathers the points' y by label (a configuration and its
// runs), the labels in the order they first come.
func ByLabel(pts []Point) (labels []string, by map[string][]float64) {
	by = map[string][]float64{}
	for _, p := range pts {
		if _, ok := by[p.Label]; !ok {
			labels = append(labels, p.Label)
		}
		by[p.Label] = append(by[p.Label], p.Y)
	}
	return labels, by
}

// compareLabels compares every label with the first.
func compareLabels(pts []Point, lowerIsBetter bool) []ABEntry {
	labels, by := ByLabel(pts)
	var out []ABEntry
	if len(labels) < 2 {
		return out
	}
	if m := Summarize(by[labels[0]]).Median; m == 0 || !finite(m) {
		return out // no ratio against a zero baseline
	}
	unsteady, judged := map[string]int{}, map[string]int{}
	for _, p := range pts {
		if p.Steady != nil {
			judged[p.Label]++
			if !*p.Steady {
				unsteady[p.Label]++
			}
		}
	}
	for _, l := range labels[1:] {
		e := AB(labels[0], by[labels[0]], l, by[l])
		e.LowerIsBetter = lowerIsBetter
		e.Unsteady = unsteady[labels[0]] + unsteady[l]
		e.Judged = judged[labels[0]] + judged[l]
		e.describe()
		out = append(out, e)
	}
	// Several configurations against one baseline: one test each, a
	// claim each, so Holm bounds the chance of any false one.
	cmps := make([]*Comparison, len(out))
	for i := range out {
		cmps[i] = &out[i].Comparison
	}
	AdjustComparisons(cmps, Holm)
	for i := range out {
		out[i].describe()
	}
	return out
}

// describe writes the verdict with the figures as every output prints
// them: "High performance vs Balanced: ×1.25, +24.6 % faster (n=1+1,
// no test)"; a difference the test does not find significant says so
// (which is not evidence that there is none).
func (e *ABEntry) describe() {
	e.Direction = direction(e.Ratio, e.LowerIsBetter)
	c := e.Comparison
	words := e.Direction
	switch {
	case c.P != nil && c.TooFewRuns():
		words += ", too few runs to tell" // (the least p these n can reach is above Alpha)
	case c.P != nil && !c.Significant:
		words += ", not significant"
	}
	e.Verdict = fmt.Sprintf("%s vs %s: ×%s, %s %s", e.Label, e.Baseline, units.Ratio(e.Ratio), signedPct(e.Change), words)
	if e.LowerIsBetter {
		// "-37.2 % faster" reads as a loss: a time says its change and
		// the speed-up apart.
		e.Verdict = fmt.Sprintf("%s vs %s: ×%s, time %s (%s)%s", e.Label, e.Baseline, units.Ratio(e.Ratio), signedPct(e.Change), e.Words(), strings.TrimPrefix(words, e.Direction))
	}
	switch {
	case c.P == nil:
		e.Verdict += fmt.Sprintf(" (n=%d+%d, no test)", c.N1, c.N2)
	case c.Tests > 1 && c.PAdjusted != nil:
		e.Verdict += fmt.Sprintf(" (%s adjusted, n=%d+%d)", pText(*c.PAdjusted), c.N1, c.N2)
	default:
		e.Verdict += fmt.Sprintf(" (%s, n=%d+%d)", pText(*c.P), c.N1, c.N2)
	}
	if e.LowerIsBetter {
		e.Verdict += "; lower is better"
	}
}

// Words says which way the configuration moved: the Direction for a
// throughput; for a time (LowerIsBetter) the speed-up, "1.59× as fast"
// (14820 s against 9300 s), or "1.20× as slow", which no sign can turn.
func (e *ABEntry) Words() string {
	switch {
	case !e.LowerIsBetter || e.Direction == Same:
		return e.Direction
	case e.Direction == Faster:
		return units.Ratio(1/e.Ratio) + "× as fast"
	}
	return units.Ratio(e.Ratio) + "× as slow"
}

// Caveat is what a headline must carry beside the change when the runs
// do not back it: "1 run each, no test", "too few runs to tell,
// p=0.100", "not significant, p=0.127"; "" when the test tells the
// configurations apart.
func (e *ABEntry) Caveat() string {
	c := e.Comparison
	p := c.P
	if c.Tests > 1 && c.PAdjusted != nil {
		p = c.PAdjusted
	}
	switch {
	case c.P == nil && c.N1 == 1 && c.N2 == 1:
		return "1 run each, no test"
	case c.P == nil:
		return fmt.Sprintf("n=%d+%d, no test", c.N1, c.N2)
	case c.TooFewRuns():
		return "too few runs to tell, " + pText(*p)
	case !c.Significant:
		return "not significant, " + pText(*p)
	}
	return ""
}

// AB compares the runs of configuration b with those of baseline a.
func AB(a string, before []float64, b string, after []float64) ABEntry {
	c := Compare(before, after)
	e := ABEntry{Baseline: a, Label: b, Before: Summarize(before), After: Summarize(after),
		Ratio: c.Ratio, Change: c.Delta, Comparison: c}
	e.BeforeSpread = fp(e.Before.Spread())
	e.AfterSpread = fp(e.After.Spread())
	e.describe()
	return e
}
