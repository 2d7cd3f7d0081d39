package view

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/plot"
)

// HistoryTrend lays out the growth of a database over a series of gstat
// snapshots: the span, the database size first and last, its growth a
// day with the fit the analysis names, the forecast (gstat trend
// --until), the transaction rate; the snapshots (the main table), the
// tables fastest growing first, the snapshots left out of the sizes; the
// comparison warnings; the OpenMetrics families of the latest snapshot
// with the rates; and the charts.
func HistoryTrend(tr *analyze.Trend, opt HistoryOptions) *Doc {
	n := len(tr.Snapshots)
	lead := fmt.Sprintf("gstat trend over %d snapshot", n)
	if n != 1 {
		lead += "s"
	}
	title := trendDatabase(tr)
	if title != "" {
		lead += " of "
	}
	doc := &Doc{
		Lead:          lead,
		Title:         title,
		Main:          "snapshots",
		FindingsTitle: "Comparison warnings",
		FindingsName:  "warnings",
		Headline:      trendHeadline(tr),
	}
	if n > 0 {
		doc.Source = tr.Snapshots[n-1].File
	}
	doc.Tables = append(doc.Tables, trendSnapshotsTable(tr), trendTablesTable(tr, opt))
	if len(tr.LeftOut) > 0 {
		doc.Tables = append(doc.Tables, trendLeftOutTable(tr))
	} else {
		// (CSV --table left_out is its header, not an error, on the day
		// no snapshot is left out.)
		doc.Empty = append(doc.Empty, trendLeftOutTable(tr))
	}
	for _, w := range tr.Warnings {
		doc.Findings = append(doc.Findings, comparisonWarning("gstat-trend", w))
	}
	if fc := tr.Database.Forecast; tr.UntilBytes != nil && fc != nil && fc.Reason != "" {
		doc.Notes = append(doc.Notes, "Forecast: "+fc.Reason+".")
	}
	doc.Metrics = trendMetrics(tr)
	doc.Charts, _ = HistoryTrendCharts(tr, opt.Top)
	return doc
}

// trendDatabase is the database path the snapshots name, "" when none
// or several.
func trendDatabase(tr *analyze.Trend) string {
	db := ""
	for _, s := range tr.Snapshots {
		if s.Database == nil {
			continue
		}
		if db != "" && db != *s.Database {
			return ""
		}
		db = *s.Database
	}
	return db
}

// firstLast is the first and the last known size of a series.
func firstLast(g *analyze.GrowthTrend) analyze.Pair {
	var p analyze.Pair
	for _, pt := range g.Points {
		if pt.SizeBytes != nil {
			if p[0] == nil {
				p[0] = pt.SizeBytes
			}
			p[1] = pt.SizeBytes
		}
	}
	return p
}

// fitWords names a fit; a line through 2 sizes has no R².
func fitWords(g *analyze.GrowthTrend) Cell {
	f := g.BestFit()
	if f == nil {
		return Null(TextKind)
	}
	return Str(f.Model)
}

func fitR2(g *analyze.GrowthTrend) Cell {
	if f := g.BestFit(); f != nil {
		return R2P(f.R2)
	}
	return Null(R2Kind)
}

// statusWords is a forecast status for people: the JSON value in words.
func statusWords(fc *analyze.Forecast) Cell {
	if fc == nil {
		return Null(TextKind)
	}
	return Str(strings.ReplaceAll(fc.Status, "_", " "))
}

// forecastIn is how long after the last snapshot the forecast date is;
// null unless the status is a date.
func forecastIn(fc *analyze.Forecast) Cell {
	if fc == nil || fc.Status != analyze.ForecastDate || fc.DaysAfterLast == nil {
		return Null(SecondsKind)
	}
	return Sec(*fc.DaysAfterLast * 86400)
}

