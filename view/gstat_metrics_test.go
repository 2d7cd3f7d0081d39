package view

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// Streamed through GstatMetrics, with room for a few samples in memory
// and the rest in a temporary file (and the labels, sorted to find a
// table printed twice, in runs merged 4 at a time), the exposition has the
// bytes Write gives for the last run's document of each database: of the
// fb30 sample, of a 792-table database made of its blocks, of the later
// sample of the same database appended to the big one (the later
// replaces it), of two databases, and of a table printed twice, in the
// sample and in the big one, and of an index block that follows no table
// printed twice: the samples of its second block are left
// out (one sample a series, as Prometheus wants), with a notice at its
// line; an error made the whole exposition invalid before. The labels'
// hashes are looked for repeats on 256 bits: most share one with
// another, and only true repeats are left out.
func TestGstatMetricsAgrees(t *testing.T) {
	defer func(b, f, n int) { metricBudget, extsort.FanIn, hashBits = b, f, n }(metricBudget, extsort.FanIn, hashBits)
	metricBudget, extsort.FanIn, hashBits = 4<<10, 4, 8
	src, big := testutil.BigGstat(t, 1<<20)
	later := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	s := string(src)
	start, end := strings.Index(s, "CUSTOMER (129)\n"), strings.Index(s, "DOCS (133)\n")
	twice := []byte(s[:end] + s[start:end] + s[end:])
	// An index block that follows no table, printed twice.
	ix := s[strings.Index(s, "    Index CUSTOMER_LAST (1)\n"):strings.Index(s, "    Index RDB$PRIMARY2 (0)\n")]
	ixTwice := []byte(s[:start] + ix + ix)
	join := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	// The big database's first table printed again before its last: its
	// samples, past the memory's few kilobytes, are left out as they are
	// read back from the temporary file.
	heads := regexp.MustCompile(`(?m)^\S.* \(\d+\)$`).FindAllIndex(big, -1)
	first, last := heads[0][0], heads[len(heads)-1][0]
	twiceBig := join(big[:last], big[first:heads[1][0]], big[last:])
	inputs := []struct {
		name string
		data []byte
	}{
		{"a-r", src}, {"big", big}, {"big+later", join(big, later)},
		{"two databases", join(src, testutil.ReadTestdata(t, "growth", "grow-20-a-r.txt"), later)}, {"twice", twice},
		{"twice big", twiceBig}, {"index twice", ixTwice},
	}
	// The notice of each input with a block printed again.
	lineAt := func(b []byte, at int) int { return bytes.Count(b[:at], []byte("\n")) + 1 }
	again := map[string]string{
		"twice": `twice:77: {table="CUSTOMER"} printed again (first at line 33): OpenMetrics keeps the samples of line 33, one per series; text, JSON, CSV and the totals count both`,
		"twice big": fmt.Sprintf(`twice big:%d: {table="CUSTOMER_00001"} printed again (first at line %d): OpenMetrics keeps the samples of line %d, one per series; text, JSON, CSV and the totals count both`,
			lineAt(twiceBig, last), lineAt(big, first), lineAt(big, first)),
		"index twice": fmt.Sprintf(`index twice:%d: {table="",index="CUSTOMER_LAST"} printed again (first at line %d): OpenMetrics keeps the samples of line %d, one per series; text, JSON, CSV and the totals count both`,
			lineAt(ixTwice, start+len(ix)), lineAt(ixTwice, start), lineAt(ixTwice, start)),
	}
	th := analyze.NewThresholds()
	for _, in := range inputs {
		reps, err := parse.ReadGstat(bytes.NewReader(in.data), in.name)
		if err != nil {
			t.Fatal(err)
		}
		// The documents as gstat --format openmetrics keeps them: the last
		// run of each database, where its first was.
		var docs []*Doc
		at := map[string]int{}
		for _, rep := range reps {
			a := analyze.Gstat(rep, th)
			d := Gstat(a, GstatOptions{})
			if i, ok := at[GstatDatabase(a)]; ok {
				docs[i] = d
			} else {
				at[GstatDatabase(a)] = len(docs)
				docs = append(docs, d)
			}
		}
		// Of a table printed again, Write's exposition without the
		// samples of the second block.
		seen := map[string]map[string]bool{}
		for _, d := range docs {
			for i := range d.Metrics {
				f := &d.Metrics[i]
				if seen[f.Name] == nil {
					seen[f.Name] = map[string]bool{}
				}
				all, once := f.Samples, seen[f.Name]
				f.Samples = func(yield func(Sample) bool) {
					for s := range all {
						labels, _ := labelText(s.Labels)
						if !once[labels] {
							once[labels] = true
							if !yield(s) {
								return
							}
						}
					}
				}
			}
		}
		var want bytes.Buffer
		werr := Write(&want, OpenMetrics, Options{}, docs...)

		var got bytes.Buffer
		g := NewGstatMetrics(&got, GstatOptions{})
		written := 0
		var notices []string
		g.Written = func(a *analyze.GstatAnalysis) {
			written++
			for _, n := range a.Notices {
				if strings.Contains(n.Msg, "printed again") {
					notices = append(notices, n.String())
				}
			}
		}
		gerr := analyze.StreamGstat(bytes.NewReader(in.data), in.name, th, analyze.GstatOptions{}, g.Stream())
		if gerr == nil {
			gerr = g.Close()
		}
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%s: error %v, want %v", in.name, gerr, werr)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: streamed exposition differs:\n%.400s\nwant\n%.400s", in.name, got.Bytes(), want.Bytes())
		}
		if written != len(reps) {
			t.Errorf("%s: %d runs counted, want %d", in.name, written, len(reps))
		}
		// The big database's 10,000 samples (some 500 KB) passed through
		// memory 4 KiB at a time at most.
		samples := strings.Count(got.String(), "\nfbdiag_table_") + strings.Count(got.String(), "\nfbdiag_index_")
		if in.name == "big" && (samples < 8000 || g.MaxHeld() > 4<<10) {
			t.Errorf("%s: held %d bytes of %d samples at once, want 8,000 samples or more, 4 KiB at most at once", in.name, g.MaxHeld(), samples)
		}
		if strings.Join(notices, "\n") != again[in.name] {
			t.Errorf("%s: notices %q, want %q", in.name, notices, again[in.name])
		}
		if gerr != nil {
			t.Errorf("%s: %v", in.name, gerr)
		}
	}
}

