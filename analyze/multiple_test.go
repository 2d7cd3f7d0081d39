package analyze

import (
	"math"
	"testing"
)

// The adjusted p-values of R's p.adjust(c(0.01, 0.04, 0.03, 0.005), method)
// ("holm": 0.03 0.06 0.06 0.02; "BH": 0.02 0.04 0.04 0.02); a missing p
// (nil, no test) is left out of the family and stays nil.
func TestAdjustP(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	ps := []*float64{p(0.01), nil, p(0.04), p(0.03), p(0.005)}
	for _, c := range []struct {
		method string
		want   []float64
	}{
		{Holm, []float64{0.03, math.NaN(), 0.06, 0.06, 0.02}},
		{BenjaminiHochberg, []float64{0.02, math.NaN(), 0.04, 0.04, 0.02}},
	} {
		got := AdjustP(ps, c.method)
		for i, w := range c.want {
			switch {
			case math.IsNaN(w) && got[i] != nil:
				t.Errorf("%s[%d] = %v, want nil", c.method, i, *got[i])
			case !math.IsNaN(w) && (got[i] == nil || math.Abs(*got[i]-w) > 1e-12):
				t.Errorf("%s[%d] = %v, want %v", c.method, i, got[i], w)
			}
		}
	}
	// Adjusted values never exceed 1.
	if got := AdjustP([]*float64{p(0.6), p(0.7)}, Holm); *got[0] != 1 || *got[1] != 1 {
		t.Errorf("holm caps at 1: %v %v", *got[0], *got[1])
	}
}
