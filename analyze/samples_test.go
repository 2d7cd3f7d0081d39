package analyze

import (
	"math"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The restore durations of seed 003 (restore-balanced.log vs
// restore-high-performance.log spans) give one value per side: no test.
func TestCompareOneRun(t *testing.T) {
	c := Compare([]float64{3774.995}, []float64{2592.555})
	if c.P != nil || c.Test != "none" {
		t.Fatalf("one run per side must not be tested: %+v", c)
	}
	if got := 3774.995 / 2592.555; math.Abs(1/c.Ratio-got) > 1e-9 {
		t.Fatalf("ratio %v, want 1/%v", c.Ratio, got)
	}
}

func TestMannWhitneyExact(t *testing.T) {
	// Completely separated samples of 3: the smallest two-sided p is
	// 2/C(6,3) = 0.1, which is why benchstat says "need >= 4 samples".
	p := MannWhitneyU([]float64{41.1, 41.2, 41.3}, []float64{38.0, 38.1, 38.2})
	if math.Abs(p-0.1) > 1e-12 {
		t.Fatalf("p = %v, want 0.1", p)
	}
	c := Compare([]float64{41.1, 41.2, 41.3}, []float64{38.0, 38.1, 38.2})
	if c.Significant || len(c.Warnings) != 1 || c.Warnings[0] != "need >= 4 samples per side to detect a difference at alpha level 0.05" {
		t.Fatalf("comparison %+v", c)
	}
	if c.String() != "~ (p=0.100 n=3+3)" {
		t.Fatalf("String() = %q", c.String())
	}
	// Separated samples of 5: p = 2/C(10,5) = 0.00794.
	c = Compare([]float64{10, 11, 12, 13, 14}, []float64{20, 21, 22, 23, 24})
	if !c.Significant || math.Abs(*c.P-2.0/252) > 1e-12 || c.Ratio != 22.0/12 {
		t.Fatalf("comparison %+v", c)
	}
	// Interleaved samples: U = 10 of 25; R's wilcox.test gives W = 10, p = 0.6905.
	p = MannWhitneyU([]float64{1, 3, 5, 7, 9}, []float64{2, 4, 6, 8, 10})
	if math.Abs(p-0.6904761904761905) > 1e-12 {
		t.Fatalf("interleaved p = %v", p)
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{3, 1, 2})
	if s.Median != 2 || s.Min != 1 || s.Max != 3 || s.N != 3 || !math.IsInf(s.Hi, 1) || len(s.Warnings) != 1 {
		t.Fatalf("%+v", s)
	}
	// Below 6 values there is no interval: benchstat prints "± ∞", and
	// the spread (its "± x %") is not a range in disguise.
	if !math.IsNaN(s.Spread()) {
		t.Fatalf("spread of 3 values %v, want NaN", s.Spread())
	}
	// Ten values: the 95 % interval of the median is [x(2), x(9)], and
	// the spread the larger distance to it: 9/5.5 − 1.
	s = Summarize([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if s.Median != 5.5 || s.Lo != 2 || s.Hi != 9 || len(s.Warnings) != 0 || math.Abs(s.Spread()-(9/5.5-1)) > 1e-12 {
		t.Fatalf("%+v spread %v", s, s.Spread())
	}
}

// Ties at gbak's millisecond resolution: three identical values per side
// cannot reach p < 0.1 with an exact test (the normal approximation used
// to say 0.047).
func TestMannWhitneyTies(t *testing.T) {
	p := MannWhitneyU([]float64{0.286, 0.286, 0.286}, []float64{0.243, 0.243, 0.243})
	if math.Abs(p-0.1) > 1e-12 {
		t.Fatalf("p = %v, want 0.1", p)
	}
	// A tie across the sides: x = {1,2,2}, y = {2,3,4}. Doubled mid-ranks
	// 2,6,6,6,10,12; x sums to 14, the mean is 21. Of the 20 ways to pick
	// three ranks, 3 sum to 14 and 3 to 28 (|S-21| >= 7): p = 6/20.
	p = MannWhitneyU([]float64{1, 2, 2}, []float64{2, 3, 4})
	if math.Abs(p-0.3) > 1e-12 {
		t.Fatalf("p = %v, want 0.3", p)
	}
}

// The load seed's median interval, 3.28–3.42 MiB/s, is the 3rd and 10th of
// its 12 sorted speeds (P(3 ≤ B(12, ½) ≤ 9) = 1 − 2·79/4096 = 0.961): said
// so that a reader can rebuild it, and read off the same sorted speeds.
func TestMedianIntervalMethod(t *testing.T) {
	r := analyse(t, Options{}, testutil.Testdata(t, "seeds", "degradation-load-sata.csv"))
	l := r.Series[0].Load
	want := "the 3rd and 10th of the 12 sorted values, distribution-free (binomial coverage 96.1 %)"
	if got := MedianIntervalMethod(l.Summary.N); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	sorted := slices.Sorted(slices.Values(l.Summary.Values))
	if *l.MedianLo != sorted[2] || *l.MedianHi != sorted[9] {
		t.Errorf("interval %g–%g, want the 3rd %g and 10th %g", *l.MedianLo, *l.MedianHi, sorted[2], sorted[9])
	}
	for n, want := range map[int]string{
		5:  "",
		6:  "the 1st and 6th of the 6 sorted values, distribution-free (binomial coverage 96.9 %)",
		25: "the 8th and 18th of the 25 sorted values, distribution-free (binomial coverage 95.7 %)",
	} {
		if got := MedianIntervalMethod(n); got != want {
			t.Errorf("n=%d: got %q, want %q", n, got, want)
		}
	}
}
