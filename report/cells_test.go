package report

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1814, "1814"},           // whole numbers as they are
		{30.3, "30.3"},           // a size in GB from the SATA seed
		{0.33333333, "0.3333"},   // CUSTOMER versions/record: four digits
		{-0.15448, "-0.1545"},    // a fitted slope
		{12345678.9, "12345679"}, // large figures without exponent
		{281474976710655, "281474976710655"},
		{math.NaN(), "–"},
		{math.Inf(-1), "–"},
	} {
		if got := Num(c.v); got != c.want {
			t.Errorf("Num(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestSize(t *testing.T) {
	i := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		v    *int64
		want string
	}{
		{nil, ""},
		{i(1000), "1000 B"},
		{i(23 * 8192), "184.0 KiB"},   // CUSTOMER_LAST: 23 leaf pages of 8 KiB
		{i(392 * 8192), "3.1 MiB"},    // CUSTOMER: 392 data pages
		{i(1814 << 30), "1.8 TiB"},    // the largest SATA seed database
		{i(5000 << 40), "5000.0 TiB"}, // TiB is the last unit
	} {
		if got := Size(c.v); got != c.want {
			t.Errorf("Size(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := Clip("restore-high-performance", 14); got != "restore-high-…" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("CUSTOMER", 14); got != "CUSTOMER" {
		t.Errorf("Clip of a short name = %q", got)
	}
	if got := ClipLeft("/var/lib/firebird/data/shop-gbak-restore-v-st.log", 20); got != "…ak-restore-v-st.log" || utf8.RuneCountInString(got) != 20 {
		t.Errorf("ClipLeft = %q", got)
	}
	// runes, not bytes: a Cyrillic name is clipped on a character boundary
	if got := Clip("ТАБЛИЦА_ДОКУМЕНТОВ", 8); got != "ТАБЛИЦА…" {
		t.Errorf("Clip of Cyrillic = %q", got)
	}
}

func TestWrap(t *testing.T) {
	src := "Ann W. Harrison, IBPhoenix gem-00000012 (index statistics): \"more than ten thousand duplicates on any single value will cause garbage collection problems\""
	lines := Wrap(src, "    ", 60)
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	var words []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "    ") || utf8.RuneCountInString(l) > 60 {
			t.Errorf("line %q: not indented or over 60 columns", l)
		}
		words = append(words, strings.Fields(l)...)
	}
	if strings.Join(words, " ") != src {
		t.Error("wrapping lost or changed words")
	}
	if got := Wrap("", "  ", 100); got != nil {
		t.Errorf("Wrap of nothing = %q", got)
	}
}

func TestPercent(t *testing.T) {
	v := -0.658
	if got := PercentOr(&v); got != "-65.8%" {
		t.Errorf("PercentOr = %q", got)
	}
	if got := PercentOr(nil); got != "–" {
		t.Errorf("PercentOr(nil) = %q", got)
	}
	if got := Percent(0.134); got != "+13.4%" {
		t.Errorf("Percent = %q", got)
	}
}