func trendHeadline(tr *analyze.Trend) []Field {
	fs := []Field{{Key: "snapshots", Label: "Snapshots", Value: Int(int64(len(tr.Snapshots)))}}
	if n := len(tr.Snapshots); n > 0 {
		// The span from the times themselves: days × 86400 printed
		// 2368.9999999999995 for the 0:39:29 between 10:15:18 and 10:54:47.
		span := tr.Days * 86400
		if first, last := tr.Snapshots[0].Time, tr.Snapshots[n-1].Time; first != nil && last != nil {
			span = last.Sub(*first).Seconds()
		}
		fs = append(fs,
			Field{Key: "first_time", Label: "First", Value: TimeP(tr.Snapshots[0].Time)},
			Field{Key: "last_time", Label: "Last", Value: TimeP(tr.Snapshots[n-1].Time)},
			Field{Key: "span_seconds", Label: "Span", Value: Sec(span)})
	}
	db := &tr.Database
	size := firstLast(db)
	if size[0] != nil {
		// What the counted sizes add up (they add up the same things):
		// a series of gstat -d runs counts the tables alone.
		what := "(tables + indices)"
		for i, p := range db.Points {
			if p.SizeBytes != nil && i < len(tr.Snapshots) {
				what = sizeWhat(tr.Snapshots[i])
				break
			}
		}
		fs = append(fs,
			Field{Key: "database_first_bytes", Label: "Database, first", Value: BytesP(size[0]), Detail: what},
			Field{Key: "database_last_bytes", Label: "Database, last", Value: BytesP(size[1])},
			Field{Key: "database_change_bytes", Label: "Database change", Value: BytesP(db.SizeChange)},
			Field{Key: "database_change", Label: "Database change, relative", Value: ChangeP(size.Relative())})
		if db.SizeChange == nil { // (one size is no change: not +0.0 %)
			fs[len(fs)-1].Value = Null(ChangeKind)
		}
	}
	if db.BytesPerDay != nil {
		if db.PerDayReliable {
			fs = append(fs,
				Field{Key: "database_bytes_per_day", Label: "Growth a day", Value: bytesOf(*db.BytesPerDay)},
				Field{Key: "database_growth_per_day", Label: "Growth a day, relative", Value: ChangeP(db.GrowthPerDay), Detail: "(of the mean size)"})
		} else {
			fs = append(fs, Field{Key: "database_bytes_per_day", Label: "Growth a day", Value: Null(BytesKind),
				Unknown: "not shown", Detail: "(" + shortSpan("sizes", db.SpanDays) + ")"})
		}
		fit := Field{Key: "fit", Label: "Best fit", Value: fitWords(db)}
		if db.Best == nil {
			fit.Detail = "(a line through 2 sizes: no R², no interval)"
		}
		fs = append(fs, fit, Field{Key: "fit_r2", Label: "R²", Value: fitR2(db), Unknown: "none"})
		if e := db.Exponential; e != nil && e.DoublingDays != nil && db.BestFit() == e {
			fs = append(fs, Field{Key: "doubling_seconds", Label: "Doubles every", Value: Sec(*e.DoublingDays * 86400)})
		}
	}
	if tr.UntilBytes != nil {
		fs = append(fs, Field{Key: "until_bytes", Label: "Target", Value: Bytes(*tr.UntilBytes)})
		fs = append(fs, forecastFields(db.Forecast, db.OtherForecast)...)
	}
	if tt := tr.Transactions; tt.PerDay != nil {
		f := Field{Key: "transactions_per_day", Label: "Transactions a day", Value: Null(NumberKind), Unknown: "not shown"}
		if tt.PerDayReliable {
			f.Value, f.Detail = Num(*tt.PerDay), "(Next transaction)"
			if tt.Restores > 0 {
				f.Detail = fmt.Sprintf("(Next transaction, since the last of %d restores)", tt.Restores)
				if tt.Restores == 1 {
					f.Detail = "(Next transaction, since the restore)"
				}
			}
		} else {
			f.Detail = "(" + shortSpan("counters", tt.Days) + ")"
		}
		fs = append(fs, f)
	}
	var fast []string
	for _, g := range tr.Tables {
		if g.Fastest {
			fast = append(fast, historyName(g.Schema, g.Name))
		}
	}
	if len(fast) > 0 {
		fs = append(fs, Field{Key: "fastest", Label: "Fastest growing", Value: Str(strings.Join(fast, ", "))})
	}
	return fs
}

// shortSpan says that a series spans too little time for a rate a day.
func shortSpan(what string, days float64) string {
	return fmt.Sprintf("%s of %s, under %s", units.Seconds(days*86400), what,
		units.Seconds(analyze.NewThresholds().Get("history-rate", "min_span")))
}

