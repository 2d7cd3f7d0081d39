package analyze

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// GrowingShop returns the real `gstat -a -r` output of corpus/fb30 with
// two edits, so that a series of snapshots grows in a known way: the
// execution time moved to start + day days, and ORDERS' data pages set
// to pages (its records to 124 per page, the real sample's ratio).
// Everything else is the real output, so the other tables are constant.
func growingShop(t testing.TB, day int, pages int64) string {
	t.Helper()
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	start := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)
	when := start.AddDate(0, 0, day).Format("Mon Jan _2 15:04:05 2006")
	s := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026", "Gstat execution time "+when, 1)
	s = strings.Replace(s, "Data pages: 808, average fill: 67%", fmt.Sprintf("Data pages: %d, average fill: 67%%", pages), 1)
	s = strings.Replace(s, "total records: 100000", fmt.Sprintf("total records: %d", pages*124), 1)
	return s
}

func shopSeries(t *testing.T, pages ...int64) []*HistorySnapshot {
	var snaps []*HistorySnapshot
	// Given newest first on purpose: the trend orders by execution time.
	for day := len(pages) - 1; day >= 0; day-- {
		snaps = append(snaps, snapshotText(t, fmt.Sprintf("day%d.txt", day), growingShop(t, day, pages[day])))
	}
	return snaps
}

func trendTable(t *testing.T, tr *Trend, name string) GrowthTrend {
	t.Helper()
	for _, g := range tr.Tables {
		if g.Name == name {
			return g
		}
	}
	t.Fatalf("table %s not in the trend", name)
	return GrowthTrend{}
}

// ORDERS grows by about 100 data pages (819 200 bytes) a day over 4 daily
// snapshots, with a few pages of noise; nothing else changes. The
// database (tables + indices) crosses base + 1000 pages after 10 days on
// the exact line.
func TestTrendLinearForecast(t *testing.T) {
	snaps := shopSeries(t, 808, 906, 1010, 1107)
	base := *snapshotText(t, "base", growingShop(t, 0, 808)).SizeBytes()
	target := base + 1000*8192
	tr := TrendOf(snaps, target)

	if len(tr.Snapshots) != 4 || tr.Snapshots[0].File != "day0.txt" || tr.Days != 3 {
		t.Fatalf("snapshots %d, first %s, days %v", len(tr.Snapshots), tr.Snapshots[0].File, tr.Days)
	}
	// Least squares on pages (808, 906, 1010, 1107) over days 0..3:
	// slope 100.1 pages/day, intercept 807.6. With this noise the line
	// fits better than the exponential (R² 0.99983 vs 0.99977; other
	// noise, such as 910 and 1005 on days 1 and 2, tips it the other way).
	db := tr.Database
	if db.Linear == nil || math.Abs(db.Linear.Slope-100.1*8192) > 1e-3 {
		t.Fatalf("database linear fit %+v, want slope %v", db.Linear, 100.1*8192)
	}
	if db.Best == nil || *db.Best != ModelLinear {
		t.Errorf("best model %v, want linear", db.Best)
	}
	if db.Linear.R2 == nil || *db.Linear.R2 < 0.999 || *db.Linear.R2 > 1 {
		t.Errorf("linear R2 %v", derefF(db.Linear.R2))
	}
	if db.SizeChange == nil || *db.SizeChange != 299*8192 {
		t.Errorf("size change %v, want %d", db.SizeChange, 299*8192)
	}
	// The line crosses 7 days after the last snapshot, 2.3 times the 3
	// days observed (issue 13): the date is computed, and called
	// unreliable.
	fc := db.Forecast
	if fc == nil || fc.Status != ForecastUnreliable || fc.Date == nil || fc.SpanMultiple == nil || math.Abs(*fc.SpanMultiple-7.0/3) > 0.01 ||
		fc.Reason != "the linear fit reaches the target 6d 23:51:22 after the last snapshot, 2.3× the 3d 0:00:00 the snapshots span; "+
			"fbdiag forecasts no further ahead than 1× the span" {
		t.Fatalf("forecast %+v", fc)
	}
	want := time.Date(2026, 12, 12, 14, 9, 54, 0, time.UTC)
	if d := fc.Date.Sub(want); d > 24*time.Hour || d < -24*time.Hour {
		t.Errorf("forecast %s, want within a day of %s", fc.Date, want)
	}
	// The fitted line crosses at (1000 + 808 − 807.6)/100.1 days.
	exact := (1000 + 808 - 807.6) / 100.1
	if got := fc.Date.Sub(snaps[3].Analysis.Header.ExecutionTime.UTC()).Hours() / 24; math.Abs(got-exact) > 1e-6 {
		t.Errorf("forecast at day %v, want %v", got, exact)
	}
	if fc.Earliest == nil || fc.Latest == nil || !fc.Earliest.Before(want) || !fc.Latest.After(want) {
		t.Errorf("interval %v – %v does not hold %s", fc.Earliest, fc.Latest, want)
	}
	// The exponential model, not chosen, reaches the target sooner.
	if o := db.OtherForecast; o == nil || o.Model == nil || *o.Model != ModelExponential || o.Date == nil || !o.Date.Before(*fc.Date) {
		t.Errorf("other forecast %+v", o)
	}
	if fc.Latest.Sub(*fc.Earliest) > 5*24*time.Hour {
		t.Errorf("interval %v – %v wider than 5 days for a 2-page noise", fc.Earliest, fc.Latest)
	}

	orders := trendTable(t, tr, "ORDERS")
	if tr.Tables[0].Name != "ORDERS" || !orders.Fastest {
		t.Errorf("fastest table %s (fastest=%v), want ORDERS", tr.Tables[0].Name, orders.Fastest)
	}
	if r := orders.BytesPerDay; r == nil || math.Abs(*r-100.1*8192) > 1e-3 {
		t.Errorf("ORDERS bytes/day %v", r)
	}
	if p := orders.Points[3]; p.Records == nil || *p.Records != 1107*124 {
		t.Errorf("ORDERS records on day 3 %v", p.Records)
	}
	cust := trendTable(t, tr, "CUSTOMER")
	if cust.Fastest || cust.BytesPerDay == nil || *cust.BytesPerDay != 0 {
		t.Errorf("CUSTOMER fastest=%v bytes/day %v, want constant", cust.Fastest, cust.BytesPerDay)
	}
	if cust.Forecast == nil || cust.Forecast.Status != ForecastNotGrowing {
		t.Errorf("CUSTOMER forecast %+v, want not_growing", cust.Forecast)
	}
}

