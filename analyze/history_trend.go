package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/internal/units"
)

// Trend is the growth of a database and its tables over a series of
// snapshots ordered by time. Its JSON form is documented in
// docs/gstat-history-json.md.
type Trend struct {
	Snapshots []SnapshotInfo `json:"snapshots"`
	// Days is the span from the first to the last snapshot.
	Days float64 `json:"days"`
	// UntilBytes is the size forecasts aim at (--until); null when none.
	UntilBytes *int64 `json:"until_bytes"`
	// Database is the size of all tables plus their indices.
	Database GrowthTrend `json:"database"`
	// Tables are ordered fastest growing first (bytes per day of the
	// linear fit), unknown growth last.
	Tables []GrowthTrend `json:"tables"`
	// Transactions follows the header counters.
	Transactions TransactionTrend `json:"transactions"`
	// Skipped names the snapshots left out: no time to place them, or
	// a run given already (counted once).
	Skipped []string `json:"skipped"`
	// Breaks mark where figures stop comparing: a Firebird 6 upgrade
	// changes how the average fill is computed.
	Breaks []TrendBreak `json:"breaks"`
	// LeftOut lists the dated snapshots left out of the size series
	// (database and tables) because their sizes add up other things:
	// another gstat switch, other tables. They still count for the
	// transaction counters.
	LeftOut []LeftOut `json:"left_out"`
	// Warnings: fewer than 2 dated snapshots, equal times, several
	// database paths, a stuck oldest active transaction.
	Warnings []string `json:"warnings"`
}

// TransactionTrend is the header transaction counters over time.
type TransactionTrend struct {
	Points []CounterPoint `json:"points"`
	// PerDay is the least-squares slope of Next transaction over days,
	// fitted on the snapshots since the last restore; Days is the span
	// of those snapshots (a rate from minutes is no daily rate).
	PerDay *float64 `json:"per_day"`
	Days   float64  `json:"days"`
	// PerDayReliable is true when Days is at least history-rate.min_span:
	// a rate per day from counters minutes apart is not shown.
	PerDayReliable bool `json:"per_day_reliable"`
	// Restores counts the times Next went backwards between two
	// snapshots (a restore or a replaced file resets it).
	Restores int `json:"restores"`
	// StuckOldestActive is the Oldest active transaction when it has had
	// the same number since StuckSince, up to the last snapshot, while
	// Next moved on: a transaction open all that time. Both null when
	// the OAT moved.
	StuckOldestActive *int64     `json:"stuck_oldest_active"`
	StuckSince        *time.Time `json:"stuck_since"`
}

// CounterPoint is the header counters of one snapshot.
type CounterPoint struct {
	Time              time.Time `json:"time"`
	OldestTransaction *int64    `json:"oldest_transaction"`
	OldestActive      *int64    `json:"oldest_active"`
	OldestSnapshot    *int64    `json:"oldest_snapshot"`
	NextTransaction   *int64    `json:"next_transaction"`
}

