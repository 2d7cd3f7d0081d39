package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A snapshot dated 9999 (a gstat run on a machine with a wrong clock, or
// an edited file) read "Between 106751d 23:47:17" beside the shop run
// of 2026: time.Time.Sub saturates at about 292 years. The span is the
// times' own difference: 7973 years, 2912078 days and the 4:38 between
// the two real runs.
func TestGstatDiffFarApart(t *testing.T) {
	later := strings.ReplaceAll(string(testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")), "Dec  2 14:14:32 2026", "Dec  2 14:14:32 9999")
	if !strings.Contains(later, "9999") {
		t.Fatal("the sample's execution time moved")
	}
	far := filepath.Join(t.TempDir(), "far.txt")
	if err := os.WriteFile(far, []byte(later), 0o666); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "diff", testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), far)
	if code != 0 || !strings.Contains(out, "Between                2912078d 0:04:38\n") {
		t.Errorf("exit %d %s\n%s", code, errs, out)
	}
}
