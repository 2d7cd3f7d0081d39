package view

import (
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A degradation asked of a sweep's setting (--mode degradation over the
// page_buffers runs) reads "tpmC against page_buffers" in the text; its
// chart named the axis and the title "database size".
func TestSizeChartNamesItsX(t *testing.T) {
	var files []string
	for _, n := range []string{"256-run1", "256-run2", "256-run3", "4096-run1", "4096-run2", "4096-run3"} {
		files = append(files, testutil.Testdata(t, "bench", "sweep-w1", "page_buffers-"+n+".jsonl"))
	}
	r := throughputResult(t, analyze.Options{Mode: analyze.ModeDegradation}, files...)
	if d := SizeThroughputChart(r, "x"); d.XLabel != "page_buffers" {
		t.Errorf("page_buffers: x label %q", d.XLabel)
	}
	// A size keeps the size axis.
	r = throughputResult(t, analyze.Options{}, testutil.Testdata(t, "bench", "sizes.csv"))
	if d := SizeThroughputChart(r, "x"); d.XLabel != "" || r.Mode != analyze.ModeDegradation {
		t.Errorf("sizes: mode %s, x label %q", r.Mode, d.XLabel)
	}
}
