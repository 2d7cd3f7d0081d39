package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/view"
)

func timeline(t *testing.T, rel ...string) *analyze.Timeline {
	t.Helper()
	p := testutil.Testdata(t, rel...)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := analyze.ReadGbakTimeline(f, filepath.Base(p))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// gbakCharts are the charts of the gbak view of a testdata log.
func gbakCharts(t *testing.T, rel ...string) []*plot.Chart {
	t.Helper()
	return view.Gbak(timeline(t, rel...), view.GbakOptions{}).Charts
}

// The section of a log is the gbak view's fragment: what `fbdiag gbak`
// prints, as HTML; the summary gets the outcome and the total time.
func TestGbakSectionIsTheView(t *testing.T) {
	tl := timeline(t, "fb30", "shop-gbak-restore-v-st.log")
	s := GbakSection(tl)
	var want bytes.Buffer
	if err := view.Write(&want, view.HTML, view.Options{MoreHint: " (fbdiag gbak --all lists them)"},
		view.Gbak(tl, view.GbakOptions{Top: GbakStepsShown})); err != nil {
		t.Fatal(err)
	}
	if string(s.Fragment) != want.String() || len(s.Tables) != 0 {
		t.Errorf("fragment differs from the view's (%d tables of its own)", len(s.Tables))
	}
	if len(s.Headlines) != 1 || s.Headlines[0].Label != "restore completed" || s.Headlines[0].Value != "35.170 s" {
		t.Errorf("headlines %+v", s.Headlines)
	}
	// 150 steps, the 25 slowest shown.
	if !strings.Contains(want.String(), "<p class=\"muted\">25 of 150 steps shown (fbdiag gbak --all lists them)</p>") {
		t.Errorf("steps not bounded:\n%s", want.String())
	}
	if len(s.Figures) != 1 || s.Figures[0].Chart.Kind != plot.KindRestoreTimeline {
		t.Errorf("figures %+v", s.Figures)
	}
}

// A log cut inside ORDER_LINE's data: the section says so in a finding.
func TestGbakSectionCut(t *testing.T) {
	s := GbakSection(timeline(t, "gbak", "shop-restore-cut.log"))
	if n := len(s.Findings); n != 1 || s.Findings[0].Severity != "warning" ||
		s.Findings[0].Text != "shop-restore-cut.log: data ORDER_LINE: The log ends inside this step: it took at least 5.375 s, 90000 records logged." {
		t.Errorf("findings %+v", s.Findings)
	}
	if len(s.Headlines) != 1 || s.Headlines[0].Value != "last timestamp 9.122 s" {
		t.Errorf("headlines %+v", s.Headlines)
	}
}

// A phase of only unknown costs shows no figures, never 0.000 or 0 reads.
func TestGbakPhaseUnknownCost(t *testing.T) {
	b := testutil.ReadTestdata(t, "seeds", "restore-balanced.log")
	tl, err := analyze.ReadGbakTimeline(bytes.NewReader(b[:bytes.IndexByte(b, '\n')+1]), "restore-balanced.log")
	if err != nil {
		t.Fatal(err)
	}
	frag := string(GbakSection(tl).Fragment)
	want := `<tr><td><bdi>indices</bdi></td><td class="num" data-sort="1">1</td><td class="num" data-sort="1">1</td>` +
		`<td class="num" data-sort=""></td><td class="num" data-sort=""></td><td class="num" data-sort=""></td><td class="num" data-sort=""></td><td></td></tr>`
	if !strings.Contains(frag, want) {
		t.Errorf("phases row:\n%s", frag)
	}
}

// Two restores of one backup: the comparison section labels them by what
// sets their names apart and takes the first as the baseline.
func TestGbakComparisonSection(t *testing.T) {
	var ins []Input
	for _, f := range []string{"restore-balanced.log", "restore-high-performance.log"} {
		in, err := fileInput(testutil.Testdata(t, "seeds", f))
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in...)
	}
	secs := gbakSections(ins)
	if len(secs) != 3 {
		t.Fatalf("%d sections", len(secs))
	}
	s := secs[2]
	var got []string
	for _, h := range s.Headlines {
		got = append(got, h.Label+" = "+h.Value)
	}
	if strings.Join(got, "; ") != "Last timestamp, high-performance / balanced = ×0.593 (-40.7 %, faster); "+
		"Span of matched steps, high-performance / balanced = ×0.687 (-31.3 %, faster)" {
		t.Errorf("headlines %s", strings.Join(got, "; "))
	}
	if !strings.Contains(string(s.Fragment), "<td><bdi>index INDMF_TAG_PLC_DATA_DT_D (build)</bdi></td>"+
		`<td class="num" data-sort="1258.271">0:20:58</td><td class="num" data-sort="622.882">0:10:23</td>`+
		`<td class="num" data-sort="0.49503008493400863">×0.495</td>`) {
		t.Errorf("fragment:\n%s", s.Fragment)
	}
	if len(s.Figures) != 1 || s.Figures[0].Chart.Kind != plot.KindRestoreComparison {
		t.Errorf("figures %+v", s.Figures)
	}
}

