package analyze

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The judgements the outputs used to make themselves (issue 14): whether
// a rate per day is shown, which fit is the best, the change relative to
// the first snapshot, how a run without an execution time is dated.

// The fb30 pair is 278 s apart: under history-rate.min_span (an hour),
// so no rate per day is shown, in the diff or in the trend; the JSON keeps
// the figures. testdata/growth spans 0:39:29 as well; its snapshots a day
// apart (growingShop) span 3 days.
func TestPerDayReliable(t *testing.T) {
	a := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	b := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	d := Diff(a, b)
	if d.PerDayReliable || *d.SecondsBetween != 278 || tableDiff(t, d, "ORDERS").SizeBytesPerDay == nil {
		t.Errorf("diff per_day_reliable %v over %v s, ORDERS per day %v", d.PerDayReliable, *d.SecondsBetween, tableDiff(t, d, "ORDERS").SizeBytesPerDay)
	}
	tr := TrendOf([]*HistorySnapshot{a, b}, 0)
	if tr.Database.PerDayReliable || tr.Database.SpanDays*86400 != 278 || tr.Database.BytesPerDay == nil || tr.Transactions.PerDayReliable {
		t.Errorf("trend database reliable %v span %v s per day %v; transactions reliable %v",
			tr.Database.PerDayReliable, tr.Database.SpanDays*86400, tr.Database.BytesPerDay, tr.Transactions.PerDayReliable)
	}
	grow := TrendOf(growthSnapshots(t), 0)
	if grow.Database.PerDayReliable || math.Round(grow.Database.SpanDays*86400) != 2369 {
		t.Errorf("growth: reliable %v over %v s", grow.Database.PerDayReliable, grow.Database.SpanDays*86400)
	}
	var snaps []*HistorySnapshot
	for i, pages := range []int64{808, 908, 1008, 1108} {
		snaps = append(snaps, snapshotText(t, "day"+string(rune('0'+i)), growingShop(t, i, pages)))
	}
	days := TrendOf(snaps, 0)
	orders := days.Tables[0]
	if orders.Name != "ORDERS" || !orders.PerDayReliable || orders.SpanDays != 3 || !days.Database.PerDayReliable || !days.Transactions.PerDayReliable {
		t.Errorf("daily: %s reliable %v span %v; database %v; transactions %v", orders.Name, orders.PerDayReliable, orders.SpanDays,
			days.Database.PerDayReliable, days.Transactions.PerDayReliable)
	}
	if d := Diff(snaps[0], snaps[3]); !d.PerDayReliable {
		t.Errorf("diff over 3 days: per_day_reliable false")
	}
}

// BestFit is the model Best names: the line for the daily ORDERS (R² 1),
// the exponential fit where sizes grow by half a day, the line through 2
// sizes where Best is null, nil without a fit.
func TestBestFit(t *testing.T) {
	var lin, exp []*HistorySnapshot
	for i, pages := range []int64{808, 908, 1008, 1108} {
		lin = append(lin, snapshotText(t, "lin", growingShop(t, i, pages)))
	}
	for i, pages := range []int64{800, 1200, 1800, 2700} {
		exp = append(exp, snapshotText(t, "exp", growingShop(t, i, pages)))
	}
	if g := TrendOf(lin, 0).Tables[0]; g.BestFit() != g.Linear || *g.Best != ModelLinear {
		t.Errorf("linear growth: best %v", *g.Best)
	}
	if g := TrendOf(exp, 0).Tables[0]; g.Name != "ORDERS" || g.BestFit() != g.Exponential || *g.Best != ModelExponential {
		t.Errorf("%s growing by half a day: best %v", g.Name, *g.Best)
	}
	two := TrendOf(lin[:2], 0).Tables[0]
	if two.Best != nil || two.BestFit() != two.Linear || two.Linear.R2 != nil {
		t.Errorf("two sizes: best %v, fit %+v", two.Best, two.BestFit())
	}
	if g := (&GrowthTrend{}); g.BestFit() != nil {
		t.Errorf("no fit: %+v", g.BestFit())
	}
}

// Relative takes the first snapshot as the baseline: ORDERS lost 40 of
// its 808 data pages in the fb30 pair, −4.95 %.
func TestPairRelative(t *testing.T) {
	d := Diff(snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")),
		snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")))
	o := tableDiff(t, d, "ORDERS")
	if r := o.DataPages.Relative(); r == nil || math.Abs(*r-(768.0-808)/808) > 1e-15 {
		t.Errorf("ORDERS data pages relative change %v", r)
	}
	// Back versions 5000 -> 0: −100 %; from 0 there is no relative change.
	if r := o.Versions.Relative(); r == nil || *r != -1 {
		t.Errorf("ORDERS versions relative change %v", r)
	}
	if r := (Pair{ptr(int64(0)), ptr(int64(5))}).Relative(); r != nil {
		t.Errorf("change from 0: %v, want null", *r)
	}
	if r := (Pair{nil, ptr(int64(5))}).Relative(); r != nil {
		t.Errorf("change from unknown: %v, want null", *r)
	}
}

// A run without an execution time is dated by its file's modification
// time when the caller has one, and stays undated otherwise; a run with
// one keeps it. The analysis given is used, not made again.
func TestNewHistorySnapshotDating(t *testing.T) {
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	cut := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:14:32 2026\n", "", 1)
	reps, err := parse.ReadGstat(strings.NewReader(cut), "later-no-time.txt")
	if err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 12, 3, 15, 9, 54, 0, time.FixedZone("CET", 3600))
	s := NewHistorySnapshot(reps[0], SnapshotOptions{FileTime: mtime})
	if s.Time == nil || !s.Time.Equal(mtime) || s.Time.Location() != time.UTC || !s.DatedByFile() || s.Analysis == nil {
		t.Errorf("file-dated snapshot %v %q", s.Time, s.TimeSource)
	}
	if s := NewHistorySnapshot(reps[0], SnapshotOptions{}); s.Time != nil || s.TimeSource != "" {
		t.Errorf("undated snapshot %v %q", s.Time, s.TimeSource)
	}
	full, err := parse.ReadGstat(strings.NewReader(string(raw)), "later.txt")
	if err != nil {
		t.Fatal(err)
	}
	a := Gstat(full[0], NewThresholds())
	s = NewHistorySnapshot(full[0], SnapshotOptions{Analysis: a, FileTime: mtime})
	want := time.Date(2026, 12, 2, 14, 14, 32, 0, time.UTC)
	if s.Analysis != a || s.Time == nil || !s.Time.Equal(want) || s.TimeSource != TimeFromExecution || s.DatedByFile() {
		t.Errorf("dated snapshot %v %q", s.Time, s.TimeSource)
	}
}
