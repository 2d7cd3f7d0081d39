package report

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/plot"
)

// smallCharts draws the tests' charts small: their pixels are not what
// the tests look at.
var smallCharts = plot.Options{Width: 400, Height: 300, DPI: 72}

// buildReport reads paths and builds their report, failing the test on
// an input that cannot be read.
func buildReport(t *testing.T, title string, paths []string) *Report {
	t.Helper()
	ins, _, errs := Inputs(paths)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return Build(title, "fbdiag test", ins)
}

// htmlOf is r's page with charts of 400 × 300.
func htmlOf(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, r, 400, 300); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// writeReportOf reads paths, builds their report and writes it to a
// temporary folder, which it returns with the report.
func writeReportOf(t *testing.T, title string, paths []string) (*Report, string) {
	t.Helper()
	r := buildReport(t, title, paths)
	out := t.TempDir()
	if _, err := WriteDir(out, r, smallCharts); err != nil {
		t.Fatal(err)
	}
	return r, out
}
