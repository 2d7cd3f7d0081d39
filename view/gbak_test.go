package view

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/labels"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// readTimeline reads testdata/<rel>, named by its path under testdata so
// that the golden files do not hold the machine's folders.
func readTimeline(t *testing.T, rel string) *analyze.Timeline {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, strings.Split(rel, "/")...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := analyze.ReadGbakTimeline(f, "testdata/"+rel)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// compareFiles compares testdata files, each a run labelled by what sets
// its name apart, as `fbdiag gbak compare` does.
func compareFiles(t *testing.T, rels ...string) *analyze.GbakComparison {
	t.Helper()
	var runs []analyze.GbakRun
	for i, l := range labels.Distinct(rels) {
		runs = append(runs, analyze.GbakRun{Label: l, Timeline: readTimeline(t, rels[i])})
	}
	return analyze.CompareTimelines(runs...)
}

// goldens writes a document in the formats and compares each with
// testdata/golden/<name>.<ext>.
func goldens(t *testing.T, name string, d *Doc, formats ...Format) map[Format]string {
	t.Helper()
	ext := map[Format]string{Text: "txt", Markdown: "md", CSV: "csv", HTML: "html"}
	out := map[Format]string{}
	for _, f := range formats {
		s := write(t, f, Options{MoreHint: " (--all shows them)"}, d)
		testutil.Golden(t, "testdata/golden/"+name+"."+ext[f], []byte(s))
		out[f] = s
	}
	return out
}

// checkWidth: text output keeps to 100 columns.
func checkWidth(t *testing.T, name, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > LineWidth {
			t.Errorf("%s line %d is %d columns wide: %q", name, i+1, n, l)
		}
	}
}

// The shop restore (Firebird 3.0.11): 35.170 s in all, ORDER_LINE's data
// the slowest step (24.882 s from 3.747 s), its key RDB$PRIMARY4 built
// in 0.286 s with 4569 page reads.
func TestGbakGoldenRestore(t *testing.T) {
	tl := readTimeline(t, "fb30/shop-gbak-restore-v-st.log")
	d := Gbak(tl, GbakOptions{})
	out := goldens(t, "gbak-shop-restore", d, Text, Markdown, CSV, HTML)
	checkWidth(t, "restore", out[Text])
	for _, want := range []string{
		"Total time   35.170 s\n",
		"ORDER_LINE   500000           24.882 s      20095      2    3322\n",
		"RDB$PRIMARY4    0.287 s   4569     420  ok\n",
		"  77  data ORDER_LINE                       data      3.747 s  24.882 s      2    3322\n",
		"10 of 150 steps shown (--all shows them)\n",
	} {
		if !strings.Contains(out[Text], want) {
			t.Errorf("text lacks %q", want)
		}
	}
	// CSV: the steps, every one of the 150, plain numbers.
	if n := strings.Count(out[CSV], "\n"); n != 151 || !strings.HasPrefix(out[CSV], "line,step,phase,start_seconds,seconds,reads,writes,bound,kind,object,name\n77,data ORDER_LINE,data,3.747,24.882,2,3322,false,data,table,ORDER_LINE\n") {
		t.Errorf("csv: %d lines, starts %q", n, out[CSV][:min(len(out[CSV]), 120)])
	}
	tables := write(t, CSV, Options{Table: "tables"}, d)
	if !strings.Contains(tables, "\nORDER_LINE,500000,,24.882,20094.847681054576,2,3322,false\n") {
		t.Errorf("csv tables:\n%s", tables)
	}
	// The phases' shares add up to the steps' costs over the total.
	phases := write(t, CSV, Options{Table: "phases"}, d)
	if !strings.Contains(phases, "\ndata,") {
		t.Errorf("csv phases:\n%s", phases)
	}
	if len(d.Charts) != 1 || d.Charts[0].Kind != plot.KindRestoreTimeline {
		t.Errorf("charts %+v", d.Charts)
	}
}

