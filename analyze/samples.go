package analyze

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Alpha is the significance level of every comparison fbdiag makes. It is
// fixed, as in benchstat, so that "significant" means the same thing in
// every command.
const Alpha = 0.05

// Summary describes repeated measurements of one thing (a restore step over
// several runs, the tps of several pgbench runs). With few runs, which is
// the rule for multi-GB restores, the centre is the median and the 95 %
// interval of the median is given only when the sample is large enough to
// have one (six values or more); otherwise Lo and Hi are infinite and a
// warning says so, as benchstat does.
type Summary struct {
	N        int       `json:"n"`
	Values   []float64 `json:"values"`
	Median   float64   `json:"median"`
	Mean     float64   `json:"mean"`
	Min      float64   `json:"min"`
	Max      float64   `json:"max"`
	Stddev   float64   `json:"stddev"`
	Lo       float64   `json:"-"`
	Hi       float64   `json:"-"`
	Warnings []string  `json:"warnings,omitempty"`
}

// Summarize computes a Summary; NaN values are ignored.
func Summarize(values []float64) Summary {
	xs := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	s := Summary{N: len(xs), Values: append([]float64(nil), xs...)}
	if s.N == 0 {
		s.Median, s.Mean, s.Min, s.Max, s.Lo, s.Hi = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		s.Warnings = append(s.Warnings, "no values")
		return s
	}
	sort.Float64s(xs)
	s.Min, s.Max = xs[0], xs[len(xs)-1]
	s.Median = median(xs)
	s.Mean = stat.Mean(xs, nil)
	if s.N > 1 {
		s.Stddev = stat.StdDev(xs, nil)
	}
	s.Lo, s.Hi = medianCI(xs, 1-Alpha)
	if math.IsInf(s.Lo, 0) {
		s.Warnings = append(s.Warnings, fmt.Sprintf("need >= 6 samples for confidence interval at level %.2f", 1-Alpha))
	}
	return s
}

// Spread is the larger relative distance from the median to the ends of
// its 95 % interval: benchstat's "± x %". It is NaN below 6 values, where
// there is no interval (benchstat prints "± ∞"); the range (Min, Max) is
// what such samples can show, and is said as a range.
func (s Summary) Spread() float64 {
	if s.N == 0 || s.Median == 0 || math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return math.NaN()
	}
	return math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// medianCI is the distribution-free interval of the median from order
// statistics: the widest symmetric pair whose binomial coverage reaches the
// confidence level. Too few values give ±Inf.
func medianCI(sorted []float64, conf float64) (lo, hi float64) {
	n := len(sorted)
	// The largest k (1-based) with P(k <= X <= n-k) >= conf, X ~ B(n, ½):
	// the coverage of [x_(k), x_(n-k+1)].
	best, _ := medianCIRank(n, conf)
	if best == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return sorted[best-1], sorted[n-best]
}

// medianCIRank is the rank k (1-based) of medianCI's lower end among n
// sorted values, the upper end's being n − k + 1, and the interval's
// coverage; k is 0 when n values have no interval.
func medianCIRank(n int, conf float64) (k int, coverage float64) {
	b := distuv.Binomial{N: float64(n), P: 0.5}
	for j := 1; j <= n/2; j++ {
		c := b.CDF(float64(n-j)) - b.CDF(float64(j-1))
		if c < conf {
			break
		}
		k, coverage = j, c
	}
	return k, coverage
}

// MedianIntervalMethod says how the 95 % interval of the median of n
// values is made, so that it can be reproduced: "the 3rd and 10th of the
// 12 sorted values, distribution-free (binomial coverage 96.1 %)"; ""
// below 6 values, which have none.
func MedianIntervalMethod(n int) string {
	k, c := medianCIRank(n, 1-Alpha)
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("the %s and %s of the %d sorted values, distribution-free (binomial coverage %.1f %%)",
		ordinal(k), ordinal(n-k+1), n, 100*c)
}

