package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestGbakPhaseUnknownCost: a phase of only unknown costs shows no
// figures in the report and "unknown" in the text tables, never 0.000.
func TestGbakPhaseUnknownCost(t *testing.T) {
	b, err := os.ReadFile(testutil.Testdata(t, "seeds", "restore-balanced.log"))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := analyze.ReadGbakTimeline(bytes.NewReader(b[:bytes.IndexByte(b, '\n')+1]), "restore-balanced.log")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, tb := range GbakSection(tl).Tables {
		if tb.Name == "phases" {
			rows = tb.Rows
		}
	}
	if len(rows) != 1 || strings.Join(rows[0], "|") != "indices|1|||" {
		t.Errorf("report phases %q", rows)
	}
	var out bytes.Buffer
	if err := WriteGbak(&out, Text, tl, 10); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "0.000") {
		t.Errorf("text output has 0.000:\n%s", out.String())
	}
}
