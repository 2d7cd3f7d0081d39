package analyze

import (
	"math"
	"testing"
)

// round3 keeps three decimals of a duration, and leaves as it is one too
// big to have any (from 2^52/1000 s on) instead of wrapping it through an
// int64 (a corrupt time column of 1e20 s became negative).
func TestRound3(t *testing.T) {
	for _, c := range [][2]float64{{1.23456, 1.235}, {-1.23456, -1.235}, {0.0004, 0}, {1e20, 1e20}, {-1e20, -1e20},
		{4503599627370.5, 4503599627370.5}, {4503599627.3704, 4503599627.37}} {
		if got := round3(c[0]); got != c[1] {
			t.Errorf("round3(%g) = %g, want %g", c[0], got, c[1])
		}
	}
	if got := round3(math.NaN()); !math.IsNaN(got) {
		t.Errorf("round3(NaN) = %g", got)
	}
}
