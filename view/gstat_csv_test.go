package view

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// Streamed through GstatCSV, with room for a few rows in memory and the
// rest sorted in runs merged 4 at a time, every table of the CSV has the
// bytes Writer gives for the whole analyses: of the fb30 sample, of its
// gstat -e and -i outputs, of a 792-table database made of the sample's
// blocks, and of the three runs of the sample, the big one and the -e
// output appended in one file (a source column names the run), and of
// the sample with a table block printed twice. The indices' names are
// looked for repeats on 256 bits: most share one with another, and only
// the block printed twice reads the rows again.
func TestGstatCSVAgrees(t *testing.T) {
	defer func(b, f, n int) { csvRowBudget, extsort.FanIn, hashBits = b, f, n }(csvRowBudget, extsort.FanIn, hashBits)
	csvRowBudget, extsort.FanIn, hashBits = 4<<10, 4, 8
	read := func(name string) []byte { return testutil.ReadTestdata(t, "fb30", name) }
	src, big := testutil.BigGstat(t, 1<<20)
	enc := read("shop-gstat-e.txt")
	multi := append(append(append([]byte{}, src...), big...), enc...)
	// CUSTOMER printed twice, its index CUSTOMER_LAST 5 levels deep the
	// second time: both copies rank with the worse's warning (index-deep).
	s := string(src)
	start, end := strings.Index(s, "CUSTOMER (129)\n"), strings.Index(s, "DOCS (133)\n")
	again := strings.Replace(s[start:end], "depth: 2, leaf buckets: 23", "depth: 5, leaf buckets: 23", 1)
	twice := []byte(s[:end] + again + s[end:])
	inputs := []struct {
		name string
		data []byte
	}{{"a-r", src}, {"e", enc}, {"i", read("shop-gstat-i.txt")}, {"big", big}, {"multi", multi}, {"twice", twice}}
	th := analyze.NewThresholds()
	for _, in := range inputs {
		reps, err := parse.ReadGstat(bytes.NewReader(in.data), in.name)
		if err != nil {
			t.Fatal(err)
		}
		several := len(reps) > 1
		for _, table := range []string{"", "tables", "indices", "warnings", "summary", "encryption", "problems"} {
			sorts := analyze.TableSorts
			if table != "" && table != "tables" && table != "indices" {
				sorts = sorts[:1] // (the others' rows do not depend on it)
			}
			for _, sort := range sorts {
				var docs []*Doc
				for _, rep := range reps {
					docs = append(docs, Gstat(analyze.Gstat(rep, th), GstatOptions{Sort: sort, Several: several}))
				}
				var want bytes.Buffer
				werr := Write(&want, CSV, Options{Table: table, Source: several}, docs...)

				var got bytes.Buffer
				g := NewGstatCSV(&got, Options{Table: table}, GstatOptions{Sort: sort})
				written := 0
				g.Written = func(*analyze.GstatAnalysis) { written++ }
				gerr := analyze.StreamGstat(bytes.NewReader(in.data), in.name, th, analyze.GstatOptions{}, g.Stream())
				if gerr == nil {
					gerr = g.Close()
				}
				what := fmt.Sprintf("%s --table %q --sort %s", in.name, table, sort)
				if fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Errorf("%s: error %v, want %v", what, gerr, werr)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s: streamed CSV differs:\n%.400s\nwant\n%.400s", what, got.Bytes(), want.Bytes())
				}
				if werr == nil && written != len(reps) {
					t.Errorf("%s: %d runs written, want %d", what, written, len(reps))
				}
				// Only the run with a block printed twice reads its index
				// rows again to rank the copies alike; the others keep
				// each row's own rank, sorted once.
				if wantAgain := table == "indices" && in.name == "twice"; g.reranked != map[bool]int{true: 1}[wantAgain] {
					t.Errorf("%s: %d runs ranked again, want %v", what, g.reranked, wantAgain)
				}
				// The big database's 792 tables, 1,320 indices and 1,188
				// warnings passed through memory 48 at a time at most (two
				// batches of 4 KiB of rows, one filling while the other is
				// written, each row counted as 128 bytes and its text).
				rows := strings.Count(got.String(), "\n") - 1
				if in.name == "big" && (table == "" || table == "indices" || table == "warnings") && (rows < 790 || g.MaxHeld() > 48) {
					t.Errorf("%s: held %d of %d rows at once, want 790 rows or more, 48 at most at once", what, g.MaxHeld(), rows)
				}
			}
		}
	}
}