// forecastFields say when the database reaches the target: the status
// with its reason, the date and its 95 % interval, and what the other
// model says.
func forecastFields(fc, other *analyze.Forecast) []Field {
	if fc == nil {
		return nil
	}
	fs := []Field{{Key: "forecast", Label: "Forecast", Value: statusWords(fc)}}
	if fc.Model != nil {
		fs[0].Detail = "(" + *fc.Model + " fit)"
	}
	if fc.Reason != "" {
		fs[0].Detail += " (see the notes)"
	}
	if fc.Status == analyze.ForecastDate || fc.Status == analyze.ForecastReached {
		fs = append(fs, Field{Key: "forecast_time", Label: "Reaches the target", Value: TimeP(fc.Date)})
	}
	if fc.Status == analyze.ForecastDate {
		fs = append(fs, Field{Key: "forecast_seconds", Label: "After the last snapshot", Value: forecastIn(fc)})
		if fc.Earliest == nil {
			fs = append(fs, Field{Key: "forecast_earliest", Label: "Earliest (95 %)", Value: Null(TimeKind),
				Unknown: "no interval", Detail: "(too few sizes, or the growth is not significant)"})
		} else {
			latest := Field{Key: "forecast_latest", Label: "Latest (95 %)", Value: TimeP(fc.Latest), Unknown: "never"}
			if fc.Latest == nil {
				latest.Detail = "(or beyond a century)"
			}
			fs = append(fs, Field{Key: "forecast_earliest", Label: "Earliest (95 %)", Value: TimeP(fc.Earliest)}, latest)
		}
	}
	if other != nil && other.Model != nil {
		f := Field{Key: "other_forecast", Label: "By the " + *other.Model + " fit", Value: statusWords(other)}
		if other.Status == analyze.ForecastDate && other.Date != nil {
			f.Detail = "on " + other.Date.Format(time.DateTime)
		}
		fs = append(fs, f)
	}
	return fs
}

func trendSnapshotsTable(tr *analyze.Trend) *Table {
	t := &Table{Name: "snapshots", Title: "Snapshots, oldest first", Noun: "snapshots",
		Columns: append(append([]Column{{Key: "n", Title: "#", Kind: CountKind}}, snapshotColumns...),
			Column{Key: "sizes", Title: "sizes"},
			Column{Key: "oldest_active", Title: "OAT", Kind: CountKind},
			Column{Key: "next_transaction", Title: "Next", Kind: CountKind}),
		Rows: [][]Cell{}}
	labels := snapshotLabels(tr.Snapshots)
	left := map[[2]any]bool{}
	for _, lo := range tr.LeftOut {
		left[[2]any{lo.File, lo.Report}] = true
	}
	byFile := false
	for i, s := range tr.Snapshots {
		var oat, next *int64
		if i < len(tr.Transactions.Points) {
			oat, next = tr.Transactions.Points[i].OldestActive, tr.Transactions.Points[i].NextTransaction
		}
		counted := Str("counted")
		switch {
		case left[[2]any{s.File, s.Report}]:
			counted = Str("left out")
		case s.SizeBytes == nil:
			counted = Str("none")
		}
		byFile = byFile || s.TimeSource != nil && *s.TimeSource == analyze.TimeFromFile
		row := append([]Cell{Int(int64(i + 1))}, snapshotCells(labels[i], s)...)
		t.Rows = append(t.Rows, append(row, counted, IntP(oat), IntP(next)))
	}
	if byFile {
		t.Notes = append(t.Notes, "dated by file: the run has no execution time, its file's modification time stands for it")
	}
	if len(tr.LeftOut) > 0 {
		note := "left out: the size adds up other things than the others' (see Left out); the counters still count"
		if slices.ContainsFunc(tr.LeftOut, func(lo analyze.LeftOut) bool { return strings.HasPrefix(lo.Reason, analyze.ReasonAnotherDatabase) }) {
			note += ", but not another database's" // (analyze counts one database's transactions)
		}
		t.Notes = append(t.Notes, note)
	}
	return t
}

