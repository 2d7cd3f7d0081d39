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

// Spread is the larger relative distance from the median to the interval
// ends (benchstat's "± x %"), or, when there is no interval, to min and max.
func (s Summary) Spread() float64 {
	if s.N == 0 || s.Median == 0 {
		return math.NaN()
	}
	lo, hi := s.Lo, s.Hi
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = s.Min, s.Max
	}
	return math.Max(hi/s.Median-1, 1-lo/s.Median)
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
	b := distuv.Binomial{N: float64(n), P: 0.5}
	// Find the largest k (1-based) with P(k <= X <= n-k) >= conf, i.e.
	// coverage of [x_(k), x_(n-k+1)].
	best := 0
	for k := 1; k <= n/2; k++ {
		cover := b.CDF(float64(n-k)) - b.CDF(float64(k-1))
		if cover >= conf {
			best = k
		} else {
			break
		}
	}
	if best == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return sorted[best-1], sorted[n-best]
}

// Comparison says whether two sets of measurements differ, and by how much.
// Ratio is median(after)/median(before): a ratio below 1 on durations is
// an improvement, above 1 on throughput is one.
type Comparison struct {
	N1          int      `json:"n1"`
	N2          int      `json:"n2"`
	Ratio       float64  `json:"ratio"`
	Delta       float64  `json:"delta"`
	P           *float64 `json:"p"`
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
	c.P = &p
	c.Significant = p <= Alpha
	if minP := 2 / binom(s1.N+s2.N, s1.N); minP > Alpha && !c.Significant {
		need := 2
		for 2/binom(2*need, need) > Alpha {
			need++
		}
		c.Warnings = append(c.Warnings, fmt.Sprintf("need >= %d samples per side to detect a difference at alpha level %.2f", need, Alpha))
	}
	return c
}

// String formats the comparison like benchstat: "-17.20% (p=0.000 n=10+10)"
// or "~ (p=0.100 n=3+3)" when not significant.
func (c Comparison) String() string {
	if c.P == nil {
		return fmt.Sprintf("%+.2f%% (n=%d+%d, no test)", 100*c.Delta, c.N1, c.N2)
	}
	if !c.Significant {
		return fmt.Sprintf("~ (p=%.3f n=%d+%d)", *c.P, c.N1, c.N2)
	}
	return fmt.Sprintf("%+.2f%% (p=%.3f n=%d+%d)", 100*c.Delta, *c.P, c.N1, c.N2)
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r *= float64(n-k+i) / float64(i)
	}
	return r
}

// MannWhitneyU returns the two-sided p-value of the Mann-Whitney U test.
// Without ties and for small samples the exact distribution of U is used;
// otherwise the normal approximation with tie and continuity corrections.
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
	// Mid-ranks, and the tie correction term.
	var r1, tieSum float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2
		t := float64(j - i)
		if t > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		i = j
	}
	u1 := r1 - float64(n1*(n1+1))/2
	if !ties && n1+n2 <= 50 {
		return exactU(u1, n1, n2)
	}
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 {
		return 1
	}
	z := (math.Abs(u1-mu) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	p := 2 * (1 - distuv.UnitNormal.CDF(z))
	return math.Min(p, 1)
}

// exactU is the two-sided p of U=u under the null hypothesis, counting the
// arrangements of n1+n2 distinct values.
func exactU(u float64, n1, n2 int) float64 {
	maxU := n1 * n2
	// counts[m][k] for the current n: number of arrangements with U=k.
	// Recurrence f(k; m, n) = f(k-n; m-1, n) + f(k; m, n-1).
	f := make([][][]float64, n1+1)
	for m := 0; m <= n1; m++ {
		f[m] = make([][]float64, n2+1)
		for n := 0; n <= n2; n++ {
			f[m][n] = make([]float64, m*n+1)
			if m == 0 || n == 0 {
				f[m][n][0] = 1
				continue
			}
			for k := 0; k <= m*n; k++ {
				var a, b float64
				if k-n >= 0 && k-n <= (m-1)*n {
					a = f[m-1][n][k-n]
				}
				if k <= m*(n-1) {
					b = f[m][n-1][k]
				}
				f[m][n][k] = a + b
			}
		}
	}
	dist := f[n1][n2]
	total := binom(n1+n2, n1)
	lo := math.Min(u, float64(maxU)-u)
	var tail float64
	for k := 0; k <= maxU && float64(k) <= lo+1e-9; k++ {
		tail += dist[k]
	}
	return math.Min(1, 2*tail/total)
}
