package extsort

import (
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
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
	bad := NewFields(AppendString(AppendInt(AppendInt(AppendInt(nil, 0), 1000), 1000), ""))
	if _, err := bad.ReadText(refs.Refs()); err != ErrTextRef {
		t.Errorf("a prefix and suffix longer than the reference: %v, want ErrTextRef", err)
	}
}
