package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// writeMixedSeries writes six daily snapshots of one database taken with
// other switches: gstat -a -r on days 0 to 3, -d on day 4, -h on day 5.
func writeMixedSeries(t testing.TB, dir string) {
	files := []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt", "shop-gstat-a-r.txt", "shop-gstat-r-later.txt",
		"shop-gstat-d.txt", "shop-gstat-h.txt"}
	base := time.Date(2027, 2, 1, 2, 0, 0, 0, time.UTC)
	for k, f := range files {
		raw := testutil.ReadTestdata(t, "fb30", f)
		s := fleetDatabaseLine.ReplaceAllLiteralString(string(raw), `Database "/data/mixed.fdb"`)
		s = fleetTimeLine.ReplaceAllLiteralString(s, "Gstat execution time "+base.AddDate(0, 0, k).Format(time.ANSIC))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("mixed-%d.txt", k)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The report slims the runs no section shows whole, and shows the same:
// of 6 databases × 8 daily snapshots, a series of other switches and a
// file of 70 hourly runs, it keeps whole of each database its latest and
// the one before (the history's diff), and of the mixed series the
// latest (-h: the header block), the latest with tables (-d) and the
// latest two of -a -r (the diff: most of its runs are -a -r); the page
// and report.json are those of the report that keeps every run whole.
func TestReportSlimsRuns(t *testing.T) {
	in := t.TempDir()
	writeFleet(t, in, 6, 8)
	writeMixedSeries(t, in)
	// A cron job's file of 70 hourly runs of another database: 36 kept.
	raw := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	raw = fleetDatabaseLine.ReplaceAllLiteralString(raw, `Database "/data/cron.fdb"`)
	var cron []byte
	for h := range 70 {
		at := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(h) * time.Hour)
		cron = append(cron, fleetTimeLine.ReplaceAllLiteralString(raw, "Gstat execution time "+at.Format(time.ANSIC))...)
	}
	if err := os.WriteFile(filepath.Join(in, "cron.txt"), cron, 0o644); err != nil {
		t.Fatal(err)
	}
	ins, _, errs := Inputs([]string{in})
	if len(errs) > 0 || len(ins) != 55 {
		t.Fatalf("%d inputs, %v", len(ins), errs)
	}
	g := readGstatRuns(ins)
	whole := map[string]bool{}
	for _, r := range g.all {
		if !r.slim {
			whole[analyze.SnapshotName(r.Analysis)] = true
		}
	}
	if len(g.all) != 54+36 || len(whole) != 6*2+4+2 {
		t.Errorf("%d runs, %d whole: %v", len(g.all), len(whole), whole)
	}
	for _, f := range []string{"db00-snap06.txt", "db00-snap07.txt", "db05-snap07.txt", "mixed-2.txt", "mixed-3.txt", "mixed-4.txt", "mixed-5.txt",
		"cron.txt#69", "cron.txt#70"} {
		if !whole[filepath.Join(in, f)] {
			t.Errorf("%s slimmed", f)
		}
	}

	build := func() ([]byte, []byte) {
		t.Helper()
		out := t.TempDir()
		if _, err := WriteDir(out, Build("slim", "fbdiag test", ins), plot.Options{}); err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(filepath.Join(out, IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		return page, js
	}
	page, js := build()
	slimRuns = false
	defer func() { slimRuns = true }()
	wantPage, wantJSON := build()
	if !bytes.Equal(page, wantPage) || !bytes.Equal(js, wantJSON) {
		t.Errorf("the report of slimmed runs differs from the whole runs': page %d bytes (want %d), report.json %d (want %d)",
			len(page), len(wantPage), len(js), len(wantJSON))
	}
	for _, want := range [][]byte{[]byte("mixed.fdb"), []byte("<h3>The latest snapshot and the one before (fbdiag gstat diff)</h3>")} {
		if !bytes.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// slimRounds is how many random folders TestReportSlimsRunsRandom
// builds (FBDIAG_SLIM_ROUNDS raises it for a longer check).
func slimRounds() int {
	if n, err := strconv.Atoi(os.Getenv("FBDIAG_SLIM_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 6
}

// Random folders of snapshots of two databases, taken with other switches
// (-a -r, -r, -d, -h, -s -r, -i, -e), at times that repeat, some with no
// execution time at all, some files of several runs: the report of
// slimmed runs is the report that keeps them all.
func TestReportSlimsRunsRandom(t *testing.T) {
	sources := []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt", "shop-gstat-d.txt", "shop-gstat-h.txt",
		"shop-gstat-s-r.txt", "shop-gstat-i.txt", "shop-gstat-e.txt"}
	texts := make([]string, len(sources))
	for i, f := range sources {
		texts[i] = string(testutil.ReadTestdata(t, "fb30", f))
	}
	rng := rand.New(rand.NewPCG(16, 10))
	base := time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC)
	for round := range slimRounds() {
		in := t.TempDir()
		for f := range 3 + rng.IntN(8) {
			var file string
			for range 1 + rng.IntN(3)*rng.IntN(2) { // (a third of the files hold 2 or 3 runs)
				s := fleetDatabaseLine.ReplaceAllLiteralString(texts[rng.IntN(len(texts))], fmt.Sprintf(`Database "/data/db%d.fdb"`, rng.IntN(2)))
				switch rng.IntN(5) {
				case 0: // no execution time: placed after the dated ones
					s = fleetTimeLine.ReplaceAllLiteralString(s, "")
				default: // days that repeat
					s = fleetTimeLine.ReplaceAllLiteralString(s, "Gstat execution time "+base.AddDate(0, 0, rng.IntN(6)).Format(time.ANSIC))
				}
				file += s
			}
			if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("s%02d.txt", f)), []byte(file), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ins, _, errs := Inputs([]string{in})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		build := func() []byte {
			t.Helper()
			out := t.TempDir()
			if _, err := WriteDir(out, Build("slim", "fbdiag test", ins), plot.Options{}); err != nil {
				t.Fatal(err)
			}
			var all []byte
			for _, name := range []string{IndexFile, "report.json"} {
				b, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, b...)
			}
			return all
		}
		got := build()
		slimRuns = false
		want := build()
		slimRuns = true
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d (%s): the report of slimmed runs differs from the whole runs' (%d and %d bytes)", round, in, len(got), len(want))
		}
	}
}
