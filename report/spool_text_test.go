package report

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/extsort"
)

// A text spooled as the difference from its rule's first text reads back
// whole: texts that share a prefix, a suffix, both, neither, or all of
// the reference; shorter and longer than it, empty, cut inside a
// multi-byte rune, and of rules past maxTextRefs (spooled whole). The
// difference of a text that shares most of the reference is a few bytes.
func TestSpoolTextRoundTrip(t *testing.T) {
	ref := "81% of 37 leaf pages under 60% full; a plain index or the index of a named constraint (the gstat text cannot tell)"
	texts := []string{
		ref,
		"9% of 1234 leaf pages under 60% full; a plain index or the index of a named constraint (the gstat text cannot tell)",
		"81% of 37 leaf pages under 60% full; the index of a PRIMARY KEY",
		"",
		"x",
		"81% of 37",
		ref + ref,
		"prefix « é » " + ref[10:],
		ref[:20] + "ü" + ref[20:],
		strings.Repeat("ab", 300),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := []byte(ref)
		for range rng.IntN(4) {
			i := rng.IntN(len(b) + 1)
			b = append(b[:i], append([]byte("é\"\\\x01"[:rng.IntN(6)]), b[i:]...)...)
		}
		texts = append(texts, string(b[:rng.IntN(len(b)+1)]))
	}
	var refs textRefs
	var rec []byte
	for _, s := range texts {
		rec = refs.appendText(rec, "index-sparse", 'r', s)
	}
	for i := range maxTextRefs + 2 { // (the last two are spooled whole)
		rec = refs.appendText(rec, "rule-"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+string(rune(i)), 'a', "t")
	}
	var f extsort.Fields
	f.Reset(rec)
	var buf []byte
	for i, want := range texts {
		got, err := readText(&f, refs.at, &buf)
		if err != nil || got != want {
			t.Fatalf("text %d read back %q, %v; want %q", i, got, err, want)
		}
	}
	for range maxTextRefs + 2 {
		if got, err := readText(&f, refs.at, &buf); err != nil || got != "t" {
			t.Fatalf("read back %q, %v; want t", got, err)
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if len(refs.at) != maxTextRefs {
		t.Errorf("%d reference texts, want %d", len(refs.at), maxTextRefs)
	}
	// A text that differs from the reference in its first figures only.
	if n := len(refs.appendText(nil, "index-sparse", 'r', "9"+ref[1:])); n > 8 {
		t.Errorf("a text one byte from its reference took %d bytes", n)
	}
	// A record its references cannot make is an error, not a panic.
	bad := extsort.AppendString(extsort.AppendInt(extsort.AppendInt(extsort.AppendInt(nil, 0), 100), 100), "")
	f.Reset(bad)
	if _, err := readText(&f, refs.at, &buf); err == nil {
		t.Error("a prefix and suffix longer than the reference read back")
	}
}

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
		if p, s := commonPrefix(c.a, c.b), commonSuffix(c.a, c.b); p != c.p || s != c.suf {
			t.Errorf("%q, %q: prefix %d, suffix %d; want %d, %d", c.a, c.b, p, s, c.p, c.suf)
		}
	}
}