// Through the terminal's guard (a printable.Writer), the exposition has
// the bytes the guard gives of the plain one, though the samples go past
// it: their labels hold what the guard escapes (bidi and C1 controls,
// ESC, U+2028, a byte that is not UTF-8) escaped already, in the table,
// index and database labels alike.
func TestGstatMetricsGuarded(t *testing.T) {
	shop := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	odd := strings.NewReplacer("\nORDERS (", "\n\u202eORD\u0085ERS\x1b[2J (", "\nCUSTOMER (", "\nC\xffUST\u2028OMER (",
		"Index ORDERS_", "Index \u2066OR\u009fDERS_", "shop.fdb", "sh\x07op\u200f.fdb").Replace(string(shop))
	exposition := func(w io.Writer) {
		t.Helper()
		g := NewGstatMetrics(w, GstatOptions{})
		if err := analyze.StreamGstat(strings.NewReader(odd), "odd.txt", analyze.NewThresholds(), analyze.GstatOptions{}, g.Stream()); err != nil {
			t.Fatal(err)
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
	}
	var plain, want, got bytes.Buffer
	exposition(&plain)
	if _, err := printable.NewWriter(&want).Write(plain.Bytes()); err != nil {
		t.Fatal(err)
	}
	exposition(printable.NewWriter(&got))
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("guarded exposition differs:\n%s\nwant\n%s", got.Bytes(), want.Bytes())
	}
	for _, s := range []string{
		`fbdiag_table_data_pages{database="/var/lib/firebird/data/sh\\x07op\\u200f.fdb",table="\\u202eORD\\u0085ERS\\x1b[2J"} `,
		`fbdiag_table_data_pages{database="/var/lib/firebird/data/sh\\x07op\\u200f.fdb",table="C\\xffUST\\u2028OMER"} `,
		`table="\\u202eORD\\u0085ERS\\x1b[2J",index="\\u2066OR\\u009fDERS_CARRIER"} `,
	} {
		if !strings.Contains(got.String(), s) {
			t.Errorf("no %s in\n%s", s, got.Bytes())
		}
	}
}