// Natural order: RDB$PRIMARY2 before RDB$PRIMARY10 in the index builds.
func TestGbakIndicesNaturalOrder(t *testing.T) {
	tl := readTimeline(t, "fb30/shop-gbak-restore-v-st.log")
	d := Gbak(tl, GbakOptions{})
	got := write(t, CSV, Options{Table: "indices"}, d)
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n")[1:] {
		names = append(names, strings.Split(l, ",")[0])
	}
	want := "CUSTOMER_LAST OL_ITEM ORDERS_CARRIER ORDERS_DATE_D RDB$PRIMARY1 RDB$PRIMARY2 RDB$PRIMARY3 RDB$PRIMARY4 RDB$PRIMARY5 RDB$PRIMARY6"
	if strings.Join(names, " ") != want {
		t.Errorf("indices %s", strings.Join(names, " "))
	}
}

func TestGbakGoldenBackup(t *testing.T) {
	d := Gbak(readTimeline(t, "fb30/shop-gbak-backup-v-st.log"), GbakOptions{Top: 5})
	out := goldens(t, "gbak-shop-backup", d, Text)
	checkWidth(t, "backup", out[Text])
}

// A restore made with -i: every index left inactive, a warning with the
// names and how to activate them, in text, markdown and CSV.
func TestGbakGoldenInactive(t *testing.T) {
	d := Gbak(readTimeline(t, "gbak/fb30-restore-pk-duplicate-inactive.log"), GbakOptions{Top: 5})
	out := goldens(t, "gbak-restore-inactive", d, Text, Markdown, CSV)
	checkWidth(t, "inactive", out[Text])
}

// A restore whose server died while ORDER_LINE was loading: the table
// took at least the 5.375 s its progress lines cover.
func TestGbakGoldenCut(t *testing.T) {
	d := Gbak(readTimeline(t, "gbak/shop-restore-cut.log"), GbakOptions{})
	out := goldens(t, "gbak-shop-restore-cut", d, Text)
	checkWidth(t, "cut", out[Text])
	if len(d.Findings) != 1 || d.Findings[0].Rule != "cut-short" || d.Findings[0].Object != "data ORDER_LINE" ||
		d.Findings[0].Message != "The log ends inside this step: it took at least 5.375 s, 90000 records logged." {
		t.Errorf("findings %+v", d.Findings)
	}
}

