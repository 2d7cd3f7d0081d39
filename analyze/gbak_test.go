package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func timelineOf(t *testing.T, path string) *Timeline {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log, err := parse.ReadGbak(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return GbakTimeline(log)
}

// nearMs says whether a figure printed to the millisecond matches.
func nearMs(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 0.0005 }
func is(p *int64, want int64) bool         { return p != nil && *p == want }

func findTable(t *testing.T, tl *Timeline, name string) GbakTable {
	t.Helper()
	for _, tb := range tl.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("table %s not found", name)
	return GbakTable{}
}

func findIndex(t *testing.T, tl *Timeline, name string) GbakIndex {
	t.Helper()
	for _, ix := range tl.Indices {
		if ix.Name == name {
			return ix
		}
	}
	t.Fatalf("index %s not found", name)
	return GbakIndex{}
}

// The 3.0.11 restore: each step's cost is read on the line after it. The
// 4569 reads printed on the OL_ITEM line are the build of RDB$PRIMARY4
// (ORDER_LINE's key); the 776 reads on the ORDERS_CARRIER line are the
// build of RDB$PRIMARY3 (ORDERS has 808 data pages).
func TestGbakTimelineRestoreShop(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if tl.Kind == nil || *tl.Kind != "restore" || tl.Outcome != GbakCompleted || len(tl.Errors) != 0 {
		t.Fatalf("kind %v outcome %s errors %v", tl.Kind, tl.Outcome, tl.Errors)
	}
	if !nearMs(tl.TotalSeconds, 35.170) || !is(tl.TotalReads, 10944) || !is(tl.TotalWrites, 8373) {
		t.Errorf("totals %v %v %v", *tl.TotalSeconds, *tl.TotalReads, *tl.TotalWrites)
	}
	ol := findTable(t, tl, "ORDER_LINE")
	if !is(ol.Records, 500000) || !nearMs(ol.Seconds, 24.882) || !is(ol.Writes, 3322) || !nearMs(ol.RecordsPerSecond, 20094.848) {
		t.Errorf("ORDER_LINE %+v", ol)
	}
	if st := findTable(t, tl, "STOCK"); !is(st.Records, 50000) || !nearMs(st.Seconds, 3.176) {
		t.Errorf("STOCK %+v", st)
	}
	if len(tl.Tables) != 6 || len(tl.Indices) != 10 {
		t.Errorf("%d tables, %d indices", len(tl.Tables), len(tl.Indices))
	}
	checks := []struct {
		name          string
		sec           float64
		reads, writes int64
	}{
		{"RDB$PRIMARY4", 0.287, 4569, 420}, // 34.712 − 34.425 (its delta reads 0.286)
		{"OL_ITEM", 0.243, 4574, 311},
		{"RDB$PRIMARY3", 0.047, 776, 68},
		{"RDB$PRIMARY1", 0.003, 6, 16}, // measured on "fixing views dbkey length"
	}
	for _, c := range checks {
		ix := findIndex(t, tl, c.name)
		if !nearMs(ix.Seconds, c.sec) || !is(ix.Reads, c.reads) || !is(ix.Writes, c.writes) {
			t.Errorf("%s: %v s %v reads %v writes, want %v %v %v", c.name, derefF(ix.Seconds), derefI(ix.Reads), derefI(ix.Writes), c.sec, c.reads, c.writes)
		}
	}
	// The last step has no following line: its cost is unknown.
	last := tl.Steps[len(tl.Steps)-1]
	if last.Kind != parse.GbakOnlineFlags || last.Seconds != nil || last.Reads != nil {
		t.Errorf("last step %+v", last)
	}
	// "finishing" is measured by the total line: its time, and as the
	// total line's counters are absolute, its I/O is the total minus
	// every delta, 0 and 0 (TestGbakRunIOAddsUp).
	fin := tl.Steps[len(tl.Steps)-2]
	if fin.Kind != parse.GbakFinish || !nearMs(fin.Seconds, 0) || !is(fin.Reads, 0) || !is(fin.Writes, 0) {
		t.Errorf("finish step %+v", fin)
	}
	top := tl.Slowest(3)
	if len(top) != 3 || top[0].Name != "ORDER_LINE" || top[1].Name != "ORDERS" || top[2].Name != "STOCK" {
		t.Errorf("slowest %+v", top)
	}
	ph := map[string]GbakPhase{}
	for _, p := range tl.Phases {
		ph[p.Name] = p
	}
	if ph[PhaseData].Steps != 6 || !nearMs(ph[PhaseData].Seconds, 34.207) ||
		ph[PhaseIndices].Steps != 12 || ph[PhaseIndices].Reads == nil || *ph[PhaseIndices].Reads != 10841 || ph[PhaseFinish].Unknown != 1 {
		t.Errorf("phases %+v", tl.Phases)
	}
}

func derefF(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func derefI(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// The backup gives per-table times the same way; its wrapped deltas
// (#8027) cancel out within the table they fall in.
func TestGbakTimelineBackupShop(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if *tl.Kind != "backup" || tl.Outcome != GbakCompleted {
		t.Fatalf("kind %v outcome %s", *tl.Kind, tl.Outcome)
	}
	if !nearMs(tl.TotalSeconds, 2.194) || !is(tl.TotalReads, 6752) || !is(tl.TotalWrites, 152) || !nearMs(tl.SpanSeconds, 2.167) ||
		!nearMs(tl.LastTimeSeconds, 2.194) {
		t.Errorf("totals %v %v %v %v", *tl.TotalSeconds, *tl.TotalReads, *tl.TotalWrites, *tl.SpanSeconds)
	}
	want := []struct {
		name    string
		records int64
		sec     float64
		reads   int64
	}{
		{"DOCS", 2000, 0.424, 321},
		{"STOCK", 50000, 0.135, 465},
		{"ORDER_LINE", 500000, 1.189, 4557},
		{"ORDERS", 95000, 0.209, 842},
		{"CUSTOMER", 30000, 0.134, 398},
		{"WAREHOUSE", 5, 0.001, 0},
	}
	if len(tl.Tables) != len(want) {
		t.Fatalf("%d tables", len(tl.Tables))
	}
	for i, w := range want {
		tb := tl.Tables[i]
		if tb.Name != w.name || !is(tb.Records, w.records) || !nearMs(tb.Seconds, w.sec) || !is(tb.Reads, w.reads) {
			t.Errorf("table %d: %s %v %v %v, want %+v", i, tb.Name, derefI(tb.Records), derefF(tb.Seconds), derefI(tb.Reads), w)
		}
	}
	if len(tl.Indices) != 0 {
		t.Errorf("indices %+v", tl.Indices)
	}
}

// Seed 003's excerpts: the cost of each index is on the next line, the
// last one's is unknown, and the totals of an excerpt are not invented.
func TestGbakTimelineSeedExcerpt(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "seeds", "restore-balanced.log"))
	// An excerpt has no total: its last timestamp, 13304.334 s, is when
	// its last line was printed, not how long the restore took (the
	// article: 4 hours 7 minutes).
	if tl.Outcome != GbakIncomplete || !nearMs(tl.SpanSeconds, 3774.995) || tl.TotalSeconds != nil || !nearMs(tl.LastTimeSeconds, 13304.334) {
		t.Fatalf("outcome %s span %v total %v last %v", tl.Outcome, derefF(tl.SpanSeconds), derefF(tl.TotalSeconds), derefF(tl.LastTimeSeconds))
	}
	if tl.TotalReads != nil || tl.TotalWrites != nil {
		t.Errorf("excerpt totals invented: %v %v", derefI(tl.TotalReads), derefI(tl.TotalWrites))
	}
	if ix := findIndex(t, tl, "INDMF_TAG_PLC_DATA_DT_D"); !nearMs(ix.Seconds, 1258.271) || !is(ix.Reads, 5028909) {
		t.Errorf("DT_D %+v", ix)
	}
	if ix := findIndex(t, tl, "PKMNF2_DOC_DOWNTIME"); ix.Seconds != nil || ix.Reads != nil {
		t.Errorf("PKMNF2 %+v", ix)
	}
}

func TestGbakCompareSeeds(t *testing.T) {
	a := timelineOf(t, testutil.Testdata(t, "seeds", "restore-balanced.log"))
	b := timelineOf(t, testutil.Testdata(t, "seeds", "restore-high-performance.log"))
	c := CompareTimelines(GbakRun{Label: "balanced", Timeline: a}, GbakRun{Label: "high-performance", Timeline: b})
	if len(c.Runs) != 2 || !nearMs(c.Runs[0].SpanSeconds, 3774.995) || !nearMs(c.Runs[1].SpanSeconds, 2592.555) ||
		c.Runs[0].Matched != 5 || c.Runs[1].Unmatched != 0 {
		t.Fatalf("runs %+v", c.Runs)
	}
	span := c.Totals[2]
	// Issue 14: the first run is the baseline; the span of the high
	// performance run is 0.687 of the balanced one's.
	if span.Key != "span" || span.Ratio == nil || math.Abs(*span.Ratio-0.687) > 0.0005 || !nearMs(span.Difference, -1182.440) ||
		math.Abs(*span.Change+0.313) > 0.0005 || span.Direction != "faster" || c.Base != "balanced" {
		t.Errorf("span %+v", span)
	}
	if span.P != nil || span.Verdict != "-31.32% (n=1+1, no test)" || span.Word() != "faster" {
		t.Errorf("verdict %q", span.Verdict)
	}
	if c.Steps.Len() != 5 {
		t.Fatalf("%d steps", c.Steps.Len())
	}
	dt := c.Steps.At(0)
	if dt.Name != "index INDMF_TAG_PLC_DATA_DT_D (build)" || !nearMs(dt.Seconds[0], 1258.271) || !nearMs(dt.Seconds[1], 622.882) ||
		math.Abs(*dt.Ratio-622.882/1258.271) > 1e-9 || dt.Only != nil {
		t.Errorf("DT_D %+v", dt)
	}
	pk := c.Steps.At(4)
	if pk.Name != "index PKMNF2_DOC_DOWNTIME (build)" || pk.Seconds[0] != nil || pk.Seconds[1] != nil || pk.Ratio != nil {
		t.Errorf("PKMNF2 %+v", pk)
	}
	if top := c.Slowest(2); len(top) != 2 || top[0].Name != dt.Name || top[1].Name != "index INDMF_TAG_PLC_DATA_TAG_D (build)" {
		t.Errorf("slowest %+v", top)
	}
}

// Three runs per side (the two real excerpts, each repeated) go through
// Summarize and Compare: medians per side, and the verdict is the one the
// statistics kit gives for the same values.
func TestGbakCompareRepeatedRuns(t *testing.T) {
	a := timelineOf(t, testutil.Testdata(t, "seeds", "restore-balanced.log"))
	b := timelineOf(t, testutil.Testdata(t, "seeds", "restore-high-performance.log"))
	var runs []GbakRun
	for range 3 {
		runs = append(runs, GbakRun{Label: "balanced", Timeline: a}, GbakRun{Label: "high", Timeline: b})
	}
	c := CompareTimelines(runs...)
	if len(c.Sides) != 2 || c.Sides[0].Runs != 3 || c.Sides[1].Runs != 3 {
		t.Fatalf("sides %+v", c.Sides)
	}
	dt := c.Steps.At(0)
	if len(dt.Seconds) != 6 || !nearMs(dt.Median[0], 1258.271) || !nearMs(dt.Median[1], 622.882) || dt.P == nil ||
		!nearMs(dt.Seconds[3], 622.882) || dt.Spread[0] != nil || dt.Range[0] == nil || *dt.Range[0] != [2]float64{1258.271, 1258.271} {
		t.Fatalf("DT_D %+v", dt)
	}
	// The values tie within each side, so the kit's normal approximation
	// gives p < 0.05; no arrangement of 3+3 runs can give less than 0.100,
	// so the difference is not called significant.
	raw := Compare([]float64{622.882, 622.882, 622.882}, []float64{1258.271, 1258.271, 1258.271})
	// Every matched step has that p: adjusted over the 4 tests it stays.
	if dt.Significant || *dt.P != *raw.P || *dt.PAdjusted != *raw.P || c.Tests != 4 || c.Adjustment != BenjaminiHochberg ||
		dt.Verdict != fmt.Sprintf("~ (p_adj=%.3f n=3+3)", *raw.P) ||
		len(dt.Warnings) != 1 || dt.Warnings[0] != "need >= 4 samples per side to detect a difference at alpha level 0.05" {
		t.Errorf("verdict %q warnings %v (kit: %s)", dt.Verdict, dt.Warnings, raw)
	}
}

// Steps found in one run only are listed with the label of their side.
func TestGbakCompareUnmatched(t *testing.T) {
	r := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	s := timelineOf(t, testutil.Testdata(t, "seeds", "restore-balanced.log"))
	c := CompareTimelines(GbakRun{Label: "shop", Timeline: r}, GbakRun{Label: "seed", Timeline: s})
	only := map[string]int{}
	for _, st := range c.Steps.All() {
		if st.Only != nil {
			only[*st.Only]++
		}
	}
	if only["shop"] != len(r.Steps) || only["seed"] != 5 || c.Runs[0].Matched != 0 || c.Runs[0].SpanSeconds != nil {
		t.Errorf("only %v runs %+v", only, c.Runs)
	}
}

// Every public log: outcome, errors and counts read from the file.
func TestGbakTimelinePublicCorpus(t *testing.T) {
	cases := []struct {
		file    string
		outcome string
		errors  []string
		tables  int
		indices int
	}{
		{"01_fb3_backup_stats_tdrw_fbsvcmgr.log", GbakCompleted, nil, 0, 0},
		{"02_fb3_restore_stats_tdrw_fbsvcmgr.log", GbakCompleted, nil, 0, 0},
		{"03_core1999_sample_restore_stat_tdrw_paulbeach_blog.log", GbakIncomplete, nil, 1, 2},
		{"04_fb25_release_notes_stats_lines.txt", GbakIncomplete, nil, 0, 0},
		{"05_fb5_restore_ST_W_issue8391.log", GbakCompleted, nil, 0, 0},
		{"06_fb5_restore_TD_parallel_warning_issue8140.log", GbakIncomplete, nil, 0, 0},
		{"07_backup_service_stats_error_issue7803.log", GbakFailed, []string{
			"segment buffer length shorter than expected; gds_$get_segment failed; Exiting before completion due to errors"}, 1, 0},
		{"08_broken_stats_wraparound_issue8027.log", GbakIncomplete, nil, 0, 0},
		{"09_restore_deferred_index_failure_issue7269.log", GbakFailed, []string{
			`cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 9)`,
			"action cancelled by trigger (2) to preserve data integrity; Cannot deactiv[... excerpt truncated ...]"}, 0, 4},
		{"10_fb3010_restore_index_fail_not_online_issue7465.log", GbakFailed, []string{
			`cannot commit index FK_NAGL_NAGL_ID_B_NAGL_BL: violation of FOREIGN KEY constraint "FK_NAGL_NAGL_ID_B_NAGL_BL" on table "NAGL"; Foreign key reference target does not exist; Problematic key value is ("ID_NAGL" = 278228)`,
			"Database is not online due to failure to activate one or more indices.; Run gfix -online to bring database online without active indices.",
			`Foreign key reference target does not exist; Problematic key value is ("ID_NAGL" = 278228)`,
			"Database is not online due to failure to activate one or more indices.; Run gfix -online to bring database online without active indices."}, 0, 0},
		{"11_fb6_restore_skip_data_issue9075.log", GbakIncomplete, nil, 2, 0},
		{"12_fb6_services_backup_restore_verbose.log", GbakCompleted, nil, 2, 1},
		{"13_backup_verbose_no_stats_firebird_driver_docs.log", GbakCompleted, nil, 0, 0},
		{"14_cli_backup_restore_verbose_windows.log", GbakCompleted, nil, 0, 0},
		{"15_fb5_classic_parallel_restore_error_issue8263.log", GbakFailed, []string{
			"cannot commit index PK_XYZ: invalid database handle (no active connection)",
			"action cancelled by trigger (3) to preserve data integrity; Cannot deactivate index used by a PRIMARY/UNIQUE constraint",
			"Exiting before completion due to errors"}, 0, 0},
		{"16_gbak_z_version_issue8003.log", GbakFailed, []string{"table id 51 is not defined"}, 0, 0},
		{"17_fb2x_restore_index_error_gedemin1783_ru.log", GbakFailed, []string{
			"cannot commit index RDB$FOREIGN394: unsuccessful metadata update; partner index segment no 1 has incompatible data type",
			"Database is not online due to failure to activate one or more indices.; Run gfix -online to bring database online without active indices."}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.file[:2], func(t *testing.T) {
			tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", c.file))
			if tl.Outcome != c.outcome || len(tl.Tables) != c.tables || len(tl.Indices) != c.indices {
				t.Fatalf("outcome %s tables %d indices %d, want %s %d %d", tl.Outcome, len(tl.Tables), len(tl.Indices), c.outcome, c.tables, c.indices)
			}
			if strings.Join(tl.Errors, "\n") != strings.Join(c.errors, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(tl.Errors, "\n"), strings.Join(c.errors, "\n"))
			}
		})
	}
	// Figures of two of them.
	tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log"))
	// MEDIA_ARC's 1072223 records in 210.211 s (558.685 − 348.474): a
	// count no progress line prints (they come at multiples of the
	// interval), the table's last, so its data ended there and took that
	// long, not "at least" (it was a lower bound, with a cut-short
	// warning that put the failure inside MEDIA_ARC).
	if tb := tl.Tables[0]; tb.Name != "MEDIA_ARC" || !is(tb.Records, 1072223) || !nearMs(tb.Seconds, 210.211) || tb.LowerBound {
		t.Errorf("MEDIA_ARC %+v", tb)
	}
	if p := tl.Phases[0]; p.Name != PhaseData || p.LowerBound || !nearMs(p.Seconds, 210.211) {
		t.Errorf("data phase %+v", p)
	}
	// The backup failed after it: its errors have no time and came after
	// its last timestamp, 558.685 s, which is not its total. Compared
	// with the whole fb30 backup (2.194 s) it read "×255 slower"; a run
	// failed early reads faster.
	if !nearMs(tl.TotalSeconds, 558.685) || !tl.TotalLowerBound {
		t.Errorf("total %v, lower bound %v", derefF(tl.TotalSeconds), tl.TotalLowerBound)
	}
	whole := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if whole.TotalLowerBound || !nearMs(whole.TotalSeconds, 2.194) {
		t.Errorf("whole backup: total %v, lower bound %v", derefF(whole.TotalSeconds), whole.TotalLowerBound)
	}
	for _, c := range []*GbakComparison{
		CompareTimelines(GbakRun{Label: "whole", Timeline: whole}, GbakRun{Label: "failed", Timeline: tl}),
		CompareTimelines(GbakRun{Label: "failed", Timeline: tl}, GbakRun{Label: "whole", Timeline: whole}),
	} {
		total := c.Totals[0]
		if total.Key != "total" || total.Ratio != nil || total.Word() != "" ||
			!slices.ContainsFunc(total.Seconds, func(v *float64) bool { return nearMs(v, 2.194) }) ||
			!slices.ContainsFunc(c.Warnings, func(w string) bool {
				return strings.HasPrefix(w, "failed before their closing line: 07_backup_service_stats_error_issue7803.log;")
			}) {
			t.Errorf("base %s: total %s %v ratio %v; warnings %q", c.Base, total.Word(), total.Seconds, derefF(total.Ratio), c.Warnings)
		}
	}
	// A restore whose index failed goes on to its total line, then
	// (3.0.11 and later, public 10's tail) raises "not online": its
	// total is the run's.
	b := string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")) +
		"gbak: ERROR:Database is not online due to failure to activate one or more indices.\n" +
		"gbak: ERROR:    Run gfix -online to bring database online without active indices.\n"
	log, err := parse.ReadGbak(strings.NewReader(b), "not-online.log")
	if err != nil {
		t.Fatal(err)
	}
	if tl := GbakTimeline(log); tl.Outcome != GbakFailed || !nearMs(tl.TotalSeconds, 35.17) || tl.TotalLowerBound {
		t.Errorf("not online: %s, total %v, lower bound %v", tl.Outcome, derefF(tl.TotalSeconds), tl.TotalLowerBound)
	}
	tl = timelineOf(t, testutil.Corpus(t, "public", "gbak", "03_core1999_sample_restore_stat_tdrw_paulbeach_blog.log"))
	// Lines are missing inside TEST1's data (20000 -> 1770000 records):
	// its time is unknown; T2_VAL's build is measured on the next line.
	if tb := tl.Tables[0]; !is(tb.Records, 1790000) || tb.Seconds != nil {
		t.Errorf("TEST1 %+v", tb)
	}
	if ix := findIndex(t, tl, "T2_VAL"); !nearMs(ix.Seconds, 0.117) || !is(ix.Writes, 9) {
		t.Errorf("T2_VAL %+v", ix)
	}
	found := 0
	for _, st := range tl.Steps {
		if st.Kind == parse.GbakCreateIndexes {
			found++
			if !nearMs(st.Seconds, 6.308) || !is(st.Writes, 38394) {
				t.Errorf("creating indexes %+v", st)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d creating indexes steps", found)
	}
}

// The streaming path gives the same timeline as the whole-log path.
func TestReadGbakTimelineStreams(t *testing.T) {
	path := testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")
	whole := timelineOf(t, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := ReadGbakTimeline(f, path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(whole)
	b, _ := json.Marshal(tl)
	if string(a) != string(b) || len(tl.Notices) != 6 || len(tl.Steps) != 164 {
		t.Errorf("streamed timeline differs: %d notices, %d steps", len(tl.Notices), len(tl.Steps))
	}
	if _, err := ReadGbakTimeline(strings.NewReader("no gbak here\n"), "x.txt"); err == nil {
		t.Error("no error for a file without gbak lines")
	}
}

// BenchmarkGbakTimeline reads and analyses an 8 MB log made of the real
// restore log repeated.
func BenchmarkGbakTimeline(b *testing.B) {
	one := testutil.ReadTestdata(b, "fb30", "shop-gbak-restore-v-st.log")
	data := bytes.Repeat(one, (8<<20)/len(one)+1)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		tl, err := ReadGbakTimeline(bytes.NewReader(data), "bench")
		if err != nil || len(tl.Tables) == 0 {
			b.Fatal(err)
		}
	}
}

// Without the total line, the deltas of a whole log add up to its I/O; a
// command line above the log hides nothing, lines missing inside do.
func TestGbakTotalsWithoutTotalLine(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "total statistics") {
			kept = append(kept, l)
		}
	}
	whole := "gbak -c -v -st tdrw -y restore.log shop.fbk shop2.fdb\n" + strings.Join(kept, "\n")
	tl, err := ReadGbakTimeline(strings.NewReader(whole), "cut.log")
	if err != nil {
		t.Fatal(err)
	}
	if !is(tl.TotalReads, 10944) || !is(tl.TotalWrites, 8373) || !nearMs(tl.TotalSeconds, 35.170) {
		t.Errorf("whole log: %v %v %v", derefI(tl.TotalReads), derefI(tl.TotalWrites), derefF(tl.TotalSeconds))
	}
	holed := strings.Replace(whole, "gbak:   34.712", "...\ngbak:   34.712", 1)
	tl, err = ReadGbakTimeline(strings.NewReader(holed), "holed.log")
	if err != nil {
		t.Fatal(err)
	}
	if tl.TotalReads != nil || tl.TotalWrites != nil {
		t.Errorf("totals invented for a log with a hole: %v %v", derefI(tl.TotalReads), derefI(tl.TotalWrites))
	}
	if ix := findIndex(t, tl, "RDB$PRIMARY4"); ix.Seconds != nil {
		t.Errorf("RDB$PRIMARY4 measured across a hole: %v", derefF(ix.Seconds))
	}
}

// Issue 13: with one run per side the seed's excerpts compare their last
// timestamps, 13304.334 s and 7894.340 s, which are no totals: the row
// says what they are, and total_seconds stays null.
func TestGbakCompareIncompleteHasNoTotal(t *testing.T) {
	a := timelineOf(t, testutil.Testdata(t, "seeds", "restore-balanced.log"))
	b := timelineOf(t, testutil.Testdata(t, "seeds", "restore-high-performance.log"))
	c := CompareTimelines(GbakRun{Label: "balanced", Timeline: a}, GbakRun{Label: "high", Timeline: b})
	for i, want := range []float64{13304.334, 7894.340} {
		r := c.Runs[i]
		if r.Outcome != GbakIncomplete || r.TotalSeconds != nil || !nearMs(r.LastTimeSeconds, want) {
			t.Errorf("run %d: %s total %v last %v", i, r.Outcome, derefF(r.TotalSeconds), derefF(r.LastTimeSeconds))
		}
	}
	var keys []string
	for _, row := range c.Totals {
		keys = append(keys, row.Key+"="+row.Name)
	}
	if got := strings.Join(keys, ", "); got != "total=total seconds, last_time=last timestamp (log incomplete), span=span of matched steps" {
		t.Fatalf("totals %s", got)
	}
	total, last := c.Totals[0], c.Totals[1]
	if total.Median[0] != nil || total.Median[1] != nil || total.Ratio != nil {
		t.Errorf("total of excerpts %+v", total)
	}
	if !nearMs(last.Median[0], 13304.334) || !nearMs(last.Median[1], 7894.340) || math.Abs(*last.Ratio-7894.340/13304.334) > 1e-9 ||
		last.Verdict != "-40.66% (n=1+1, no test)" {
		t.Errorf("last timestamp %+v", last)
	}
	if !slices.Contains(c.Warnings, "incomplete logs (no closing line): restore-balanced.log, restore-high-performance.log; "+
		"their last timestamps are when the last line shown was printed, not the run's total") {
		t.Errorf("warnings %q", c.Warnings)
	}
}

// A backup only reads, but its log shows page writes: most likely
// Firebird collecting the garbage of each table it reads, though on
// SuperServer the counters are the database's (other attachments, the
// garbage collector thread). fbdiag bench's database after its runs
// (WAREHOUSE, DISTRICT, STOCK… full of back versions) wrote 19,759 pages
// in the data phase against 32,701 read; the note names the tables that
// wrote most and gbak's -g. A restore gets no such note.
func TestGbakBackupGarbageNote(t *testing.T) {
	const likely = ": most likely garbage collection (reading a table, Firebird collects its back versions no transaction needs, " +
		"and a backup reads them all); on SuperServer these counters are database-wide, so other attachments and the garbage collector thread count too"
	const g = "; if the backup ran without -g (-garbage_collect), -g inhibits that collection and speeds the backup, leaving the garbage to a sweep"
	tl := timelineOf(t, testutil.Testdata(t, "bench", "backup-w1-after-runs.log"))
	want := "the backup wrote 19759 database pages while it read the tables (60 for every 100 pages read), most while reading STOCK 9103, " +
		"ORDER_LINE 5130, CUSTOMER 3380" + likely + g
	if !slices.Contains(tl.Notes, want) {
		t.Errorf("notes %q,\nwant %q", tl.Notes, want)
	}
	// 151 written for 6583 read: 2.3, not 2.
	tl = timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	want = "the backup wrote 151 database pages while it read the tables (2.3 for every 100 pages read), most while reading ORDER_LINE 151" + likely + g
	if !slices.Contains(tl.Notes, want) {
		t.Errorf("shop backup: notes %q,\nwant %q", tl.Notes, want)
	}
	// A backup that failed on gds_$get_segment: 6476 pages written is
	// not "0 for every 100", and -g is not why it failed.
	tl = timelineOf(t, testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log"))
	want = "the backup wrote 6476 database pages while it read the tables (<0.1 for every 100 pages read), most while reading MEDIA_ARC 6476" + likely
	if tl.Outcome != GbakFailed || !slices.Contains(tl.Notes, want) {
		t.Errorf("07: outcome %s, notes %q,\nwant %q", tl.Outcome, tl.Notes, want)
	}
	for _, f := range []string{"shop-gbak-restore-v-st.log"} {
		for _, n := range timelineOf(t, testutil.Testdata(t, "fb30", f)).Notes {
			if strings.Contains(n, "wrote") {
				t.Errorf("%s: %q", f, n)
			}
		}
	}
}

// The public 07 backup failed after its last timestamp (558.685 s): its
// total is a lower bound, and so its data phase's share of it (210.211 s,
// 37.6 %) was only an upper bound printed as the share. A phase of such a
// run has no share; a whole run's phases keep theirs.
func TestGbakNoShareOfALowerBound(t *testing.T) {
	tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log"))
	if !tl.TotalLowerBound || len(tl.Phases) != 1 || !nearMs(tl.Phases[0].Seconds, 210.211) || tl.Phases[0].Share != nil {
		t.Errorf("lower bound %v, phases %+v", tl.TotalLowerBound, tl.Phases)
	}
	whole := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	for _, p := range whole.Phases {
		if p.Seconds != nil && (p.Share == nil || math.Abs(*p.Share-*p.Seconds/2.194) > 1e-9) {
			t.Errorf("whole backup: phase %s share %v of %v s", p.Name, derefF(p.Share), *p.Seconds)
		}
	}
}
