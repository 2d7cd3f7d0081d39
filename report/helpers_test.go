package report

import (
	"testing"

	"github.com/fbdiag/fbdiag/plot"
)

// smallCharts draws the tests' charts small: their pixels are not what
// the tests look at.
var smallCharts = plot.Options{Width: 400, Height: 300, DPI: 72}

// writeReportOf reads paths, builds their report and writes it to a
// temporary folder, which it returns with the report.
func writeReportOf(t *testing.T, title string, paths []string) (*Report, string) {
	t.Helper()
	ins, _, errs := Inputs(paths)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := Build(title, "fbdiag test", ins)
	out := t.TempDir()
	if _, err := WriteDir(out, r, smallCharts); err != nil {
		t.Fatal(err)
	}
	return r, out
}
