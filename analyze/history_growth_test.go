package analyze

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// growthSnapshots reads testdata/growth: a database growing for 40
// minutes, gstat -a -r every 10 minutes, one -d and one -h between.
func growthSnapshots(t *testing.T, names ...string) []*HistorySnapshot {
	t.Helper()
	if len(names) == 0 {
		names = []string{"grow-00-a-r.txt", "grow-10-a-r.txt", "grow-15-d.txt", "grow-20-a-r.txt", "grow-20-h.txt", "grow-30-a-r.txt", "grow-40-a-r.txt"}
	}
	var out []*HistorySnapshot
	for _, n := range names {
		out = append(out, snapshotFile(t, testutil.Testdata(t, "growth", n)))
	}
	return out
}

// Issue 13, like with like: the -d run (no indices: 7.4 MiB between 8.7
// and 10.7) and the -h run (no size) are left out of the size series, with
// the reason; the five -a -r runs make it.
func TestTrendLeavesOutOtherSwitches(t *testing.T) {
	tr := TrendOf(growthSnapshots(t), 0)
	var left []string
	for _, l := range tr.LeftOut {
		left = append(left, filepath.Base(l.File)+": "+l.Reason)
	}
	want := []string{
		"grow-15-d.txt: no index statistics (gstat -d): its size counts the tables only",
		"grow-20-h.txt: no table statistics (gstat -h or -e): no size",
	}
	if !slices.Equal(left, want) {
		t.Errorf("left out %q", left)
	}
	var sizes []any
	for _, p := range tr.Database.Points {
		if p.SizeBytes == nil {
			sizes = append(sizes, nil)
		} else {
			sizes = append(sizes, *p.SizeBytes)
		}
	}
	if want := []any{int64(7036928), int64(9084928), nil, int64(11214848), nil, int64(13352960), int64(15450112)}; !slices.Equal(sizes, want) {
		t.Errorf("database sizes %v, want %v", sizes, want)
	}
	// The -d run still counts for the transaction counters.
	if p := tr.Transactions.Points[2]; p.NextTransaction == nil || *p.NextTransaction != 30 {
		t.Errorf("counters of the -d run %+v", p)
	}
	orders := trendTable(t, tr, "ORDERS")
	if orders.Points[2].SizeBytes != nil || orders.Linear == nil || orders.Linear.N != 5 {
		t.Errorf("ORDERS %+v", orders)
	}
	// The line fits the five comparable sizes: R² 0.99986.
	if db := tr.Database; db.Linear == nil || db.Linear.N != 5 || math.Abs(*db.Linear.R2-0.99986) > 0.00001 {
		t.Errorf("database fit %+v", db.Linear)
	}
}

// Issue 13, forecasts: five sizes over 39 min 28 s reach 1 GiB 3.4 days
// after the last by the line: 125 times the span, unreliable. 16 MiB, 6
// minutes after the last (0.16 times the span), is a forecast. The first
// and the last snapshot alone are a line through two points: refused,
// without R².
func TestTrendForecastLimits(t *testing.T) {
	fc := TrendOf(growthSnapshots(t), 1<<30).Database.Forecast
	if fc.Status != ForecastUnreliable || fc.Date == nil || *fc.Model != ModelLinear || math.Abs(*fc.SpanMultiple-125.19) > 0.01 ||
		fc.Reason != "the linear fit reaches the target 3d 10:22:51 after the last snapshot, 125× the 0:39:29 the snapshots span; "+
			"fbdiag forecasts no further ahead than 1× the span" {
		t.Errorf("1 GiB: %+v", fc)
	}
	fc = TrendOf(growthSnapshots(t), 16<<20).Database.Forecast
	want := time.Date(2026, 12, 3, 11, 0, 56, 0, time.UTC)
	if fc.Status != ForecastDate || fc.Reason != "" || fc.Date.Sub(want).Abs() > time.Second || math.Abs(*fc.SpanMultiple-0.156) > 0.001 ||
		fc.Earliest == nil || fc.Latest == nil || !fc.Earliest.Before(*fc.Date) || !fc.Latest.After(*fc.Date) {
		t.Errorf("16 MiB: %+v", fc)
	}
	tr := TrendOf(growthSnapshots(t, "grow-00-a-r.txt", "grow-40-a-r.txt"), 1<<30)
	fc = tr.Database.Forecast
	if fc.Status != ForecastRefused || fc.Date != nil || fc.DaysAfterLast != nil || fc.Earliest != nil ||
		fc.Reason != "2 sizes: a line through 2 points fits them exactly and has no error estimate; a forecast needs 3 comparable snapshots or more" {
		t.Errorf("2 sizes: %+v", fc)
	}
	if l := tr.Database.Linear; l == nil || l.R2 != nil || l.N != 2 {
		t.Errorf("2-size line %+v", l)
	}
}