// ordinal is 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st.
func ordinal(k int) string {
	suffix := "th"
	switch {
	case k%100 >= 11 && k%100 <= 13:
	case k%10 == 1:
		suffix = "st"
	case k%10 == 2:
		suffix = "nd"
	case k%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", k, suffix)
}

// Comparison says whether two sets of measurements differ, and by how much.
// Ratio is median(after)/median(before): a ratio below 1 on durations is
// an improvement, above 1 on throughput is one.
type Comparison struct {
	N1    int      `json:"n1"`
	N2    int      `json:"n2"`
	Ratio float64  `json:"ratio"`
	Delta float64  `json:"delta"`
	P     *float64 `json:"p"`
	// PAdjusted is P adjusted for the other tests of the same answer
	// (Adjustment names the method, Tests counts them); with a single
	// test it is P. Null when P is.
	PAdjusted  *float64 `json:"p_adjusted"`
	Adjustment string   `json:"adjustment,omitempty"`
	Tests      int      `json:"tests,omitempty"`
	// Significant is PAdjusted ≤ Alpha.
	Significant bool     `json:"significant"`
	Test        string   `json:"test"`
	Warnings    []string `json:"warnings,omitempty"`
}

// Compare compares two samples with a two-sided Mann-Whitney U test (no
// assumption about the distribution). With one value per side no test is
// possible: the ratio is given and P is nil. With few values the smallest
// p the test can reach may exceed Alpha; a warning then says how many runs
// are needed, rather than calling the difference "not significant".
func Compare(before, after []float64) Comparison {
	s1, s2 := Summarize(before), Summarize(after)
	c := Comparison{N1: s1.N, N2: s2.N, Test: "mann-whitney-u"}
	c.Ratio = s2.Median / s1.Median
	c.Delta = c.Ratio - 1
	if s1.N < 2 || s2.N < 2 {
		c.Test = "none"
		c.Warnings = append(c.Warnings, "one run per side: ratio only, no significance test")
		return c
	}
	p := MannWhitneyU(s1.Values, s2.Values)
	c.P, c.PAdjusted, c.Tests = &p, &p, 1
	c.Significant = p <= Alpha
	if minP := 2 / binom(s1.N+s2.N, s1.N); minP > Alpha && !c.Significant {
		c.Warnings = append(c.Warnings, needMoreRuns())
	}
	return c
}

// needMoreRuns is the warning of a test whose runs are too few for any
// arrangement of them to reach p ≤ Alpha: how many a side it needs.
func needMoreRuns() string {
	need := 2
	for 2/binom(2*need, need) > Alpha {
		need++
	}
	return fmt.Sprintf("need >= %d samples per side to detect a difference at alpha level %.2f", need, Alpha)
}

// TooFewRuns says whether the test found no difference because its runs
// were too few to find one (one a side, or too few for p ≤ Alpha: its
// warnings say so): such a difference is not "within the noise", only
// not measured enough.
func (c *Comparison) TooFewRuns() bool { return !c.Significant && len(c.Warnings) > 0 }

// String formats the comparison like benchstat: "-17.20% (p=0.000 n=10+10)"
// or "~ (p=0.100 n=3+3)" when not significant; one of several tests
// gives its adjusted p: "~ (p_adj=0.343 n=4+4)".
func (c Comparison) String() string { return c.stated(fmt.Sprintf("%+.2f%%", 100*c.Delta)) }

// stated is the verdict with change as its figure ("+84.84%", or a
// difference in seconds where there is no ratio): the figure, then the
// test; "~" in its place when the test finds no difference.
func (c Comparison) stated(change string) string {
	if c.P == nil {
		return fmt.Sprintf("%s (n=%d+%d, no test)", change, c.N1, c.N2)
	}
	p := fmt.Sprintf("p=%.3f", *c.P)
	if c.Tests > 1 && c.PAdjusted != nil {
		p = fmt.Sprintf("p_adj=%.3f", *c.PAdjusted)
	}
	if !c.Significant {
		return fmt.Sprintf("~ (%s n=%d+%d)", p, c.N1, c.N2)
	}
	return fmt.Sprintf("%s (%s n=%d+%d)", change, p, c.N1, c.N2)
}

// AdjustComparisons adjusts the p of comparisons that answer one
// question together (every setting against the best, every step of two
// restores) for their number, and decides significance on the adjusted p.
// It returns how many tests there were.
func AdjustComparisons(cs []*Comparison, method string) int {
	ps := make([]*float64, len(cs))
	for i, c := range cs {
		ps[i] = c.P
	}
	n := countTests(ps)
	if n < 2 {
		return n // a single test: its p is its adjusted p
	}
	for i, adj := range AdjustP(ps, method) {
		if adj != nil {
			cs[i].setAdjusted(*adj, method, n)
		}
	}
	return n
}

// countTests is how many of ps are tests (not nil).
func countTests(ps []*float64) int {
	n := 0
	for _, p := range ps {
		if p != nil {
			n++
		}
	}
	return n
}

// setAdjusted records the p adjusted by method over n tests, and decides
// significance on it.
func (c *Comparison) setAdjusted(adj float64, method string, n int) {
	c.PAdjusted, c.Adjustment, c.Tests = &adj, method, n
	c.Significant = c.Significant && adj <= Alpha
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r *= float64(n-k+i) / float64(i)
	}
	return r
}

