package units

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSize(t *testing.T) {
	for _, c := range []struct {
		b    int64
		want string
	}{
		{0, "0 B"},
		{512, "512 B"},
		{1023, "1023 B"},
		{1024, "1.00 KiB"},
		{1536, "1.50 KiB"},
		{10239, "10.0 KiB"},
		{1000 * 1024, "1000 KiB"},
		{1023 * 1024, "1023 KiB"},
		{1024*1024 - 1, "1.00 MiB"},
		{37329305, "35.6 MiB"}, // ORDER_LINE in the issue: 37.3 MB decimal
		{2 << 40, "2.00 TiB"},
		{2048 << 30, "2.00 TiB"}, // --predict 2TB, printed "2048 GB" before
		{100 << 30, "100 GiB"},
		{-1536, "-1.50 KiB"},
		{math.MaxInt64, "8.00 EiB"},
		{math.MinInt64, "-8.00 EiB"},
	} {
		if got := Size(c.b); got != c.want {
			t.Errorf("Size(%d) = %q, want %q", c.b, got, c.want)
		}
	}
	for _, c := range []struct {
		b    float64
		want string
	}{
		{1023.4, "1023 B"},
		{1023.6, "1.00 KiB"},
		{1.5 * (1 << 30), "1.50 GiB"},
		{math.NaN(), Dash},
		{math.Inf(1), Dash},
	} {
		if got := SizeFloat(c.b); got != c.want {
			t.Errorf("SizeFloat(%g) = %q, want %q", c.b, got, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int64
	}{
		{"4096", 4096},
		{"512B", 512},
		{"100GB", 100 << 30},
		{"100GiB", 100 << 30},
		{"100 gb", 100 << 30},
		{"2TB", 2 << 40},
		{"2T", 2 << 40},
		{"512MiB", 512 << 20},
		{"1.5GiB", 3 << 29},
		{"1,5 GB", 3 << 29},
		{"16k", 16 << 10},
		{"1PB", 1 << 50},
		{" 8 KiB ", 8192},
		{"0", 0},
		{"1e9", 1e9},
		{"2.5E+3KB", 2560000},
	} {
		got, err := ParseSize(c.s)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.s, got, err, c.want)
		}
	}
	for _, c := range []struct{ s, want string }{
		{"", `size "": no number (want a size such as 100GB, 512MiB or 2T)`},
		{"GB", `size "GB": no number (want a size such as 100GB, 512MiB or 2T)`},
		{"12XB", `size "12XB": unknown unit "XB" (want B, KiB, MiB, GiB, TiB or PiB; GB means GiB)`},
		{"-5GB", `size "-5GB": negative`},
		{"1.2.3GB", `size "1.2.3GB": "1.2.3" is not a number`},
		{"9000PB", `size "9000PB": too large`},
		{"1e30T", `size "1e30T": too large`},
		{"1e", `size "1e": unknown unit "e" (want B, KiB, MiB, GiB, TiB or PiB; GB means GiB)`},
		{"NaN", `size "NaN": no number (want a size such as 100GB, 512MiB or 2T)`},
	} {
		_, err := ParseSize(c.s)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseSize(%q) error = %v, want %q", c.s, err, c.want)
		}
	}
}

