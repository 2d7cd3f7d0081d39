package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestAppendInt(t *testing.T) {
	vs := []int64{0, 1, -1, 9, 10, -10, 99, 100, 12345, -12345, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		vs = append(vs, p, p-1, p+1, -p, -p+1)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		vs = append(vs, int64(r.Uint64()), r.Int64N(1e7))
	}
	spare := make([]byte, 3, 64) // (room to write in place)
	copy(spare, "x: ")
	for _, v := range vs {
		for _, pre := range [][]byte{[]byte("x: ")[:3:3], spare} {
			got := string(appendInt(pre, v))
			if want := string(strconv.AppendInt([]byte("x: "), v, 10)); got != want {
				t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
			}
		}
	}
}

func BenchmarkAppendInt(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	vs := make([]int64, 4096)
	for i := range vs {
		vs[i] = r.Int64N(1 << (4 * (i % 12)))
	}
	buf := make([]byte, 0, 64<<10)
	for b.Loop() {
		buf = buf[:0]
		for _, v := range vs {
			buf = appendInt(buf, v)
		}
	}
}

// appendFloatP gives encoding/json's bytes, through appendShortFloat or
// not: whole numbers, one and two decimals of both signs, the limits
// around them, and random floats.
func TestAppendFloatShort(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	vs := []float64{0, math.Copysign(0, -1), 0.01, -0.01, 0.1, 0.5, 1, 1.05, 2.675, 0.29, 1.15, 1e13, 1e13 - 0.01, -1e13 + 0.01,
		9999999999999.99, 1e15, 1e-6, 1e-7, 1e21, 123456789.12, 0.125, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
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
		if _, ok := appendShortFloat(nil, f); ok {
			short++
		}
	}
	if short < len(vs)/3 {
		t.Errorf("%d of %d floats took the short path", short, len(vs))
	}
}