// transactions fills tr.Transactions from the dated snapshots; only those
// with use set (the trend's database, not another one) count.
func (tr *Trend) transactions(timed []*HistorySnapshot, days []float64, use []bool, th Thresholds) {
	tt := &tr.Transactions
	tt.Points = make([]CounterPoint, len(timed))
	var xs, ys []float64
	var lastNext *int64
	var lastTime time.Time
	// created are the creation dates: a restore makes a new database,
	// dated anew, whose transactions are numbered afresh (as gstat diff
	// counts none across two creation dates). Its Next is usually below
	// the old one's, but not always (a young database restored).
	created := make([]*time.Time, len(timed))
	var lastCreated *time.Time
	for i, s := range timed {
		p := CounterPoint{Time: *s.Time}
		if h := s.Analysis.Header; h != nil {
			p.OldestTransaction, p.OldestActive = h.OldestTransaction, h.OldestActive
			p.OldestSnapshot, p.NextTransaction = h.OldestSnapshot, h.NextTransaction
		}
		tt.Points[i] = p
		created[i] = createdAt(s.Analysis.Header)
		if !use[i] || p.NextTransaction == nil {
			continue
		}
		if lastNext != nil && *p.NextTransaction < *lastNext || differentDates(lastCreated, created[i]) {
			tt.Restores++
			xs, ys = nil, nil
			// (Said, as gstat diff says it: else the rate a day went
			// missing from the text without a word, and the sizes are
			// fitted across a restore that compacted the database.)
			why := fmt.Sprintf("Next transaction went back from %d to %d", *lastNext, *p.NextTransaction)
			if differentDates(lastCreated, created[i]) {
				why = fmt.Sprintf("the creation date changed from %s to %s", lastCreated.Format(time.DateTime), created[i].Format(time.DateTime))
			}
			tr.Warnings = append(tr.Warnings, fmt.Sprintf("between %s and %s: %s: the database was restored (or replaced); "+
				"transactions are counted from the later snapshot on", lastTime.Format(time.DateTime), p.Time.Format(time.DateTime), why))
		}
		lastNext, lastCreated, lastTime = p.NextTransaction, cmp.Or(created[i], lastCreated), p.Time
		xs = append(xs, days[i])
		ys = append(ys, float64(*p.NextTransaction))
	}
	if len(xs) >= 2 && xs[len(xs)-1] > xs[0] {
		tt.PerDay = ptr(fitLinear(xs, ys).Slope)
		tt.Days = xs[len(xs)-1] - xs[0]
		tt.PerDayReliable = tt.Days*86400 >= th.Get("history-rate", "min_span")
	}
	// The last run of snapshots sharing the last OAT.
	var pts []CounterPoint
	var ptsCreated []*time.Time
	for i, p := range tt.Points {
		if use[i] {
			pts, ptsCreated = append(pts, p), append(ptsCreated, created[i])
		}
	}
	n := len(pts)
	if n < 2 {
		return
	}
	last := pts[n-1]
	if last.OldestActive == nil || last.NextTransaction == nil {
		return
	}
	since := n - 1
	for i := n - 2; i >= 0; i-- {
		p := pts[i]
		if p.OldestActive == nil || *p.OldestActive != *last.OldestActive || p.NextTransaction == nil ||
			*p.NextTransaction > *last.NextTransaction || differentDates(ptsCreated[i], ptsCreated[n-1]) {
			break
		}
		since = i
	}
	first := pts[since]
	if since < n-1 && *last.NextTransaction > *first.NextTransaction {
		tt.StuckOldestActive, tt.StuckSince = last.OldestActive, &first.Time
		tr.Warnings = append(tr.Warnings, fmt.Sprintf(
			"the oldest active transaction (%d) has not moved since %s (%s) while %s started: "+
				"it has been open all that time and holds back garbage collection",
			*last.OldestActive, first.Time.Format(time.DateTime), humanSeconds(secondsBetween(last.Time, first.Time)),
			units.Count(*last.NextTransaction-*first.NextTransaction, "transaction")))
	}
}

// RunAgain is a dated snapshot that is run As read again.
type RunAgain struct{ Run, As *HistorySnapshot }

// CountedOnce is snaps less the runs given again (a file named twice, a
// folder and a file in it, a copy of the latest run beside the others),
// the last given of each kept (the one a report shows whole): counted
// twice, 2 sizes made a line read as 3 points, with R² 1 and a 95 %
// interval of zero width, and a diff of the last two compared a run with
// itself. Undated snapshots are all kept.
//
// Only snapshots of one time can be one run: each is compared with the
// runs kept at its time alone (compared with every run kept, 20,000
// header-only runs took 3.7 s to trend instead of 1.0).
func CountedOnce(snaps []*HistorySnapshot) (runs []*HistorySnapshot, again []RunAgain) {
	at := map[int64][]int{} // the runs kept, by time
next:
	for _, s := range snaps {
		if s.Time == nil {
			runs = append(runs, s)
			continue
		}
		t := s.Time.UnixNano()
		for _, i := range at[t] {
			if sameRun(runs[i], s) {
				again = append(again, RunAgain{Run: runs[i], As: s})
				runs[i] = s
				continue next
			}
		}
		at[t] = append(at[t], len(runs))
		runs = append(runs, s)
	}
	return runs, again
}