// MannWhitneyU returns the two-sided p-value of the Mann-Whitney U test.
// For up to 100 values in all the exact permutation distribution of the
// rank sum is used, with mid-ranks for ties (restore step times tie often
// at gbak's millisecond resolution, and the normal approximation would
// then claim p < 0.05 for three runs per side, which no exact test can
// reach); beyond that, the normal approximation with tie and continuity
// corrections.
func MannWhitneyU(x, y []float64) float64 {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	// Doubled mid-ranks keep ranks integral; tieSum feeds the variance.
	ranks2 := make([]int, len(all))
	var r1x2 int
	var tieSum float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank2 := i + j + 1 // 2 × the mid-rank of positions i+1..j
		t := float64(j - i)
		tieSum += t*t*t - t
		for k := i; k < j; k++ {
			ranks2[k] = rank2
			if all[k].first {
				r1x2 += rank2
			}
		}
		i = j
	}
	n := n1 + n2
	if n <= 100 {
		return exactRankSum(ranks2, n1, r1x2)
	}
	u1 := float64(r1x2)/2 - float64(n1*(n1+1))/2
	nf := float64(n)
	mu := float64(n1*n2) / 2
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((nf + 1) - tieSum/(nf*(nf-1))))
	if sigma == 0 {
		return 1
	}
	z := (math.Abs(u1-mu) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	return math.Min(1, 2*(1-distuv.UnitNormal.CDF(z)))
}

// exactRankSum is the two-sided p of observing a doubled rank sum at
// least as far from its mean as obs, over every way of choosing n1 of the
// pooled values: counts[k][s] is the number of k-subsets whose doubled
// ranks sum to s.
func exactRankSum(ranks2 []int, n1, obs int) float64 {
	maxSum := 0
	for _, r := range ranks2 {
		maxSum += r
	}
	counts := make([][]float64, n1+1)
	for k := range counts {
		counts[k] = make([]float64, maxSum+1)
	}
	counts[0][0] = 1
	for i, r := range ranks2 {
		top := min(i+1, n1)
		for k := top; k >= 1; k-- {
			prev, cur := counts[k-1], counts[k]
			for s := maxSum; s >= r; s-- {
				if prev[s-r] != 0 {
					cur[s] += prev[s-r]
				}
			}
		}
	}
	// Mean of the doubled rank sum: n1 × (n+1).
	mean2 := float64(n1 * (len(ranks2) + 1))
	dev := math.Abs(float64(obs) - mean2)
	var tail, total float64
	for s, c := range counts[n1] {
		if c == 0 {
			continue
		}
		total += c
		if math.Abs(float64(s)-mean2) >= dev-1e-9 {
			tail += c
		}
	}
	return math.Min(1, tail/total)
}