// Exact linear growth: the interval closes on the date.
func TestTrendExactLine(t *testing.T) {
	tr := TrendOf(shopSeries(t, 808, 908, 1008), 1808*8192)
	fc := trendTable(t, tr, "ORDERS").Forecast
	// 808 + 100·d = 1808 pages on day 10.
	want := time.Date(2026, 12, 12, 14, 9, 54, 0, time.UTC)
	if fc == nil || fc.Date == nil || !fc.Date.Equal(want) {
		t.Fatalf("forecast %+v, want %s", fc, want)
	}
	if fc.Earliest == nil || !fc.Earliest.Equal(want) || fc.Latest == nil || !fc.Latest.Equal(want) {
		t.Errorf("interval %v – %v, want %s both", fc.Earliest, fc.Latest, want)
	}
	if fc.DaysAfterLast == nil || math.Abs(*fc.DaysAfterLast-8) > 1e-9 {
		t.Errorf("days after last %v, want 8", fc.DaysAfterLast)
	}
}

// ORDERS grows by half every day: the exponential model wins and the
// forecast follows it (808·1.5^d = 808·1.5^6 pages on day 6).
func TestTrendExponential(t *testing.T) {
	tr := TrendOf(shopSeries(t, 808, 1212, 1818, 2727), 9203*8192)
	o := trendTable(t, tr, "ORDERS")
	if o.Best == nil || *o.Best != ModelExponential {
		t.Fatalf("best %v (linear R2 %v, exponential %+v)", o.Best, derefF(o.Linear.R2), o.Exponential)
	}
	if d := o.Exponential.DoublingDays; d == nil || math.Abs(*d-math.Ln2/math.Log(1.5)) > 0.01 {
		t.Errorf("doubling days %v, want %.3f", d, math.Ln2/math.Log(1.5))
	}
	want := time.Date(2026, 12, 8, 14, 9, 54, 0, time.UTC)
	if fc := o.Forecast; fc == nil || fc.Date == nil || fc.Date.Sub(want).Abs() > 24*time.Hour {
		t.Errorf("forecast %+v, want within a day of %s", fc, want)
	}
}