// The warnings table's rows spool as their head, two texts told from the
// first of their rule and their source's number (warningCodec) and read
// back as the rows appendWarningCut made: every warning of the fb30
// sample and of a 7 MiB database made of its blocks. The spooled bytes
// are a quarter of the rows whole (csvRowCodec's, with their source):
// 1,460 of 6,195 for the sample's nine, 1,346,082 of 5,867,862 for the
// big one's 8,262.
func TestWarningCodec(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	var texts []string
	for _, c := range findingsColumns[firstText:] {
		texts = append(texts, c.Key)
	}
	if fmt.Sprint(texts) != "[message advice source]" {
		t.Fatalf("the findings' columns from firstText are %v, not message, advice and source", texts)
	}
	src, big := testutil.BigGstat(t, 7<<20)
	th := analyze.NewThresholds()
	for _, in := range []struct {
		name     string
		data     []byte
		n        int     // warnings
		maxShare float64 // of the bytes of the rows whole
	}{{"a-r", src, 9, 0.27}, {"big", big, 8262, 0.24}} {
		reps, err := parse.ReadGstat(bytes.NewReader(in.data), in.name)
		if err != nil {
			t.Fatal(err)
		}
		var texts extsort.TextRefs
		codec := warningCodec(&texts)
		var packed [][]byte
		var rows []string
		whole, spooled := 0, 0
		var numbered warningRows // (the sources, numbered across the sinks)
		for _, w := range analyze.Gstat(reps[0], th).Warnings {
			sink := &warningRows{rows: extsort.New(compareWarningRows, codec, 1<<30), sources: numbered.sources, sourceAt: numbered.sourceAt}
			if err := sink.Put(len(rows), w); err != nil {
				t.Fatal(err)
			}
			numbered.sources, numbered.sourceAt = sink.sources, sink.sourceAt
			var x csvRow
			sink.rows.Each(func(r csvRow) error { x = r; return nil })
			b, err := appendWarningRow(nil, &x, sink.sources[x.key], nil)
			if err != nil {
				t.Fatal(err)
			}
			row := string(b)
			if want := string(appendCSVRow(nil, findingsColumns, findingCells(GstatFinding(w)))); row != want {
				t.Fatalf("%s: row %q, want %q", in.name, row, want)
			}
			rows = append(rows, row)
			packed = append(packed, codec.Append(nil, x))
			whole += len(csvRowCodec.Append(nil, x)) + len(w.Source)
			spooled += len(packed[len(packed)-1])
		}
		var refCSV refFields
		for i, b := range packed {
			r, err := codec.Decode(b)
			if err != nil || r.id != int64(i) {
				t.Fatalf("%s: warning %d read back as %+v, %v", in.name, i, r, err)
			}
			got, err := unpackWarningRow(nil, r.line, texts.Refs(), numbered.sources, &refCSV)
			if err != nil || string(got) != rows[i] {
				t.Fatalf("%s: warning %d read back as %q, %v; want %q", in.name, i, got, err, rows[i])
			}
		}
		share := float64(spooled) / float64(whole)
		t.Logf("%s: %d warnings, %d bytes spooled of %d whole (%.2f)", in.name, len(rows), spooled, whole, share)
		if len(rows) != in.n || share > in.maxShare {
			t.Errorf("%s: %d warnings spooled in %.2f of their rows' bytes, want %d in %.2f at most", in.name, len(rows), share, in.n, in.maxShare)
		}
	}
}

