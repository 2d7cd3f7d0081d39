package analyze

import (
	"math"
	"sort"
)

// Adjustments for multiple comparisons. A comparison of many steps, or of
// every setting against the best, runs one test per row: at Alpha = 0.05,
// one row in twenty comes out "significant" by chance. The adjusted p
// accounts for the number of tests.
const (
	// Holm (1979) bounds the chance of any false "significant" in the
	// family: for the few settings of a sweep, each a claim on its own.
	Holm = "holm"
	// BenjaminiHochberg (1995) bounds the share of false discoveries
	// among the rows called significant: for the dozens of steps of a
	// gbak comparison, a screening.
	BenjaminiHochberg = "benjamini-hochberg"
)

// AdjustP returns the adjusted p of each test (nil where ps is nil: no
// test, not part of the family), as R's p.adjust does.
func AdjustP(ps []*float64, method string) []*float64 {
	var idx []int
	for i, p := range ps {
		if p != nil && !math.IsNaN(*p) {
			idx = append(idx, i)
		}
	}
	out := make([]*float64, len(ps))
	m := float64(len(idx))
	sort.SliceStable(idx, func(a, b int) bool { return *ps[idx[a]] < *ps[idx[b]] })
	switch method {
	case Holm:
		// p_(i) × (m − i + 1), made non-decreasing.
		run := 0.0
		for k, i := range idx {
			run = math.Max(run, math.Min(1, *ps[i]*(m-float64(k))))
			out[i] = f64(run)
		}
	case BenjaminiHochberg:
		// p_(i) × m / i, made non-increasing from the largest.
		run := 1.0
		for k := len(idx) - 1; k >= 0; k-- {
			i := idx[k]
			run = math.Min(run, *ps[i]*(m/float64(k+1)))
			out[i] = f64(run)
		}
	default:
		panic("analyze: unknown p adjustment " + method)
	}
	return out
}