func trendTablesTable(tr *analyze.Trend, opt HistoryOptions) *Table {
	t := &Table{
		Name:  "tables",
		Title: "Tables, fastest growing first",
		Noun:  "tables",
		Limit: opt.Top,
		Columns: []Column{
			{Key: "table", Title: "table", Max: 16},
			{Key: "size_bytes", Title: "size", Kind: BytesKind},
			{Key: "size_change_bytes", Title: "Δ size", Kind: BytesKind},
			{Key: "size_change", Title: "Δ size %", Kind: ChangeKind},
			{Key: "bytes_per_day", Title: "a day", Kind: BytesKind},
			{Key: "growth_per_day", Title: "% a day", Kind: ChangeKind},
			{Key: "fit", Title: "fit"},
			{Key: "r2", Title: "R²", Kind: R2Kind},
		},
	}
	if tr.UntilBytes != nil {
		t.Columns = append(t.Columns,
			Column{Key: "forecast", Title: "at " + units.Size(*tr.UntilBytes)},
			Column{Key: "forecast_seconds", Title: "in", Kind: SecondsKind})
	}
	hidden, two := false, false
	for i := range tr.Tables {
		g := &tr.Tables[i]
		hidden = hidden || g.BytesPerDay != nil && !g.PerDayReliable
		two = two || g.Best == nil && g.Linear != nil
	}
	t.Stream = func(yield func([]Cell) bool) {
		for i := range tr.Tables {
			g := &tr.Tables[i]
			perDay, pct := Null(BytesKind), Null(ChangeKind)
			if g.BytesPerDay != nil && g.PerDayReliable {
				perDay, pct = bytesOf(*g.BytesPerDay), ChangeP(g.GrowthPerDay)
			}
			size, rel := firstLast(g), Null(ChangeKind)
			if g.SizeChange != nil { // (one size is no change: not +0.0 %)
				rel = ChangeP(size.Relative())
			}
			row := []Cell{Str(historyName(g.Schema, g.Name)), BytesP(size[1]), BytesP(g.SizeChange), rel,
				perDay, pct, fitWords(g), fitR2(g)}
			if tr.UntilBytes != nil {
				row = append(row, statusWords(g.Forecast), forecastIn(g.Forecast))
			}
			if !yield(row) {
				return
			}
		}
	}
	t.Notes = append(t.Notes, "size: the last known; Δ size: from the first known size to the last, the first being the baseline")
	if two {
		t.Notes = append(t.Notes, "R² empty: a line through 2 sizes fits them exactly and says nothing")
	}
	if hidden {
		t.Notes = append(t.Notes, fmt.Sprintf("a day: not shown for a table whose sizes span under %s (history-rate.min_span); the JSON has the figures",
			units.Seconds(analyze.NewThresholds().Get("history-rate", "min_span"))))
	}
	if len(tr.Tables) == 0 {
		t.Notes = append(t.Notes, "no table statistics in the snapshots (gstat -a or -d has them)")
	}
	return t
}

func trendLeftOutTable(tr *analyze.Trend) *Table {
	t := &Table{Name: "left_out", Title: "Left out of the sizes", Noun: "snapshots", Columns: []Column{
		{Key: "snapshot", Title: "snapshot", Max: 20}, {Key: "time", Title: "time", Kind: TimeKind}, {Key: "reason", Title: "reason"}}}
	labels := snapshotLabels(tr.Snapshots)
	label := map[[2]any]string{}
	for i, s := range tr.Snapshots {
		label[[2]any{s.File, s.Report}] = labels[i]
	}
	for _, lo := range tr.LeftOut {
		t.Rows = append(t.Rows, []Cell{Str(cmp.Or(label[[2]any{lo.File, lo.Report}], lo.File)), TimeP(lo.Time), Str(lo.Reason)})
	}
	return t
}

// latestSized is the index of the last snapshot in the size series, or
// of the last snapshot when none has a size; -1 without snapshots.
func latestSized(tr *analyze.Trend) int {
	for i := len(tr.Database.Points) - 1; i >= 0; i-- {
		if tr.Database.Points[i].SizeBytes != nil {
			return i
		}
	}
	return len(tr.Snapshots) - 1
}

// latestHeader is the index of the latest snapshot with a Next
// transaction, of the database of the size series (not one left out as
// another database's); sized when there is none.
func latestHeader(tr *analyze.Trend, sized int) int {
	other := map[[2]any]bool{}
	for _, lo := range tr.LeftOut {
		if strings.HasPrefix(lo.Reason, analyze.ReasonAnotherDatabase) {
			other[[2]any{lo.File, lo.Report}] = true
		}
	}
	for i := len(tr.Snapshots) - 1; i > sized && i < len(tr.Transactions.Points); i-- {
		if s := tr.Snapshots[i]; tr.Transactions.Points[i].NextTransaction != nil && !other[[2]any{s.File, s.Report}] {
			return i
		}
	}
	return sized
}

