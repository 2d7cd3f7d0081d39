package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fbdiag/fbdiag/internal/numfmt"
)

// BenchmarkAppendFloat writes figures in the mix of the JSON of the
// shop-made 100 MiB gstat output: 40 % with two decimals or fewer, 14 %
// with three to six (0.001, 0.125), 46 % longer (1/3).
func BenchmarkAppendFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	vs := make([]float64, 4096)
	for i := range vs {
		k := float64(r.Int64N(100000) + 1)
		switch p := r.IntN(100); {
		case p < 40:
			vs[i] = k / 100
		case p < 54:
			vs[i] = k / 1e5
		default:
			vs[i] = 1 / (k + 2)
		}
	}
	buf := make([]byte, 0, 128<<10)
	for b.Loop() {
		buf = buf[:0]
		for i := range vs {
			buf, _ = appendFloatP(buf, &vs[i], true)
		}
	}
}

// appendFloatP gives encoding/json's bytes, through numfmt.AppendShortFloat or
// not: whole numbers, one and two decimals of both signs, the limits
// around them, and random floats.
func TestAppendFloatShort(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	vs := []float64{0, math.Copysign(0, -1), 0.01, -0.01, 0.1, 0.5, 1, 1.05, 2.675, 0.29, 1.15, 1e13, 1e13 - 0.01, -1e13 + 0.01,
		9999999999999.99, 1e15, 1e-6, 1e-7, 1e21, 123456789.12, 0.125, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64,
		1<<53 + 2, -(1<<62 + 1<<10), 1e20 + 1<<17, math.Nextafter(1e21, 0), math.Nextafter(1e-6, 0), math.Ldexp(1, -19) * 3}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 { // (FuzzAppendFloat searches further)
		k := float64(r.Int64N(2e9) - 1e9)
		vs = append(vs, k/100, k/10, k, k/1000, k*1e5/100, r.Float64()*1e6, math.Float64frombits(r.Uint64()))
	}
	short := 0
	for _, f := range vs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendFloatP(nil, &f, true)
		if !ok || string(got) != string(want) {
			t.Fatalf("appendFloatP(%v) = %q, want %q", f, got, want)
		}
		if _, ok := numfmt.AppendShortFloat(nil, f); ok {
			short++
		}
	}
	if short < len(vs)/3 {
		t.Errorf("%d of %d floats took the short path", short, len(vs))
	}
}

// FuzzAppendFloat holds appendFloatP to encoding/json's bytes for any
// float: the bits as given, and a decimal of up to eight places (k/10^d;
// those of two or fewer take the short path).
func FuzzAppendFloat(f *testing.F) {
	f.Add(uint64(0x3f50624dd2f1a9fc), int64(1), uint8(3)) // 0.001
	f.Add(uint64(0), int64(-125), uint8(3))
	f.Add(uint64(0x7ff0000000000000), int64(999999999999999), uint8(6))
	f.Fuzz(func(t *testing.T, bits uint64, k int64, d uint8) {
		for _, v := range []float64{math.Float64frombits(bits), float64(k) / math.Pow10(int(d%9))} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := appendFloatP(nil, &v, true); !ok || string(got) != string(want) {
				t.Fatalf("appendFloatP(%v) = %q, want %q", v, got, want)
			}
		}
	})
}
