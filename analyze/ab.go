package analyze

import "fmt"

// ABEntry compares one configuration with the baseline, the first one in
// the input (the "before"): ratio and percent change of the medians and,
// with repeated runs on both sides, whether the difference is significant.
type ABEntry struct {
	Baseline string  `json:"baseline"`
	Label    string  `json:"label"`
	Before   Summary `json:"before"`
	After    Summary `json:"after"`
	// BeforeSpread and AfterSpread are each side's spread around its
	// median (benchstat's ± %, see Summary.Spread); null with one run.
	BeforeSpread *float64   `json:"before_spread"`
	AfterSpread  *float64   `json:"after_spread"`
	Ratio        float64    `json:"ratio"`
	Change       float64    `json:"change"` // Ratio − 1, as a fraction
	Comparison   Comparison `json:"comparison"`
	// LowerIsBetter is true for times (a restore): a negative change is
	// then the improvement.
	LowerIsBetter bool   `json:"lower_is_better"`
	Verdict       string `json:"verdict"`
}

// compareLabels compares every label with the first.
func compareLabels(pts []Point, lowerIsBetter bool) []ABEntry {
	var labels []string
	by := map[string][]float64{}
	for _, p := range pts {
		if _, ok := by[p.Label]; !ok {
			labels = append(labels, p.Label)
		}
		by[p.Label] = append(by[p.Label], p.Y)
	}
	var out []ABEntry
	if len(labels) < 2 {
		return out
	}
	if m := Summarize(by[labels[0]]).Median; m == 0 || !finite(m) {
		return out // no ratio against a zero baseline
	}
	for _, l := range labels[1:] {
		e := AB(labels[0], by[labels[0]], l, by[l])
		e.LowerIsBetter = lowerIsBetter
		if lowerIsBetter {
			e.Verdict += " (lower is better)"
		}
		out = append(out, e)
	}
	return out
}

// AB compares the runs of configuration b with those of baseline a.
func AB(a string, before []float64, b string, after []float64) ABEntry {
	c := Compare(before, after)
	e := ABEntry{Baseline: a, Label: b, Before: Summarize(before), After: Summarize(after),
		Ratio: c.Ratio, Change: c.Delta, Comparison: c}
	if e.Before.N > 1 {
		e.BeforeSpread = fp(e.Before.Spread())
	}
	if e.After.N > 1 {
		e.AfterSpread = fp(e.After.Spread())
	}
	e.Verdict = fmt.Sprintf("%s vs %s: %s", b, a, c.String())
	return e
}