// Issue 14 on seed 003's two restores: the first is the baseline, the
// labels are what sets the file names apart, the ratio is other / base:
// the span of the matched steps 2592.555 / 3774.995 = 0.687, faster;
// durations as h:mm:ss (13304.334 s is 3:41:44).
func TestGbakCompareGoldenSeeds(t *testing.T) {
	c := compareFiles(t, "seeds/restore-balanced.log", "seeds/restore-high-performance.log")
	d := GbakCompare(c, GbakCompareOptions{})
	out := goldens(t, "gbak-compare-seeds", d, Text, Markdown, CSV, HTML)
	checkWidth(t, "seeds", out[Text])
	for _, want := range []string{
		"Baseline                                            balanced\n",
		"Span of matched steps, high-performance / balanced  ×0.687 (-31.3 %, faster)\n",
		"balanced          restore-balanced.log      incomplete           3:41:44        5          0\n",
		"index INDMF_TAG_PLC_DATA_DT_D (build)    0:20:58           0:10:23  ×0.495  -50.5 %  faster\n",
	} {
		if !strings.Contains(out[Text], want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if !strings.Contains(out[CSV], "step,seconds_balanced,seconds_high_performance,ratio_high_performance,change_high_performance,verdict_high_performance,p_adjusted_high_performance\n") ||
		!strings.Contains(out[CSV], "\nindex INDMF_TAG_PLC_DATA_DT_D (build),1258.271,622.882,0.49503008493400863,-0.5049699150659914,faster,\n") {
		t.Errorf("csv:\n%s", out[CSV])
	}
	span := write(t, CSV, Options{Table: "totals"}, d)
	if !strings.Contains(span, "\nspan of matched steps,3774.995,2592.555,0.68677") {
		t.Errorf("csv totals:\n%s", span)
	}
	// The chart says what the text says.
	ch := GbakComparisonChart(c, GbakChartSteps)
	if len(ch.Runs) != 2 || ch.Runs[0] != "balanced" || ch.Steps[0].Name != "index INDMF_TAG_PLC_DATA_DT_D (build)" ||
		ch.Steps[0].Notes[1] != "×0.495 faster" || ch.Steps[0].Seconds[0] != 1258.271 {
		t.Errorf("chart %+v", ch)
	}
}

// Five restores a side (testdata/restores), grouped by label: the
// medians, the ranges (below 6 runs no ± interval), p adjusted over the
// 25 step tests; the remote protocol is the baseline.
func TestGbakCompareGoldenRepeated(t *testing.T) {
	var runs []analyze.GbakRun
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			rel := "restores/restore-" + side + "-run" + string(rune('0'+i)) + ".log"
			runs = append(runs, analyze.GbakRun{Label: side, Timeline: readTimeline(t, rel)})
		}
	}
	c := analyze.CompareTimelines(runs...)
	d := GbakCompare(c, GbakCompareOptions{Top: 5})
	out := goldens(t, "gbak-compare-restores", d, Text, CSV)
	checkWidth(t, "restores", out[Text])
	for _, want := range []string{
		"data ORDER_LINE             37.843 s  1.549 s  ×0.0409  -95.9 %  faster   0.0283\n",
		"total seconds          52.371 s  3.036 s  ×0.0580  -94.2 %  faster   0.00794\n",
		"total seconds               remote      5  42.912 s  52.371 s  56.430 s\n",
	} {
		if !strings.Contains(out[Text], want) {
			t.Errorf("text lacks %q", want)
		}
	}
	ranges := write(t, CSV, Options{Table: "ranges"}, d)
	if !strings.Contains(ranges, "\ndata ORDER_LINE,remote,5,33.408,37.843,40.178,\n") {
		t.Errorf("csv ranges:\n%s", ranges)
	}
}

// Three runs given one by one are three columns in text, CSV and the
// chart, each compared with the first.
func TestGbakCompareThreeRuns(t *testing.T) {
	c := compareFiles(t, "restores/restore-remote-run1.log", "restores/restore-remote-run2.log", "restores/restore-service-run1.log")
	d := GbakCompare(c, GbakCompareOptions{Top: 3})
	out := goldens(t, "gbak-compare-three", d, Text, CSV)
	head := strings.SplitN(out[CSV], "\n", 2)[0]
	if head != "step,seconds_remote_run1,seconds_remote_run2,seconds_service_run1,ratio_remote_run2,change_remote_run2,verdict_remote_run2,"+
		"p_adjusted_remote_run2,ratio_service_run1,change_service_run1,verdict_service_run1,p_adjusted_service_run1" {
		t.Errorf("csv header %s", head)
	}
	if !strings.Contains(out[Text], "data ORDER_LINE     33.408 s     33.836 s       1.073 s          ×1.01  slower         ×0.0321  faster\n") {
		t.Errorf("text:\n%s", out[Text])
	}
	ch := GbakComparisonChart(c, GbakChartSteps)
	if len(ch.Runs) != 3 || ch.Runs[2] != "service-run1" || len(ch.Steps[0].Seconds) != 3 {
		t.Errorf("chart %+v", ch)
	}
	pc, err := plot.RestoreComparisonChart(ch)
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.Plotted) != 3 || pc.Plotted[2].Name != "service-run1" {
		t.Errorf("plotted %d series", len(pc.Plotted))
	}
	for _, r := range ch.Steps {
		if r.Name == "data ORDER_LINE" && (r.Notes[2] != "×0.0321 faster" || math.Abs(r.Seconds[2]-1.073) > 1e-9) {
			t.Errorf("ORDER_LINE %+v", r)
		}
	}
}

