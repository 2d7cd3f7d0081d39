package plot

import (
	"image/color"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The marks below are small gonum/plot plotters written for fbdiag's
// charts: gonum's BarChart cannot float a bar (Gantt), colour bars one by
// one, or reserve room for a label at the bar's end, and these can. Each
// reports GlyphBoxes so the plot leaves room for its labels.

// bar is one rectangle on a category axis: category Pos (0, 1, 2…)
// shifted by Offset, Thick wide (both in category units), spanning Lo..Hi
// on the value axis.
type bar struct {
	Pos, Offset, Thick float64
	Lo, Hi             float64
	Color              color.Color
	// Label is drawn just past Hi (outside the bar), or just inside it
	// in white when the bar set is Inside.
	Label string
	// LabelAt, when past Hi, is where a vertical bar's label goes
	// instead (above the whisker of the runs).
	LabelAt float64
}

// labelTop is where a vertical bar's outside label sits.
func (r bar) labelTop() float64 { return math.Max(r.Hi, r.LabelAt) }

// bars draws rectangles; Horizontal puts the categories on the Y axis.
type bars struct {
	Horizontal bool
	// Inside puts the labels inside the bars' ends (vertical bars only),
	// where no reference line can cross them.
	Inside bool
	Bars   []bar
	Label  text.Style
}

func newBars(horizontal bool) *bars {
	return &bars{Horizontal: horizontal, Label: textStyle(noteSize, inkColor)}
}

func textStyle(size float64, c color.Color) text.Style {
	return text.Style{Font: sansFont(size), Color: c, Handler: gplot.DefaultTextHandler}
}

func (b *bars) add(x bar) { b.Bars = append(b.Bars, x) }

// Plot implements gplot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.Bars {
		lo, hi := r.Lo, r.Hi
		c0, c1 := r.Pos+r.Offset-r.Thick/2, r.Pos+r.Offset+r.Thick/2
		var pts []vg.Point
		var lp vg.Point
		sty := b.Label
		if b.Horizontal {
			x0, x1, y0, y1 := trX(lo), trX(hi), trY(c0), trY(c1)
			pts = []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			lp = vg.Point{X: x1 + vg.Points(3), Y: (y0 + y1) / 2}
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
		} else {
			x0, x1, y0, y1 := trX(c0), trX(c1), trY(lo), trY(hi)
			pts = []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			lp = vg.Point{X: (x0 + x1) / 2, Y: trY(r.labelTop()) + vg.Points(2)}
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
			if b.Inside {
				lp.Y = y1 - vg.Points(3)
				sty.YAlign = draw.YTop
				sty.Color = color.White
			}
		}
		if b.Inside && b.Horizontal {
			lp.X = trX(hi) - vg.Points(3)
			sty.XAlign = draw.XRight
			sty.Color = color.White
		}
		c.FillPolygon(r.Color, c.ClipPolygonXY(pts))
		if r.Label != "" {
			c.FillText(sty, lp, r.Label)
		}
	}
}

// DataRange implements gplot.DataRanger: the categories get half a slot
// on each side; the value axis always includes zero.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax := math.Inf(1), math.Inf(-1)
	vmin, vmax := 0.0, 0.0
	for _, r := range b.Bars {
		cmin = math.Min(cmin, r.Pos-0.5)
		cmax = math.Max(cmax, r.Pos+0.5)
		vmin = math.Min(vmin, math.Min(r.Lo, r.Hi))
		vmax = math.Max(vmax, math.Max(r.Lo, r.Hi))
	}
	if len(b.Bars) == 0 {
		cmin, cmax = 0, 1
	}
	if b.Horizontal {
		return vmin, vmax, cmin, cmax
	}
	return cmin, cmax, vmin, vmax
}

// GlyphBoxes implements gplot.GlyphBoxer so labels past the bars' ends
// get room.
func (b *bars) GlyphBoxes(p *gplot.Plot) []gplot.GlyphBox {
	var out []gplot.GlyphBox
	for _, r := range b.Bars {
		if r.Label == "" || b.Inside {
			continue
		}
		sty := b.Label
		var gb gplot.GlyphBox
		if b.Horizontal {
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
			gb.X, gb.Y = p.X.Norm(r.Hi), p.Y.Norm(r.Pos+r.Offset)
			gb.Rectangle = sty.Rectangle(r.Label).Add(vg.Point{X: vg.Points(3)})
		} else {
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
			gb.X, gb.Y = p.X.Norm(r.Pos+r.Offset), p.Y.Norm(r.labelTop())
			gb.Rectangle = sty.Rectangle(r.Label).Add(vg.Point{Y: vg.Points(2)})
		}
		out = append(out, gb)
	}
	return out
}

