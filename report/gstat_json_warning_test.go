package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// TestAppendWarning: the hand-written encoding of every warning of the
// fb30 and corpus gstat samples, and of warnings with escapes, no table
// and extreme figures, has encoding/json's bytes; NaN is refused as
// encoding/json refuses it.
func TestAppendWarning(t *testing.T) {
	var ws []analyze.Warning
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fb30", "*gstat*"))
	more, _ := filepath.Glob(filepath.Join(testutil.CorpusPath(t), "public", "gstat", "*.txt")) // (none without the corpus)
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		reps, _ := parse.ReadGstat(bytes.NewReader(data), f)
		for _, r := range reps {
			ws = append(ws, analyze.Gstat(r, analyze.NewThresholds()).Warnings...)
		}
	}
	if len(ws) < 20 {
		t.Fatalf("%d warnings from %d files", len(ws), len(files)+len(more))
	}
	ws = append(ws,
		analyze.Warning{Rule: "r", Severity: analyze.Warn, Kind: "index", Object: "A\"B\\C\u2028\x01\xff", Value: 1e-7, Threshold: 1e21, Magnitude: 123456789.125},
		analyze.Warning{Rule: "r", Severity: analyze.Critical, Kind: "table", Object: "T", Table: "T", Value: -0.5, Reason: "<&>", Advice: "\t\n"})
	o := newJSONOut(nil)
	for _, w := range ws {
		want, err := o.encoded(&w, "    ")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendWarning(nil, &w, false)
		if !ok || string(got) != string(want) {
			t.Fatalf("%s on %s:\n got %s\nwant %s", w.Rule, w.Object, got, want)
		}
	}
	if _, ok := appendWarning(nil, &analyze.Warning{Value: math.NaN()}, false); ok {
		t.Error("NaN accepted")
	}
}
