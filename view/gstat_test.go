package view

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// gstatRuns analyses every run of a gstat file, named as the command
// line names it (testdata/fb30/...), so the golden files hold no path of
// this machine.
func gstatRuns(t *testing.T, rel ...string) []*analyze.GstatAnalysis {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, rel...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, filepath.Join(append([]string{"testdata"}, rel...)...))
	if err != nil {
		t.Fatal(err)
	}
	var out []*analyze.GstatAnalysis
	for _, r := range reps {
		out = append(out, analyze.Gstat(r, analyze.NewThresholds()))
	}
	return out
}

func TestGstatPrint(t *testing.T) {
	a := gstatRuns(t, "fb30", "shop-gstat-a-r.txt")[0]
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Write(&b, f, Options{MoreHint: " (--all shows them)"}, Gstat(a, GstatOptions{Top: 5})); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s\n%s", f, b.String())
	}
}