// The timeline chart's items are steps of the analysis, in time order.
func TestGbakTimelineChart(t *testing.T) {
	tl := readTimeline(t, "fb30/shop-gbak-restore-v-st.log")
	d := GbakTimelineChart(tl, 4)
	var names []string
	for _, it := range d.Items {
		names = append(names, it.Name+"@"+strconv.FormatFloat(it.Start, 'f', -1, 64))
	}
	if got := strings.Join(names, " "); got != "STOCK@0.569 ORDER_LINE@3.747 ORDERS@28.632 CUSTOMER@32.866" {
		t.Errorf("items %s", got)
	}
	// A phase's row reads what the phases table reads, and its bars span
	// as much: the metadata steps cost 0.053 s in all by the time column
	// (their deltas, each truncated, add up to 0.027 s).
	var metadata float64
	for _, p := range d.Phases {
		if p.Name == "metadata" && p.Label != "0.053 s" || p.Name == "data" && p.Label != "34.207 s" {
			t.Errorf("phase %+v", p)
		}
		if p.Name == "metadata" {
			metadata += p.Duration
		}
	}
	if math.Abs(metadata-0.053) > 1e-9 {
		t.Errorf("metadata bars span %.4f s", metadata)
	}
	cut := GbakTimelineChart(readTimeline(t, "gbak/shop-restore-cut.log"), 4)
	bounds := 0
	for _, p := range cut.Phases {
		if p.AtLeast {
			bounds++
		}
	}
	last := cut.Items[len(cut.Items)-1]
	if bounds != 1 || last.Name != "ORDER_LINE (incomplete)" || !last.AtLeast || math.Abs(last.Duration-5.375) > 1e-9 ||
		cut.Phases[len(cut.Phases)-1].Label != "≥ 9.005 s" {
		t.Errorf("cut: %d bounds, last %+v", bounds, last)
	}
}

// The seed's restore excerpt ends as the build of PKMNF2_DOC_DOWNTIME
// starts: that build is not "ok" (nor failed), the four before it are.
func TestGbakIndexBuildEndsWithTheLog(t *testing.T) {
	d := Gbak(readTimeline(t, "seeds/restore-balanced.log"), GbakOptions{})
	i := slices.IndexFunc(d.Tables, func(tb *Table) bool { return tb.Name == "indices" })
	if i < 0 {
		t.Fatal("no index builds")
	}
	var states []string
	for r := range d.Tables[i].All() {
		states = append(states, r[0].Text+" "+r[4].Text)
	}
	want := []string{"INDMF_TAG_PLC_DATA_C1 ok", "INDMF_TAG_PLC_DATA_DT_D ok", "INDMF_TAG_PLC_DATA_LU_D ok",
		"INDMF_TAG_PLC_DATA_TAG_D ok", "PKMNF2_DOC_DOWNTIME unknown"}
	if !slices.Equal(states, want) || !slices.Contains(d.Tables[i].Notes, "unknown: the log ends before the build does, and gbak did not report the run complete") {
		t.Errorf("states %q, notes %q", states, d.Tables[i].Notes)
	}
}

// Finding 8 of the 3.0.11 review: backup's and restore's start was UTC
// but printed unlabelled; it says so, as collect's "collected (UTC)"
// (beside the time: a longer label would shift the lines of the view
// that are fbdiag gbak LOG's).
func TestGbakLiveStartedIsLabelledUTC(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	run := GbakRunInfo{Action: "backup", Server: "localhost:3050", Database: "/data/a.fdb", BackupFile: "/data/a.fbk",
		Switches: "-b -v -st tdrw", Started: time.Date(2026, 12, 5, 22, 35, 2, 0, ny), Log: "a.log", Lines: 10}
	out := write(t, Text, Options{}, GbakLive(run, readTimeline(t, "fb30/shop-gbak-backup-v-st.log"), GbakOptions{Top: 5}))
	var started string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Started") {
			started = l
		}
	}
	if want := "Started      2026-12-06 03:35:02 UTC"; started != want {
		t.Errorf("started line %q, want %q", started, want)
	}
}