// swatch is a legend thumbnail: a filled square.
type swatch struct{ Color color.Color }

// Thumbnail implements gplot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	}
	c.FillPolygon(s.Color, pts)
}

// rule is a vertical (Vertical) or horizontal reference line across the
// data area at At, with a label at its top or right end.
type rule struct {
	Vertical bool
	At       float64
	// From and To limit the line along the other axis (data units);
	// both zero means across the whole data area.
	From, To float64
	Line     draw.LineStyle
	Label    string
	Text     text.Style
	// LabelLeft puts a vertical rule's label on its left: a rule near
	// the right edge would have it cut.
	LabelLeft bool
}

// Plot implements gplot.Plotter.
func (r *rule) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := r.Text
	if r.Vertical {
		x := trX(r.At)
		if !c.ContainsX(x) {
			return
		}
		y0, y1 := c.Min.Y, c.Max.Y
		if r.From != 0 || r.To != 0 {
			y0, y1 = trY(r.From), trY(r.To)
		}
		c.StrokeLine2(r.Line, x, y0, x, y1)
		if r.Label != "" {
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
			at := x + vg.Points(3)
			if r.LabelLeft {
				sty.XAlign, at = draw.XRight, x-vg.Points(3)
			}
			c.FillText(sty, vg.Point{X: at, Y: c.Max.Y - vg.Points(2)}, r.Label)
		}
		return
	}
	y := trY(r.At)
	if !c.ContainsY(y) {
		return
	}
	c.StrokeLine2(r.Line, c.Min.X, y, c.Max.X, y)
	if r.Label != "" {
		sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
		c.FillText(sty, vg.Point{X: c.Max.X - vg.Points(2), Y: y + vg.Points(2)}, r.Label)
	}
}

// Thumbnail implements gplot.Thumbnailer.
func (r *rule) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(r.Line, c.Min.X, y, c.Max.X, y)
}

// note is a text placed at a data point, shifted by Offset.
type note struct {
	X, Y   float64
	Offset vg.Point
	Text   string
	Style  text.Style
}

// notes draws texts at data points; they reserve room like labels do.
type notes []note

// Plot implements gplot.Plotter.
func (ns notes) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, n := range ns {
		pt := vg.Point{X: trX(n.X), Y: trY(n.Y)}
		c.FillText(n.Style, pt.Add(n.Offset), n.Text)
	}
}

// GlyphBoxes implements gplot.GlyphBoxer.
func (ns notes) GlyphBoxes(p *gplot.Plot) []gplot.GlyphBox {
	out := make([]gplot.GlyphBox, len(ns))
	for i, n := range ns {
		out[i] = gplot.GlyphBox{X: p.X.Norm(n.X), Y: p.Y.Norm(n.Y), Rectangle: n.Style.Rectangle(n.Text).Add(n.Offset)}
	}
	return out
}

func dashed(c color.Color, width float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
}

func solid(c color.Color, width float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width)}
}

// categoryAxis puts names on a category axis (0, 1, 2…), shortened with
// an ellipsis, and hides the axis line so the bars start clean.
func categoryAxis(a *gplot.Axis, names []string) {
	ticks := make(gplot.ConstantTicks, len(names))
	for i, n := range names {
		ticks[i] = gplot.Tick{Value: float64(i), Label: ellipsisKeepQualifier(n, MaxNameRunes)}
	}
	a.Tick.Marker = ticks
	a.Tick.Length = 0
	a.Width = 0
	a.Padding = 0
}

// valueGrid adds light grid lines along the value axis only.
func valueGrid(p *gplot.Plot, horizontal bool) {
	g := newGrid()
	if horizontal {
		g.Horizontal.Color = nil
	} else {
		g.Vertical.Color = nil
	}
	p.Add(g)
}

