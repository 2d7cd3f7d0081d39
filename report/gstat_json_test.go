package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// streamedOrder is GstatAnalysis with its keys in the streamed order.
type streamedOrder struct {
	File              string                 `json:"file"`
	Report            int                    `json:"report"`
	Header            *analyze.HeaderStats   `json:"header"`
	Tables            []analyze.TableStats   `json:"tables"`
	UnattachedIndices []analyze.IndexStats   `json:"unattached_indices"`
	Findings          []*parse.GstatFinding  `json:"findings"`
	Encryption        []parse.GstatPageCrypt `json:"encryption"`
	Totals            analyze.Totals         `json:"totals"`
	Warnings          []analyze.Warning      `json:"warnings"`
	Notices           []parse.Notice         `json:"notices"`
}

// Streamed, every corpus gstat file gives the bytes WriteJSON gives for
// the whole analysis, keys in the streamed order; and the same values as
// the whole analysis.
func TestGstatJSONStreamed(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "public", "gstat", "*"))
	more, _ := filepath.Glob(testutil.Testdata(t, "fb30", "shop-gstat-*.txt"))
	files = append(files, more...)
	runs, spilled, warnings := 0, 0, 0
	budget, fanIn, batch := spoolBudget, extsort.FanIn, tailBatch
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		reps, err := parse.ReadGstat(bytes.NewReader(data), name)
		if err != nil {
			continue
		}
		var want bytes.Buffer
		var whole []byte
		for _, rep := range reps {
			a := analyze.Gstat(rep, analyze.NewThresholds())
			o := streamedOrder{a.File, a.Report, a.Header, a.Tables, a.UnattachedIndices, a.Findings, a.Encryption, a.Totals, a.Warnings, a.Notices}
			if err := WriteJSON(&want, o); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(a)
			whole = append(whole, b...)
			warnings += len(a.Warnings)
		}
		for mode := range 3 {
			// 0: warnings kept by the analysis; 1: spooled; 2: spooled in
			// runs of one warning, merged 4 at a time, and written a few
			// hundred bytes at a time.
			spool := mode > 0
			if mode == 2 {
				spoolBudget, extsort.FanIn, tailBatch = 1, 4, 500
			}
			var got bytes.Buffer
			var g *GstatJSON
			var sink func(a *analyze.GstatAnalysis) analyze.WarningSink
			if spool {
				sink = func(a *analyze.GstatAnalysis) analyze.WarningSink {
					g = NewGstatJSON(&got, a)
					return g
				}
			}
			err = analyze.StreamGstat(bytes.NewReader(data), name, analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
				Sink: sink,
				Table: func(a *analyze.GstatAnalysis, ts *analyze.TableStats) error {
					if g == nil {
						g = NewGstatJSON(&got, a)
					}
					g.Table(ts)
					return nil
				},
				Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
					if g == nil {
						g = NewGstatJSON(&got, a)
					}
					if g.spool != nil {
						spilled += g.spool.Spilled()
					}
					err := g.Close(a)
					g = nil
					runs++
					return err
				},
			})
			spoolBudget, extsort.FanIn, tailBatch = budget, fanIn, batch
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				os.WriteFile("/tmp/gj-got", got.Bytes(), 0o644)
				os.WriteFile("/tmp/gj-want", want.Bytes(), 0o644)
				t.Fatalf("%s: streamed JSON differs (/tmp/gj-got, /tmp/gj-want)", name)
			}
			// The same values as the whole analysis's JSON.
			dec := json.NewDecoder(&got)
			var again []byte
			for dec.More() {
				var a analyze.GstatAnalysis
				if err := dec.Decode(&a); err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(&a)
				again = append(again, b...)
			}
			if !bytes.Equal(again, whole) {
				t.Errorf("%s: values differ", name)
			}
		}
	}
	if runs < 180 {
		t.Errorf("%d runs", runs)
	}
	// The runs of many warnings were sorted in the temporary file.
	// With a budget of one byte every warning was a sorted run of its
	// own in the temporary file, merged 4 at a time.
	if spilled != warnings || warnings < 60 {
		t.Errorf("%d sorted runs of warnings written, want one for each of the %d warnings (60 or more)", spilled, warnings)
	}
}