// FuzzWarningCodec spools warnings of one rule, whose texts the fuzzer
// makes (quotes, commas, newlines, bytes that are not UTF-8, texts that
// are each other's prefix or suffix), through the warnings table's
// sorter with room for one row, and wants them back in order as the rows
// appendCSVRow makes.
func FuzzWarningCodec(f *testing.F) {
	f.Add("index-deep", "CUSTOMER_LAST", "depth 5, 4 levels", "rebuild it", "[U] fbdiag default", "depth 4, 3 levels", "", 1.5, 2.5)
	f.Add("r", "o", `a "quoted", text`, "x\ny", "s,", `a "quoted", text!`, "x\ny\r", 0.0, -1.0)
	f.Add("r", "\xff", "aaaa", "aa", "", "aaaaaa", "aaa", 3.0, 3.0)
	f.Fuzz(func(t *testing.T, rule, object, m1, a1, source, m2, a2 string, v1, v2 float64) {
		ws := []analyze.Warning{
			{Rule: rule, Severity: analyze.Warn, Kind: "index", Object: object, Table: "T", Value: v1, Threshold: v2,
				Unit: "levels", Reason: m1, Advice: a1, Source: source, Magnitude: v1},
			{Rule: rule, Severity: analyze.Warn, Kind: "index", Object: object + "2", Table: "T", Value: v2, Threshold: v1,
				Unit: "levels", Reason: m2, Advice: a2, Source: source, Magnitude: v2},
			{Rule: rule, Severity: analyze.Critical, Kind: "table", Object: m2, Value: v1, Threshold: v1,
				Unit: "", Reason: a2 + m1, Advice: m2 + a1, Source: source + m1, Magnitude: v2},
		}
		r := &gstatCSVRun{texts: new(extsort.TextRefs)}
		r.rows = extsort.New(compareWarningRows, warningCodec(r.texts), 1).SortWith(func(rows []csvRow) { slices.SortFunc(rows, compareWarningRows) })
		defer r.rows.Close()
		want := map[int64]string{}
		for i, w := range ws {
			if err := (*warningRows)(r).Put(i, w); err != nil {
				t.Fatal(err)
			}
			want[int64(i)] = string(appendCSVRow(nil, findingsColumns, findingCells(GstatFinding(w))))
		}
		if r.rows.Spilled() != len(ws) {
			t.Fatalf("%d runs spooled, want %d", r.rows.Spilled(), len(ws))
		}
		var last *csvRow
		var buf []byte
		var refCSV refFields
		err := r.rows.Each(func(x csvRow) error {
			var err error
			if buf, err = unpackWarningRow(buf[:0], x.line, r.texts.Refs(), r.sources, &refCSV); err != nil {
				return err
			}
			if string(buf) != want[x.id] {
				return fmt.Errorf("warning %d read back as %q, want %q", x.id, buf, want[x.id])
			}
			if last != nil && compareWarningRows(*last, x) >= 0 {
				return fmt.Errorf("warning %d after %d", x.id, last.id)
			}
			delete(want, x.id)
			x.s = [3]string{strings.Clone(x.s[0]), strings.Clone(x.s[1]), strings.Clone(x.s[2])}
			last = &x
			return nil
		})
		if err != nil || len(want) > 0 {
			t.Fatalf("%v; not read back: %v", err, want)
		}
	})
}

// A CSV table whose rows were spooled and whose writer fails half-way
// (its rows written on extsort.Tail's goroutine) stops with the writer's
// error, for the tables, indices and warnings tables, the writer failing
// in the header, in the first batch of rows or in a later one.
func TestGstatCSVWriterFails(t *testing.T) {
	defer func(b, n int) { csvRowBudget, csvTailBatch = b, n }(csvRowBudget, csvTailBatch)
	csvRowBudget, csvTailBatch = 4<<10, 2<<10
	_, big := testutil.BigGstat(t, 1<<20)
	th := analyze.NewThresholds()
	for _, table := range []string{"tables", "indices", "warnings"} {
		for _, after := range []int{10, 3000, 40000} {
			g := NewGstatCSV(&testutil.FailAfter{N: after}, Options{Table: table}, GstatOptions{})
			err := analyze.StreamGstat(bytes.NewReader(big), "big", th, analyze.GstatOptions{}, g.Stream())
			if err == nil {
				err = g.Close()
			} else {
				g.Abort()
			}
			if !errors.Is(err, testutil.ErrFull) {
				t.Errorf("%s, failing after %d bytes: %v, want %v", table, after, err, testutil.ErrFull)
			}
		}
	}
}

