package analyze

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// A text kept by keepText is never written again: 5,000 texts of 0 to
// 1,200 bytes, one in a hundred longer than a block, read at the end as
// they were made, the later ones appended past them in the same blocks;
// and a hundred texts of 300 bytes take a few blocks, not a hundred
// strings.
func TestKeepText(t *testing.T) {
	var c checker
	r := rand.New(rand.NewPCG(44, 1))
	text := func(i, n int) string {
		var s strings.Builder
		for j := range n {
			s.WriteByte(byte('a' + (i+j)%26))
		}
		return s.String()
	}
	var kept, want []string
	for i := range 5000 {
		n := r.IntN(1200)
		if i%100 == 0 {
			n = textChunk + r.IntN(100)
		}
		w := text(i, n)
		kept = append(kept, c.keepText(append(c.textBuf(), w...)))
		want = append(want, w)
	}
	for i := range kept {
		if kept[i] != want[i] {
			t.Fatalf("text %d (%d bytes) reads %.40q…, made %.40q…", i, len(want[i]), kept[i], want[i])
		}
	}
	w := text(0, 300)
	if n := testing.AllocsPerRun(10, func() {
		for range 100 {
			c.keepText(append(c.textBuf(), w...))
		}
	}); n > 5 {
		t.Errorf("100 texts of 300 bytes: %v allocations", n)
	}
}

