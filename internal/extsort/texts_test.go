package extsort

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/internal/units"
)

// A text spooled as the difference from the first of its kind reads back
// whole, and a record its references cannot make is an error: texts that
// share a prefix, a suffix, both, neither, or all of the reference,
// shorter and longer, empty, cut inside a rune, and of kinds past
// MaxTextRefs (spooled whole). A text one byte from its reference takes
// a few bytes.
func TestTextRefsRoundTrip(t *testing.T) {
	ref := "81% of 37 leaf pages under 60% full; a plain index or the index of a named constraint"
	texts := []string{ref, "9% of 1234 " + ref[9:], ref[:30] + "the index of a PRIMARY KEY", "", "x", ref[:9], ref + ref,
		"« é » " + ref[10:], ref[:20] + "\xe2\x80" + ref[20:]}
	texts = append(texts, testutil.TextVariants(ref, "é\"\\\x01", 300, 3)...)
	var refs TextRefs
	var rec []byte
	for _, s := range texts {
		rec = refs.AppendText(rec, "index-sparse", 'r', s)
	}
	for i := range MaxTextRefs + 2 {
		rec = refs.AppendText(rec, "k"+string(rune(i)), 'a', "t")
	}
	f := NewFields(rec)
	for i, want := range append(texts, slices.Repeat([]string{"t"}, MaxTextRefs+2)...) {
		part, err := f.ReadText(refs.Refs())
		if got := string(part.Append(nil, refs.Refs())); err != nil || got != want {
			t.Fatalf("text %d read back %q, %v; want %q", i, got, err, want)
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if len(refs.Refs()) != MaxTextRefs {
		t.Errorf("%d references, want %d", len(refs.Refs()), MaxTextRefs)
	}
	if n := len(refs.AppendText(nil, "index-sparse", 'r', "9"+ref[1:])); n > 8 {
		t.Errorf("a text one byte from its reference took %d bytes", n)
	}
	bad := NewFields(AppendString(append(AppendInt(nil, 0), 0xe8, 3, 0xe8, 3), "")) // (prefix and suffix 1000)
	if _, err := bad.ReadText(refs.Refs()); err != ErrTextRef {
		t.Errorf("a prefix and suffix longer than the reference: %v, want ErrTextRef", err)
	}
}

// A kind whose first text is longer than maxRefLen spools it whole, and
// takes its first text that is not as its reference; texts of every
// length read back.
func TestTextRefsLong(t *testing.T) {
	long := strings.Repeat("a long reason; ", maxRefLen/15+1)
	texts := []string{long, long + "x", "short reason 1", "short reason 2", long[:maxRefLen], long}
	var refs TextRefs
	var rec []byte
	for _, s := range texts {
		rec = refs.AppendText(rec, "k", 'r', s)
	}
	if got := refs.Refs(); len(got) != 1 || got[0] != "short reason 1" {
		t.Fatalf("references %.40q, want the first short text", got)
	}
	f := NewFields(rec)
	for i, want := range texts {
		part, err := f.ReadText(refs.Refs())
		if got := string(part.Append(nil, refs.Refs())); err != nil || got != want {
			t.Fatalf("text %d read back %.40q, %v; want %.40q", i, got, err, want)
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
}

// sharedPrefix and sharedSuffix agree with units.CommonPrefix and
// CommonSuffix: strings of 0 to 100 bytes that differ at each place, or
// not at all, or where one ends, at every offset into a longer string.
func TestSharedPrefixSuffix(t *testing.T) {
	base := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 4)
	for n := 0; n <= 100; n++ {
		for off := 0; off < 8; off++ {
			a := base[off : off+n]
			cases := []string{a, a + "!", base[:n]}
			if n > 0 {
				cases = append(cases, a[:n-1])
			}
			for i := range n {
				cases = append(cases, a[:i]+"!"+a[i+1:], a[:i]+"!"+a[i:])
			}
			for _, b := range cases {
				for _, x := range [][2]string{{a, b}, {b, a}} {
					if got, want := sharedPrefix(x[0], x[1]), units.CommonPrefix(x[0], x[1]); got != want {
						t.Fatalf("sharedPrefix(%q, %q) = %d, want %d", x[0], x[1], got, want)
					}
					if got, want := sharedSuffix(x[0], x[1]), units.CommonSuffix(x[0], x[1]); got != want {
						t.Fatalf("sharedSuffix(%q, %q) = %d, want %d", x[0], x[1], got, want)
					}
				}
			}
		}
	}
}

// A text that is its reference is spooled as the prefix and suffix
// would spool it (the whole reference as the prefix, nothing between),
// whether it is the reference's string or a copy, and a text of the
// same length that is not still has its difference found.
func TestTextRefsSame(t *testing.T) {
	refText := "11 distinct values in 100000 keys: a lookup reads most data pages"
	var refs TextRefs
	n := refs.Ref("k", 'r', refText)
	for _, s := range []string{refText, strings.Clone(refText), strings.Replace(refText, "11", "12", 1),
		strings.Replace(refText, "pages", "PAGES", 1), refText[:len(refText)-1] + "!", ""} {
		got := refs.AppendTextOf(nil, n, s)
		p := sharedPrefix(refText, s)
		q := sharedSuffix(refText[p:], s[p:])
		want := AppendString(append(AppendInt(nil, int64(n)), byte(p), byte(p>>8), byte(q), byte(q>>8)), s[p:len(s)-q])
		if !bytes.Equal(got, want) {
			t.Errorf("%q: spooled %q, want %q", s, got, want)
		}
		part, err := NewFields(got).ReadText(refs.Refs())
		if back := string(part.Append(nil, refs.Refs())); err != nil || back != s {
			t.Errorf("%q read back as %q, %v", s, back, err)
		}
	}
}

// Shared gives the prefix and suffix AppendTextOf spools for the same
// text, and they make the text again: the reference itself, texts of its
// length that differ in a byte, shorter and longer ones, and random ones.
func TestTextRefsShared(t *testing.T) {
	var refs TextRefs
	ref := "81% of 37 leaf pages under 60% full; the index of a FOREIGN KEY"
	n := refs.Ref("r", 'r', ref)
	texts := append([]string{ref, "", "x", ref + ref, ref[:10], "9" + ref[1:], ref[:20] + "X" + ref[21:]},
		testutil.TextVariants(ref, "é\"\x01", 500, 3)...)
	for _, s := range texts {
		p, q := refs.Shared(n, s)
		var f Fields
		f.Reset(refs.AppendTextOf(nil, n, s))
		part, err := f.ReadText(refs.Refs())
		if err != nil || part.P != p || part.Q != q {
			t.Fatalf("%q: Shared %d, %d; AppendTextOf %d, %d (%v)", s, p, q, part.P, part.Q, err)
		}
		if p+q > min(len(s), len(ref)) || ref[:p]+s[p:len(s)-q]+ref[len(ref)-q:] != s {
			t.Fatalf("%q: prefix %d and suffix %d do not make it", s, p, q)
		}
	}
}
