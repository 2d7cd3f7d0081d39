package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// A restore whose server died while ORDER_LINE was loading: its log ends
// with 90000 records logged over 5.375 s. The table took at least that
// long; it was reported as "?" and the slowest steps were led by STOCK.
func TestGbakCutMidTable(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "shop-restore-cut.log"))
	// An incomplete log has no total (issue 13): its last timestamp is kept apart.
	if tl.Outcome != GbakIncomplete || tl.TotalSeconds != nil || !nearMs(tl.LastTimeSeconds, 9.122) {
		t.Fatalf("outcome %s, total %v, last time %v", tl.Outcome, tl.TotalSeconds, tl.LastTimeSeconds)
	}
	// Nor total page I/O: the 715 writes are those logged before the
	// server died while loading ORDER_LINE, not the restore's.
	if tl.TotalReads != nil || tl.TotalWrites != nil || !is(tl.ReadsSoFar, 0) || !is(tl.WritesSoFar, 715) {
		t.Errorf("total reads %v writes %v, so far %v %v", derefI(tl.TotalReads), derefI(tl.TotalWrites), derefI(tl.ReadsSoFar), derefI(tl.WritesSoFar))
	}
	// A whole run keeps its totals and has nothing "so far".
	if w := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")); !is(w.TotalWrites, 8373) || w.ReadsSoFar != nil || w.WritesSoFar != nil {
		t.Errorf("whole restore: total writes %v, so far %v %v", derefI(w.TotalWrites), derefI(w.ReadsSoFar), derefI(w.WritesSoFar))
	}
	ol := findTable(t, tl, "ORDER_LINE")
	if !ol.LowerBound || !nearMs(ol.Seconds, 5.375) || !is(ol.Records, 90000) || !is(ol.Reads, 0) || !is(ol.Writes, 0) ||
		ol.RecordsPerSecond == nil || *ol.RecordsPerSecond != 90000/5.375 {
		t.Errorf("ORDER_LINE = %+v", ol)
	}
	if st := findTable(t, tl, "STOCK"); st.LowerBound || !nearMs(st.Seconds, 3.176) {
		t.Errorf("STOCK = %+v", st)
	}
	slow := tl.Slowest(2)
	if len(slow) != 2 || slow[0].Label() != "data ORDER_LINE" || !slow[0].LowerBound || !nearMs(slow[0].Seconds, 5.375) ||
		slow[1].Label() != "data STOCK" || slow[1].LowerBound {
		t.Errorf("slowest = %+v", slow)
	}
	var data GbakPhase
	for _, p := range tl.Phases {
		if p.Name == PhaseData {
			data = p
		}
	}
	if data.Steps != 3 || data.Unknown != 0 || !data.LowerBound || !nearMs(data.Seconds, 0.454+3.176+5.375) {
		t.Errorf("data phase = %+v", data)
	}
	// Compared with the whole restore, the bound is no cost: ORDER_LINE's
	// row has no figure for the cut run, no ratio.
	whole := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	cmp := CompareTimelines(GbakRun{Label: "cut", Timeline: tl}, GbakRun{Label: "whole", Timeline: whole})
	found := 0
	for _, row := range cmp.Steps.All() {
		if row.Name == "data ORDER_LINE" {
			found++
			if row.Seconds[0] != nil || !nearMs(row.Seconds[1], 24.882) || row.Ratio != nil {
				t.Errorf("compare ORDER_LINE: %+v", row)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d ORDER_LINE rows in the comparison", found)
	}
	// Nor does the span of the matched steps take the bound as the end
	// of ORDER_LINE: it ends at its start, 3.747 s, in both runs (it
	// read 9.122 s against 28.629 s, "×0.319 faster" for one restore).
	if r := cmp.Runs; !nearMs(r[0].SpanSeconds, 3.747) || !nearMs(r[1].SpanSeconds, 3.747) {
		t.Errorf("spans %v %v, want 3.747 both", derefF(r[0].SpanSeconds), derefF(r[1].SpanSeconds))
	}
	for _, row := range cmp.Totals {
		if row.Key == "span" && (row.Word() != "~" || !nearMs(row.Ratio, 1)) {
			t.Errorf("span row %s ratio %v", row.Word(), derefF(row.Ratio))
		}
	}
	// The same log cut after a step line: that step's cost stays unknown,
	// nothing bounds it.
	b := testutil.ReadTestdata(t, "gbak", "shop-restore-cut.log")
	lines := strings.SplitAfter(string(b), "\n")
	log, err := parse.ReadGbak(strings.NewReader(strings.Join(lines[:77], "")), "cut-at-step.log")
	if err != nil {
		t.Fatal(err)
	}
	tl3 := GbakTimeline(log)
	if ol := findTable(t, tl3, "ORDER_LINE"); ol.Seconds != nil || ol.LowerBound || tl3.Steps[len(tl3.Steps)-1].LowerBound {
		t.Errorf("cut at the step line: ORDER_LINE = %+v", ol)
	}
}

// A log that ends after a table's last count is not cut inside it: 3.0
// prints the count again after the data loop ("50000 records restored"
// twice, fb30 restore lines 73 and 74), and STOCK's 3.176 s (0.569 to
// 3.745) are its cost, not a lower bound. Its first 73 lines end on a
// count that may be progress: then it is.
func TestGbakEndsAfterTheLastCount(t *testing.T) {
	lines := strings.SplitAfter(string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")), "\n")
	for _, c := range []struct {
		n     int
		bound bool
	}{{74, false}, {73, true}} {
		log, err := parse.ReadGbak(strings.NewReader(strings.Join(lines[:c.n], "")), "head.log")
		if err != nil {
			t.Fatal(err)
		}
		tl := GbakTimeline(log)
		st := findTable(t, tl, "STOCK")
		if st.LowerBound != c.bound || !nearMs(st.Seconds, 3.176) || !is(st.Records, 50000) {
			t.Errorf("head -%d: STOCK %v s, %v records, lower bound %v; want %v", c.n, derefF(st.Seconds), derefI(st.Records), st.LowerBound, c.bound)
		}
		if tl.Outcome != GbakIncomplete {
			t.Errorf("head -%d: %s", c.n, tl.Outcome)
		}
	}
}

// With -verbint 150 the progress counts are 150, 300, 450: a log cut
// after "450 records restored" is cut inside the table although 450 is
// no multiple of 100, as the table before shows the interval. (Derived
// from the fb30 restore: DOCS and STOCK's counts replaced.)
func TestGbakCutWithAnInterval(t *testing.T) {
	lines := strings.SplitAfter(string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")), "\n")
	head := strings.Join(lines[:65], "") + // to "restoring data for table DOCS"
		"gbak:    0.300  0.186      0      0    150 records restored\n" +
		"gbak:    0.567  0.267      0      0    200 records restored\n" +
		"gbak:    0.569  0.002      0      0 restoring data for table STOCK\n" +
		"gbak:    1.183  0.614      0      0    150 records restored\n" +
		"gbak:    1.846  0.662      0      0    300 records restored\n" +
		"gbak:    2.502  0.656      0      0    450 records restored\n"
	log, err := parse.ReadGbak(strings.NewReader(head), "verbint150.log")
	if err != nil {
		t.Fatal(err)
	}
	tl := GbakTimeline(log)
	if st := findTable(t, tl, "STOCK"); !st.LowerBound || !nearMs(st.Seconds, 1.933) {
		t.Errorf("STOCK %v s, lower bound %v; want 1.933, true", derefF(st.Seconds), st.LowerBound)
	}
	if d := findTable(t, tl, "DOCS"); d.LowerBound || !is(d.Records, 200) {
		t.Errorf("DOCS %+v", d)
	}
}

// An excerpt with lines missing inside a table ("# . . ." between STOCK's
// start and its "30000 records restored"), cut inside ORDER_LINE at
// "80000 records restored": STOCK's first two counts shown, 30000 and
// 40000, were taken for the progress interval, so 80000, no multiple of
// it, read as ORDER_LINE's last count: the table done in 4.797 s, no
// bound, no cut-short warning. The interval is read only from counts
// with no line missing before them (ORDER_LINE's 10000 here).
func TestGbakCutIntervalNotAfterMissingLines(t *testing.T) {
	lines := strings.SplitAfter(string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")), "\n")
	text := strings.Join(lines[:68], "") + "# . . .\n" + strings.Join(lines[70:85], "")
	log, err := parse.ReadGbak(strings.NewReader(text), "excerpt.log")
	if err != nil {
		t.Fatal(err)
	}
	tl := GbakTimeline(log)
	if ol := findTable(t, tl, "ORDER_LINE"); !ol.LowerBound || !is(ol.Records, 80000) || !nearMs(ol.Seconds, 4.797) {
		t.Errorf("ORDER_LINE = %+v", ol)
	}
	if i := slices.IndexFunc(tl.Steps, func(s GbakStep) bool { return s.Label() == "data ORDER_LINE" }); i < 0 || !tl.Steps[i].LowerBound {
		t.Errorf("the data ORDER_LINE step (at %d) is no lower bound", i)
	}
}
