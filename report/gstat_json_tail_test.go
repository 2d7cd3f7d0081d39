package report

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A text spooled as the difference from its rule's first text is
// written as appendString writes it whole, with the terminal's guard and
// without: texts that share a prefix, a suffix, both, neither, or all of
// the reference; shorter and longer than it, empty, with quotes,
// controls, multi-byte runes, invalid UTF-8 and bidi controls next to
// the shared parts, and of rules past extsort.MaxTextRefs (spooled whole). Of
// the references, one needs no escape (its shared parts are copied) and
// one does. The difference of a text that shares most of its reference
// is a few bytes.
func TestSpoolTextRoundTrip(t *testing.T) {
	plain := "81% of 37 leaf pages under 60% full; a plain index or the index of a named constraint (the gstat text cannot tell)"
	odd := "DROP INDEX \"Ünïcode\"; \u202e bidi \x01 and \xff invalid; the index of a FOREIGN KEY"
	texts := map[string][]string{}
	for _, ref := range []string{plain, odd} {
		ts := []string{
			ref,
			"9% of 1234 " + ref[9:],
			ref[:30] + "the index of a PRIMARY KEY",
			"",
			"x",
			ref[:9],
			ref + ref,
			"prefix « é » " + ref[10:],
			ref[:20] + "ü" + ref[20:],
			ref[:20] + "\u2066" + ref[20:],
			ref[:20] + "\xe2\x80" + ref[20:], // (a rune cut short)
			strings.Repeat("ab", 300),
		}
		texts[ref] = append(ts, testutil.TextVariants(ref, "é\"\\\x01\u202e\xc3", 200, 1)...)
	}
	var refs extsort.TextRefs
	var rec []byte
	for _, ref := range []string{plain, odd} {
		for _, s := range texts[ref] {
			rec = refs.AppendText(rec, ref[:5], 'r', s)
		}
	}
	for i := range extsort.MaxTextRefs + 2 { // (the last four are spooled whole)
		rec = refs.AppendText(rec, "rule-"+string(rune('a'+i%26))+string(rune(i)), 'a', "t\"")
	}
	if len(refs.Refs()) != extsort.MaxTextRefs {
		t.Errorf("%d reference texts, want %d", len(refs.Refs()), extsort.MaxTextRefs)
	}
	for _, guard := range []bool{false, true} {
		e := newTailEncoder(nil, refs.Refs(), guard)
		var f extsort.Fields
		f.Reset(rec)
		read := func(want string) {
			t.Helper()
			got, err := e.appendText(nil, &f)
			if w := appendString(nil, want, guard); err != nil || string(got) != string(w) {
				t.Fatalf("guard %v: %q written as %s, %v; want %s", guard, want, got, err, w)
			}
		}
		for _, ref := range []string{plain, odd} {
			for _, s := range texts[ref] {
				read(s)
			}
		}
		for range extsort.MaxTextRefs + 2 {
			read("t\"")
		}
		if err := f.Err(); err != nil {
			t.Fatal(err)
		}
		if !e.free[0] || e.free[1] {
			t.Errorf("references escape-free %v, %v; want true, false", e.free[0], e.free[1])
		}
	}
	// A text that differs from the reference in its first figure only.
	if n := len(refs.AppendText(nil, plain[:5], 'r', "9"+plain[1:])); n > 8 {
		t.Errorf("a text one byte from its reference took %d bytes", n)
	}
	// A record its references cannot make is an error, not a panic.
	bad := extsort.AppendString(extsort.AppendInt(extsort.AppendInt(extsort.AppendInt(nil, 0), 1000), 1000), "")
	var f extsort.Fields
	f.Reset(bad)
	if _, err := newTailEncoder(nil, refs.Refs(), false).appendText(nil, &f); err == nil {
		t.Error("a prefix and suffix longer than the reference read back")
	}
}