// trendMetrics are the OpenMetrics families of a trend: the counters and
// time of the latest snapshot, the sizes of the latest in the size
// series, named as fbdiag gstat names them, and the rates a day where the
// snapshots span enough time.
func trendMetrics(tr *analyze.Trend) []MetricFamily {
	last := latestSized(tr)
	if last < 0 {
		return nil
	}
	s := tr.Snapshots[last]
	dbName := s.File
	if s.Database != nil {
		dbName = *s.Database
	}
	db := []Label{{"database", dbName}}
	one := func(name, help, unit string, v *float64) MetricFamily {
		return MetricFamily{Name: name, Help: help, Type: Gauge, Unit: unit, Samples: func(yield func(Sample) bool) {
			if v != nil {
				yield(Sample{Labels: db, Value: *v})
			}
		}}
	}
	num := func(p *int64) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	// The counters and the time are the latest snapshot's of the
	// database, a gstat -h run too: an hourly -h beside a nightly -a
	// gave the night's OAT and Next all day, an OAT stuck since the
	// morning unseen.
	hdr := latestHeader(tr, last)
	var fs []MetricFamily
	if hdr < len(tr.Transactions.Points) {
		p := tr.Transactions.Points[hdr]
		fs = append(fs,
			one("fbdiag_oldest_transaction", "Oldest interesting transaction (OIT) on the header page", "", num(p.OldestTransaction)),
			one("fbdiag_oldest_active", "Oldest active transaction (OAT) on the header page", "", num(p.OldestActive)),
			one("fbdiag_oldest_snapshot", "Oldest snapshot (OST) on the header page", "", num(p.OldestSnapshot)),
			one("fbdiag_next_transaction", "Next transaction on the header page", "", num(p.NextTransaction)))
	}
	var when *float64
	if t := tr.Snapshots[hdr].Time; t != nil {
		v := float64(t.Unix())
		when = &v
	}
	fs = append(fs,
		one("fbdiag_snapshot_timestamp_seconds", "Execution time of the latest gstat snapshot of the trend (the gstat machine's local time, read as UTC)", "seconds", when),
		one("fbdiag_tables_size_bytes", "Size of the tables' data pages", "bytes", num(s.TableBytes)),
		one("fbdiag_indices_size_bytes", "Size of the indices' leaf pages", "bytes", num(s.IndexBytes)))
	table := func(name, help, unit string, get func(analyze.TrendPoint) *int64) MetricFamily {
		return MetricFamily{Name: name, Help: help, Type: Gauge, Unit: unit, Samples: func(yield func(Sample) bool) {
			for i := range tr.Tables {
				g := &tr.Tables[i]
				if last >= len(g.Points) {
					continue
				}
				if p := get(g.Points[last]); p != nil &&
					!yield(Sample{Labels: []Label{db[0], {"table", historyName(g.Schema, g.Name)}}, Value: float64(*p)}) {
					return
				}
			}
		}}
	}
	fs = append(fs,
		table("fbdiag_table_records", "Primary record versions of the table", "", func(p analyze.TrendPoint) *int64 { return p.Records }),
		table("fbdiag_table_versions", "Back versions of the table's records", "", func(p analyze.TrendPoint) *int64 { return p.Versions }),
		table("fbdiag_table_size_bytes", "Size of the table (data pages times page size, or gstat's table size)", "bytes", func(p analyze.TrendPoint) *int64 { return p.SizeBytes }))
	rate := func(g *analyze.GrowthTrend) *float64 {
		if g.BytesPerDay == nil || !g.PerDayReliable {
			return nil
		}
		return g.BytesPerDay
	}
	fs = append(fs,
		one("fbdiag_database_growth_bytes_per_day", "Growth of tables plus indices a day, slope of the linear fit over the trend's snapshots", "", rate(&tr.Database)),
		MetricFamily{Name: "fbdiag_table_growth_bytes_per_day", Help: "Growth of the table a day, slope of the linear fit over its sizes", Type: Gauge,
			Samples: func(yield func(Sample) bool) {
				for i := range tr.Tables {
					g := &tr.Tables[i]
					if r := rate(g); r != nil && !yield(Sample{Labels: []Label{db[0], {"table", historyName(g.Schema, g.Name)}}, Value: *r}) {
						return
					}
				}
			}})
	if tt := tr.Transactions; tt.PerDay != nil && tt.PerDayReliable {
		fs = append(fs, one("fbdiag_transactions_per_day", "Transactions started a day (slope of Next transaction since the last restore)", "", tt.PerDay))
	}
	if fc := tr.Database.Forecast; fc != nil && fc.Status == analyze.ForecastDate && fc.Date != nil {
		v := float64(fc.Date.Unix())
		fs = append(fs, one("fbdiag_database_forecast_timestamp_seconds", "When tables plus indices reach the target size by the best fit", "seconds", &v))
	}
	return fs
}