// ellipsisKeepQualifier is Ellipsis keeping a short qualifier in
// parentheses at the end, which tells two steps of one object apart:
// "index INDMF_TAG_PLC_DATA_DT… (build)", not "index INDMF_TAG_PLC_DATA_DT_D (buil…".
func ellipsisKeepQualifier(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i > 0 {
			q := []rune(s[i:])
			if len(q) <= n/3 {
				return Ellipsis(s[:i], n-len(q)) + string(q)
			}
		}
	}
	return Ellipsis(s, n)
}

// spread is a vertical whisker from Lo to Hi at X (a setting's or a
// variant's smallest and largest run), with short caps.
type spread struct {
	X, Lo, Hi float64
}

// spreads draws whiskers; Line is their style.
type spreads struct {
	S    []spread
	Line draw.LineStyle
}

// Plot implements gplot.Plotter.
func (s *spreads) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	cap := vg.Points(4)
	for _, w := range s.S {
		if !finite(w.X, w.Lo, w.Hi) {
			continue
		}
		x, y0, y1 := trX(w.X), trY(w.Lo), trY(w.Hi)
		c.StrokeLine2(s.Line, x, y0, x, y1)
		c.StrokeLine2(s.Line, x-cap, y0, x+cap, y0)
		c.StrokeLine2(s.Line, x-cap, y1, x+cap, y1)
	}
}

// DataRange implements gplot.DataRanger.
func (s *spreads) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, w := range s.S {
		if !finite(w.X, w.Lo, w.Hi) {
			continue
		}
		xmin, xmax = math.Min(xmin, w.X), math.Max(xmax, w.X)
		ymin, ymax = math.Min(ymin, w.Lo), math.Max(ymax, w.Hi)
	}
	return
}

// Thumbnail implements gplot.Thumbnailer: a small whisker.
func (s *spreads) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(s.Line, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(s.Line, x-vg.Points(3), c.Min.Y, x+vg.Points(3), c.Min.Y)
	c.StrokeLine2(s.Line, x-vg.Points(3), c.Max.Y, x+vg.Points(3), c.Max.Y)
}

// runOffsets spreads n dots of one category side by side over width
// (category units), in the order given, so that equal runs stay
// visible; the same input gives the same offsets (no jitter).
func runOffsets(n int, width float64) []float64 {
	out := make([]float64, n)
	if n < 2 {
		return out
	}
	for i := range out {
		out[i] = (float64(i)/float64(n-1) - 0.5) * width
	}
	return out
}

func notesX(ns notes) []float64 {
	out := make([]float64, len(ns))
	for i, n := range ns {
		out[i] = n.X
	}
	return out
}

// GapRatio and GapSpacing say when a measured line is broken: a step
// between neighbouring x values that is at least GapRatio wide (two
// doublings with no measurement, the width at which analyze's cliff test
// suspects a knee can hide: throughput-degradation.knee_jump) and at
// least GapSpacing times the median step of the line (in log x for a
// log axis) is drawn as a thin dashed line, not as a measured trend: a
// solid line from 30 GB to 1.8 TB would claim a straight decline nobody
// measured.
const (
	GapRatio   = 4
	GapSpacing = 4
)

// splitGaps cuts a line (sorted by x) into solid segments and the gaps
// between them (each two points); logX measures steps as ratios.
func splitGaps(xys plotter.XYs, logX bool) (segs, gaps []plotter.XYs) {
	if len(xys) < 2 {
		if len(xys) == 1 {
			return []plotter.XYs{xys}, nil
		}
		return nil, nil
	}
	step := func(i int) float64 {
		a, b := xys[i-1].X, xys[i].X
		if logX && a > 0 && b > 0 {
			return math.Log(b / a)
		}
		return b - a
	}
	var steps []float64
	for i := 1; i < len(xys); i++ {
		steps = append(steps, math.Abs(step(i)))
	}
	sorted := append([]float64(nil), steps...)
	slices.Sort(sorted)
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	gap := func(i int) bool {
		a, b := xys[i-1].X, xys[i].X
		if len(steps) < 3 || !(a > 0) || b/a < GapRatio {
			return false
		}
		return median > 0 && steps[i-1] >= GapSpacing*median
	}
	cur := plotter.XYs{xys[0]}
	for i := 1; i < len(xys); i++ {
		if gap(i) {
			segs = append(segs, cur)
			gaps = append(gaps, plotter.XYs{xys[i-1], xys[i]})
			cur = plotter.XYs{xys[i]}
			continue
		}
		cur = append(cur, xys[i])
	}
	segs = append(segs, cur)
	return segs, gaps
}
