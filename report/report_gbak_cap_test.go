package report

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestGbakStepsTableBounded: the real shop restore log with 2,000 more
// metadata steps gives a steps table of GbakStepsShown rows, titled
// with how many there were; the real log alone is shown whole.
func TestGbakStepsTableBounded(t *testing.T) {
	b, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if err != nil {
		t.Fatal(err)
	}
	steps := func(log []byte) (string, int) {
		tl, err := analyze.ReadGbakTimeline(bytes.NewReader(log), "shop-gbak-restore-v-st.log")
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range GbakSection(tl).Tables {
			if tb.Name == "steps" {
				return tb.Title, len(tb.Rows)
			}
		}
		return "", 0
	}
	title, n := steps(b)
	if title != "Steps by time (149)" || n != 149 {
		t.Errorf("real log: %q, %d rows", title, n)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	var big bytes.Buffer
	for _, l := range lines[:7] { // header, open phase, started transaction
		big.Write(l)
	}
	for i := range 2000 {
		fmt.Fprintf(&big, "gbak:    0.093  0.000      0      0 restoring domain RDB$X%d\n", i)
	}
	for _, l := range lines[7:] {
		big.Write(l)
	}
	title, n = steps(big.Bytes())
	if title != "Steps by time (the 500 slowest of 2149)" || n != GbakStepsShown {
		t.Errorf("big log: %q, %d rows", title, n)
	}
}