// With three logs a step can be missing from one run (fb30-restore-fk-orphan
// is another database; shop-restore-cut stops inside ORDER_LINE): its blank
// cell is not a cost the log leaves unknown, and the notes say which is
// which (data STOCK was listed as "cost unknown in a run" though both logs
// that have it give 3.176 s).
func TestGbakCompareThreeAbsentSteps(t *testing.T) {
	c := compareFiles(t, "fb30/shop-gbak-restore-v-st.log", "gbak/shop-restore-cut.log", "gbak/fb30-restore-fk-orphan.log")
	d := GbakCompare(c, GbakCompareOptions{Top: 10})
	var notes []string
	for _, tb := range d.Tables {
		if tb.Name == "steps" {
			notes = tb.Notes
		}
	}
	const unknown = "cost unknown in a run (last line, or lines missing): data ORDER_LINE, adjusting the ONLINE and FORCED WRITES flags"
	const absent = "not in every run (a log of another database, or one that ends before the step): " +
		"data ORDER_LINE, data STOCK, data DOCS, creating indexes, privilege for user SYSDBA"
	if !slices.Contains(notes, unknown) || !slices.Contains(notes, absent) {
		t.Errorf("notes:\n%s", strings.Join(notes, "\n"))
	}
}

// A log without -st (the shop restore with its statistics columns taken
// off, as gbak -c -v prints it) compared with the real one: its blanks
// are a missing switch, said once, not 150 steps "cost unknown (last
// line, or lines missing)".
var statsColumns = regexp.MustCompile(`^gbak: +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ `)

func TestGbakCompareUntimedLog(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	var plain strings.Builder
	for i, l := range strings.SplitAfter(string(data), "\n") {
		if i == 0 || l == "" {
			continue // the column header
		}
		plain.WriteString(statsColumns.ReplaceAllString(l, "gbak:"))
	}
	tl, err := analyze.ReadGbakTimeline(strings.NewReader(plain.String()), "testdata/shop-restore-no-st.log")
	if err != nil {
		t.Fatal(err)
	}
	if tl.Columns != "" || len(tl.Steps) != 150 || tl.TotalSeconds != nil || tl.Outcome != analyze.GbakCompleted {
		t.Fatalf("columns %q, %d steps", tl.Columns, len(tl.Steps))
	}
	c := analyze.CompareTimelines(analyze.GbakRun{Label: "plain", Timeline: tl},
		analyze.GbakRun{Label: "st", Timeline: readTimeline(t, "fb30/shop-gbak-restore-v-st.log")})
	const warning = "no time or delta column in shop-restore-no-st.log (gbak run without -st, or with -st r or w alone): " +
		"no step of theirs has a cost to compare; run gbak with -st tdrw (Firebird 2.5.5 and later)"
	if !slices.Contains(c.Warnings, warning) {
		t.Errorf("warnings %q", c.Warnings)
	}
	d := GbakCompare(c, GbakCompareOptions{Top: 10})
	for _, tb := range d.Tables {
		if tb.Name != "steps" {
			continue
		}
		const unknown = "cost unknown in a run (last line, or lines missing): adjusting the ONLINE and FORCED WRITES flags"
		if !slices.Contains(tb.Notes, unknown) {
			t.Errorf("notes:\n%s", strings.Join(tb.Notes, "\n"))
		}
	}
}

// The restore that stopped at PK_A3 (no total line): its page counts read
// "so far", as its time reads "at least" (they read 0 and 815 as totals).
func TestGbakFailedRunHeadline(t *testing.T) {
	d := Gbak(readTimeline(t, "gbak/fb30-restore-pk-duplicate.log"), GbakOptions{Top: 10})
	out := write(t, Text, Options{}, d)
	for _, want := range []string{
		"Total time   0.144 s (at least: gbak failed after its last timestamp, when the log does not say)\n",
		"Page reads   0 so far (gbak failed after its last timestamp)\n",
		"Page writes  815 so far (gbak failed after its last timestamp)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out[:min(len(out), 600)])
		}
	}
	csv := write(t, CSV, Options{Table: "summary"}, d)
	if !strings.Contains(csv, "\nreads_so_far,0\nwrites_so_far,815\n") || strings.Contains(csv, "total_writes") {
		t.Errorf("csv summary:\n%s", csv)
	}
}