// HistoryChartTables is how many tables the history charts draw beside
// the database.
const HistoryChartTables = 5

// mib scales the history sizes: snapshots of one database differ by
// megabytes, not by the gigabytes of the axis a whole size would need.
const mib = 1 << 20

// HistoryTrendCharts draws the size and back version charts of a trend
// and, when it has a forecast date, the forecast chart. top (0: no limit)
// bounds the tables drawn below HistoryChartTables. A chart the trend has
// no data for (a series of gstat -h outputs has no sizes) is left out and
// named in the error; one whose lines would say nothing over time (back
// versions zero throughout, no size that changes) is a chart of notes
// only (plot.NotesOnly); the others are returned.
func HistoryTrendCharts(tr *analyze.Trend, top int) ([]*plot.Chart, error) {
	if len(tr.Snapshots) == 0 {
		return nil, errors.New("no dated snapshot to chart")
	}
	n := HistoryChartTables
	if top > 0 && top < n {
		n = top
	}
	var out []*plot.Chart
	var errs []error
	for _, d := range []plot.History{historySizeChart(tr, n), historyVersionsChart(tr, n)} {
		if why := historyChartEmpty(d); why != "" {
			errs = append(errs, fmt.Errorf("no %s chart: %s", d.Kind, why))
			continue
		}
		if note := historyChartNote(tr, d); note != "" {
			out = append(out, plot.NotesOnly(d.Kind, d.Title, note))
			continue
		}
		ch, err := plot.HistoryChart(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("no %s chart: %w", d.Kind, err))
			continue
		}
		out = append(out, ch)
	}
	if fc := historyForecastChart(tr); fc != nil {
		ch, err := plot.HistoryForecastChart(*fc)
		if err != nil {
			errs = append(errs, fmt.Errorf("no %s chart: %w", plot.KindHistoryForecast, err))
		} else {
			out = append(out, ch)
		}
	}
	return out, errors.Join(errs...)
}

// historyChartEmpty says why a history chart would show nothing the
// snapshots' own charts do not: every figure at one point in time (a
// "trend" of several gstat switches run together is the snapshot's
// tables chart again). "" draws it.
func historyChartEmpty(d plot.History) string {
	times := map[time.Time]bool{}
	known := false
	for _, s := range d.Series {
		for i, v := range s.Values {
			if math.IsNaN(v) || i >= len(d.Times) {
				continue
			}
			known = true
			times[d.Times[i]] = true
		}
	}
	if known && len(times) < 2 {
		return "every figure is from one point in time; the snapshot's own charts show it"
	}
	return "" // plot.HistoryChart names what is missing
}

// historyChartNote is the sentence that stands for a history chart whose
// lines would be flat: back versions zero in every snapshot, or no size
// of the database or of a table changing from one snapshot to the next
// (the trend's tables list the sizes). "" draws the chart.
func historyChartNote(tr *analyze.Trend, d plot.History) string {
	switch d.Kind {
	case plot.KindHistoryVersions:
		known := false
		for _, s := range d.Series {
			for _, v := range s.Values {
				if !math.IsNaN(v) && v != 0 {
					return ""
				}
				known = known || !math.IsNaN(v)
			}
		}
		if known {
			return "no record versions in these snapshots"
		}
	case plot.KindHistorySize:
		if !constant(tr.Database, pointSize) {
			return ""
		}
		for _, t := range tr.Tables {
			if !constant(t, pointSize) {
				return ""
			}
		}
		last := lastValue(tr.Database, pointSize)
		if last < 0 {
			return ""
		}
		known := 0
		for _, p := range tr.Database.Points {
			if p.SizeBytes != nil {
				known++
			}
		}
		each := "in each"
		if known < len(tr.Database.Points) {
			each = fmt.Sprintf("in the %d that list it", known)
		}
		return fmt.Sprintf("no size changed in these %d snapshots: the database (tables + indices) is %s %s",
			len(tr.Snapshots), units.Size(last), each)
	}
	return ""
}