// sameRun tells whether b is run a read again: the same run of the same
// file, or one of the same database at the same execution time with the
// same header counters, creation date and sizes (a copy).
func sameRun(a, b *HistorySnapshot) bool {
	if a.Time == nil || b.Time == nil || !a.Time.Equal(*b.Time) {
		return false
	}
	if a.Analysis.File == b.Analysis.File && a.Analysis.Report == b.Analysis.Report {
		return true
	}
	if a.TimeSource != TimeFromExecution || b.TimeSource != TimeFromExecution {
		return false
	}
	ha, hb := a.Analysis.Header, b.Analysis.Header
	if ha == nil || hb == nil || ha.Database == nil || hb.Database == nil || *ha.Database != *hb.Database ||
		!equalPtr(ha.NextTransaction, hb.NextTransaction) || !equalPtr(ha.OldestActive, hb.OldestActive) ||
		!equalPtr(ha.OldestTransaction, hb.OldestTransaction) || !equalPtr(ha.OldestSnapshot, hb.OldestSnapshot) ||
		differentDates(ha.CreationDate, hb.CreationDate) || (ha.CreationDate == nil) != (hb.CreationDate == nil) {
		return false
	}
	ia, ib := a.Info(), b.Info()
	ta, tb := a.Analysis.Totals, b.Analysis.Totals
	return equalPtr(ia.SizeBytes, ib.SizeBytes) && equalPtr(ia.IndexBytes, ib.IndexBytes) &&
		equalPtr(ia.Tables, ib.Tables) && equalPtr(ia.Indices, ib.Indices) &&
		equalPtr(ta.Records, tb.Records) && equalPtr(ta.Versions, tb.Versions)
}

