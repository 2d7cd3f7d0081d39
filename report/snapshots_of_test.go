package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The growth capture: five gstat -a -r runs, a gstat -d and a gstat -h.
// ORDERS_DATE_D was sparse in every run that printed index statistics,
// yet the page said "5 of 7 snapshots", which reads as a finding that
// came and went; the -d and -h runs print no index statistics. The
// recommendation and the summary now count the runs that could show it.
func TestFindingSnapshotsCountTheRunsThatCouldShowIt(t *testing.T) {
	files, err := filepath.Glob(testutil.Testdata(t, "growth", "grow-*.txt"))
	if err != nil || len(files) != 7 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	r := buildReport(t, "t", files)
	page := htmlOf(t, r)
	for _, want := range []string{
		"(index-low-selectivity; 4 of 5 snapshots with index statistics)",
		"(index-sparse; 5 of 5 snapshots with index statistics)",
		"(the gstat text cannot tell; fbdiag collect reads the catalogue) (5 of 5 snapshots with index statistics). Do: ALTER INDEX ORDERS_DATE_D ACTIVE;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if strings.Contains(page, " of 7 snapshots") {
		t.Errorf("a finding still counted against the 7 runs")
	}
}

// A reader's note names its file and line: the database section printed
// the file twice ("…/shop-header-variants.txt: …/shop-header-variants.txt:19:
// unknown header field …").
func TestDatabaseNoticeNamesItsFileOnce(t *testing.T) {
	path := testutil.Testdata(t, "gstat", "shop-header-variants.txt")
	r := buildReport(t, "t", []string{path})
	var got []string
	for _, s := range r.Sections {
		if s.Kind == KindDatabase {
			got = append(got, s.Notices...)
		}
	}
	want := []string{path + `:19: unknown header field "Clumplet End" kept as text`}
	testutil.EqualLines(t, "notices", got, want)
}
