package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
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
	runs := 0
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
		}
		for _, spool := range []bool{false, true} {
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
					err := g.Close(a)
					g = nil
					runs++
					return err
				},
			})
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
	if runs < 120 {
		t.Errorf("%d runs", runs)
	}
}