// Each table's and index's samples are spooled as one record of the
// object (objectRecord): streamed with a few kilobytes in memory, 3,000
// tables of random names (and an index each, named alike), some without
// their versions or their index's max dup (a family without the
// object's sample), and a table and index whose labels take over 65,535
// bytes, have the exposition Write gives.
func TestGstatMetricsRecords(t *testing.T) {
	defer func(b int) { metricBudget = b }(metricBudget)
	metricBudget = 4 << 10
	src := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	start := strings.Index(src, "CUSTOMER (129)\n")
	end := strings.Index(src, "    Index RDB$PRIMARY2 (0)\n")
	block := src[start:end] // (CUSTOMER and its index CUSTOMER_LAST)
	versions := "    Average version length: 9.00, total versions: 10000, max versions: 1\n"
	maxDup := ", total dup: 29000, max dup: 29\n"
	if !strings.Contains(block, versions) || !strings.Contains(block, maxDup) {
		t.Fatal("the sample's CUSTOMER block changed")
	}
	rng := rand.New(rand.NewPCG(41, 8))
	var in strings.Builder
	in.WriteString(src[:start])
	seen := map[string]bool{}
	names := append(indexSortNames(rng, 6000), strings.Repeat("T", 40000)+`"\`+strings.Repeat("U", 30000))
	for _, name := range names {
		if name == "" || seen[name] || strings.ContainsAny(name, " ()\x00\x01\x7f") || !utf8.ValidString(name) {
			continue // (not a name gstat prints, or one printed already)
		}
		seen[name] = true
		b := strings.Replace(block, "CUSTOMER (129)", fmt.Sprintf("%s (%d)", name, 128+len(seen)), 1)
		b = strings.Replace(b, "Index CUSTOMER_LAST (1)", "Index "+name+"_IX (1)", 1)
		switch rng.IntN(4) {
		case 0:
			b = strings.Replace(b, versions, "", 1)
		case 1:
			b = strings.Replace(b, maxDup, ", total dup: 29000\n", 1)
		}
		in.WriteString(b)
	}
	if len(seen) < 3000 {
		t.Fatalf("%d names", len(seen))
	}
	reps, err := parse.ReadGstat(strings.NewReader(in.String()), "names")
	if err != nil {
		t.Fatal(err)
	}
	th := analyze.NewThresholds()
	var want bytes.Buffer
	if err := Write(&want, OpenMetrics, Options{}, Gstat(analyze.Gstat(reps[0], th), GstatOptions{})); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	g := NewGstatMetrics(&got, GstatOptions{})
	if err := analyze.StreamGstat(strings.NewReader(in.String()), "names", th, analyze.GstatOptions{}, g.Stream()); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(got.String(), "\nfbdiag_index_max_dup{"); n < 2000 || n > len(seen)*4/5 {
		t.Errorf("%d max dup samples of %d indices", n, len(seen))
	}
	if !strings.Contains(got.String(), `TTTT\"\\UUU`) {
		t.Error("no sample of the long name")
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("streamed exposition differs:\n%.400s\nwant\n%.400s", got.Bytes(), want.Bytes())
	}
}
