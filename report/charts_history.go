package report

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
)

// HistoryChartTables is how many tables the history charts draw beside
// the database.
const HistoryChartTables = 5

// mib scales the history sizes: snapshots of one database differ by
// megabytes, not by the gigabytes of the axis a whole size would need.
const mib = 1 << 20

// HistoryCharts draws the size and back version charts of a trend and,
// when it has a forecast date, the forecast chart; fbdiag gstat trend
// --png writes them with WritePNGs. top (0 = no limit) bounds the tables
// drawn below HistoryChartTables. A chart the trend has no data for (a
// series of gstat -h outputs has no sizes) is left out and named in the
// error; the others are returned.
func HistoryCharts(tr *analyze.Trend, top int) ([]*plot.Chart, error) {
	if len(tr.Snapshots) == 0 {
		return nil, errors.New("no dated snapshot to chart")
	}
	n := HistoryChartTables
	if top > 0 && top < n {
		n = top
	}
	var out []*plot.Chart
	var errs []error
	for _, d := range []plot.History{HistorySizeChart(tr, n), HistoryVersionsChart(tr, n)} {
		ch, err := plot.HistoryChart(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("no %s chart: %w", d.Kind, err))
			continue
		}
		out = append(out, ch)
	}
	if fc := HistoryForecastChart(tr); fc != nil {
		ch, err := plot.HistoryForecastChart(*fc)
		if err != nil {
			errs = append(errs, fmt.Errorf("no %s chart: %w", plot.KindHistoryForecast, err))
		} else {
			out = append(out, ch)
		}
	}
	return out, errors.Join(errs...)
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
	return fit.Model + " fit, R² " + strconv.FormatFloat(*fit.R2, 'f', 4, 64)
}

// HistorySizeChart is the size chart input: the database and the n
// fastest growing tables (the largest when none grows), in MiB, with the
// database's fit sampled over the measured span.
func HistorySizeChart(tr *analyze.Trend, n int) plot.History {
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
		d.Series = append(d.Series, plot.HistorySeries{Name: shown[i].Name, Values: trendValues(&shown[i], pointSize, mib)})
	}
	d.Breaks = historyBreaks(tr)
	if fc := tr.Database.Forecast; fc != nil && tr.UntilBytes != nil &&
		(fc.Status == analyze.ForecastRefused || fc.Status == analyze.ForecastUnreliable) {
		// No forecast chart for these: the size chart says why.
		d.Title += "; " + Size(tr.UntilBytes) + " forecast " + fc.Status
	}
	if fit := BestFit(&tr.Database); fit != nil && len(times) > 0 {
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

// HistoryVersionsChart is the back versions chart input: the database
// total and the n tables that held most in any snapshot.
func HistoryVersionsChart(tr *analyze.Trend, n int) plot.History {
	// Most at any time: garbage collected since still shows.
	byVersions := slices.Clone(tr.Tables)
	slices.SortStableFunc(byVersions, func(a, b analyze.GrowthTrend) int {
		return cmp.Compare(maxValue(b, pointVersions), maxValue(a, pointVersions))
	})
	d := plot.History{Kind: plot.KindHistoryVersions, Title: "Back versions (garbage) over time",
		YLabel: "back versions", Times: trendTimes(tr)}
	d.Breaks = historyBreaks(tr)
	d.Series = append(d.Series, plot.HistorySeries{Name: "database", Values: trendValues(&tr.Database, pointVersions, 1)})
	for i := 0; i < len(byVersions) && i < n; i++ {
		d.Series = append(d.Series, plot.HistorySeries{Name: byVersions[i].Name, Values: trendValues(&byVersions[i], pointVersions, 1)})
	}
	return d
}

// HistoryForecastChart is the database forecast as chart input, nil
// unless the trend has a forecast date (gstat trend --until).
func HistoryForecastChart(tr *analyze.Trend) *plot.HistoryForecast {
	db := &tr.Database
	fc := db.Forecast
	fit := BestFit(db)
	if fc == nil || fc.Status != analyze.ForecastDate || fc.Date == nil || fit == nil || tr.UntilBytes == nil || len(tr.Snapshots) == 0 {
		return nil
	}
	times := trendTimes(tr)
	d := &plot.HistoryForecast{
		Title:       "Database forecast: " + Size(tr.UntilBytes) + " on " + fc.Date.Format(time.DateOnly),
		YLabel:      "size (MiB)",
		Times:       times,
		Measured:    plot.HistorySeries{Name: "database (tables + indices)", Values: trendValues(db, pointSize, mib)},
		Target:      float64(*tr.UntilBytes) / mib,
		TargetLabel: "target " + Size(tr.UntilBytes),
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

// ExponentialBest tells whether the exponential fit is the one the
// analysis names.
func ExponentialBest(g *analyze.GrowthTrend) bool {
	return g.Best != nil && *g.Best == analyze.ModelExponential
}

// BestFit is the fit the analysis names, or the line (with two sizes
// only a line is fitted).
func BestFit(g *analyze.GrowthTrend) *analyze.GrowthFit {
	if ExponentialBest(g) {
		return g.Exponential
	}
	return g.Linear
}
