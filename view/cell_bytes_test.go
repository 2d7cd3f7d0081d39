package view

import (
	"math"
	"testing"
)

// A size per day or a compared size in bytes is a whole byte count; one
// a byte count cannot hold (8 EiB or more, NaN) is null, not an int64
// wrapped to -8 EiB.
func TestBytesOf(t *testing.T) {
	if c := bytesOf(1e18 + 0.4); c.Null || c.Int != 1e18 || c.Kind != BytesKind {
		t.Errorf("1e18: %+v", c)
	}
	if c := bytesOf(-2.6); c.Null || c.Int != -3 {
		t.Errorf("-2.6: %+v", c)
	}
	for _, v := range []float64{math.Ldexp(1, 63), -1e19, math.NaN(), math.Inf(1)} {
		if c := bytesOf(v); !c.Null || c.Kind != BytesKind {
			t.Errorf("%g: %+v, want null", v, c)
		}
	}
}
