package numfmt

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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
			got := string(AppendInt(pre, v))
			if want := string(strconv.AppendInt([]byte("x: "), v, 10)); got != want {
				t.Fatalf("AppendInt(%d) = %q, want %q", v, got, want)
			}
		}
		// The digits are written through a pointer: none lands past
		// them, in the spare room left.
		room := bytes.Repeat([]byte{'#'}, 64)
		out := AppendInt(room[:3], v)
		if &out[0] != &room[0] || strings.Trim(string(room[len(out):]), "#") != "" {
			t.Fatalf("AppendInt(%d) wrote %q past its digits", v, room[len(out):])
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
			buf = AppendInt(buf, v)
		}
	}
}

// AppendShortestFloat gives strconv's shortest 'f' digits for every float
// it takes, and takes nearly every float from 2^-19 to 2^43: ratios of
// small integers (a gstat run's selectivities and shares), decimals of
// three to eight places, random bits in the range, the range's ends and
// the neighbours of powers of ten and of two.
func TestAppendShortestFloat(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	lowest, highest := math.Ldexp(1, -19), math.Ldexp(1, 43)
	vs := []float64{1.0 / 3, 2.0 / 3, 0.1, 0.3, 0.7, 1e-5, 1e-6, 1.5e-6, 123456789.123, 0.10416666666666667,
		493.72812920592196, 0.000033333333333333335, lowest, math.Nextafter(lowest, 0), math.Nextafter(lowest, 1),
		highest, math.Nextafter(highest, 0), 9007199254740993.0 / 4, 1e13 - 0.001}
	for p := -7; p <= 13; p++ {
		x := math.Pow10(p)
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, 2*x), 2 * x, 5 * x, 9.999999999999999 * x} {
			vs = append(vs, y, math.Nextafter(y, 0), math.Nextafter(y, 2*y))
		}
	}
	for e := -20; e <= 44; e++ {
		x := math.Ldexp(1, e)
		vs = append(vs, x, math.Nextafter(x, 0), math.Nextafter(x, 2*x), math.Nextafter(math.Nextafter(x, 2*x), 2*x))
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 75000 { // (FuzzAppendShortestFloat searches further)
		a, b := float64(r.Int64N(1e6)), float64(r.Int64N(1e6)+1)
		k := float64(r.Int64N(1e12))
		bits := uint64(r.Int64N(62<<52) + (1023-19)<<52) // exponents -19 to 42
		vs = append(vs, a/b, b/(a+b), a*2/(b+7), k/math.Pow10(3+r.IntN(6)), math.Float64frombits(bits|r.Uint64()&(1<<52-1)))
	}
	taken, in := 0, 0
	for _, f := range vs {
		for _, f := range []float64{f, -f} {
			got, ok := AppendShortestFloat([]byte("x"), f)
			if a := math.Abs(f); a >= lowest && a < highest && a != math.Trunc(a) {
				in++
				if ok {
					taken++
				}
			}
			if !ok {
				if string(got) != "x" {
					t.Fatalf("AppendShortestFloat(%v) refused it but appended %q", f, got)
				}
				continue
			}
			if want := strconv.AppendFloat([]byte("x"), f, 'f', -1, 64); string(got) != string(want) {
				t.Fatalf("AppendShortestFloat(%v) = %q, want %q", f, got, want)
			}
		}
	}
	if taken < in*99/100 {
		t.Errorf("%d of %d floats in range taken", taken, in)
	}
}

// FuzzAppendShortestFloat holds AppendShortestFloat to strconv for any
// float it takes, and the ratio a/b of two integers (gstat's ratios).
func FuzzAppendShortestFloat(f *testing.F) {
	f.Add(uint64(0x3fd5555555555555), int64(1), int64(3))
	f.Add(uint64(0x3eb0c6f7a0b5ed8d), int64(999), int64(1000))
	f.Fuzz(func(t *testing.T, bits uint64, a, b int64) {
		vs := []float64{math.Float64frombits(bits)}
		if b != 0 {
			vs = append(vs, float64(a)/float64(b))
		}
		for _, v := range vs {
			got, ok := AppendShortestFloat(nil, v)
			if !ok {
				continue
			}
			if want := strconv.AppendFloat(nil, v, 'f', -1, 64); string(got) != string(want) {
				t.Fatalf("AppendShortestFloat(%v) = %q, want %q", v, got, want)
			}
		}
	})
}