func TestTrendReachedAndSkipped(t *testing.T) {
	snaps := shopSeries(t, 808, 908)
	// A header-only excerpt with no execution time cannot be placed.
	noTime := snapshotText(t, "notime.txt", "Database header page information:\n\tPage size\t\t8192\n\tNext transaction\t5\n")
	tr := TrendOf(append(snaps, noTime), 808*8192)
	if len(tr.Skipped) != 1 || !strings.HasPrefix(tr.Skipped[0], "notime.txt") {
		t.Errorf("skipped %q", tr.Skipped)
	}
	o := trendTable(t, tr, "ORDERS")
	if o.Forecast.Status != ForecastReached || !o.Forecast.Date.Equal(time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)) {
		t.Errorf("ORDERS forecast %+v, want reached on the first snapshot", o.Forecast)
	}
	// Two sizes: a line, but no model choice and no interval.
	if o.Best != nil || o.Linear == nil || o.Linear.Slope != 100*8192 {
		t.Errorf("best %v linear %+v", o.Best, o.Linear)
	}
	if one := TrendOf(snaps[:1], 0); len(one.Warnings) != 1 || one.Database.Linear != nil {
		t.Errorf("one snapshot: warnings %q, fit %+v", one.Warnings, one.Database.Linear)
	}
}

// Snapshots of two databases in one folder: the trend is computed but
// warns, naming both paths.
func TestTrendTwoDatabases(t *testing.T) {
	other := strings.Replace(growingShop(t, 1, 908), `Database "/var/lib/firebird/data/shop.fdb"`, `Database "/var/lib/firebird/data/shop-copy.fdb"`, 1)
	tr := TrendOf([]*HistorySnapshot{snapshotText(t, "a", growingShop(t, 0, 808)), snapshotText(t, "b", other)}, 0)
	want := "snapshots of 2 database paths (/var/lib/firebird/data/shop.fdb, /var/lib/firebird/data/shop-copy.fdb): a trend needs one database"
	if len(tr.Warnings) != 1 || tr.Warnings[0] != want {
		t.Errorf("warnings %q", tr.Warnings)
	}
}

// Next transaction edited to 18, 1018, 2018, 3018 on days 0..3 with the
// real OAT 17 left as it is: 1000 transactions a day, and an oldest
// active transaction open since day 0. Then a restore (Next back to 5
// on day 4, OAT 4) resets both.
func TestTrendTransactions(t *testing.T) {
	var snaps []*HistorySnapshot
	for day, next := range []int{18, 1018, 2018, 3018} {
		text := strings.Replace(growingShop(t, day, 808), "\tNext transaction\t18", fmt.Sprintf("\tNext transaction\t%d", next), 1)
		snaps = append(snaps, snapshotText(t, fmt.Sprintf("day%d", day), text))
	}
	tr := TrendOf(snaps, 0)
	tt := tr.Transactions
	if tt.PerDay == nil || math.Abs(*tt.PerDay-1000) > 1e-9 || tt.Restores != 0 {
		t.Errorf("per day %v, restores %d", tt.PerDay, tt.Restores)
	}
	if !eqInt(tt.StuckOldestActive, 17) || tt.StuckSince == nil || !tt.StuckSince.Equal(time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)) {
		t.Errorf("stuck %v since %v", tt.StuckOldestActive, tt.StuckSince)
	}
	want := "the oldest active transaction (17) has not moved since 2026-12-02 14:09:54 (3d 0:00:00) while 3000 transactions started: " +
		"it has been open all that time and holds back garbage collection"
	if len(tr.Warnings) != 1 || tr.Warnings[0] != want {
		t.Errorf("warnings %q", tr.Warnings)
	}

	restored := strings.NewReplacer("\tNext transaction\t18", "\tNext transaction\t5", "\tOldest active\t\t17", "\tOldest active\t\t4").
		Replace(growingShop(t, 4, 808))
	tr = TrendOf(append(snaps, snapshotText(t, "day4", restored)), 0)
	want = "between 2026-12-05 14:09:54 and 2026-12-06 14:09:54: Next transaction went back from 3018 to 5: " +
		"the database was restored (or replaced); transactions are counted from the later snapshot on"
	if tt := tr.Transactions; tt.Restores != 1 || tt.PerDay != nil || tt.StuckOldestActive != nil || !slices.Equal(tr.Warnings, []string{want}) {
		t.Errorf("after a restore: restores %d, per day %v, stuck %v, warnings %q", tt.Restores, tt.PerDay, tt.StuckOldestActive, tr.Warnings)
	}
}

func eqInt(p *int64, v int64) bool { return p != nil && *p == v }

