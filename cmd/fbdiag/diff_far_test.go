package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// Two snapshots dated by their files (gstat printed no execution time)
// with one modification time, as a copied folder gives them: the warning
// said "the same execution time", which neither has.
func TestGstatDiffSameFileTime(t *testing.T) {
	dir := t.TempDir()
	when := time.Date(2026, 12, 2, 14, 0, 0, 0, time.Local)
	var paths []string
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		var kept []string
		for _, l := range strings.SplitAfter(string(testutil.ReadTestdata(t, "fb30", name)), "\n") {
			if !strings.HasPrefix(l, "Gstat execution time") && !strings.HasPrefix(l, "Gstat completion time") {
				kept = append(kept, l)
			}
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(kept, "")), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "json", paths[0], paths[1])
	if code != 0 || !strings.Contains(out, `"both snapshots have the same file modification time (gstat printed no execution time) (2026-12-02 14:00:00): no time between them for a rate"`) {
		t.Errorf("exit %d %s\n%.3000s", code, errs, out)
	}
}
