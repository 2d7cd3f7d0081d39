package report

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
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
	bad := extsort.AppendString(append(extsort.AppendInt(nil, 0), 0xe8, 3, 0xe8, 3), "") // (prefix and suffix 1000)
	var f extsort.Fields
	f.Reset(bad)
	if _, err := newTailEncoder(nil, refs.Refs(), false).appendText(nil, &f); err == nil {
		t.Error("a prefix and suffix longer than the reference read back")
	}
}

// The warnings spooled to the temporary file and written by the tail
// (each class's JSON made once, a figure's JSON reused from the warning
// before) are the bytes of the warnings held in memory (appendWarning),
// with the terminal's guard and without: strings that need escapes in
// every field, tables empty or not, figures that repeat from one warning
// to the next and figures that do not (-0 after 0), and classes past
// maxClasses, spooled whole.
func TestSpooledWarningsAsHeld(t *testing.T) {
	odd := []string{"plain", "quote\" and \\", "\u202ebidi\x1b[2J", "\xffbad", "ü"}
	var ws []analyze.Warning
	for i := range 600 {
		w := analyze.Warning{Rule: "rule-" + odd[i%5], Severity: []analyze.Severity{analyze.Info, analyze.Warn, analyze.Critical}[i%3],
			Kind: "kind " + odd[i%4], Object: fmt.Sprintf("T%03d %s", i, odd[i%5]), Unit: odd[i%3], Source: "source " + odd[i%2],
			Reason: fmt.Sprintf("%d of %s's pages", i%7, odd[i%5]), Advice: "ALTER INDEX " + odd[i%5] + " ACTIVE;",
			Value: float64(i%4) / 3, Threshold: 0.5, Magnitude: float64(i%3) / 7}
		if i%2 == 0 {
			w.Table = "OWNER " + odd[i%5]
		}
		if i%5 == 0 {
			w.Value = math.Copysign(0, -1)
		}
		ws = append(ws, w)
	}
	// Next to each other in the order of the sort: 0 then -0.
	for i, f := range []float64{0, math.Copysign(0, -1), 0, math.Copysign(0, -1)} {
		ws = append(ws, analyze.Warning{Rule: "z", Severity: analyze.Info, Kind: "table", Object: fmt.Sprintf("Z%d", i),
			Value: f, Threshold: f, Magnitude: f})
	}
	many := slices.Clone(ws)
	for i := range maxClasses + 50 {
		many = append(many, analyze.Warning{Rule: "r", Severity: analyze.Warn, Kind: "table", Object: fmt.Sprintf("T%05d", i),
			Value: 1.25, Magnitude: float64(i%3) + 0.1, Source: fmt.Sprintf("source %d %s", i, odd[i%5])})
	}
	doc := func(budget int, guard bool, ws []analyze.Warning) []byte {
		t.Helper()
		defer func(b int) { spoolBudget = b }(spoolBudget)
		spoolBudget = budget
		var out bytes.Buffer
		a := &analyze.GstatAnalysis{File: "x", Warnings: []analyze.Warning{}}
		g := NewGstatJSON(&out, a)
		if guard {
			g = NewGstatJSONGuarded(&out, a)
		}
		for i, w := range ws {
			if err := g.Put(i, w); err != nil {
				t.Fatal(err)
			}
		}
		spilled := g.spool.Spilled()
		if err := g.Close(a); err != nil {
			t.Fatal(err)
		}
		if (spilled > 0) != (budget == 1) {
			t.Fatalf("budget %d: %d runs spilled", budget, spilled)
		}
		return out.Bytes()
	}
	// Fields too long for a packed warning's two-byte lengths (spooled
	// whole, class -1), next to ones just short enough, and a rule whose
	// first reason is too long to be a reference text.
	long := strings.Repeat("é\"", 22000) // (66,000 bytes)
	var longs []analyze.Warning
	for i := range 12 {
		w := analyze.Warning{Rule: "long", Severity: analyze.Warn, Kind: "index", Object: fmt.Sprintf("IX%d", i),
			Reason: "the reason", Advice: "the advice", Value: 1, Magnitude: 2}
		if i == 0 {
			w.Rule, w.Reason = "long first", long
		}
		switch cut := long[:65535-3+i%2*3]; i % 6 { // (65,532 or 65,535 bytes)
		case 1:
			w.Object = long
		case 2:
			w.Table = long
		case 3:
			w.Reason = "the " + long
		case 4:
			w.Advice = long + " advice"
		case 5:
			w.Object, w.Table, w.Reason, w.Advice = cut, cut, "the "+cut+"reason", cut+"the advice"
		}
		longs = append(longs, w)
	}
	for _, guard := range []bool{false, true} {
		for name, ws := range map[string][]analyze.Warning{"odd strings": ws, "past maxClasses": many, "long fields": longs} {
			held, spooled := doc(64<<20, guard, ws), doc(1, guard, ws)
			if !bytes.Equal(spooled, held) {
				t.Fatalf("guard %v, %s: %s", guard, name, firstDifference(string(held), string(spooled)))
			}
			if n := bytes.Count(spooled, []byte(`"rule"`)); n != len(ws) {
				t.Fatalf("guard %v, %s: %d warnings, want %d", guard, name, n, len(ws))
			}
		}
	}
}