// equalPtr tells whether a and b are both nil or both hold one value
// (the builtin constraint comparable is shadowed by func comparable).
func equalPtr[T int | int64](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// differentDates reports whether two creation dates are known and differ.
func differentDates(a, b *time.Time) bool { return a != nil && b != nil && !a.Equal(*b) }

// GrowthTrend is one object (the database or a table) over time.
type GrowthTrend struct {
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	// Points has one entry per snapshot, in snapshot order; values the
	// snapshot lacks (or a table that did not exist yet) are null.
	Points []TrendPoint `json:"points"`
	// SizeChange is last − first known size (null with fewer than 2).
	SizeChange *int64 `json:"size_change"`
	// SpanDays is the time from the first to the last known size: the
	// object's own, since snapshots left out or before the object
	// existed have no size.
	SpanDays float64 `json:"span_days"`
	// BytesPerDay is the slope of the linear fit.
	BytesPerDay *float64 `json:"bytes_per_day"`
	// PerDayReliable is true when SpanDays is at least
	// history-rate.min_span: bytes_per_day and growth_per_day are then
	// shown; from sizes minutes apart they are kept here but not shown.
	PerDayReliable bool `json:"per_day_reliable"`
	// GrowthPerDay is BytesPerDay over the mean size (0.01 = 1 %/day).
	GrowthPerDay *float64   `json:"growth_per_day"`
	Linear       *GrowthFit `json:"linear"`
	Exponential  *GrowthFit `json:"exponential"`
	// Best is the model with the higher R² (linear on a tie): "linear"
	// or "exponential"; null with fewer than 3 sizes.
	Best     *string   `json:"best"`
	Forecast *Forecast `json:"forecast"`
	// OtherForecast is the forecast of the model not named best (null
	// when Best is): how far apart the two dates are says how much the
	// choice of model matters, which the interval of one model does not.
	OtherForecast *Forecast `json:"other_forecast"`
	// Fastest flags the tables growing fastest (the top FastestTables
	// with a positive slope).
	Fastest bool `json:"fastest"`
}

// TrendPoint is an object in one snapshot. AverageFill (tables only, in
// percent) does not compare across a Trend.Breaks entry.
type TrendPoint struct {
	Time        time.Time `json:"time"`
	SizeBytes   *int64    `json:"size_bytes"`
	Records     *int64    `json:"records"`
	Versions    *int64    `json:"versions"`
	AverageFill *int      `json:"average_fill,omitempty"`
}

// GrowthFit is a size-over-time model fitted by least squares, time in
// days since the first snapshot. Linear: size = Intercept + Slope·days.
// Exponential (fitted on ln size): size = Intercept·e^(Slope·days).
type GrowthFit struct {
	Model     string  `json:"model"`
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
	// R2 is computed on sizes (not on their logarithms) for both models,
	// so that the two compare; null with 2 sizes, which any line fits.
	R2 *float64 `json:"r2"`
	// DoublingDays is ln 2 / Slope for a growing exponential fit.
	DoublingDays *float64 `json:"doubling_days"`
	N            int      `json:"n"`
}

// BestFit is the fit the analysis names (Best), or the line when it names
// none (with 2 sizes only a line is fitted); nil without a fit.
func (g *GrowthTrend) BestFit() *GrowthFit {
	if g.Best != nil && *g.Best == ModelExponential {
		return g.Exponential
	}
	return g.Linear
}

// At is the model's size after the given days.
func (f *GrowthFit) At(days float64) float64 {
	if f.Model == ModelExponential {
		return f.Intercept * math.Exp(f.Slope*days)
	}
	return f.Intercept + f.Slope*days
}

// Growth models.
const (
	ModelLinear      = "linear"
	ModelExponential = "exponential"
)

// Forecast states (Forecast.Status).
const (
	ForecastDate       = "forecast"       // Date is when the size is reached
	ForecastReached    = "reached"        // the last snapshot is already there
	ForecastNotGrowing = "not_growing"    // the best fit is flat or shrinking
	ForecastTooFew     = "too_few_sizes"  // fewer than 2 sizes
	ForecastBeyond     = "beyond_horizon" // more than a century away
	// ForecastRefused: fewer sizes than history-forecast.min_sizes; no
	// date is given.
	ForecastRefused = "refused"
	// ForecastUnreliable: the crossing lies further past the last
	// snapshot than history-forecast.max_span_multiple × the span the
	// sizes cover; Date says where the fit crosses, Reason why it is not
	// a forecast.
	ForecastUnreliable = "unreliable"
)

// Forecast is when an object reaches UntilBytes by its best model.
type Forecast struct {
	TargetBytes int64   `json:"target_bytes"`
	Model       *string `json:"model"`
	Status      string  `json:"status"`
	// Date is the crossing; Earliest and Latest bound it with the 95 %
	// prediction interval of the fit (inverse prediction); a perfect
	// fit gives Date for both. Both are null with fewer than 3 sizes or
	// when the growth is not significant at 95 % (the data cannot rule
	// out "never"); Latest alone is null past a century.
	Date     *time.Time `json:"date"`
	Earliest *time.Time `json:"earliest"`
	Latest   *time.Time `json:"latest"`
	// DaysAfterLast is Date − the last snapshot, in days.
	DaysAfterLast *float64 `json:"days_after_last"`
	// SpanMultiple is DaysAfterLast over the days the sizes span: how far
	// the forecast reaches beyond what was observed.
	SpanMultiple *float64 `json:"span_multiple"`
	// Reason says why the status is refused or unreliable.
	Reason string `json:"reason,omitempty"`
}

// FastestTables is how many tables Trend flags as growing fastest.
const FastestTables = 3

// TrendOf orders the snapshots by time and fits growth per table and for
// the whole database. until is the forecast target in bytes (0 = none).
// Snapshots without a time cannot be placed and are skipped.
func TrendOf(snaps []*HistorySnapshot, until int64) *Trend {
	tr := &Trend{Snapshots: []SnapshotInfo{}, Tables: []GrowthTrend{}, Skipped: []string{}, Warnings: []string{}}
	if until > 0 {
		tr.UntilBytes = &until
	}
	var timed []*HistorySnapshot
	for _, s := range snaps {
		if s.Time == nil {
			tr.Skipped = append(tr.Skipped, fmt.Sprintf("%s (report %d): no execution time", s.Analysis.File, s.Analysis.Report))
			continue
		}
		timed = append(timed, s)
	}
	// gstat prints its time to the second: two snapshots of one second
	// (gstat -d and -h run one after the other) are in the order of their
	// Next transaction, which only grows, rather than of the files given
	// (else the later first reads as a restore between them).
	slices.SortStableFunc(timed, func(a, b *HistorySnapshot) int {
		if c := a.Time.Compare(*b.Time); c != 0 {
			return c
		}
		na, nb := nextOf(a), nextOf(b)
		if na == nil || nb == nil {
			return 0
		}
		return cmp.Compare(*na, *nb)
	})
	timed, again := CountedOnce(timed)
	for _, r := range again {
		tr.Skipped = append(tr.Skipped, fmt.Sprintf("%s: the same gstat run as %s, counted once",
			SnapshotName(r.Run.Analysis), SnapshotName(r.As.Analysis)))
	}
	for i, s := range timed {
		tr.Snapshots = append(tr.Snapshots, s.Info())
		if i > 0 && s.Time.Equal(*timed[i-1].Time) {
			tr.Warnings = append(tr.Warnings, fmt.Sprintf("%s and %s have the same %s",
				timed[i-1].Analysis.File, s.Analysis.File, sameTimeWords(timed[i-1], s)))
		}
	}
	var dbs []string
	for _, s := range timed {
		if h := s.Analysis.Header; h != nil && h.Database != nil && !slices.Contains(dbs, *h.Database) {
			dbs = append(dbs, *h.Database)
		}
	}
	if len(dbs) > 1 {
		tr.Warnings = append(tr.Warnings, fmt.Sprintf("snapshots of %d database paths (%s): a trend needs one database",
			len(dbs), strings.Join(dbs, ", ")))
	}
	if len(timed) < 2 {
		tr.Warnings = append(tr.Warnings, "a trend needs at least 2 snapshots with an execution time")
	}
	if len(timed) == 0 {
		tr.Database = GrowthTrend{Name: "database", Points: []TrendPoint{}}
		tr.Transactions.Points = []CounterPoint{}
		tr.LeftOut, tr.Breaks = []LeftOut{}, []TrendBreak{}
		return tr
	}
	keep, sameDB, left := comparable(timed)
	tr.LeftOut = left
	tr.Breaks = breaks(timed)
	for _, b := range tr.Breaks {
		tr.Warnings = append(tr.Warnings, fmt.Sprintf("from %s: %s", b.Time.Format(time.DateTime), b.Reason))
	}
	tr.Warnings = append(tr.Warnings, odsChanges(timed)...)
	t0 := *timed[0].Time
	tr.Days = secondsBetween(*timed[len(timed)-1].Time, t0) / 86400
	days := make([]float64, len(timed))
	for i, s := range timed {
		days[i] = secondsBetween(*s.Time, t0) / 86400
	}

	th := NewThresholds()
	tr.transactions(timed, days, sameDB, th)

	db := GrowthTrend{Name: "database"}
	for i, s := range timed {
		p := TrendPoint{Time: *s.Time}
		if keep[i] {
			t := s.Analysis.Totals
			p.SizeBytes, p.Records, p.Versions = s.SizeBytes(), t.Records, t.Versions
		}
		db.Points = append(db.Points, p)
	}
	db.fit(days, until, th)
	tr.Database = db

	// Tables in order of first appearance, matched by schema and name.
	idx := map[string]int{}
	for si, s := range timed {
		if !keep[si] {
			continue
		}
		samples := s.growthSamples()
		for j := range samples {
			t := &samples[j]
			k := tableKey(t.schema, t.name)
			i, ok := idx[k]
			if !ok {
				i = len(tr.Tables)
				idx[k] = i
				tr.Tables = append(tr.Tables, GrowthTrend{Schema: t.schema, Name: t.name, Points: make([]TrendPoint, len(timed))})
				for j := range timed {
					tr.Tables[i].Points[j].Time = *timed[j].Time
				}
			}
			p := &tr.Tables[i].Points[si]
			p.SizeBytes, p.Records, p.Versions, p.AverageFill = t.sizeBytesPtr(), t.recordsPtr(), t.versionsPtr(), t.fillPtr()
		}
	}
	for i := range tr.Tables {
		tr.Tables[i].fit(days, until, th)
	}
	slices.SortStableFunc(tr.Tables, func(a, b GrowthTrend) int {
		if (a.BytesPerDay == nil) != (b.BytesPerDay == nil) {
			if a.BytesPerDay != nil {
				return -1
			}
			return 1
		}
		if a.BytesPerDay != nil {
			if c := cmp.Compare(*b.BytesPerDay, *a.BytesPerDay); c != 0 {
				return c
			}
		}
		return cmp.Or(units.Compare(a.Schema, b.Schema), units.Compare(a.Name, b.Name))
	})
	for i := 0; i < len(tr.Tables) && i < FastestTables; i++ {
		if r := tr.Tables[i].BytesPerDay; r != nil && *r > 0 {
			tr.Tables[i].Fastest = true
		}
	}
	return tr
}

// fit fills the growth figures from the points' sizes.
func (g *GrowthTrend) fit(days []float64, until int64, th Thresholds) {
	var xs, ys []float64
	var first, last *int64
	for i, p := range g.Points {
		if p.SizeBytes == nil {
			continue
		}
		if first == nil {
			first = p.SizeBytes
		}
		last = p.SizeBytes
		xs = append(xs, days[i])
		ys = append(ys, float64(*p.SizeBytes))
	}
	if len(xs) >= 2 {
		g.SizeChange = diff(last, first)
		g.SpanDays = xs[len(xs)-1] - xs[0]
		g.PerDayReliable = g.SpanDays*86400 >= th.Get("history-rate", "min_span")
	}
	if len(xs) >= 2 && xs[len(xs)-1] > xs[0] {
		g.Linear = fitLinear(xs, ys)
		mean := 0.0
		for _, y := range ys {
			mean += y
		}
		mean /= float64(len(ys))
		g.BytesPerDay = ptr(g.Linear.Slope)
		if mean > 0 {
			g.GrowthPerDay = ptr(g.Linear.Slope / mean)
		}
		g.Exponential = fitExponential(xs, ys)
	}
	best := g.Linear
	if len(xs) >= 3 && g.Linear != nil {
		if e := g.Exponential; e != nil && *e.R2 > *g.Linear.R2 {
			best = e
		}
		g.Best = strPtr(best.Model)
	}
	if until > 0 {
		g.Forecast = judgeForecast(forecast(best, xs, ys, until, g.Points), xs, th)
		if g.Best != nil {
			other := g.Exponential
			if best == g.Exponential {
				other = g.Linear
			}
			if other != nil {
				g.OtherForecast = judgeForecast(forecast(other, xs, ys, until, g.Points), xs, th)
			}
		}
	}
}

// multiple writes a ratio with the digits it deserves: 2.3, 12, 302.
func multiple(m float64) string {
	if m < 10 {
		return strconv.FormatFloat(m, 'f', 1, 64)
	}
	return strconv.FormatFloat(m, 'f', 0, 64)
}

func refusedReason(n int, minSizes float64) string {
	return fmt.Sprintf("%d sizes: a line through %d points fits them exactly and has no error estimate; "+
		"a forecast needs %g comparable snapshots or more", n, n, minSizes)
}

// judgeForecast withdraws a date the sizes cannot support: from fewer
// than history-forecast.min_sizes sizes (refused), or further past the
// last snapshot than history-forecast.max_span_multiple × the days the
// sizes span (unreliable).
func judgeForecast(fc *Forecast, xs []float64, th Thresholds) *Forecast {
	minSizes, maxMult := th.Get("history-forecast", "min_sizes"), th.Get("history-forecast", "max_span_multiple")
	if fc == nil || fc.Status == ForecastReached || fc.Status == ForecastTooFew {
		return fc // a fact, or nothing to judge
	}
	if fc.Status != ForecastDate {
		// Flat, shrinking or a century away: from 2 sizes, no more a
		// forecast than a date is.
		if float64(len(xs)) < minSizes {
			fc.Status, fc.Reason = ForecastRefused, refusedReason(len(xs), minSizes)
		}
		return fc
	}
	span := xs[len(xs)-1] - xs[0]
	model := "the fit"
	if fc.Model != nil {
		model = "the " + *fc.Model + " fit"
	}
	ahead := humanSeconds(*fc.DaysAfterLast * 86400)
	if span > 0 {
		fc.SpanMultiple = ptr(*fc.DaysAfterLast / span)
	}
	switch {
	case float64(len(xs)) < minSizes:
		fc.Status, fc.Reason = ForecastRefused, refusedReason(len(xs), minSizes)
		fc.Date, fc.Earliest, fc.Latest, fc.DaysAfterLast, fc.SpanMultiple = nil, nil, nil, nil, nil
	case fc.SpanMultiple != nil && *fc.SpanMultiple > maxMult:
		fc.Status = ForecastUnreliable
		fc.Reason = fmt.Sprintf("%s reaches the target %s after the last snapshot, %s× the %s the snapshots span; "+
			"fbdiag forecasts no further ahead than %g× the span", model, ahead, multiple(*fc.SpanMultiple), humanSeconds(span*86400), maxMult)
	}
	return fc
}

// nextOf is s's Next transaction, nil when its header lacks it.
func nextOf(s *HistorySnapshot) *int64 {
	if h := s.Analysis.Header; h != nil {
		return h.NextTransaction
	}
	return nil
}
