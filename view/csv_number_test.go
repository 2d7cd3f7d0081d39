package view

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// oldPlain is how the CSV wrote a float before numfmt: strconv's
// shortest 'f' digits below 1e21, 'g' from there.
func oldPlain(b []byte, v float64) []byte {
	if math.Abs(v) >= 1e21 {
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// The CSV's numbers, written by numfmt, keep strconv's bytes: every
// float kind of cell and Machine give oldPlain's bytes ("" for NaN and
// the infinities), counts and sizes strconv.AppendInt's, over the edges
// (zero and minus zero, 1e21 and its neighbour, 1e-7, whole numbers as
// floats, the int64 limits, powers of ten and two and their neighbours)
// and a large sample of ratios, decimals and random bits.
func TestCSVNumbersAsStrconv(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	fs := []float64{0, math.Copysign(0, -1), 1e21, -1e21, math.Nextafter(1e21, 0), 1e-7, -1e-7, 1e-6, 1e13, 1e15,
		123456789, -5, 1 << 53, 1<<53 + 2, math.MaxInt64, math.MinInt64, 0.5, 0.01, 2.675, 1.0 / 3, 0.10416666666666667,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	for p := -30; p <= 30; p++ {
		x := math.Pow10(p)
		fs = append(fs, x, math.Nextafter(x, 0), math.Nextafter(x, 2*x), 2*x, 5*x)
	}
	for e := -70; e <= 80; e++ {
		x := math.Ldexp(1, e)
		fs = append(fs, x, math.Nextafter(x, 0), math.Nextafter(x, 2*x), 3*x)
	}
	edges := len(fs)
	is := []int64{0, 1, -1, 9, 10, 99, 100, -100, 1e15, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	r := rand.New(rand.NewPCG(11, 12))
	for range 30000 {
		a, b := float64(r.Int64N(1e9)), float64(r.Int64N(1e9)+1)
		k := float64(r.Int64N(2e12) - 1e12)
		fs = append(fs, a/b, b/(a+b), k, k/100, k/math.Pow10(1+r.IntN(9)), r.Float64(), math.Float64frombits(r.Uint64()))
		is = append(is, int64(r.Uint64()), r.Int64N(1e7), -r.Int64N(1e12))
	}
	floatKinds := []Kind{NumberKind, SecondsKind, ShareKind, ChangeKind, RatioKind, PKind, R2Kind, PercentKind}
	for i, f := range fs {
		kinds := floatKinds[:1] // (every float kind takes one branch: each is tried on the edges)
		if i < edges {
			kinds = floatKinds
		}
		for _, f := range []float64{f, -f} {
			want := ""
			if !bad(f) {
				want = string(oldPlain(nil, f))
			}
			for _, k := range kinds {
				c := Cell{Kind: k, Num: f}
				if got := string(appendCSVCell([]byte("x"), &c)); got != "x"+want {
					t.Fatalf("appendCSVCell(%v, kind %d) = %q, want %q", f, k, got, "x"+want)
				}
			}
			if got := Num(f).Machine(); got != want {
				t.Fatalf("Num(%v).Machine() = %q, want %q", f, got, want)
			}
		}
	}
	for _, v := range is {
		want := string(strconv.AppendInt([]byte("x"), v, 10))
		for _, c := range []Cell{Int(v), Bytes(v)} {
			if got := string(appendCSVCell([]byte("x"), &c)); got != want {
				t.Fatalf("appendCSVCell(%d, kind %d) = %q, want %q", v, c.Kind, got, want)
			}
		}
	}
}