// A warning dropped when the run ends (a worse one replaced it) is left
// out, also when it was already written to the temporary file in a
// sorted run.
func TestGstatJSONDroppedWarning(t *testing.T) {
	w := func(rule, obj string, sev analyze.Severity, mag float64) analyze.Warning {
		return analyze.Warning{Rule: rule, Severity: sev, Kind: "table", Object: obj, Magnitude: mag}
	}
	ws := []analyze.Warning{
		w("table-versions", "ORDERS", analyze.Warn, 1.5),
		w("table-versions", "ITEMS", analyze.Warn, 2),
		w("table-fragments", "ITEMS", analyze.Info, 3),
		w("table-versions", "ORDERS", analyze.Critical, 1.2), // ORDERS printed twice, worse the second time
		w("table-fragments", "ORDERS", analyze.Info, 3),
	}
	for _, budget := range []int{1 << 20, 1} {
		var got []string
		for _, w := range spooledDoc(t, budget, 2, ws, 0) {
			got = append(got, string(w.Severity)+" "+w.Rule+" "+w.Object)
		}
		want := []string{"critical table-versions ORDERS", "warning table-versions ITEMS",
			"info table-fragments ITEMS", "info table-fragments ORDERS"}
		if !slices.Equal(got, want) {
			t.Errorf("budget %d: warnings %q, want %q", budget, got, want)
		}
	}
}

// A spooled run whose output fails while its warnings are written ends
// with the writer's error, writes nothing after it, and leaves no
// goroutine behind: the one that writes the warnings ends too.
func TestGstatJSONWarningsWriteFails(t *testing.T) {
	defer func(b, f, n int) { spoolBudget, extsort.FanIn, tailBatch = b, f, n }(spoolBudget, extsort.FanIn, tailBatch)
	spoolBudget, extsort.FanIn, tailBatch = 4<<10, 4, 1<<10
	var ws []analyze.Warning
	for i := range 2000 {
		ws = append(ws, analyze.Warning{Rule: "table-versions", Severity: analyze.Warn, Kind: "table",
			Object: fmt.Sprintf("T%04d", i), Magnitude: float64(i % 7), Reason: strings.Repeat("r", 200)})
	}
	for _, limit := range []int{0, 10 << 10, 200 << 10} {
		out := &testutil.FailAfter{N: limit}
		before := runtime.NumGoroutine() // (before the sorter's own)
		a := &analyze.GstatAnalysis{File: "x", Warnings: []analyze.Warning{}}
		g := NewGstatJSON(out, a)
		for i, w := range ws {
			if err := g.Put(i, w); err != nil {
				t.Fatal(err)
			}
		}
		err := g.Close(a)
		if !errors.Is(err, testutil.ErrFull) {
			t.Errorf("limit %d: Close = %v, want %v", limit, err, testutil.ErrFull)
		}
		if out.Calls > out.OK+1 {
			t.Errorf("limit %d: %d writes after the failed one", limit, out.Calls-out.OK-1)
		}
		testutil.WaitGoroutines(t, before, fmt.Sprintf("limit %d: Close", limit)) // (the writer ends just after Close returns)
	}
}

// spooledDoc puts ws (each its index for id) into a run's document
// spooled in budget bytes and merged fanIn runs at a time, drops the ids
// of drop, closes the document and returns the warnings it holds.
func spooledDoc(t *testing.T, budget, fanIn int, ws []analyze.Warning, drop ...int) []analyze.Warning {
	t.Helper()
	defer func(b, f int) { spoolBudget, extsort.FanIn = b, f }(spoolBudget, extsort.FanIn)
	spoolBudget, extsort.FanIn = budget, fanIn
	var out bytes.Buffer
	a := &analyze.GstatAnalysis{File: "x", Warnings: []analyze.Warning{}}
	g := NewGstatJSON(&out, a)
	for i, w := range ws {
		if err := g.Put(i, w); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range drop {
		if err := g.Drop(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Close(a); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Warnings []analyze.Warning }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Warnings
}

// streamGstatJSON writes the JSON of every run of data as fbdiag gstat
// --format json does: warnings spooled, tables encoded by
// AppendGstatTable; guarded, for a writer under a printable.Writer.
func streamGstatJSON(t *testing.T, data []byte, name string, guard bool) []byte {
	t.Helper()
	var out bytes.Buffer
	var g *GstatJSON
	err := analyze.StreamGstat(bytes.NewReader(data), name, analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
		Sink: func(a *analyze.GstatAnalysis) analyze.WarningSink {
			if guard {
				g = NewGstatJSONGuarded(&out, a)
			} else {
				g = NewGstatJSON(&out, a)
			}
			return g
		},
		EncodeTable: func(b []byte, ts *analyze.TableStats) ([]byte, error) {
			return AppendGstatTable(b, ts, guard)
		},
		Table: func(a *analyze.GstatAnalysis, _ *analyze.TableStats) error {
			b, err := a.EncodedTable()
			if err == nil {
				g.TableEncoded(b)
			}
			return err
		},
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			err := g.Close(a)
			g = nil
			return err
		},
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out.Bytes()
}

// A guarded document (NewGstatJSONGuarded) is what a printable.Writer
// passes on of the plain one, on every corpus gstat file and on the shop
// sample with names holding what the guard escapes (bidi and C1
// controls, ESC, bytes that are not UTF-8); and the plain one has the
// bytes of WriteJSON (TestGstatJSONStreamed), the characters unescaped.
func TestGstatJSONGuarded(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	files := gstatSamples(t)
	shop := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	odd := strings.NewReplacer("\nORDERS (", "\n\u202eORD\u0085ERS\x1b[2J (", "\nCUSTOMER (", "\nC\xffUST\u2028OMER (",
		"ORDERS_", "\u2066OR\u009fDERS_").Replace(string(shop))
	type doc struct {
		name string
		data []byte
	}
	docs := []doc{{"odd-names.txt", []byte(odd)}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{filepath.Base(f), data})
	}
	checked := 0
	for _, d := range docs {
		if _, err := parse.ReadGstat(bytes.NewReader(d.data), d.name); err != nil {
			continue
		}
		plain := streamGstatJSON(t, d.data, d.name, false)
		var want bytes.Buffer
		if _, err := printable.NewWriter(&want).Write(plain); err != nil {
			t.Fatal(err)
		}
		got := streamGstatJSON(t, d.data, d.name, true)
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s: %s", d.name, firstDifference(want.String(), string(got)))
		}
		if d.name == "odd-names.txt" {
			// The escapes are the guard's; the plain document keeps the
			// characters, as encoding/json writes them.
			for _, s := range []string{`\u202eORD\u0085ERS\u001b[2J`, `C\ufffdUST\u2028OMER`, `\u2066OR\u009fDERS_`} {
				if n := bytes.Count(got, []byte(s)); n < 2 {
					t.Errorf("guarded: %d × %s", n, s)
				}
			}
			if n := bytes.Count(plain, []byte("\u202eORD\u0085ERS\\u001b[2J")); n < 2 {
				t.Errorf("plain: %d × the raw name", n)
			}
		}
		checked++
	}
	if checked < 60 {
		t.Errorf("%d documents checked", checked)
	}
}