// The same backup restored with and without gbak -i: the comparison's
// figures carry their caveat (the -i run read "×0.508 faster" for the
// four index builds it skipped; the section's warning said why, the
// summary's figure did not).
func TestGbakComparisonInactiveCaveat(t *testing.T) {
	var ins []Input
	for _, f := range []string{"fb30-restore-same-built.log", "fb30-restore-same-inactive.log"} {
		in, err := fileInput(testutil.Testdata(t, "gbak", f))
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in...)
	}
	secs := gbakSections(ins)
	if len(secs) != 3 || len(secs[2].Headlines) == 0 {
		t.Fatalf("%d sections", len(secs))
	}
	h := secs[2].Headlines[0]
	if h.Value != "×0.508 (-49.2 %, faster; the restores left different numbers of indices inactive)" || !h.Caveat {
		t.Errorf("headline %s = %q, caveat %v", h.Label, h.Value, h.Caveat)
	}
	if h := secs[1].Headlines[0]; h.Caveat {
		t.Errorf("a single restore's headline %q has a caveat", h.Value)
	}
}

// report.json's runs[] give a completed restore's indices left inactive
// (gbak -i: 5 of 5), null for a failed one, whose log cannot tell.
func TestReportJSONRunsInactiveIndices(t *testing.T) {
	r := buildReport(t, "t", []string{testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate-inactive.log"),
		testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log")})
	runs := r.JSON().Runs
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	if a := runs[0]; a.RestoredIndices == nil || *a.RestoredIndices != 5 || a.InactiveIndices == nil || *a.InactiveIndices != 5 {
		t.Errorf("-i restore: restored %v, inactive %v", a.RestoredIndices, a.InactiveIndices)
	}
	if b := runs[1]; b.Outcome != "failed" || b.RestoredIndices != nil || b.InactiveIndices != nil {
		t.Errorf("failed restore: %s, restored %v, inactive %v", b.Outcome, b.RestoredIndices, b.InactiveIndices)
	}
}

// report.json's runs[] say what a failed restore failed on, as the
// summary's critical finding quotes it (the index gbak stopped at, its
// key), and "" of an incomplete log (cut while loading) or a completed
// one: "failed" alone did not say which index to fix.
func TestReportJSONRunsFailure(t *testing.T) {
	var files []string
	for _, f := range []string{"fb30-restore-unique-duplicate.log", "fb30-restore-unique-then-pk.log", "shop-restore-cut.log", "fb30-restore-pk-duplicate-inactive.log"} {
		files = append(files, testutil.Testdata(t, "gbak", f))
	}
	r := buildReport(t, "t", files)
	runs := r.JSON().Runs
	want := [][2]string{
		{"failed", `cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"; Problematic key value is ("CODE" = 286331153)`},
		{"failed", `cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 305419896)`},
		{"incomplete", ""},
		{"completed", ""},
	}
	if len(runs) != len(want) {
		t.Fatalf("%d runs", len(runs))
	}
	for i, w := range want {
		if runs[i].Outcome != w[0] || runs[i].Failure != w[1] {
			t.Errorf("%s: %s, failure %q; want %s, %q", filepath.Base(runs[i].File), runs[i].Outcome, runs[i].Failure, w[0], w[1])
		}
	}
}

// A failed restore's three gbak error lines are one critical finding in
// the summary, quoting the first; the section's view lists all three.
func TestGbakFailureOneFinding(t *testing.T) {
	p := filepath.Join(testutil.CorpusDir(t), "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log")
	r := buildReport(t, "t", []string{p})
	var crit []string
	for _, f := range r.Summary {
		if f.Severity == "critical" {
			crit = append(crit, f.Text)
		}
	}
	// (with fbdiag's advice on the index, a sentence of its own)
	want := "15_fb5_classic_parallel_restore_error_issue8263.log: restore failed: cannot commit index PK_XYZ: invalid database handle (no active connection) (and 2 more error lines). Do: " + advice8263
	if len(crit) != 1 || crit[0] != want {
		t.Errorf("critical findings %q, want one %q", crit, want)
	}
	if n := strings.Count(string(r.Sections[0].Fragment), `<li class="critical">`); n != 3 {
		t.Errorf("%d error lines in the section, want 3", n)
	}
}

// A report keeps, of each gbak log, the rows its section shows and, only
// when there is another log to compare it with, a compact record per
// step (analyze.GbakRunSteps): never the whole timeline.
func TestGbakSectionsRetention(t *testing.T) {
	in := func(rel ...string) Input {
		p := testutil.Testdata(t, rel...)
		return Input{Name: p, Kind: "gbak", Open: func() (io.ReadCloser, error) { return os.Open(p) }}
	}
	type got struct {
		steps, count, tables, tableCount int
		records                          int // -1: none kept
	}
	var kept []got
	gbakRetained = func(k *view.GbakKept, rs *analyze.GbakRunSteps) {
		g := got{len(k.Steps), k.StepCount, len(k.Tables), k.TableCount, -1}
		if rs != nil {
			g.records = rs.Len()
		}
		kept = append(kept, g)
	}
	defer func() { gbakRetained = nil }()
	// One log: nothing to compare it with, no step record; the 25
	// slowest of its 150 steps.
	gbakSections([]Input{in("fb30", "shop-gbak-restore-v-st.log")})
	if len(kept) != 1 || kept[0] != (got{GbakStepsShown, 150, 6, 6, -1}) {
		t.Errorf("one log: kept %+v", kept)
	}
	kept = nil
	out := gbakSections([]Input{in("restores", "restore-service-run1.log"), in("restores", "restore-remote-run1.log")})
	// Two: the 25 slowest steps of each and a record of each of its 150.
	if len(kept) != 2 || kept[0] != (got{GbakStepsShown, 150, 6, 6, 150}) || kept[1] != kept[0] {
		t.Errorf("two logs: kept %+v", kept)
	}
	if len(out) != 3 || out[2].Kind != "comparison" {
		t.Errorf("%d sections", len(out))
	}
}

// A folder of numbered runs (testdata/restores: five restores over the
// remote protocol, five through the service manager) is one comparison of
// the two sides, with a test, as gbak compare makes it, not three pairs
// of remote runs.
func TestGbakSidesOfNumberedRuns(t *testing.T) {
	var ins []Input
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			in, err := fileInput(testutil.Testdata(t, "restores", fmt.Sprintf("restore-%s-run%d.log", side, i)))
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in...)
		}
	}
	secs := gbakSections(ins)
	if len(secs) != 11 {
		t.Fatalf("%d sections, want 10 logs and 1 comparison", len(secs))
	}
	s := secs[10]
	var got []string
	for _, h := range s.Headlines {
		got = append(got, h.Label+" = "+h.Value)
	}
	if s.Title != "Comparison: remote vs service (10 runs)" || len(s.Sources) != 10 ||
		strings.Join(got, "; ") != "Total time, service / remote = ×0.0580 (-94.2 %, faster); Span of matched steps, service / remote = ×0.0580 (-94.2 %, faster)" {
		t.Errorf("title %q, %d sources, headlines %s", s.Title, len(s.Sources), strings.Join(got, "; "))
	}
	// The totals' Mann-Whitney p over 5+5 runs: 2/C(10,5).
	if !strings.Contains(string(s.Fragment), `<td class="num" data-sort="0.007936507936507936">0.00794</td>`) {
		t.Errorf("fragment lacks the test of the totals:\n%.2000s", s.Fragment)
	}
}

// A log that does not say whether it is a backup or a restore is a
// "gbak log", as fbdiag gbak titles it; the report said "gbak gbak:
// 16_gbak_z_version_issue8003.log" and "gbak failed".
func TestGbakSectionUnknownKindTitle(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gbak")
	r := buildReport(t, "logs", []string{filepath.Join(dir, "04_fb25_release_notes_stats_lines.txt"), filepath.Join(dir, "16_gbak_z_version_issue8003.log")})
	var got []string
	for _, s := range r.Sections {
		h := ""
		if len(s.Headlines) > 0 {
			h = s.Headlines[0].Label + ": " + s.Headlines[0].Value
		}
		got = append(got, s.Title+" — "+h)
		// report.json's runs[].kind stays "gbak"
		if s.Run == nil || s.Run.Kind != "gbak" {
			t.Errorf("%s: run %+v, want kind gbak", s.Title, s.Run)
		}
	}
	want := []string{
		"gbak log: 04_fb25_release_notes_stats_lines.txt — log incomplete: 46.684 s",
		"gbak log: 16_gbak_z_version_issue8003.log — log: failed",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
