package plot

import (
	"fmt"
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BenchTimeline is a workload run's throughput over time: one value per
// second per series, the warm-up and the drain shaded (they are not
// measured), the window between them.
type BenchTimeline struct {
	Title  string
	YLabel string // "transactions per second"
	// T is the start of each second since the run's start; every series
	// has a value per second.
	T      []float64
	Series []Series // Series.X is ignored: T is the x of every series
	// Shaded spans [from, to) in seconds, each with a label.
	Shaded []Shade
	// Level, when set, is a horizontal line (the window's mean) labelled
	// LevelLabel.
	Level      *float64
	LevelLabel string
}

// Shade is a span of time drawn in grey with its name.
type Shade struct {
	From, To float64
	Label    string
}

// BenchTimelineChart draws the series as lines over time.
func BenchTimelineChart(d BenchTimeline) (*Chart, error) {
	ch := &Chart{Kind: KindBenchTimeline, Title: d.Title}
	if len(d.T) == 0 {
		return nil, errNoData(ch.Kind, "seconds")
	}
	p := newPlot(d.Title, "seconds since the start", d.YLabel)
	shaded := false
	for _, s := range d.Shaded {
		if s.To > s.From {
			p.Add(&span{From: s.From, To: s.To, Color: shadeColor, Label: s.Label, Text: textStyle(noteSize, lightInk)})
			ch.add(Plotted{Name: "shaded " + s.Label, X: []float64{s.From, s.To}})
			shaded = true
		}
	}
	p.Add(newGrid())
	ymax := 0.0
	n := 0
	for i, s := range d.Series {
		var xys plotter.XYs
		for j, t := range d.T {
			if j < len(s.Y) && finite(t, s.Y[j]) {
				// Each value holds for its whole second: drawn at the
				// second's middle.
				xys = append(xys, plotter.XY{X: t + 0.5, Y: s.Y[j]})
				ymax = math.Max(ymax, s.Y[j])
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plot %s: series %q: %w", ch.Kind, s.Name, err)
		}
		l.LineStyle = solid(seriesColor(i), 1.4)
		p.Add(l)
		p.Legend.Add(Ellipsis(s.Name, MaxNameRunes), l)
		ch.add(Plotted{Name: s.Name, X: xyX(xys), Y: xyY(xys)})
		n++
	}
	if n == 0 {
		return nil, errNoData(ch.Kind, "series")
	}
	if shaded {
		p.Legend.Add("not measured", framedSwatch{Fill: shadeColor, Line: solid(lightInk, 0.6)})
	}
	if d.Level != nil && finite(*d.Level) {
		// (named in the legend: a label on the line was crossed by the
		// curve it levels and cut by the shade after the window)
		r := &rule{At: *d.Level, Line: dashed(inkColor, 1)}
		p.Add(r)
		if d.LevelLabel != "" {
			p.Legend.Add(d.LevelLabel, r)
		}
		ch.add(Plotted{Name: d.LevelLabel, Y: []float64{*d.Level}})
	}
	p.X.Min = d.T[0]
	p.X.Max = d.T[len(d.T)-1] + 1
	p.Y.Min = 0
	p.Y.Max = math.Max(ymax*1.25, 1)
	p.Legend.Top, p.Legend.Left = true, false
	if shaded {
		// Below the spans' labels, which sit at the top: the drain's is
		// at the right, where the legend is.
		p.Legend.YOffs = -(textStyle(noteSize, lightInk).Rectangle("drain").Size().Y + vg.Points(4))
	}
	ch.addPanel(p)
	return ch, nil
}

var shadeColor = color.RGBA{0xE4, 0xE4, 0xE4, 0xFF}

// span shades a range of X across the whole data area, with its label at
// the top where it fits inside the span.
type span struct {
	From, To float64
	Color    color.Color
	Label    string
	Text     text.Style
}

// Plot implements gplot.Plotter.
func (s *span) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, _ := p.Transforms(&c)
	x0, x1 := trX(s.From), trX(s.To)
	pts := []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}}
	c.FillPolygon(s.Color, c.ClipPolygonX(pts))
	if s.Label != "" && s.Text.Rectangle(s.Label).Size().X+vg.Points(4) <= x1-x0 {
		sty := s.Text
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: c.Max.Y - vg.Points(2)}, s.Label)
	}
}