// Through the terminal's guard (a printable.Writer), every streamed table
// has the bytes the guard gives of the plain one, though its rows go past
// it: the names of tables and indices, the warnings' objects and texts
// and the source column hold what the guard escapes (bidi and C1
// controls, ESC, BEL, U+2028, a byte that is not UTF-8) escaped already.
func TestGstatCSVGuarded(t *testing.T) {
	shop := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	odd := strings.NewReplacer("\nORDERS (", "\n\u202eORD\u0085ERS\x1b[2J (", "\nCUSTOMER (", "\nC\xffUST\u2028OMER (",
		"Index ORDERS_", "Index \u2066OR\u009fDERS_").Replace(string(shop))
	in := odd + odd // (two runs: a source column names them)
	const name = "sh\x07op\u200f.txt"
	for _, table := range []string{"tables", "indices", "warnings"} {
		stream := func(w io.Writer) {
			t.Helper()
			g := NewGstatCSV(w, Options{Table: table}, GstatOptions{})
			if err := analyze.StreamGstat(strings.NewReader(in), name, analyze.NewThresholds(), analyze.GstatOptions{}, g.Stream()); err != nil {
				t.Fatal(err)
			}
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
		}
		var plain, want, got bytes.Buffer
		stream(&plain)
		if _, err := printable.NewWriter(&want).Write(plain.Bytes()); err != nil {
			t.Fatal(err)
		}
		stream(printable.NewWriter(&got))
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("--table %s: guarded CSV differs:\n%s\nwant\n%s", table, got.Bytes(), want.Bytes())
		}
		wants := map[string][]string{
			"tables":   {`,\u202eORD\u0085ERS\x1b[2J,`, `,C\xffUST\u2028OMER,`},
			"indices":  {`,\u2066OR\u009fDERS_CARRIER,\u202eORD\u0085ERS\x1b[2J,`},
			"warnings": {`,index-sparse,index \u2066OR\u009fDERS_DATE_D on \u202eORD\u0085ERS\x1b[2J,`, `DROP INDEX ""\u2066OR\u009fDERS_CARRIER""`},
		}[table]
		for _, s := range wants {
			for _, run := range []string{"#1", "#2"} {
				row := regexp.MustCompile(`(?m)^sh\\x07op\\u200f\.txt` + run + `,.*`)
				if n := strings.Count(strings.Join(row.FindAllString(got.String(), -1), "\n"), s); n != 1 {
					t.Errorf("--table %s: %d × %s in run %s, want 1 in\n%s", table, n, s, run, got.Bytes())
				}
			}
		}
	}
}

// ruleTexts gives the reference texts extsort.TextRefs.Ref gives, made in
// the same order: the bytes spooled by its numbers are AppendText's, for
// rules that come back after eight others, past extsort.MaxTextRefs, and
// whose first text is too long to be a reference.
func TestRuleTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	var mine, old extsort.TextRefs
	var rules ruleTexts
	var got, want []byte
	long := strings.Repeat("x", 1<<16)
	for i := range 100000 {
		rule := fmt.Sprintf("rule-%d", rng.IntN(12))
		if rng.IntN(10) == 0 {
			rule = fmt.Sprintf("rule-%d", rng.IntN(700))
		}
		if rng.IntN(2) == 0 {
			rule = strings.Clone(rule) // (another string of the same bytes)
		}
		texts := [2]string{fmt.Sprintf("m %d of %s", rng.IntN(100), rule), fmt.Sprintf("a %d", rng.IntN(3))}
		if rng.IntN(50) == 0 {
			texts[rng.IntN(2)] = long
		}
		refs := rules.of(&mine, rule, texts[0], texts[1])
		got, want = got[:0], want[:0]
		for j, f := range []byte{'m', 'a'} {
			got = mine.AppendTextOf(got, refs[j], texts[j])
			want = old.AppendText(want, rule, f, texts[j])
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("warning %d of %s: %q, want %q", i, rule, got, want)
		}
	}
	if n := len(mine.Refs()); n != extsort.MaxTextRefs || !slices.Equal(mine.Refs(), old.Refs()) {
		t.Fatalf("%d reference texts, want %d as TextRefs alone", n, extsort.MaxTextRefs)
	}
}

// sourceOf numbers a run's sources as they come, one number a source
// whichever string holds its bytes: past the sixteen it looks at in turn
// too, where a map takes over, and for the sources a thresholds file of
// its own could give (a thousand).
func TestSourceOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	var r warningRows
	want := map[string]int64{}
	for i := range 20000 {
		s := fmt.Sprintf("[U] thresholds file, rule %d", rng.IntN(min(1000, 4+i/10)))
		if rng.IntN(2) == 0 {
			s = strings.Clone(s) // (another string of the same bytes)
		}
		n, ok := want[s]
		if !ok {
			n = int64(len(want))
			want[s] = n
		}
		if got := r.sourceOf(s); got != n || r.sources[got] != s {
			t.Fatalf("source %d %q: number %d, want %d", i, s, got, n)
		}
	}
	if len(r.sources) != len(want) || len(want) < 900 {
		t.Fatalf("%d sources numbered, want %d (over 900)", len(r.sources), len(want))
	}
}