// What ParseSize reads, Size prints in the same unit: --predict 2TB is
// shown as 2.00 TiB.
func TestParseSizeRoundTrip(t *testing.T) {
	for s, want := range map[string]string{"2TB": "2.00 TiB", "100GB": "100 GiB", "16GB": "16.0 GiB", "512MB": "512 MiB"} {
		b, err := ParseSize(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := Size(b); got != want {
			t.Errorf("Size(ParseSize(%q)) = %q, want %q", s, got, want)
		}
	}
}

func TestHasUnit(t *testing.T) {
	for s, want := range map[string]bool{"16GB": true, "16": false, "64 GiB": true, "4096": false, "2t": true} {
		if got := HasUnit(s); got != want {
			t.Errorf("HasUnit(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{
		{0, "0.000 s"},
		{0.0004, "0.000 s"},
		{12.345, "12.345 s"},
		{59.999, "59.999 s"},
		{59.9996, "0:01:00"},
		{65, "0:01:05"},
		{13304.334, "3:41:44"}, // the 13304.334 s
		{86399.6, "1d 0:00:00"},
		{93784, "1d 2:03:04"},
		{3*86400 + 5, "3d 0:00:05"},
		{-12.5, "-12.500 s"},
		{-3700, "-1:01:40"},
		{math.NaN(), Dash},
		{math.Inf(-1), Dash},
		// Past 2^53 s the days in three digits, not an int64 wrapped.
		{1<<53 - 1, "104249991374d 7:36:31"},
		{1e20, "1.16e+15d"},
		{-1e20, "-1.16e+15d"},
	} {
		if got := Seconds(c.s); got != c.want {
			t.Errorf("Seconds(%g) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestWholeSeconds(t *testing.T) {
	for n, want := range map[int64]string{0: "0 s", 12: "12 s", 59: "59 s", 60: "0:01:00", 3725: "1:02:05", 93784: "1d 2:03:04", -5: "-5 s", -65: "-0:01:05"} {
		if got := WholeSeconds(n); got != want {
			t.Errorf("WholeSeconds(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSig3(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1.848, "1.85"},
		{0.451 / 0.244, "1.85"},
		{0.451, "0.451"},
		{0.687, "0.687"},
		{2, "2.00"},
		{35.6, "35.6"},
		{9.996, "10.0"},
		{99.96, "100"},
		{999.4, "999"},
		{999.6, "1000"},
		{1234.5, "1235"},
		{0.000123456, "0.000123"},
		{-0.0456, "-0.0456"},
		{math.NaN(), Dash},
	} {
		if got := Sig3(c.v); got != c.want {
			t.Errorf("Sig3(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	names := []string{"RDB$PRIMARY10", "RDB$PRIMARY2", "RDB$PRIMARY100", "RDB$PRIMARY1",
		"RDB$FOREIGN3", "T10", "T9", "t9", "T09", "TA", "T", "apple", "Banana", "cherry", "A1", "AB"}
	slices.SortFunc(names, Compare)
	want := []string{"A1", "AB", "apple", "Banana", "cherry", "RDB$FOREIGN3", "RDB$PRIMARY1", "RDB$PRIMARY2",
		"RDB$PRIMARY10", "RDB$PRIMARY100", "T", "T09", "T9", "t9", "T10", "TA"}
	if !slices.Equal(names, want) {
		t.Errorf("sorted:\n%s\nwant:\n%s", strings.Join(names, " "), strings.Join(want, " "))
	}
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"X2", "X10", -1},
		{"X10", "X2", 1},
		{"X", "X", 0},
		{"x", "X", 1},
		{"X01", "X1", -1},
		{"99999999999999999999999", "100000000000000000000000", -1},
	} {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestCompareFolded checks the allocation-free comparison against the
// definition it replaces, on names that exercise case, non-ASCII letters
// whose lower case changes length (the Kelvin sign), and invalid UTF-8.
func TestCompareFolded(t *testing.T) {
	names := []string{"", "a", "A", "ab", "AB", "aB", "b", "Z", "z", "ORDER_LINE", "order_line", "Orders",
		"ÉTÉ", "été", "ete", "Straße", "STRASSE", "\u212a", "k", "K", "kelvin", "\u212aelvin", "\xff", "\xffa", "\ufffd", "Ω", "ω", "ΩA", "_x", "[", "`"}
	for _, a := range names {
		for _, b := range names {
			want := strings.Compare(strings.ToLower(a), strings.ToLower(b))
			if got := compareFolded(a, b); got != want {
				t.Errorf("compareFolded(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func FuzzCompareFolded(f *testing.F) {
	f.Add("ORDERS", "orders")
	f.Add("\u212a", "k")
	f.Fuzz(func(t *testing.T, a, b string) {
		want := strings.Compare(strings.ToLower(a), strings.ToLower(b))
		if got := compareFolded(a, b); got != want {
			t.Errorf("compareFolded(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// TestCompareShortcut checks Compare, which skips the bytes both names
// start with, against compareNames, which reads them: on 600,000 pairs
// of names that share a start (digits, letters in both cases, letters
// whose lower case changes length, UTF-8 cut short and invalid bytes).
func TestCompareShortcut(t *testing.T) {
	parts := []string{"A", "a", "B", "b", "0", "1", "9", "00", "10", "_", "$", "é", "É", "\u212a", "k", "\xff", "\xc3", "\xa9", "\xe2\x82", "€"}
	rng := rand.New(rand.NewPCG(17, 18))
	name := func(n int) string {
		s := ""
		for range rng.IntN(n + 1) {
			s += parts[rng.IntN(len(parts))]
		}
		return s
	}
	for range 600000 {
		start := name(6)
		a, b := start+name(4), start+name(4)
		if got, want := Compare(a, b), compareNames(a, b); got != want {
			t.Fatalf("Compare(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}

func FuzzCompareShortcut(f *testing.F) {
	f.Add("CUSTOMER_00017", "CUSTOMER_00018")
	f.Add("T1A", "T12")
	f.Add("\xe2\x82", "\xe2\x82\xac")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := Compare(a, b), compareNames(a, b); got != want {
			t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// BenchmarkCompare sorts the index names of a big run's batch that tie on
// their size: copies of one report's names, numbered as tools/make-big
// numbers them.
func BenchmarkCompare(b *testing.B) {
	bases := []string{"RDB$PRIMARY1", "RDB$PRIMARY12", "RDB$FOREIGN3", "RDB$FOREIGN13", "CUSTNAMEX",
		"CUSTREGION", "EMPNAMEX", "CHANGEX", "NEEDX", "SALESTATX", "MINSALX", "PRODTYPEX", "QTYX"}
	var names []string
	for i := range 600 {
		for _, s := range bases {
			names = append(names, fmt.Sprintf("%s_%05d", s, i+1))
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	work := make([]string, len(names))
	for b.Loop() {
		copy(work, names)
		slices.SortFunc(work, Compare)
	}
}

// CommonPrefix and CommonSuffix, eight bytes a step and then byte by byte.
func TestCommonPrefixSuffix(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		p, suf int
	}{
		{"", "", 0, 0},
		{"abc", "abd", 2, 0},
		{"0123456789abcdef-x", "0123456789abcdef-y", 17, 0},
		{"x-0123456789abcdef", "y-0123456789abcdef", 0, 17},
		{"same", "same", 4, 4},
		{"short", "shorter", 5, 0},
	} {
		if p, s := CommonPrefix(c.a, c.b), CommonSuffix(c.a, c.b); p != c.p || s != c.suf {
			t.Errorf("%q, %q: prefix %d, suffix %d; want %d, %d", c.a, c.b, p, s, c.p, c.suf)
		}
	}
}

// A label's count agrees with its noun: the report and the views printed
// "1 tables", "1 transactions failed", "1 of 5 runs were not steady".
func TestCount(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Count(1, "table"), "1 table"},
		{Count(0, "table"), "0 tables"},
		{Count(int64(2), "transaction"), "2 transactions"},
		{Count(1, "index"), "1 index"},
		{Count(3, "index"), "3 indices"},
		{Count(uint64(2), "retry"), "2 retries"},
		{Plural(1, "was"), "was"},
		{Plural(4, "was"), "were"},
		{Plural(1, "has"), "has"},
		{Plural(2, "has"), "have"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// LastNumber's run and value, and the order it promises: names that
// share their bytes before their last run of digits compare as the runs'
// values, over 400,000 random names (the parts of TestCompareShortcut:
// letters in both cases, UTF-8 cut short, invalid bytes) whose last run is
// replaced by another of up to 19 digits, leading zeros included, and
// what follows it by other parts with no digit.
func TestLastNumber(t *testing.T) {
	for _, c := range []struct {
		s        string
		from, to int
		v        uint64
		ok       bool
	}{
		{"RDB$INDEX_15_00017", 13, 18, 17, true},
		{"T9X", 1, 2, 9, true},
		{"007", 0, 3, 7, true},
		{"A1B22c", 3, 5, 22, true},
		{"NAME", 0, 0, 0, false},
		{"", 0, 0, 0, false},
		{"X9999999999999999999", 1, 20, 9999999999999999999, true},
		{"X10000000000000000000", 0, 0, 0, false},
	} {
		from, to, v, ok := LastNumber(c.s)
		if from != c.from || to != c.to || v != c.v || ok != c.ok {
			t.Errorf("LastNumber(%q) = %d, %d, %d, %v; want %d, %d, %d, %v", c.s, from, to, v, ok, c.from, c.to, c.v, c.ok)
		}
	}
	parts := []string{"A", "a", "B", "b", "0", "1", "9", "00", "10", "_", "$", "é", "É", "\u212a", "k", "\xff", "\xc3", "\xa9", "\xe2\x82", "€"}
	rng := rand.New(rand.NewPCG(19, 20))
	digits := func() string {
		d := make([]byte, 1+rng.IntN(19))
		for i := range d {
			d[i] = '0' + byte(rng.IntN(10))
			if rng.IntN(3) == 0 {
				d[i] = '0'
			}
		}
		return string(d)
	}
	checked := 0
	for range 400000 {
		s := ""
		for range rng.IntN(8) {
			s += parts[rng.IntN(len(parts))]
		}
		from, to, va, ok := LastNumber(s)
		if !ok {
			continue
		}
		if s[from:to] == "" || strings.Trim(s[from:to], "0123456789") != "" || from > 0 && isDigit(s[from-1]) || strings.ContainsAny(s[to:], "0123456789") {
			t.Fatalf("LastNumber(%q): %d, %d", s, from, to)
		}
		tail := s[to:]
		if rng.IntN(2) == 0 {
			tail = ""
			for range rng.IntN(3) {
				if p := parts[rng.IntN(len(parts))]; !strings.ContainsAny(p, "0123456789") {
					tail += p
				}
			}
		}
		b := s[:from] + digits() + tail
		bf, bt, vb, ok := LastNumber(b)
		if !ok || bf != from || b[bt:] != tail {
			t.Fatalf("LastNumber(%q) = %d, %d, %v after LastNumber(%q) = %d, %d", b, bf, bt, ok, s, from, to)
		}
		if va == vb {
			continue
		}
		checked++
		if got, want := Compare(s, b), cmp.Compare(va, vb); got != want {
			t.Fatalf("Compare(%q, %q) = %d, the values %d, %d", s, b, got, va, vb)
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d pairs checked", checked)
	}
}

// A figure short of 1 never reads as 1: the seed SATA's linear leverage
// (0.9998396714323068) is not a point that sets its fitted value exactly.
func TestFigureShortOfOne(t *testing.T) {
	for v, want := range map[float64]string{
		0.9998396714323068: "0.9998",
		0.99996:            "0.99996",
		-0.99984:           "-0.9998",
		0.9294489283829521: "0.929",
		0.9994:             "0.999",
		1:                  "1",
		1.0004:             "1",
		1 - 1e-16:          "1",
		0.9999996:          "1",
	} {
		if got := Figure(v); got != want {
			t.Errorf("Figure(%v) = %q, want %q", v, got, want)
		}
	}
}

// A ratio or a change that is not nil never reads as one: 999.8 tps
// against 1000 read "×1.00, -0.0 %" beside "slower".
func TestRatioAndChangeOffNil(t *testing.T) {
	for v, want := range map[float64]string{0.9998: "0.9998", 1.0002: "1.0002", 1: "1.00", 1.25: "1.25", 0.415: "0.415", 1 + 1e-15: "1.00"} {
		if got := Ratio(v); got != want {
			t.Errorf("Ratio(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{-0.0002: "-0.02 %", 0.00004: "+0.004 %", 0: "+0.0 %", 0.246: "+24.6 %", -0.175: "-17.5 %", -1e-18: "-0.0 %"} {
		if got := SignedPercent(v); got != want {
			t.Errorf("SignedPercent(%v) = %q, want %q", v, got, want)
		}
	}
}

// List joins as a sentence does: the rules' and bench's refusals list
// their objects so ("1 procedure and 1 generator").
func TestList(t *testing.T) {
	for words, want := range map[string]string{"": "", "a": "a", "a|b": "a and b", "a|b|c": "a, b and c"} {
		var ws []string
		if words != "" {
			ws = strings.Split(words, "|")
		}
		if got := List(ws); got != want {
			t.Errorf("List(%q) = %q, want %q", ws, got, want)
		}
	}
}
