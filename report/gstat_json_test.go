package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
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
	budget, fanIn := spoolBudget, extsort.FanIn
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
			// runs of one warning, merged 4 at a time.
			spool := mode > 0
			if mode == 2 {
				spoolBudget, extsort.FanIn = 1, 4
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
			spoolBudget, extsort.FanIn = budget, fanIn
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
	defer func(b, f int) { spoolBudget, extsort.FanIn = b, f }(spoolBudget, extsort.FanIn)
	for _, budget := range []int{1 << 20, 1} {
		spoolBudget, extsort.FanIn = budget, 2
		var out bytes.Buffer
		a := &analyze.GstatAnalysis{File: "x", Warnings: []analyze.Warning{}}
		g := NewGstatJSON(&out, a)
		w := func(rule, obj string, sev analyze.Severity, mag float64) analyze.Warning {
			return analyze.Warning{Rule: rule, Severity: sev, Kind: "table", Object: obj, Magnitude: mag}
		}
		for i, w := range []analyze.Warning{
			w("table-versions", "ORDERS", analyze.Warn, 1.5),
			w("table-versions", "ITEMS", analyze.Warn, 2),
			w("table-fragments", "ITEMS", analyze.Info, 3),
			w("table-versions", "ORDERS", analyze.Critical, 1.2), // ORDERS printed twice, worse the second time
			w("table-fragments", "ORDERS", analyze.Info, 3),
		} {
			if err := g.Put(i, w); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.Drop(0); err != nil {
			t.Fatal(err)
		}
		if err := g.Close(a); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Warnings []analyze.Warning }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range doc.Warnings {
			got = append(got, string(w.Severity)+" "+w.Rule+" "+w.Object)
		}
		want := []string{"critical table-versions ORDERS", "warning table-versions ITEMS",
			"info table-fragments ITEMS", "info table-fragments ORDERS"}
		if !slices.Equal(got, want) {
			t.Errorf("budget %d: warnings %q, want %q", budget, got, want)
		}
	}
}