// constant reports whether every known value of a series is the same.
func constant(g analyze.GrowthTrend, f func(analyze.TrendPoint) *int64) bool {
	var first *int64
	for _, p := range g.Points {
		v := f(p)
		switch {
		case v == nil:
		case first == nil:
			first = v
		case *v != *first:
			return false
		}
	}
	return true
}

func trendTimes(tr *analyze.Trend) []time.Time {
	times := make([]time.Time, len(tr.Snapshots))
	for i, s := range tr.Snapshots {
		times[i] = *s.Time
	}
	return times
}

// trendValues is one figure of a growth series, scaled; NaN when unknown.
func trendValues(g *analyze.GrowthTrend, f func(analyze.TrendPoint) *int64, scale float64) []float64 {
	out := make([]float64, len(g.Points))
	for i, p := range g.Points {
		out[i] = math.NaN()
		if v := f(p); v != nil {
			out[i] = float64(*v) / scale
		}
	}
	return out
}

func pointSize(p analyze.TrendPoint) *int64     { return p.SizeBytes }
func pointVersions(p analyze.TrendPoint) *int64 { return p.Versions }

// fitName labels a fit in a legend; a line through 2 sizes has no R².
func fitName(fit *analyze.GrowthFit) string {
	if fit.R2 == nil {
		return fmt.Sprintf("line through %d sizes (no fit statistics)", fit.N)
	}
	return fit.Model + " fit, R² " + R2P(fit.R2).Human()
}

// historySizeChart is the size chart: the database and the n fastest
// growing tables (the largest when none grows), in MiB, with the
// database's fit sampled over the measured span.
func historySizeChart(tr *analyze.Trend, n int) plot.History {
	times := trendTimes(tr)
	d := plot.History{Kind: plot.KindHistorySize, Title: "Database and fastest growing tables",
		YLabel: "size (MiB)", Times: times}
	d.Series = append(d.Series, plot.HistorySeries{Name: "database (tables + indices)", Values: trendValues(&tr.Database, pointSize, mib)})
	// tr.Tables is fastest first.
	shown := slices.Clone(tr.Tables)
	if len(shown) > 0 && (shown[0].BytesPerDay == nil || *shown[0].BytesPerDay <= 0) {
		d.Title = "Database and largest tables (none grows)"
		slices.SortStableFunc(shown, func(a, b analyze.GrowthTrend) int {
			return cmp.Compare(lastValue(b, pointSize), lastValue(a, pointSize))
		})
	} else {
		shown = slices.DeleteFunc(shown, func(g analyze.GrowthTrend) bool { return g.BytesPerDay == nil || *g.BytesPerDay <= 0 })
	}
	for i := 0; i < len(shown) && i < n; i++ {
		d.Series = append(d.Series, plot.HistorySeries{Name: historyName(shown[i].Schema, shown[i].Name), Values: trendValues(&shown[i], pointSize, mib)})
	}
	d.Breaks = historyBreaks(tr)
	if fc := tr.Database.Forecast; fc != nil && tr.UntilBytes != nil &&
		(fc.Status == analyze.ForecastRefused || fc.Status == analyze.ForecastUnreliable) {
		// No forecast chart for these: the size chart says why.
		d.Title += "; " + units.Size(*tr.UntilBytes) + " forecast " + fc.Status
	}
	if fit := tr.Database.BestFit(); fit != nil && len(times) > 0 {
		// The fit over the measured span, sampled where the analysis
		// evaluates it.
		hf := &plot.HistoryFit{Name: fitName(fit)}
		for k := 0; k <= 40; k++ {
			days := tr.Days * float64(k) / 40
			hf.Times = append(hf.Times, times[0].Add(time.Duration(days*24*float64(time.Hour))))
			hf.Values = append(hf.Values, fit.At(days)/mib)
		}
		d.Fit = hf
	}
	return d
}

