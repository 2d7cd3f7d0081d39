package plot

import (
	"fmt"
	"math"
	"time"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Kinds of the history charts (fbdiag gstat trend --png).
const (
	KindHistorySize     Kind = "history-size"
	KindHistoryVersions Kind = "history-versions"
	KindHistoryForecast Kind = "history-forecast"
)

// History is the data of a chart of values over time, one line per
// object (the database, the top tables). Values[i] belongs to Times[i];
// NaN where a snapshot lacks the value (the line skips it).
type History struct {
	// Kind is KindHistorySize or KindHistoryVersions.
	Kind  Kind
	Title string
	// YLabel names the values with their unit ("size (MiB)").
	YLabel string
	Times  []time.Time
	Series []HistorySeries
	// Fit is a fitted model sampled at its own times, drawn dashed (the
	// analysis samples it, so the chart shows exactly what it reports).
	Fit *HistoryFit
	// Breaks are drawn as labelled vertical lines: from there on some
	// figures were computed another way (a Firebird 6 upgrade).
	Breaks []HistoryBreak
	// Notes are sentences under the legend (Chart.Notes): what the lines
	// do not show ("STOCK holds every back version: its line covers the
	// database's").
	Notes []string
}

// HistoryBreak is a time where the figures stop comparing.
type HistoryBreak struct {
	Time  time.Time
	Label string
}

// HistorySeries is one object's values at History.Times.
type HistorySeries struct {
	Name   string
	Values []float64
}

// HistoryFit is a model curve over time.
type HistoryFit struct {
	Name   string
	Times  []time.Time
	Values []float64
}

// HistoryChart draws the lines over a time axis. Plotted X values are
// Unix seconds.
func HistoryChart(d History) (*Chart, error) {
	kind := d.Kind
	if kind == "" {
		kind = KindHistorySize
	}
	ch := &Chart{Kind: kind, Title: d.Title}
	if len(d.Times) == 0 {
		return nil, errNoData(kind, "snapshots")
	}
	p := newPlot(d.Title, "", d.YLabel)
	p.Add(newGrid())
	lo, hi := d.Times[0], d.Times[0]
	for _, t := range d.Times {
		lo, hi = minTime(lo, t), maxTime(hi, t)
	}
	ymax := 0.0
	n := 0
	for i, s := range d.Series {
		xys := timeXYs(d.Times, s.Values)
		if len(xys) == 0 {
			continue
		}
		col := seriesColor(i)
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("plot %s: series %q: %w", kind, s.Name, err)
		}
		l.LineStyle = solid(col, 1.6)
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(l, sc)
		p.Legend.Add(Ellipsis(s.Name, MaxNameRunes), l, sc)
		ch.add(Plotted{Name: s.Name, X: xyX(xys), Y: xyY(xys)})
		for _, pt := range xys {
			ymax = math.Max(ymax, pt.Y)
		}
		n++
	}
	if n == 0 {
		return nil, errNoData(kind, "values")
	}
	if f := d.Fit; f != nil {
		xys := timeXYs(f.Times, f.Values)
		if len(xys) >= 2 {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			l.LineStyle = dashed(inkColor, 1.2)
			p.Add(l)
			p.Legend.Add(Ellipsis(f.Name, 40), l)
			ch.add(Plotted{Name: f.Name, X: xyX(xys), Y: xyY(xys)})
			for _, t := range f.Times {
				lo, hi = minTime(lo, t), maxTime(hi, t)
			}
			for _, pt := range xys {
				ymax = math.Max(ymax, pt.Y)
			}
		}
	}
	for _, b := range d.Breaks {
		at := float64(b.Time.Unix())
		// In the right half the label goes left of the line.
		left := b.Time.Sub(lo) > hi.Sub(b.Time)
		p.Add(&rule{Vertical: true, At: at, Line: dashed(lightInk, 1), Text: textStyle(noteSize, inkColor), Label: b.Label, LabelLeft: left})
		ch.add(Plotted{Name: "break: " + b.Label, X: []float64{at}})
	}
	for _, s := range d.Notes {
		p.Legend.Add(s)
	}
	ch.Notes = append(ch.Notes, d.Notes...)
	p.X.Tick.Marker = timeTicks{}
	if hi.Equal(lo) {
		// One snapshot: give the axis an hour either side.
		p.X.Min, p.X.Max = float64(lo.Unix()-3600), float64(lo.Unix()+3600)
	}
	p.Y.Min = 0
	p.Y.Max = math.Max(ymax, 1) * legendHeadroom(n+btoi(d.Fit != nil)+len(d.Notes))
	p.Legend.Top, p.Legend.Left = true, true
	ch.addPanel(p)
	return ch, nil
}

