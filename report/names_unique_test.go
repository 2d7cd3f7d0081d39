package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// longNameInputs writes a file named with 70 'a's holding two gstat runs
// and, in two folders, two copies of a gbak log under one long name.
func longNameInputs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	long := strings.Repeat("a", 70)
	gstat := filepath.Join(dir, long+".txt")
	two := append(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")...)
	if err := os.WriteFile(gstat, two, 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{gstat}
	for _, sub := range []string{"x", "y"} {
		p := filepath.Join(dir, sub, long+".log")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// Issue 12 A.1: two inputs whose names clip to the same 60 characters
// made the report loop forever (the -2 suffix was clipped away again).
// Every section id and chart file is unique, and every chart is a file.
func TestReportLongNamesUnique(t *testing.T) {
	ins, _, errs := Inputs(longNameInputs(t))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	done := make(chan *Report, 1)
	go func() { done <- Build("long names", "fbdiag test", ins) }()
	var r *Report
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Build did not end in 20 s")
	}
	a60, a58 := strings.Repeat("a", 60), strings.Repeat("a", 58)
	// The database of the two gstat runs (named by its path), two gbak
	// logs and their comparison, each long name clipped to 60
	// characters, the suffix within them.
	wantIDs := []string{"db-shop.fdb", a60, a58 + "-2", "compare-" + a60[:52]}
	wantFiles := []string{
		"tables-db-shop.fdb.png", "indices-db-shop.fdb.png", "fill-db-shop.fdb.png",
		"history-size-db-shop.fdb.png", "history-versions-db-shop.fdb.png",
		"restore-timeline-" + a60 + ".png", "restore-timeline-" + a58 + "-2.png",
		"restore-comparison-compare-" + a60[:52] + ".png",
	}
	var ids, files []string
	for _, s := range r.Sections {
		ids = append(ids, s.ID)
		for _, f := range s.Figures {
			files = append(files, f.File)
		}
	}
	if strings.Join(ids, " ") != strings.Join(wantIDs, " ") {
		t.Errorf("section ids\n%q\nwant\n%q", ids, wantIDs)
	}
	if strings.Join(files, " ") != strings.Join(wantFiles, " ") {
		t.Errorf("chart files\n%q\nwant\n%q", files, wantFiles)
	}
	out := filepath.Join(t.TempDir(), "r")
	if _, err := WriteDir(out, r, smallCharts); err != nil {
		t.Fatal(err)
	}
	pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
	if len(pngs) != len(wantFiles) {
		t.Errorf("%d PNG files written for %d charts", len(pngs), len(wantFiles))
	}
}