// The tail's JSON around the figures, reused from the warning before
// when its class and figures are the same (tailEncoder.appendFigures,
// appendEnd), is appendWarning's over random warnings: a few rules and
// figures, so that neighbours in the order of the sort share them or
// differ in one, strings that need escapes, tables empty or not, and
// classes past maxClasses (spooled whole, each with its own source).
func TestSpooledWarningsRandomFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	figures := []float64{0, math.Copysign(0, -1), 0.5, 1.0 / 3, 2, 1e-7, 3e21, 0.09090909090909091, 42}
	strs := []string{"a", "quote\"", "\u202e", "\xff", "ü", ""}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	for round, n := range []int{3000, 3000, maxClasses + 600} {
		var ws []analyze.Warning
		for i := range n {
			w := analyze.Warning{Rule: "rule-" + pick(strs[:3]), Severity: []analyze.Severity{analyze.Info, analyze.Warn}[rng.IntN(2)],
				Kind: "kind", Object: fmt.Sprintf("T%d%s", rng.IntN(50), pick(strs)), Unit: pick(strs[:2]), Source: "source " + pick(strs[:2]),
				Reason: fmt.Sprintf("%d of the pages%s", rng.IntN(3), pick(strs)), Advice: "ALTER INDEX " + pick(strs) + " ACTIVE;",
				Value: figures[rng.IntN(len(figures))], Threshold: figures[rng.IntN(3)], Magnitude: figures[rng.IntN(4)]}
			if rng.IntN(2) == 0 {
				w.Table = "OWNER" + pick(strs)
			}
			if round == 2 {
				w.Source = fmt.Sprintf("source %d%s", i, pick(strs)) // (a class each)
			}
			ws = append(ws, w)
		}
		for _, guard := range []bool{false, true} {
			var docs [2][]byte
			for k, budget := range []int{64 << 20, 32 << 10} {
				defer func(b int) { spoolBudget = b }(spoolBudget)
				spoolBudget = budget
				var out bytes.Buffer
				a := &analyze.GstatAnalysis{File: "x", Warnings: []analyze.Warning{}}
				g := newGstatJSON(&out, a, guard)
				for i, w := range ws {
					if err := g.Put(i, w); err != nil {
						t.Fatal(err)
					}
				}
				if spilled := g.spool.Spilled(); (spilled > 0) != (k == 1) {
					t.Fatalf("budget %d: %d runs spilled", budget, spilled)
				}
				if err := g.Close(a); err != nil {
					t.Fatal(err)
				}
				docs[k] = out.Bytes()
			}
			if !bytes.Equal(docs[1], docs[0]) {
				t.Fatalf("round %d, guard %v: %s", round, guard, firstDifference(string(docs[0]), string(docs[1])))
			}
			if c := bytes.Count(docs[1], []byte(`"rule"`)); c != n {
				t.Fatalf("round %d: %d warnings, want %d", round, c, n)
			}
		}
	}
}

// A packed warning (of a numbered class) whose lengths are not its
// record's, or whose text's prefix and suffix are longer than its
// reference text, is an error, not a panic or bytes past the record.
func TestPackedWarningCorrupt(t *testing.T) {
	var g GstatJSON
	g.last = -1
	w := analyze.Warning{Rule: "r", Severity: analyze.Warn, Kind: "table", Object: "T1", Table: "OWNER",
		Reason: "12 versions", Advice: "sweep", Value: 12, Threshold: 5, Magnitude: 2.4}
	rec := g.codec().Append(nil, spooledOf(7, &w))
	if id, n, _, _, _, rest, err := readSpooledHead(rec); err != nil || id != 7 || n != 0 || len(rest) != packedLens+2+5 {
		// (its reason and advice are its class's reference texts: no bytes of their own)
		t.Fatalf("spooled as id %d, class %d, %d bytes after the head, %v; want 7, 0, 23", id, n, len(rest), err)
	}
	e := newTailEncoder(g.classAt, g.texts.Refs(), false)
	if got, err := e.append(nil, rec); err != nil || string(got) != string(must(appendWarning(nil, &w, false))) {
		t.Fatalf("read back as %s, %v", got, err)
	}
	for _, bad := range [][]byte{rec[:len(rec)-1], append(slices.Clone(rec), 'x'), rec[:spooledHead+packedLens-1]} {
		if _, err := e.append(nil, bad); err == nil {
			t.Errorf("a record of %d bytes (%d whole) read back", len(bad), len(rec))
		}
		var r spooled
		if err := g.codec().DecodeTo(bad, &r); err == nil {
			t.Errorf("a record of %d bytes (%d whole) decoded", len(bad), len(rec))
		}
	}
	bad := slices.Clone(rec)
	bad[spooledHead+4] = 200 // (the reason's prefix: 200 bytes of "12 versions")
	if _, err := e.append(nil, bad); !errors.Is(err, extsort.ErrTextRef) {
		t.Errorf("a prefix past the reference text read back: %v", err)
	}
	// A packed record of a class without reference texts (their warnings
	// are spooled whole): an error, not an index out of range.
	classes := slices.Clone(g.classAt)
	classes[0].reason = -1
	if _, err := newTailEncoder(classes, g.texts.Refs(), false).append(nil, rec); !errors.Is(err, extsort.ErrTextRef) {
		t.Errorf("a packed record of a class without reference texts read back: %v", err)
	}
}

func must(b []byte, ok bool) []byte {
	if !ok {
		panic("not encoded")
	}
	return b
}