// Issue 13: Firebird 6 computes the average fill over the pages holding
// data only (firebird#8816), so fill figures across an upgrade do not
// compare: the diff says so and the trend marks the break. The FB6
// snapshot is testdata/gstat/shop-fb6-names.txt, the real -a -r output
// with 6.0's header and schema-qualified names; its tables, now in
// PUBLIC, are matched with the 3.0 ones.
func TestFillBreakAcrossFirebird6(t *testing.T) {
	ar := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	fb6 := snapshotFile(t, testutil.Testdata(t, "gstat", "shop-fb6-names.txt"))
	d := Diff(ar, fb6)
	reason := "average fill: ODS 12.0 and 14.0 snapshots do not compare: Firebird 6 (ODS 14) computes it over " +
		"the pages holding data only and counts record alignment (firebird#8816)"
	if d.FillComparable || !slices.Contains(d.Warnings, reason) {
		t.Errorf("fill comparable %v, warnings %q", d.FillComparable, d.Warnings)
	}
	c := tableDiff(t, d, "CUSTOMER")
	if c.Status != StatusUnchanged || c.AverageFill[0] == nil || *c.AverageFill[0] != 84 || *c.AverageFill[1] != 84 {
		t.Errorf("CUSTOMER %+v", c)
	}
	if added, _ := d.Count(StatusAdded); added != 0 {
		t.Errorf("%d tables added: schemas not matched", added)
	}
	if same := Diff(ar, snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))); !same.FillComparable {
		t.Error("3.0 pair: fill not comparable")
	}

	// A day later in time, the FB6 snapshot follows the fb30 pair.
	raw := testutil.ReadTestdata(t, "gstat", "shop-fb6-names.txt")
	later := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026", "Gstat execution time Thu Dec  3 14:09:54 2026", 1)
	tr := TrendOf([]*HistorySnapshot{ar, snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")), snapshotText(t, "fb6.txt", later)}, 0)
	want := TrendBreak{Time: time.Date(2026, 12, 3, 14, 9, 54, 0, time.UTC), Before: "12.0", After: "14.0", Fields: []string{"average_fill"}, Reason: reason}
	if len(tr.Breaks) != 1 || !reflect.DeepEqual(tr.Breaks[0], want) || !slices.Contains(tr.Warnings, "from 2026-12-03 14:09:54: "+reason) {
		t.Errorf("breaks %+v warnings %q", tr.Breaks, tr.Warnings)
	}
	cust := trendTable(t, tr, "CUSTOMER")
	if p := cust.Points[2]; p.AverageFill == nil || *p.AverageFill != 84 || p.SizeBytes == nil {
		t.Errorf("CUSTOMER in 6.0 %+v", p)
	}
}

// One run given twice (the same file named twice, or a copy of the
// latest run beside the others) made grow-00 and grow-40 three points: a
// line through 2 sizes read as a fit with R² 1.0000 and a forecast of
// 16 MiB "at 11:01:00, earliest and latest 11:01:00", which 2 snapshots
// refuse. The run is counted once and named in skipped.
func TestTrendSameRunCountedOnce(t *testing.T) {
	first, last := testutil.Testdata(t, "growth", "grow-00-a-r.txt"), testutil.Testdata(t, "growth", "grow-40-a-r.txt")
	copied := snapshotFile(t, last)
	copied.Analysis.File = "latest.txt"
	for _, c := range []struct {
		name string
		snap *HistorySnapshot
		from string
	}{
		{"same file", snapshotFile(t, last), last},
		{"copy", copied, "latest.txt"}, // (the last given is kept)
	} {
		tr := TrendOf([]*HistorySnapshot{snapshotFile(t, first), snapshotFile(t, last), c.snap}, 16<<20)
		db := tr.Database
		if len(tr.Snapshots) != 2 || db.Linear == nil || db.Linear.N != 2 || db.Linear.R2 != nil ||
			db.Forecast == nil || db.Forecast.Status != ForecastRefused {
			t.Errorf("%s: %d snapshots, fit %+v, forecast %+v", c.name, len(tr.Snapshots), db.Linear, db.Forecast)
		}
		want := last + ": the same gstat run as " + c.from + ", counted once"
		if len(tr.Skipped) != 1 || tr.Skipped[0] != want {
			t.Errorf("%s: skipped %q, want %q", c.name, tr.Skipped, want)
		}
		if tt := tr.Transactions; tt.PerDay == nil || math.Abs(*tt.PerDay-(47-20)/(2369.0/86400)) > 1e-6 {
			t.Errorf("%s: transactions a day %v", c.name, tt.PerDay)
		}
	}
}
