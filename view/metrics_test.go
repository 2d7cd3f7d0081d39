package view

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The names OpenMetrics accepts, as the exposition format's ABNF writes
// them: the regular expressions validName replaced.
var (
	reMetricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	reLabelName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// TestValidNameAgreesWithRegexp checks validName against the regular
// expressions on every string of up to two bytes, every string of three
// over the bytes that matter at each place, and 100,000 random ones.
func TestValidNameAgreesWithRegexp(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := validName(s, true), reMetricName.MatchString(s); got != want {
			t.Fatalf("metric name %q: %v, want %v", s, got, want)
		}
		if got, want := validName(s, false), reLabelName.MatchString(s); got != want {
			t.Fatalf("label name %q: %v, want %v", s, got, want)
		}
	}
	check("")
	n := 1
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
			n += 2
		}
	}
	some := []byte("aZz_:09/\x00\n é\xff`{@[")
	for _, a := range some {
		for _, b := range some {
			for _, c := range some {
				check(string([]byte{a, b, c}))
				n++
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = some[rng.IntN(len(some))]
		}
		check(string(b))
		n++
	}
	if n < 165000 {
		t.Errorf("checked %d names", n)
	}
}

// TestAppendLabelValue checks appendLabelValue against escapeLabel on
// every string of up to two bytes, on every byte at every place of names
// of up to 25 bytes, and on random ones of printable ASCII,
// quotes, backslashes, newlines, controls, UTF-8 (bidi controls
// included) and bytes that are not UTF-8.
func TestAppendLabelValue(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := string(appendLabelValue([]byte("x"), s)), "x"+escapeLabel(s); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	}
	eachShortString(check, []string{"a", "RDB$PAGES", " ", `"`, `\`, "\n", "\r", "\x1b", "\x7f", "é", "\u202e", "\u2028", "\xff", "\xc3", "日本"}, 6, 7)
	// Names of eight bytes or more are checked eight at a time: every
	// byte at every place of up to 24.
	for c := range 256 {
		for n := range 24 {
			for at := range n + 1 {
				check(strings.Repeat("A", at) + string([]byte{byte(c)}) + strings.Repeat("_", n-at))
			}
		}
	}
	if got := string(appendLabelValue(nil, "A\"\\\n\x1b")); got != `A\"\\\\n\\x1b` {
		t.Errorf(`A"\<newline><ESC> = %s, want A\"\\\\n\\x1b`, got)
	}
}

// oldMetricValue is metricValue as it was written with FormatFloat: the
// reference of the appending forms.
func oldMetricValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// TestAppendMetricValue checks appendMetricValue and appendMetricInt
// against oldMetricValue: NaN, the infinities, both zeros, the edges of
// whole numbers printed in full (1e15), the extremes of float64 and
// int64, and a hundred thousand random values of each (FuzzAppendMetricValue
// searches further).
func TestAppendMetricValue(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.1, -2.5, 1e15, -1e15,
		math.Nextafter(1e15, 0), math.Nextafter(-1e15, 0), 1e15 + 2, 1e21, 1e-7, 123456.789, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1 << 53, 1<<53 + 2, math.Float64frombits(0x7ff8000000000001)} {
		checkMetricFloat(t, v)
	}
	for _, v := range []int64{0, 1, -1, 42, 999999999999999, -999999999999999, 1e15, -1e15, 1e15 + 1, 1<<53 - 1, 1 << 53, 1<<53 + 1,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1} {
		checkMetricInt(t, v)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	// (A million took 4 s of a test run's CPU and found nothing a hundred
	// thousand did not.)
	for range 100000 {
		checkMetricFloat(t, math.Float64frombits(rng.Uint64()))
		switch x := rng.Int64(); rng.IntN(4) {
		case 0:
			checkMetricInt(t, x)
		case 1:
			checkMetricInt(t, x>>rng.IntN(64))
		case 2:
			checkMetricInt(t, 1e15-1000+rng.Int64N(2000))
		default:
			checkMetricInt(t, -1e15-1000+rng.Int64N(2000))
		}
		v := float64(rng.Int64N(1<<40)) / float64(int64(1)<<rng.IntN(40))
		checkMetricFloat(t, v)
		checkMetricFloat(t, -v)
	}
}

func checkMetricFloat(t *testing.T, v float64) {
	t.Helper()
	if got, want := string(appendMetricValue([]byte("x"), v)), "x"+oldMetricValue(v); got != want {
		t.Fatalf("%v (%#x): %q, want %q", v, math.Float64bits(v), got, want)
	}
}

func checkMetricInt(t *testing.T, v int64) {
	t.Helper()
	if got, want := string(appendMetricInt([]byte("x"), v)), "x"+oldMetricValue(float64(v)); got != want {
		t.Fatalf("%d: %q, want %q", v, got, want)
	}
	checkMetricFloat(t, float64(v))
}

// FuzzAppendMetricValue is TestAppendMetricValue's comparison on any
// float64 (given by its bits) and int64.
func FuzzAppendMetricValue(f *testing.F) {
	for _, v := range []float64{0, 1, 0.1, 1e15, math.Nextafter(1e15, 0), 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(math.Float64bits(v), int64(v))
	}
	f.Add(uint64(0x7ff8000000000001), int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, bits uint64, i int64) {
		checkMetricFloat(t, math.Float64frombits(bits))
		checkMetricInt(t, i)
	})
}