// AppendFloat gives strconv's 'f' bytes, through AppendShortFloat,
// AppendShortestFloat or neither: whole numbers, one and two decimals of
// both signs, the limits around them, NaN and the infinities, and random
// floats.
func TestAppendFloat(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	vs := []float64{0, math.Copysign(0, -1), 0.01, -0.01, 0.1, 0.5, 1, 1.05, 2.675, 0.29, 1.15, 1e13, 1e13 - 0.01, -1e13 + 0.01,
		9999999999999.99, 1e15, 1e-6, 1e-7, 1e21, 123456789.12, 0.125, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64,
		1<<53 + 2, -(1<<62 + 1<<10), 1e20 + 1<<17, math.Nextafter(1e21, 0), math.Nextafter(1e-6, 0), math.Ldexp(1, -19) * 3,
		math.NaN(), math.Inf(1), math.Inf(-1), math.MaxInt64, math.MinInt64}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 { // (FuzzAppendFloat searches further)
		k := float64(r.Int64N(2e9) - 1e9)
		vs = append(vs, k/100, k/10, k, k/1000, k*1e5/100, r.Float64()*1e6, math.Float64frombits(r.Uint64()))
	}
	short := 0
	for _, f := range vs {
		want := strconv.AppendFloat([]byte("x"), f, 'f', -1, 64)
		if got := AppendFloat([]byte("x"), f); string(got) != string(want) {
			t.Fatalf("AppendFloat(%v) = %q, want %q", f, got, want)
		}
		got, ok := AppendShortFloat([]byte("x"), f)
		switch {
		case ok && string(got) != string(want):
			t.Fatalf("AppendShortFloat(%v) = %q, want %q", f, got, want)
		case !ok && string(got) != "x":
			t.Fatalf("AppendShortFloat(%v) refused it but appended %q", f, got)
		case ok:
			short++
		}
	}
	if short < len(vs)/3 {
		t.Errorf("%d of %d floats took the short path", short, len(vs))
	}
}

// FuzzAppendFloat holds AppendFloat to strconv for any float: the bits
// as given, and a decimal of up to eight places (k/10^d; those of two or
// fewer take the short path).
func FuzzAppendFloat(f *testing.F) {
	f.Add(uint64(0x3f50624dd2f1a9fc), int64(1), uint8(3)) // 0.001
	f.Add(uint64(0), int64(-125), uint8(3))
	f.Add(uint64(0x7ff0000000000000), int64(999999999999999), uint8(6))
	f.Fuzz(func(t *testing.T, bits uint64, k int64, d uint8) {
		for _, v := range []float64{math.Float64frombits(bits), float64(k) / math.Pow10(int(d%9))} {
			if got, want := AppendFloat(nil, v), strconv.AppendFloat(nil, v, 'f', -1, 64); string(got) != string(want) {
				t.Fatalf("AppendFloat(%v) = %q, want %q", v, got, want)
			}
		}
	})
}

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
		for _, v := range vs {
			buf = AppendFloat(buf, v)
		}
	}
}

// AppendFixed gives strconv's bytes for 'f' at 0 to 3 decimals: ties
// (0.5, 2.5, 0.125, 1.005) and their neighbours, signed zeros, values
// that round to zero, subnormals, the ends of its range (2^52) and past
// them, NaN and the infinities, and random ratios, decimals and bits.
func TestAppendFixed(t *testing.T) {
	vs := []float64{0, math.Copysign(0, -1), 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 1.005, 0.045, 0.0005, 0.00049,
		-0.0001, 1e-300, -1e-300, 5e-324, math.SmallestNonzeroFloat64, 99.5, 999.95, 9.995, 0.09090909090909091,
		math.Ldexp(1, 52), math.Nextafter(math.Ldexp(1, 52), 0), math.Ldexp(1, 53) + 2, 1e300, -1e300, math.MaxFloat64,
		math.NaN(), math.Inf(1), math.Inf(-1), math.Ldexp(1, -11), math.Ldexp(1, -12), 33.33333333333333}
	for p := -8; p <= 16; p++ {
		x := math.Pow10(p)
		for _, y := range []float64{x, 2.5 * x, 5 * x, 1.25 * x, 9.995 * x} {
			vs = append(vs, y, -y, math.Nextafter(y, 0), math.Nextafter(y, math.Inf(1)))
		}
	}
	for k := -2000; k <= 2000; k++ {
		for _, d := range []float64{2, 4, 8, 16, 1000, 100, 10} {
			y := float64(k) / d
			vs = append(vs, y, math.Nextafter(y, 0), math.Nextafter(y, math.Inf(1)))
		}
	}
	// Random values, 20,000 of each form (FuzzAppendFixed searches
	// further; 200,000 took 7 s of the suite).
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		vs = append(vs, float64(r.Int64N(1e7))/float64(1+r.Int64N(1e5)), float64(r.Int64N(1e9))/1000,
			math.Float64frombits(r.Uint64()), r.Float64()*math.Pow10(r.IntN(30)-12))
	}
	spare := make([]byte, 3, 64)
	copy(spare, "x: ")
	for _, v := range vs {
		for prec := 0; prec <= 4; prec++ {
			want := string(strconv.AppendFloat([]byte("x: "), v, 'f', prec, 64))
			for _, pre := range [][]byte{[]byte("x: ")[:3:3], spare} {
				if got := string(AppendFixed(pre, v, prec)); got != want {
					t.Fatalf("AppendFixed(%v (%#x), %d) = %q, want %q", v, math.Float64bits(v), prec, got, want)
				}
			}
		}
	}
}

func FuzzAppendFixed(f *testing.F) {
	for _, v := range []float64{0.5, 2.5, 0.125, 1.005, 9.995, 0.09090909090909091, 1e-300} {
		f.Add(v, 1)
	}
	f.Fuzz(func(t *testing.T, v float64, prec int) {
		prec = int(uint(prec) % 5)
		got := string(AppendFixed(nil, v, prec))
		if want := strconv.FormatFloat(v, 'f', prec, 64); got != want {
			t.Fatalf("AppendFixed(%v (%#x), %d) = %q, want %q", v, math.Float64bits(v), prec, got, want)
		}
	})
}