// The texts a sink is given stay as they came to the end of the run,
// as the JSON writer holds them until it spills: the warnings of a 1 MiB
// file made of the shop's blocks (1,200 or so, on every worker), their
// reasons and advice read again after the last one, are those of the
// analysis that keeps them (GstatWith).
func TestSinkTextsHeld(t *testing.T) {
	_, data := testutil.BigGstat(t, 1<<20)
	want, err := wholeRuns(data, "big", NewThresholds())
	if err != nil || len(want) != 1 {
		t.Fatal(len(want), err)
	}
	type key struct{ rule, object, table string }
	texts := map[key][2]string{}
	for _, w := range want[0].Warnings {
		texts[key{w.Rule, w.Object, w.Table}] = [2]string{w.Reason, w.Advice}
	}
	sink := &recordSink{put: map[int]Warning{}}
	cloned := map[int][2]string{}
	err = StreamGstat(strings.NewReader(string(data)), "big", NewThresholds(), GstatOptions{}, GstatStream{
		Sink: func(*GstatAnalysis) WarningSink { return textCloner{sink, cloned} },
		Run:  func(*GstatAnalysis, *parse.GstatReport) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sink.put) < 1000 || len(sink.put) != len(want[0].Warnings) {
		t.Fatalf("%d warnings put, the analysis has %d", len(sink.put), len(want[0].Warnings))
	}
	for id, w := range sink.put {
		if got := [2]string{w.Reason, w.Advice}; got != cloned[id] {
			t.Fatalf("warning %d (%s on %s) reads at the end\n%q\nwhere it came as\n%q", id, w.Rule, w.Object, got, cloned[id])
		}
		if got, want := [2]string{w.Reason, w.Advice}, texts[key{w.Rule, w.Object, w.Table}]; got != want {
			t.Fatalf("warning %d (%s on %s):\n%q\nthe analysis's\n%q", id, w.Rule, w.Object, got, want)
		}
	}
}

// textCloner gives a recordSink the warnings and keeps a copy of their
// texts as they came.
type textCloner struct {
	*recordSink
	cloned map[int][2]string
}

func (s textCloner) Put(id int, w Warning) error {
	s.cloned[id] = [2]string{strings.Clone(w.Reason), strings.Clone(w.Advice)}
	return s.recordSink.Put(id, w)
}

// The index rules' advice is appended (appendRebuildAdvice,
// appendDropAdvice, appendQuoteName); it reads as the + of before, kept
// here as the oracle, for every kind of index, with and without its
// constraint's name, a schema, an ODS before 12, since and unknown, and
// names that need quotes (a keyword, a quote inside, lower case).
func TestAdviceTexts(t *testing.T) {
	rebuild := func(ix *IndexStats, schema string, odsMajor *int) string {
		name := QuoteName(schema, ix.Name)
		if ix.Kind == IndexSystem {
			return "only a gbak backup and restore rebuilds the index of a system table"
		}
		if odsMajor != nil && *odsMajor >= 12 {
			return "ALTER INDEX " + name + " ACTIVE; (rebuilds it while it stays active" + ix.activeNote() + ")"
		}
		since := " (on Firebird 3.0 and later ALTER INDEX " + name + " ACTIVE; alone rebuilds it, constraint index or not)"
		if odsMajor != nil {
			since = ""
		}
		switch ix.Kind {
		case IndexPlain:
			return "ALTER INDEX " + name + " INACTIVE; ALTER INDEX " + name + " ACTIVE;" + since
		case IndexUnknown:
			return "ALTER INDEX " + name + " INACTIVE; ALTER INDEX " + name + " ACTIVE; (if Firebird refuses with \"Cannot deactivate index used by an integrity constraint\" " +
				"or \"by a PRIMARY/UNIQUE constraint\", it serves a constraint: rebuild it by a gbak backup and restore instead)" + since
		}
		return "Firebird refuses ALTER INDEX ... INACTIVE on a constraint's index: rebuild it by a gbak backup and restore, or by " +
			ix.dropConstraint(schema) + " and adding it again with the same definition" + ix.referencedBy() + since
	}
	drop := func(ix *IndexStats, schema string) string {
		name := QuoteName(schema, ix.Name)
		switch ix.Kind {
		case IndexPlain:
			return "if no query plan uses it: DROP INDEX " + name + "; or replace it by a compound index that starts with a selective column"
		case IndexUnknown:
			return "if no query plan uses it: DROP INDEX " + name + "; (Firebird refuses if it serves a constraint: a foreign key keeps its index while the constraint exists)"
		case IndexForeignKey:
			return "Firebird keeps a foreign key's index while the constraint exists; it goes only with the reference check, by " + ix.dropConstraint(schema)
		}
		return "the index enforces a constraint and stays while the constraint exists"
	}
	ods := func(n int) *int { return &n }
	constraint := "FK_ORDERS_CUST"
	n := 0
	for _, kind := range []string{IndexPlain, IndexUnknown, IndexPrimaryKey, IndexForeignKey, IndexUnique, IndexSystem} {
		for _, cons := range []*string{nil, &constraint} {
			for _, name := range []string{"IX_ORDERS_DATE", "ORDER", `my "odd" idx`, "lower"} {
				for _, schema := range []string{"", "PUBLIC", `s"q`} {
					for _, odsMajor := range []*int{nil, ods(11), ods(12), ods(13)} {
						ix := &IndexStats{Name: name, Table: "ORDERS", Kind: kind, Constraint: cons}
						if got, want := string(ix.appendRebuildAdvice([]byte("x"), schema, odsMajor)), "x"+rebuild(ix, schema, odsMajor); got != want {
							t.Errorf("rebuild %s %q in %q:\n%s\nwant\n%s", kind, name, schema, got, want)
						}
						if got, want := ix.RebuildAdvice(schema, odsMajor), rebuild(ix, schema, odsMajor); got != want {
							t.Errorf("RebuildAdvice %s %q in %q:\n%s\nwant\n%s", kind, name, schema, got, want)
						}
						n++
					}
					ix := &IndexStats{Name: name, Table: "ORDERS", Kind: kind, Constraint: cons}
					if got, want := string(ix.appendDropAdvice([]byte("x"), schema)), "x"+drop(ix, schema); got != want {
						t.Errorf("drop %s %q in %q:\n%s\nwant\n%s", kind, name, schema, got, want)
					}
					if got, want := ix.DropAdvice(schema), drop(ix, schema); got != want {
						t.Errorf("DropAdvice %s %q in %q:\n%s\nwant\n%s", kind, name, schema, got, want)
					}
				}
			}
		}
	}
	if n != 6*2*4*3*4 {
		t.Fatal(n, "cases")
	}
	if got := string(appendQuoteName(nil, `s"q`, `my "odd" idx`)); got != `"s""q"."my ""odd"" idx"` {
		t.Errorf("appendQuoteName: %s", got)
	}
}

// A warning handed to a sink names its object and table with copies
// beside its texts, not with the parser's strings: a sink holds its
// warnings a while, and each of the parser's names holds its 4 KiB
// block of names. A warning every 16 tables (the fdb-made 300 MiB file)
// held 4.7 MB of those blocks in csv --table warnings' batch, and the
// run peaked at 48–51 MB. The names read as the parser's.
func TestSinkNamesDetached(t *testing.T) {
	_, data := testutil.BigGstat(t, 1<<20)
	parsed := map[*byte]string{} // the parser's names, by their bytes
	sink := &recordSink{put: map[int]Warning{}}
	err := StreamGstat(strings.NewReader(string(data)), "big", NewThresholds(), GstatOptions{}, GstatStream{
		Table: func(_ *GstatAnalysis, ts *TableStats) error {
			parsed[unsafe.StringData(ts.Name)] = ts.Name
			for i := range ts.Indices {
				parsed[unsafe.StringData(ts.Indices[i].Name)] = ts.Indices[i].Name
			}
			return nil
		},
		Sink: func(*GstatAnalysis) WarningSink { return sink },
		Run:  func(*GstatAnalysis, *parse.GstatReport) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range parsed {
		names[n] = true
	}
	if len(sink.put) < 1000 || len(parsed) < 1000 {
		t.Fatalf("%d warnings put, %d names parsed", len(sink.put), len(parsed))
	}
	for id, w := range sink.put {
		for _, s := range []string{w.Object, w.Table} {
			if s == "" {
				continue
			}
			if _, ok := parsed[unsafe.StringData(s)]; ok {
				t.Fatalf("warning %d (%s on %s) holds the parser's string %q", id, w.Rule, w.Object, s)
			}
			if !names[s] {
				t.Fatalf("warning %d (%s) names %q, which the input does not", id, w.Rule, s)
			}
		}
	}
}