// The bounds of the inverse prediction are where the target sits exactly
// on the edge of the 95 % prediction interval (Student t with n − 2 = 2
// degrees of freedom: q = 4.302653). Data: the ORDERS pages of
// TestTrendLinearForecast.
func TestInversePredictionBounds(t *testing.T) {
	xs := []float64{0, 1, 2, 3}
	zs := []float64{808, 906, 1010, 1107}
	a, b := 807.6, 100.1
	z0 := 1808.0
	lo, hi, ok := inversePrediction(xs, zs, a, b, z0)
	if !ok {
		t.Fatal("no interval")
	}
	// Residuals 0.4, −1.7, 2.2, −0.9: SSE 8.7, s² = 4.35; Sxx = 5.
	const q, s2, sxx, n, xbar = 4.302653, 4.35, 5.0, 4.0, 1.5
	edge := func(x float64) float64 {
		return math.Abs(a+b*x-z0) - q*math.Sqrt(s2*(1+1/n+(x-xbar)*(x-xbar)/sxx))
	}
	for _, x := range []float64{lo, hi} {
		if math.Abs(edge(x)) > 1e-3 {
			t.Errorf("bound %v is %v off the edge", x, edge(x))
		}
	}
	x := (z0 - a) / b
	if !(lo < x && x < hi) || edge(x) >= 0 {
		t.Errorf("crossing %v outside [%v, %v]", x, lo, hi)
	}
	// At day 10 the half-width is q·s·√(1 + 1/4 + 8.5²/5) ≈ 35.5 pages,
	// 0.355 day at 100 pages a day: about 0.71 day in all.
	if hi-lo < 0.65 || hi-lo > 0.77 {
		t.Errorf("interval width %v days", hi-lo)
	}
}

// A real series (testdata/history-restore, Firebird 3.0.11): transaction
// 21 held open over two snapshots, then the database restored onto the
// same path. The trend dropped its rate a day and fitted the sizes across
// the restore without a word of it; it now says where the restore lies.
func TestTrendRestoreSaid(t *testing.T) {
	var snaps []*HistorySnapshot
	for _, f := range []string{"live-00-a-r.txt", "live-01-held-a-r.txt", "live-02-held-a-r.txt", "live-03-restored-a-r.txt"} {
		snaps = append(snaps, snapshotFile(t, testutil.Testdata(t, "history-restore", f)))
	}
	tr := TrendOf(snaps[:3], 0)
	tt := tr.Transactions
	if tt.Restores != 0 || !eqInt(tt.StuckOldestActive, 21) || tt.StuckSince == nil || !tt.StuckSince.Equal(time.Date(2026, 12, 6, 17, 10, 11, 0, time.UTC)) {
		t.Errorf("held: restores %d, stuck %v since %v", tt.Restores, tt.StuckOldestActive, tt.StuckSince)
	}
	// Next 9 → 203 over 17:09:38 → 17:14:46 (308 s).
	if tt.PerDay == nil || math.Abs(tt.Days*86400-308) > 1e-6 {
		t.Errorf("held: a day %v over %v s", tt.PerDay, tt.Days*86400)
	}
	want := []string{"the oldest active transaction (21) has not moved since 2026-12-06 17:10:11 (0:04:35) while 61 transactions started: " +
		"it has been open all that time and holds back garbage collection"}
	if !slices.Equal(tr.Warnings, want) {
		t.Errorf("held: warnings %q, want %q", tr.Warnings, want)
	}

	tr = TrendOf(snaps, 0)
	tt = tr.Transactions
	if tt.Restores != 1 || tt.PerDay != nil || tt.StuckOldestActive != nil {
		t.Errorf("restored: restores %d, a day %v, stuck %v", tt.Restores, tt.PerDay, tt.StuckOldestActive)
	}
	want = []string{"between 2026-12-06 17:14:46 and 2026-12-06 17:14:51: the creation date changed from 2026-12-06 17:09:36 to " +
		"2026-12-06 17:14:49: the database was restored (or replaced); transactions are counted from the later snapshot on"}
	if !slices.Equal(tr.Warnings, want) {
		t.Errorf("restored: warnings %q, want %q", tr.Warnings, want)
	}
}

// Firebird 3.0 and 4.0 header pages (public hqbirdmcp samples): a trend
// over them named the two paths but not the two versions.
func TestTrendODSChangeSaid(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
	tr := TrendOf([]*HistorySnapshot{snapshotFile(t, filepath.Join(dir, "alexeykovyazin-hqbirdmcp__gstat-header-fb4.0.txt")),
		snapshotFile(t, filepath.Join(dir, "alexeykovyazin-hqbirdmcp__gstat-header-fb3.0.txt"))}, 0)
	want := "from 2026-08-16 23:04:30: ODS 12.0 → 13.0 (Firebird 3.0 → 4.0): another Firebird version, or an upgrade in between"
	if !slices.Contains(tr.Warnings, want) {
		t.Errorf("warnings %q, want %q", tr.Warnings, want)
	}
}