// legendHeadroom is the factor that lifts the top of the value axis so
// that a legend of n rows in the top left corner stays above the lines
// (the data area of a default chart is about 260 points high).
func legendHeadroom(n int) float64 {
	frac := (float64(n)*legendSize*1.25 + 8) / 260
	return 1 / (1 - math.Min(frac, 0.6))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// timeTicks labels a time axis (Unix seconds, UTC) at round steps:
// minutes, hours, days, weeks, months or years (at most 5 ticks), so that the labels fall on midnight or on the
// hour rather than wherever the first snapshot was taken.
type timeTicks struct{}

// Ticks implements gplot.Ticker.
func (timeTicks) Ticks(min, max float64) []gplot.Tick {
	if !finite(min, max) || max <= min {
		return nil
	}
	span := time.Duration((max - min) * float64(time.Second))
	steps := []struct {
		d      time.Duration
		months int
		format string
	}{
		{time.Minute, 0, "15:04"}, {5 * time.Minute, 0, "15:04"}, {15 * time.Minute, 0, "15:04"},
		{30 * time.Minute, 0, "15:04"}, {time.Hour, 0, "15:04"}, {3 * time.Hour, 0, "Jan 2 15:04"}, {6 * time.Hour, 0, "Jan 2 15:04"},
		{12 * time.Hour, 0, "Jan 2 15:04"}, {24 * time.Hour, 0, "Jan 2"}, {2 * 24 * time.Hour, 0, "Jan 2"},
		{7 * 24 * time.Hour, 0, "Jan 2"}, {14 * 24 * time.Hour, 0, "Jan 2"},
		{0, 1, "Jan 2006"}, {0, 3, "Jan 2006"}, {0, 6, "Jan 2006"}, {0, 12, "2006"},
	}
	lo := time.Unix(int64(math.Floor(min)), 0).UTC()
	hi := time.Unix(int64(math.Ceil(max)), 0).UTC()
	for k, st := range steps {
		approx := st.d
		if st.months > 0 {
			approx = time.Duration(st.months) * 30 * 24 * time.Hour
		}
		if span/approx > 5 && k < len(steps)-1 {
			continue
		}
		var ticks []gplot.Tick
		var t time.Time
		if st.months > 0 {
			t = time.Date(lo.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
		} else {
			t = lo.Truncate(st.d)
		}
		for i := 0; !t.After(hi) && i < 1000; i++ {
			if !t.Before(lo) {
				ticks = append(ticks, gplot.Tick{Value: float64(t.Unix()), Label: t.Format(st.format)})
			}
			if st.months > 0 {
				t = t.AddDate(0, st.months, 0)
			} else {
				t = t.Add(st.d)
			}
		}
		return ticks
	}
	return nil
}

// HistoryForecast is the data of the forecast chart: the measured sizes
// of one object, its fitted model carried on to the day it reaches the
// target, and that day with its interval.
type HistoryForecast struct {
	Title  string
	YLabel string
	// Measured holds the values at Times (NaN where unknown).
	Times    []time.Time
	Measured HistorySeries
	// Fit is the model sampled from the first snapshot to the crossing.
	Fit    HistoryFit
	Target float64
	// TargetLabel names the target line in the legend ("target 100 GiB").
	TargetLabel string
	Crossing    time.Time
	// Earliest and Latest bound the crossing; nil when unknown.
	Earliest, Latest *time.Time
}

// HistoryForecastChart draws the measured sizes, the dashed model up to
// the target line, and the crossing with its interval as a bar along
// the target. Plotted: the measured series, the fit, "crossing" and
// "interval" (X in Unix seconds).
func HistoryForecastChart(d HistoryForecast) (*Chart, error) {
	kind := KindHistoryForecast
	ch := &Chart{Kind: kind, Title: d.Title}
	xys := timeXYs(d.Times, d.Measured.Values)
	if len(xys) == 0 {
		return nil, errNoData(kind, "measured values")
	}
	if !finite(d.Target) || d.Target <= 0 {
		return nil, errNoData(kind, "target")
	}
	p := newPlot(d.Title, "", d.YLabel)
	p.Add(newGrid())
	col := seriesColor(0)
	l, sc, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, err
	}
	l.LineStyle = solid(col, 1.6)
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	p.Add(l, sc)
	p.Legend.Add(Ellipsis(d.Measured.Name, MaxNameRunes), l, sc)
	ch.add(Plotted{Name: d.Measured.Name, X: xyX(xys), Y: xyY(xys)})
	ymax := d.Target
	for _, pt := range xys {
		ymax = math.Max(ymax, pt.Y)
	}
	if fit := timeXYs(d.Fit.Times, d.Fit.Values); len(fit) >= 2 {
		fl, err := plotter.NewLine(fit)
		if err != nil {
			return nil, err
		}
		fl.LineStyle = dashed(inkColor, 1.2)
		p.Add(fl)
		p.Legend.Add(Ellipsis(d.Fit.Name, 40), fl)
		ch.add(Plotted{Name: d.Fit.Name, X: xyX(fit), Y: xyY(fit)})
	}
	target := &rule{At: d.Target, Line: dashed(severityColor(SeverityCritical), 1)}
	p.Add(target)
	p.Legend.Add(Ellipsis(d.TargetLabel, 40), target)
	cx := float64(d.Crossing.Unix())
	hiX := cx
	if d.Earliest != nil && d.Latest != nil {
		iv := plotter.XYs{{X: float64(d.Earliest.Unix()), Y: d.Target}, {X: float64(d.Latest.Unix()), Y: d.Target}}
		bar, err := plotter.NewLine(iv)
		if err != nil {
			return nil, err
		}
		bar.LineStyle = solid(withAlpha(severityColor(SeverityCritical), 0x90), 5)
		p.Add(bar)
		p.Legend.Add("95% interval", bar)
		ch.add(Plotted{Name: "interval", X: xyX(iv), Y: xyY(iv)})
		hiX = math.Max(hiX, iv[1].X)
	}
	ring, err := plotter.NewScatter(plotter.XYs{{X: cx, Y: d.Target}})
	if err != nil {
		return nil, err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
	p.Add(ring, notes{{X: cx, Y: d.Target, Offset: vg.Point{Y: -vg.Points(16)},
		Text: d.Crossing.Format("Jan 2, 2006"), Style: centered(textStyle(noteSize, inkColor))}})
	p.Legend.Add("reaches the target", ring)
	ch.add(Plotted{Name: "crossing", X: []float64{cx}, Y: []float64{d.Target}})
	legendRows := 3 + btoi(len(d.Fit.Values) >= 2) + btoi(d.Earliest != nil && d.Latest != nil)
	p.X.Tick.Marker = timeTicks{}
	lo := float64(d.Times[0].Unix())
	p.X.Min, p.X.Max = lo, hiX+(hiX-lo)*0.04
	p.Y.Min = 0
	p.Y.Max = ymax * legendHeadroom(legendRows)
	p.Legend.Top, p.Legend.Left = true, true
	ch.addPanel(p)
	return ch, nil
}

// timeXYs pairs times (as Unix seconds) with the finite values.
func timeXYs(ts []time.Time, vs []float64) plotter.XYs {
	var xys plotter.XYs
	for i, t := range ts {
		if i < len(vs) && finite(vs[i]) {
			xys = append(xys, plotter.XY{X: float64(t.Unix()), Y: vs[i]})
		}
	}
	return xys
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
