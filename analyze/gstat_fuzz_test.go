package analyze

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// FuzzGstatAnalysis feeds arbitrary text through the reader and the
// analysis: whatever the reader accepts, the analysis must not panic and
// must keep its invariants (sorted warnings, magnitudes ≥ 1 or 0-based
// flags, totals matching the tables).
func FuzzGstatAnalysis(f *testing.F) {
	for _, name := range []string{testutil.GstatSeed, testutil.GstatLaterSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(string(s))
		}
	}
	for _, name := range []string{"shop-gstat-h.txt", "shop-gstat-e.txt", "shop-gstat-d.txt"} {
		f.Add(string(testutil.ReadTestdata(f, "fb30", name)))
	}
	f.Add("Database header page information:\n\tPage size\t\t4096\n\tODS version\t\t10.1\n\tOldest transaction\t9\n\tOldest active\t\t5\n\tNext transaction\t3\n")
	th := NewThresholds()
	f.Fuzz(func(t *testing.T, text string) {
		reps, err := parse.ReadGstat(strings.NewReader(text), "fuzz.txt")
		if err != nil {
			return
		}
		for _, r := range reps {
			a := Gstat(r, th)
			n := 0
			for _, tb := range a.Tables {
				n += len(tb.Indices)
			}
			if a.Totals.Tables != len(a.Tables) || a.Totals.Indices != n+len(a.UnattachedIndices) {
				t.Fatalf("totals %+v for %d tables %d indices", a.Totals, len(a.Tables), n)
			}
			for i := 1; i < len(a.Warnings); i++ {
				if a.Warnings[i].Severity.Rank() > a.Warnings[i-1].Severity.Rank() {
					t.Fatalf("warnings not sorted: %s after %s", a.Warnings[i].Severity, a.Warnings[i-1].Severity)
				}
			}
		}
	})
}

// FuzzLoadThresholds: a rules file never panics the loader, and what it
// accepts only changes known keys.
func FuzzLoadThresholds(f *testing.F) {
	f.Add("# comment\nindex-deep.min_depth = 4\ntable-versions.warning=0.5\n")
	f.Add("{\"index-max-dup.warning\": 50000, \"oat-stuck.critical\": 1e6}")
	f.Add("{\n \"index-deep.min_depth\": \"x\"\n}")
	f.Add("index-deep.min_depth 4\n")
	// Cut short, out of range, negative, on the wrong side, lone CRs, a
	// long key.
	f.Add("{")
	f.Add("{\"oat-stuck.warning\": 1e999}")
	f.Add("index-deep.min_depth = -1\roat-stuck.critical = 2\r")
	f.Add("table-versions.warning = 184467440737095516150\n")
	f.Add(strings.Repeat("X", 300) + ".warning = 4\n")
	f.Fuzz(func(t *testing.T, src string) {
		th, err := LoadThresholds(strings.NewReader(src), "fuzz.rules", NewThresholds())
		if err != nil {
			return
		}
		if len(th.List()) != len(DefaultThresholds) {
			t.Fatalf("%d thresholds after loading, want %d", len(th.List()), len(DefaultThresholds))
		}
	})
}