// BenchLatency is the latency percentiles of each transaction kind.
type BenchLatency struct {
	Title string
	Rows  []LatencyRow
}

// LatencyRow is one kind's percentiles in milliseconds; NaN where none
// committed, or where too few did for a percentile (it is not marked).
type LatencyRow struct {
	Name                    string
	P50, P90, P95, P99, Max float64
}

// BenchLatencyChart draws each kind on a row: a line from the median to
// the maximum on a log axis, with a mark at each percentile.
func BenchLatencyChart(d BenchLatency) (*Chart, error) {
	ch := &Chart{Kind: KindBenchLatency, Title: d.Title}
	var rows []LatencyRow
	for _, r := range d.Rows {
		if finite(r.Max) && r.Max > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, errNoData(ch.Kind, "latencies")
	}
	p := newPlot(d.Title, "milliseconds (log scale)", "")
	p.X.Scale = gplot.LogScale{}
	p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
	valueGrid(p, true)
	names := make([]string, len(rows))
	lo, hi := math.Inf(1), math.Inf(-1)
	// The first row at the top, as a table reads.
	pos := func(i int) float64 { return float64(len(rows) - 1 - i) }
	for i, r := range rows {
		names[len(rows)-1-i] = r.Name
		from := r.Max // (the median of too few operations is not marked)
		if finite(r.P50) && r.P50 > 0 {
			from = r.P50
		}
		l, err := plotter.NewLine(plotter.XYs{{X: from, Y: pos(i)}, {X: r.Max, Y: pos(i)}})
		if err != nil {
			return nil, err
		}
		l.LineStyle = solid(lightInk, 1)
		p.Add(l)
		lo, hi = math.Min(lo, from), math.Max(hi, r.Max)
	}
	marks := []struct {
		name  string
		get   func(LatencyRow) float64
		shape draw.GlyphDrawer
	}{
		{"p50", func(r LatencyRow) float64 { return r.P50 }, draw.CircleGlyph{}},
		{"p90", func(r LatencyRow) float64 { return r.P90 }, draw.TriangleGlyph{}},
		{"p95", func(r LatencyRow) float64 { return r.P95 }, draw.SquareGlyph{}},
		{"p99", func(r LatencyRow) float64 { return r.P99 }, draw.PyramidGlyph{}},
		{"max", func(r LatencyRow) float64 { return r.Max }, draw.CrossGlyph{}},
	}
	for m, mk := range marks {
		var xys plotter.XYs
		var labels []string
		for i, r := range rows {
			if v := mk.get(r); finite(v) && v > 0 {
				xys = append(xys, plotter.XY{X: v, Y: pos(i)})
				labels = append(labels, r.Name)
			}
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColor(m), Radius: vg.Points(4), Shape: mk.shape}
		p.Add(sc)
		p.Legend.Add(mk.name, sc)
		ch.add(Plotted{Name: mk.name, X: xyX(xys), Y: xyY(xys), Labels: labels})
	}
	categoryAxis(&p.Y, names)
	logRange(&p.X, lo/1.5, hi*1.5)
	ch.addBarsPanel(p, len(rows), len(marks))
	return ch, nil
}

// framedSwatch is a legend square with a frame, visible on a shaded
// background.
type framedSwatch struct {
	Fill color.Color
	Line draw.LineStyle
}

// Thumbnail implements gplot.Thumbnailer.
func (s framedSwatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	}
	c.FillPolygon(s.Fill, pts)
	c.StrokeLines(s.Line, append(pts, pts[0]))
}