// historyVersionsChart is the back versions chart: the database total
// and the n tables that held most in any snapshot.
func historyVersionsChart(tr *analyze.Trend, n int) plot.History {
	// Most at any time: garbage collected since still shows.
	byVersions := slices.Clone(tr.Tables)
	slices.SortStableFunc(byVersions, func(a, b analyze.GrowthTrend) int {
		return cmp.Compare(maxValue(b, pointVersions), maxValue(a, pointVersions))
	})
	d := plot.History{Kind: plot.KindHistoryVersions, Title: "Back versions (garbage) over time",
		YLabel: "back versions", Times: trendTimes(tr)}
	d.Breaks = historyBreaks(tr)
	db := trendValues(&tr.Database, pointVersions, 1)
	d.Series = append(d.Series, plot.HistorySeries{Name: "database", Values: db})
	// A table that never held a back version is a flat line on the axis,
	// over the others'; one that held all of them lies on the database's
	// line and hides it: the legend says so.
	for i := 0; i < len(byVersions) && i < n && maxValue(byVersions[i], pointVersions) > 0; i++ {
		name := historyName(byVersions[i].Schema, byVersions[i].Name)
		vs := trendValues(&byVersions[i], pointVersions, 1)
		d.Series = append(d.Series, plot.HistorySeries{Name: name, Values: vs})
		if sameValues(vs, db) {
			d.Notes = append(d.Notes, name+" holds every back version: its line covers the database's")
		}
	}
	return d
}

// sameValues tells whether a and b have the same value wherever b has
// one, and a has one wherever b does.
func sameValues(a, b []float64) bool {
	known := false
	for i := range b {
		if math.IsNaN(b[i]) {
			continue
		}
		if i >= len(a) || a[i] != b[i] {
			return false
		}
		known = true
	}
	return known
}

// historyForecastChart is the database forecast chart, nil unless the
// trend has a forecast date.
func historyForecastChart(tr *analyze.Trend) *plot.HistoryForecast {
	db := &tr.Database
	fc := db.Forecast
	fit := db.BestFit()
	if fc == nil || fc.Status != analyze.ForecastDate || fc.Date == nil || fit == nil || tr.UntilBytes == nil || len(tr.Snapshots) == 0 {
		return nil
	}
	times := trendTimes(tr)
	target := units.Size(*tr.UntilBytes)
	d := &plot.HistoryForecast{
		Title:       "Database forecast: " + target + " on " + fc.Date.Format(time.DateOnly),
		YLabel:      "size (MiB)",
		Times:       times,
		Measured:    plot.HistorySeries{Name: "database (tables + indices)", Values: trendValues(db, pointSize, mib)},
		Target:      float64(*tr.UntilBytes) / mib,
		TargetLabel: "target " + target,
		Crossing:    *fc.Date,
		Earliest:    fc.Earliest,
		Latest:      fc.Latest,
	}
	d.Fit.Name = fitName(fit)
	end := fc.Date.Sub(times[0]).Hours() / 24
	for k := 0; k <= 60; k++ {
		days := end * float64(k) / 60
		d.Fit.Times = append(d.Fit.Times, times[0].Add(time.Duration(days*24*float64(time.Hour))))
		d.Fit.Values = append(d.Fit.Values, fit.At(days)/mib)
	}
	return d
}

// historyBreaks marks the trend's breaks on its charts.
func historyBreaks(tr *analyze.Trend) []plot.HistoryBreak {
	var out []plot.HistoryBreak
	for _, b := range tr.Breaks {
		out = append(out, plot.HistoryBreak{Time: b.Time, Label: "ODS " + b.Before + " → " + b.After + ": fill not comparable"})
	}
	return out
}

// lastValue is the last known value of a series, -1 when none.
func lastValue(g analyze.GrowthTrend, f func(analyze.TrendPoint) *int64) int64 {
	for i := len(g.Points) - 1; i >= 0; i-- {
		if v := f(g.Points[i]); v != nil {
			return *v
		}
	}
	return -1
}

// maxValue is the largest known value of a series, -1 when none.
func maxValue(g analyze.GrowthTrend, f func(analyze.TrendPoint) *int64) int64 {
	m := int64(-1)
	for _, p := range g.Points {
		if v := f(p); v != nil {
			m = max(m, *v)
		}
	}
	return m
}