// Past maxClasses distinct classes (here their sources differ), a
// warning's rule, severity, kind, unit and source are spooled whole: the
// warnings come back in order with their own sources, spilled one by one
// and merged.
func TestGstatJSONManySources(t *testing.T) {
	n := maxClasses + 50
	var ws []analyze.Warning
	for i := range n {
		ws = append(ws, analyze.Warning{Rule: "r", Severity: analyze.Warn, Kind: "table", Object: fmt.Sprintf("T%05d", i),
			Magnitude: float64(i % 7), Source: fmt.Sprintf("source %d", i%(maxClasses+20))})
	}
	for _, budget := range []int{1 << 20, 1} {
		got := spooledDoc(t, budget, 8, ws)
		if len(got) != n {
			t.Fatalf("budget %d: %d warnings, want %d", budget, len(got), n)
		}
		for k, w := range got {
			var i int
			fmt.Sscanf(w.Object, "T%05d", &i)
			if w.Source != fmt.Sprintf("source %d", i%(maxClasses+20)) {
				t.Fatalf("budget %d: %s has source %q", budget, w.Object, w.Source)
			}
			if k > 0 {
				p := got[k-1]
				if p.Magnitude < w.Magnitude || p.Magnitude == w.Magnitude && p.Object > w.Object {
					t.Fatalf("budget %d: %s (%g) before %s (%g)", budget, p.Object, p.Magnitude, w.Object, w.Magnitude)
				}
			}
		}
	}
}

// compareSpooled, on the key spooledOf copies out of a warning, orders as
// analyze.CompareWarningKeys, ties by id.
func TestCompareSpooledOrder(t *testing.T) {
	sevs := []analyze.Severity{analyze.Info, analyze.Warn, analyze.Critical, ""}
	mags := []float64{0, math.Copysign(0, -1), 1, 1.5, -2, 1e300}
	names := []string{"", "A", "AB", "B"}
	r := rand.New(rand.NewPCG(1, 2))
	var rs []spooled
	for id := range 400 {
		w := &analyze.Warning{Severity: sevs[r.IntN(len(sevs))], Magnitude: mags[r.IntN(len(mags))],
			Rule: names[r.IntN(len(names))], Object: names[r.IntN(len(names))], Table: names[r.IntN(len(names))]}
		rs = append(rs, spooledOf(id, w))
	}
	for _, a := range rs {
		for _, b := range rs {
			want := analyze.CompareWarningKeys(a.w.Key(), b.w.Key())
			if want == 0 {
				want = cmp.Compare(a.id, b.id)
			}
			if got := compareSpooled(a, b); got != want {
				t.Fatalf("%+v (id %d) against %+v (id %d): %d, want %d", *a.w, a.id, *b.w, b.id, got, want)
			}
		}
	}
}
