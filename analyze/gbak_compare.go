package analyze

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// GbakRun is one log of a comparison; runs with the same Label are
// repeated runs of one side (one configuration).
type GbakRun struct {
	Label    string
	Timeline *Timeline
}

// GbakRunSummary describes one run of a comparison. SpanSeconds is the
// time covered by the steps found in every run: from the start of the
// first to the end of the last (its start when its cost is unknown).
type GbakRunSummary struct {
	Label        string   `json:"label"`
	File         string   `json:"file"`
	Kind         *string  `json:"kind"`
	Outcome      string   `json:"outcome"`
	TotalSeconds *float64 `json:"total_seconds"`
	SpanSeconds  *float64 `json:"span_seconds"`
	Matched      int      `json:"matched_steps"`
	Unmatched    int      `json:"unmatched_steps"`
}

// GbakSide groups the runs of one label.
type GbakSide struct {
	Label string `json:"label"`
	Runs  int    `json:"runs"`
}

// GbakStepComparison sets one step (or a total) side by side. Seconds has
// one value per run, nil where the step is absent or its cost unknown;
// Median one per side. Ratio and Difference compare the first side with
// the second: Ratio = median(first)/median(second), so 1.456 means the
// first side took 1.456 times as long.
type GbakStepComparison struct {
	Key     string     `json:"key"`
	Name    string     `json:"name"`
	Kind    string     `json:"kind"`
	Seconds []*float64 `json:"seconds"`
	Median  []*float64 `json:"median"`
	// Spread is benchstat's "± x %" of each side (nil with one run).
	Spread      []*float64 `json:"spread"`
	Ratio       *float64   `json:"ratio"`
	Difference  *float64   `json:"difference"`
	P           *float64   `json:"p"`
	Significant bool       `json:"significant"`
	// Verdict is benchstat's wording: "+45.61% (n=1+1, no test)",
	// "~ (p=0.100 n=3+3)".
	Verdict  string   `json:"verdict,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Only is the label of the only side the step appears in.
	Only *string `json:"only"`
}

// GbakComparison compares two or more gbak runs step by step.
type GbakComparison struct {
	Runs  []GbakRunSummary `json:"runs"`
	Sides []GbakSide       `json:"sides"`
	// Totals compares total_seconds and the span of the matched steps.
	Totals   []GbakStepComparison `json:"totals"`
	Steps    []GbakStepComparison `json:"steps"`
	Warnings []string             `json:"warnings"`
}

// Slowest returns the n steps with the largest median on any side.
func (c *GbakComparison) Slowest(n int) []GbakStepComparison {
	s := append([]GbakStepComparison(nil), c.Steps...)
	top := func(x GbakStepComparison) float64 {
		m := -1.0
		for _, v := range x.Median {
			if v != nil && *v > m {
				m = *v
			}
		}
		return m
	}
	sort.SliceStable(s, func(i, j int) bool { return top(s[i]) > top(s[j]) })
	for len(s) > 0 && top(s[len(s)-1]) < 0 {
		s = s[:len(s)-1]
	}
	if n >= 0 && len(s) > n {
		s = s[:n]
	}
	return s
}

// CompareTimelines matches the steps of several runs by kind and object
// name (the n-th occurrence with the n-th) and compares their costs. The
// first label met is the first side, the second label the second side.
func CompareTimelines(runs ...GbakRun) *GbakComparison {
	c := &GbakComparison{Runs: []GbakRunSummary{}, Sides: []GbakSide{}, Steps: []GbakStepComparison{}, Warnings: []string{}}
	sideOf := make([]int, len(runs))
	sideIdx := map[string]int{}
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
	for _, r := range runs[1:] {
		if k0, k := runs[0].Timeline.Kind, r.Timeline.Kind; k0 != nil && k != nil && *k0 != *k {
			c.Warnings = append(c.Warnings, "comparing a "+*k0+" with a "+*k+": only steps of the same kind and name match")
			break
		}
	}
	if len(c.Sides) < 2 {
		c.Warnings = append(c.Warnings, "all runs have one label: nothing to compare them with")
	}
	if len(c.Sides) > 2 {
		c.Warnings = append(c.Warnings, "ratios compare the first two labels only; seconds lists every run")
	}
	// Index the steps of every run by key and occurrence.
	type at struct{ run, step int }
	var order []string
	where := map[string][]at{}
	for ri, r := range runs {
		seen := map[string]int{}
		for si := range r.Timeline.Steps {
			k := r.Timeline.Steps[si].Key()
			seen[k]++
			if seen[k] > 1 {
				k += "#" + strconv.Itoa(seen[k])
			}
			if _, ok := where[k]; !ok {
				order = append(order, k)
			}
			where[k] = append(where[k], at{ri, si})
		}
	}
	matched := make([]int, len(runs))
	lo := make([]float64, len(runs))
	hi := make([]float64, len(runs))
	hasSpan := make([]bool, len(runs))
	for i := range runs {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
		hasSpan[i] = true
	}
	for _, k := range order {
		ats := where[k]
		first := &runs[ats[0].run].Timeline.Steps[ats[0].step]
		row := GbakStepComparison{Key: k, Name: first.Label(), Kind: string(first.Kind), Seconds: make([]*float64, len(runs))}
		sides := map[int]bool{}
		for _, a := range ats {
			st := &runs[a.run].Timeline.Steps[a.step]
			if !st.LowerBound { // a bound is no cost to set against another
				row.Seconds[a.run] = st.Seconds
			}
			sides[sideOf[a.run]] = true
		}
		if len(ats) == len(runs) {
			for _, a := range ats {
				st := &runs[a.run].Timeline.Steps[a.step]
				matched[a.run]++
				if st.Start == nil {
					hasSpan[a.run] = false
					continue
				}
				end := *st.Start
				if st.Seconds != nil {
					end += *st.Seconds
				}
				lo[a.run] = math.Min(lo[a.run], *st.Start)
				hi[a.run] = math.Max(hi[a.run], end)
			}
		} else if len(sides) == 1 {
			for s := range sides {
				l := c.Sides[s].Label
				row.Only = &l
			}
		}
		c.compareRow(&row, sideOf)
		c.Steps = append(c.Steps, row)
	}
	total := GbakStepComparison{Key: "total", Name: "total seconds", Seconds: make([]*float64, len(runs))}
	span := GbakStepComparison{Key: "span", Name: "span of matched steps", Seconds: make([]*float64, len(runs))}
	for i, r := range runs {
		t := r.Timeline
		rs := GbakRunSummary{Label: r.Label, File: t.File, Kind: t.Kind, Outcome: t.Outcome,
			TotalSeconds: t.TotalSeconds, Matched: matched[i], Unmatched: len(t.Steps) - matched[i]}
		if hasSpan[i] && hi[i] >= lo[i] {
			rs.SpanSeconds = f64(round3(hi[i] - lo[i]))
		}
		c.Runs = append(c.Runs, rs)
		total.Seconds[i], span.Seconds[i] = rs.TotalSeconds, rs.SpanSeconds
	}
	c.compareRow(&total, sideOf)
	c.compareRow(&span, sideOf)
	c.Totals = []GbakStepComparison{total, span}
	return c
}

// compareRow fills the per-side medians and the comparison of the first
// two sides, through Summarize and Compare.
func (c *GbakComparison) compareRow(row *GbakStepComparison, sideOf []int) {
	vals := make([][]float64, len(c.Sides))
	for run, v := range row.Seconds {
		if v != nil {
			vals[sideOf[run]] = append(vals[sideOf[run]], *v)
		}
	}
	row.Median = make([]*float64, len(c.Sides))
	row.Spread = make([]*float64, len(c.Sides))
	for s, xs := range vals {
		if len(xs) == 0 {
			continue
		}
		sum := Summarize(xs)
		row.Median[s] = f64(sum.Median)
		if sum.N > 1 {
			if sp := sum.Spread(); !math.IsNaN(sp) {
				row.Spread[s] = f64(sp)
			}
		}
	}
	if len(c.Sides) < 2 || len(vals[0]) == 0 || len(vals[1]) == 0 {
		return
	}
	row.Difference = f64(round3(*row.Median[0] - *row.Median[1]))
	if *row.Median[1] == 0 {
		return // no ratio to a zero cost
	}
	cmp := Compare(vals[1], vals[0]) // Ratio = median(first)/median(second)
	honestSmallN(&cmp)
	row.Ratio = f64(cmp.Ratio)
	row.P, row.Significant = cmp.P, cmp.Significant
	row.Verdict = cmp.String()
	row.Warnings = cmp.Warnings
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
	need := 2
	for 2/binom(2*need, need) > Alpha {
		need++
	}
	c.Warnings = append(c.Warnings, fmt.Sprintf("need >= %d samples per side to detect a difference at alpha level %.2f", need, Alpha))
}
