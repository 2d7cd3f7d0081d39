package view

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// narrowCSV writes sizes 10 to 13 GiB (a span of ×1.30, less than a
// doubling) with the throughputs given.
func narrowCSV(t *testing.T, tpm ...string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "narrow.csv")
	body := "size_gb,tpm\n"
	for i, y := range tpm {
		body += []string{"10", "11", "12", "13"}[i] + "," + y + "\n"
	}
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// Sizes within a doubling and a slope the noise explains (p=0.623): the
// prediction was withheld, but every format still printed "lost per size
// doubling 13.3 %", one doubling past what was measured, a figure whose
// sign the noise chose. It is withheld in every format for the same
// reason as the prediction, and the chart draws the fits over the sizes
// only.
func TestThroughputNarrowLossWithheld(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, narrowCSV(t, "1000", "1080", "930", "990"))
	d := Throughput(r, "narrow.csv")
	why := "the sizes measured span ×1.30, less than a doubling, and the linear fit's slope is not significant (p=0.623): its curve says nothing about a doubling of the size"

	text := write(t, Text, Options{}, d)
	want := "lost per size doubling  withheld: the sizes measured span ×1.30, less than a doubling, and the\n" +
		"                        linear fit's slope is not significant (p=0.623): its curve says nothing\n" +
		"                        about a doubling of the size\n"
	if !strings.Contains(text, want) || strings.Contains(text, "13.3 %") {
		t.Errorf("text: want %q, no 13.3 %%, in\n%s", want, text)
	}
	if want := "linear: lost per doubling withheld: the sizes measured span ×1.30"; !strings.Contains(text, want) {
		t.Errorf("text: no %q in the models' notes", want)
	}
	// (the warning said "the loss per doubling extrapolates the curve":
	// none is left that does)
	if strings.Contains(text, "extrapolates the curve") {
		t.Errorf("text warns of an extrapolation none is left of:\n%s", text)
	}
	for _, f := range []Format{Markdown, HTML} {
		if out := write(t, f, Options{}, d); !strings.Contains(out, "withheld: the sizes measured span ×1.30, less than a doubling") || strings.Contains(out, "13.3 %") {
			t.Errorf("format %v: the loss is not withheld:\n%s", f, out)
		}
	}
	if got, want := write(t, CSV, Options{Table: "summary"}, d), "loss_per_doubling_share,\"withheld: "+why+"\"\n"; !strings.Contains(got, want) {
		t.Errorf("CSV summary: no %q in\n%s", want, got)
	}
	if got, want := write(t, CSV, Options{Table: "models"}, d), "tpm,linear,y = a + b·x,0.14210526315789473,0.6230314825374736,,\""+why+"\"\n"; !strings.Contains(got, want) {
		t.Errorf("CSV models: no %q in\n%s", want, got)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"loss_per_doubling":null,"no_loss_per_doubling":"` + why + `"`; !strings.Contains(string(js), want) {
		t.Errorf("JSON: no %s in\n%s", want, js)
	}
	// The chart's fits stop at the largest size, 13 GiB: they were drawn
	// (dashed) to the 26 GiB no prediction is made at.
	c := SizeThroughputChart(r, "t")
	if len(c.Fits) != 3 {
		t.Fatalf("%d fits", len(c.Fits))
	}
	for _, f := range c.Fits {
		if got := slices.Max(f.X); got != 13 {
			t.Errorf("fit %q drawn to %g GiB, want 13", f.Name, got)
		}
	}
}

// A slope the data show (p<0.05) over the same narrow sizes keeps its
// loss per doubling and its prediction, and the warning that both
// extrapolate.
func TestThroughputNarrowSignificantKept(t *testing.T) {
	r := throughputResult(t, analyze.Options{}, narrowCSV(t, "1000", "952", "905", "861"))
	d := Throughput(r, "narrow.csv")
	text := write(t, Text, Options{}, d)
	for _, want := range []string{
		"lost per size doubling  32.7 % (linear fit, R² 0.9996)",
		"the sizes measured span ×1.30 (10.0 GiB to 13.0 GiB), less than a doubling: the loss per\n  doubling and the prediction at 26.0 GiB extrapolate the curve beyond what was measured",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "withheld") {
		t.Errorf("a significant slope's loss withheld:\n%s", text)
	}
}
