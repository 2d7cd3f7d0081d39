package plot

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fbdiag/fbdiag/internal/units"
)

// Series is a named set of measured points.
type Series struct {
	Name string
	X, Y []float64
	// Unsteady, when given, marks the points (same order as X) of runs
	// whose own measurement window was not steady (fbdiag bench's
	// verdict): they are drawn hollow.
	Unsteady []bool
}

// unsteadyXYs are s's points marked Unsteady that keep(x, y) keeps.
func (s Series) unsteadyXYs(keep func(x, y float64) bool) plotter.XYs {
	var out plotter.XYs
	for i, u := range s.Unsteady {
		if u && i < len(s.X) && i < len(s.Y) && keep(s.X[i], s.Y[i]) {
			out = append(out, plotter.XY{X: s.X[i], Y: s.Y[i]})
		}
	}
	return out
}

// unsteadyLegend is the legend of the hollow points.
const unsteadyLegend = "hollow: a run not steady in its window"

// addUnsteady draws the points xys of series colour col hollow, over
// their filled dots; it returns the scatter (nil without points), for
// the panel's one legend entry of them.
func addUnsteady(ch *Chart, p *gplot.Plot, name string, xys plotter.XYs, col color.Color, r vg.Length) (*plotter.Scatter, error) {
	if len(xys) == 0 {
		return nil, nil
	}
	fill, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	fill.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: r, Shape: draw.CircleGlyph{}}
	ring, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: col, Radius: r, Shape: draw.RingGlyph{}}
	p.Add(fill, ring)
	ch.add(Plotted{Name: name + " not steady", X: xyX(xys), Y: xyY(xys)})
	return ring, nil
}

// Curve is a fitted model sampled at X (the analysis chooses the points,
// so the chart draws exactly the model it reports).
type Curve struct {
	Name string
	X, Y []float64
	// Of names the series the curve was fitted to; "" is the first.
	// Series of very different scale get panels of their own, each with
	// its fits.
	Of string
	// Faint draws the curve pale and thin: a fit the analysis does not
	// find significant, which the legend (Name) says.
	Faint bool
}

// Point is one marked point; Label says what it is.
type Point struct {
	X, Y  float64
	Label string
}

// Interval is a range of Y values (a prediction interval).
type Interval struct{ Lo, Hi float64 }

// SizeThroughput is the data of the size vs throughput chart (Figures 6
// and 11 of the IBSurgeon degradation article): measured throughput per
// database size, the fitted curves, the prediction and the knee.
type SizeThroughput struct {
	Title string
	// XUnit is the unit of the x values. An IEC size unit (B, KiB, MiB,
	// GiB, TiB, PiB) makes a size axis with ticks at powers of two read
	// as fbdiag reads sizes everywhere (16 GiB, 64 GiB, 1 TiB); any other
	// (warehouses, a scale) labels plain figures at powers of ten.
	XUnit string
	// XLabel names an x that is not a size (page_buffers, where the
	// degradation mode was asked for a sweep's setting); "" for a size.
	XLabel string
	// YLabel names the throughput ("business operations/s", "tps").
	YLabel string
	Series []Series
	// Fits are drawn solid over the measured sizes and dashed beyond
	// them, where they are an extrapolation.
	Fits []Curve
	// Predictions are the predicted throughputs at a size, one per
	// series at most, each drawn hollow with its interval in its fit's
	// colour; none when none was asked for.
	Predictions []Prediction
	// Knee is the size the cliff test was run at; nil when none.
	// KneeLabel is written beside its line ("knee 16 GB" when empty).
	Knee      *float64
	KneeLabel string
	// HighLeverage are measured points that dominate the fit, ringed;
	// their Label goes to the legend.
	HighLeverage []Point
}

// Prediction is a predicted throughput and its interval.
type Prediction struct {
	Point
	Interval *Interval
	// Fit is the index in Fits of the curve it was read from, whose colour
	// it takes (a marker in another's colour reads as that curve's); -1
	// when that curve is not drawn.
	Fit int
	// Of names its series; "" is the first.
	Of string
}

// ScaleRatio is when series get panels of their own: when the largest
// throughput of one is at least ScaleRatio times another's, the smaller
// would sit in the bottom fifth of a shared axis and read as a flat line
// (pgbench select-only at 22000 tps beside TPC-B at 1500).
const ScaleRatio = 5

// scaleGroups splits the series (their indices) into groups of similar
// scale: sorted by their largest value, a new group starts where one is
// ScaleRatio times the group's smallest. One group when all are alike.
func scaleGroups(series []Series) [][]int {
	type top struct {
		i   int
		max float64
	}
	var tops []top
	for i, s := range series {
		m := 0.0
		for _, pt := range positiveXYs(s.X, s.Y) {
			m = math.Max(m, pt.Y)
		}
		if m > 0 {
			tops = append(tops, top{i, m})
		}
	}
	if len(tops) < 2 {
		return [][]int{nil}
	}
	sorted := slices.Clone(tops)
	slices.SortStableFunc(sorted, func(a, b top) int { return cmp.Compare(a.max, b.max) })
	group := map[int]int{}
	g, lo := 0, sorted[0].max
	for _, t := range sorted {
		if t.max >= ScaleRatio*lo {
			g++
			lo = t.max
		}
		group[t.i] = g
	}
	if g == 0 {
		return [][]int{nil}
	}
	// Panels in the order of the series: the first series' panel first.
	var out [][]int
	seen := map[int]int{}
	for i := range series {
		gi, ok := group[i]
		if !ok {
			continue
		}
		k, ok := seen[gi]
		if !ok {
			k = len(out)
			seen[gi] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// panelTitle is the title of the panel of group g: the chart's when it
// is the only one, else the names of its series.
func panelTitle(title string, series []Series, groups [][]int, g []int) string {
	if len(groups) < 2 {
		return title
	}
	var names []string
	for _, i := range g {
		names = append(names, series[i].Name)
	}
	return Ellipsis(strings.Join(names, ", "), 40)
}

// SizeThroughputChart draws throughput against database size on a log
// size axis; series of very different scale (ScaleRatio) get a panel
// each, side by side, with their own throughput axis.
func SizeThroughputChart(d SizeThroughput) (*Chart, error) {
	ch := &Chart{Kind: KindSizeThroughput, Title: d.Title}
	groups := scaleGroups(d.Series)
	for gi, g := range groups {
		if err := sizePanel(ch, d, g, gi == 0, panelTitle(d.Title, d.Series, groups, g)); err != nil {
			return nil, err
		}
	}
	if len(ch.panels) == 0 {
		return nil, errNoData(ch.Kind, "positive sizes")
	}
	return ch, nil
}

// sizePanel adds the panel of the series in only (all when nil), with
// their fits and, in the first panel, the series-less marks.
func sizePanel(ch *Chart, d SizeThroughput, only []int, first bool, title string) error {
	in := func(i int) bool { return only == nil || slices.Contains(only, i) }
	of := func(name string) bool {
		if name == "" {
			return first
		}
		for i, s := range d.Series {
			if s.Name == name {
				return in(i)
			}
		}
		return first
	}
	p := newPlot(title, "database size (log scale)", d.YLabel)
	// In a panel of its own the series is named by the title: its
	// legend entries drop the "series: " the caller put before them.
	short := func(label string) string {
		if only == nil {
			return label
		}
		for _, i := range only {
			if rest, ok := strings.CutPrefix(label, d.Series[i].Name+": "); ok {
				return rest
			}
		}
		return label
	}
	entries := 0
	p.X.Scale = gplot.LogScale{}
	if f, ok := iecFactor(d.XUnit); ok {
		p.X.Tick.Marker = binaryTicks{Factor: f}
		if only != nil {
			// Half the width: half the labels.
			p.X.Tick.Marker = binaryTicks{Factor: f, MaxLabels: 4}
		}
	} else {
		// Not bytes (warehouses, a scale factor): plain figures, the
		// unit in the axis label.
		p.X.Tick.Marker = figureTicks{}
		switch {
		case d.XLabel != "":
			p.X.Label.Text = d.XLabel + " (log scale)"
		case d.XUnit != "":
			p.X.Label.Text = "database size (" + d.XUnit + ", log scale)"
		}
	}
	p.Add(newGrid())
	// A fit is solid over its own series' sizes: the bench mix's 4096
	// series, measured to 137 MiB, was drawn solid to the 211 MiB
	// another series reached.
	seriesMax, measuredMax := seriesMaxima(d.Series, in)
	ymax := 0.0
	n := 0
	var unsteady *plotter.Scatter // (the legend's, the first series' with one)
	for i, s := range d.Series {
		xys := positiveXYs(s.X, s.Y)
		if len(xys) == 0 || !in(i) {
			continue
		}
		for _, pt := range xys {
			ymax = math.Max(ymax, pt.Y)
		}
		col := seriesColor(i)
		// The line between measurements is dashed across a gap far
		// wider than the other steps (GapRatio): nothing was measured
		// there.
		segs, gaps := splitGaps(xys, true)
		for _, sg := range segs {
			l, err := plotter.NewLine(sg)
			if err != nil {
				return fmt.Errorf("plot %s: series %q: %w", ch.Kind, s.Name, err)
			}
			l.LineStyle = solid(withAlpha(col, 0x70), 1)
			p.Add(l)
		}
		for _, g := range gaps {
			l, err := plotter.NewLine(g)
			if err != nil {
				return err
			}
			l.LineStyle = dashed(withAlpha(col, 0x50), 0.8)
			l.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(4)}
			p.Add(l)
			ch.add(Plotted{Name: s.Name + " gap", X: xyX(g), Y: xyY(g)})
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plot %s: series %q: %w", ch.Kind, s.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		hollow, err := addUnsteady(ch, p, s.Name, s.unsteadyXYs(func(x, y float64) bool { return x > 0 && finite(x, y) }), col, vg.Points(3))
		if err != nil {
			return err
		}
		if hollow != nil && unsteady == nil {
			unsteady = hollow
		}
		label := Ellipsis(s.Name, MaxNameRunes)
		if len(gaps) > 0 {
			label += " (dashed: not measured between)"
		}
		p.Legend.Add(label, sc)
		entries++
		ch.add(Plotted{Name: s.Name, X: xyX(xys), Y: xyY(xys)})
		n++
	}
	if n == 0 {
		return nil
	}
	if unsteady != nil {
		p.Legend.Add(unsteadyLegend, unsteady)
		entries++
	}
	styles := fitStyles(d)
	for i, f := range d.Fits {
		if !of(f.Of) {
			continue
		}
		xys := positiveXYs(f.X, f.Y)
		// Throughput is never negative: a curve (a straight line on a
		// log axis bends down) stops where it reaches zero, and the
		// legend says so.
		cut := slices.IndexFunc(xys, func(pt plotter.XY) bool { return pt.Y <= 0 })
		name := f.Name
		if cut >= 0 {
			xys = xys[:cut]
			name += ", cut at 0"
		}
		if len(xys) < 2 {
			continue
		}
		st := styles[i]
		in, out := splitAt(xys, solidEnd(f.Of, seriesMax, measuredMax))
		var thumb *plotter.Line
		if len(in) >= 2 {
			l, err := plotter.NewLine(in)
			if err != nil {
				return err
			}
			l.LineStyle = solid(st.col, st.width)
			l.LineStyle.Dashes = st.dashes
			p.Add(l)
			thumb = l
		}
		if len(out) >= 2 {
			l, err := plotter.NewLine(out)
			if err != nil {
				return err
			}
			l.LineStyle = dashed(st.col, st.width)
			p.Add(l)
			if thumb == nil {
				thumb = l
			}
		}
		p.Legend.Add(Ellipsis(short(name), 56), thumb)
		entries++
		ch.add(Plotted{Name: f.Name, X: xyX(xys), Y: xyY(xys)})
		for _, pt := range xys {
			ymax = math.Max(ymax, pt.Y)
		}
	}
	for _, pr := range d.Predictions {
		if !of(pr.Of) || !(pr.X > 0) || !finite(pr.X, pr.Y) {
			continue
		}
		col := seriesColor(len(d.Series) + len(d.Fits))
		if pr.Fit >= 0 && pr.Fit < len(d.Fits) {
			col = styles[pr.Fit].hue // (the fit's colour, not faded)
		}
		if iv := pr.Interval; iv != nil && finite(iv.Lo, iv.Hi) {
			bar, err := plotter.NewLine(plotter.XYs{{X: pr.X, Y: iv.Lo}, {X: pr.X, Y: iv.Hi}})
			if err != nil {
				return err
			}
			bar.LineStyle = solid(col, 1.2)
			p.Add(bar)
			ch.add(Plotted{Name: "prediction interval", X: []float64{pr.X, pr.X}, Y: []float64{iv.Lo, iv.Hi}})
			ymax = math.Max(ymax, iv.Hi)
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: pr.X, Y: pr.Y}})
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
		p.Add(sc)
		label := pr.Label
		if label == "" {
			label = fmt.Sprintf("prediction at %s: %s", xText(pr.X, d.XUnit), FormatValue(pr.Y))
		}
		p.Legend.Add(Ellipsis(short(label), 48), sc)
		entries++
		ch.add(Plotted{Name: "prediction", X: []float64{pr.X}, Y: []float64{pr.Y}})
		ymax = math.Max(ymax, pr.Y)
	}
	for _, h := range d.HighLeverage {
		if !first {
			break
		}
		if !(h.X > 0) || !finite(h.X, h.Y) {
			continue
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: h.X, Y: h.Y}})
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(7), Shape: draw.SquareGlyph{}}
		p.Add(sc)
		p.Legend.Add(Ellipsis(h.Label, 48), sc)
		entries++
		ch.add(Plotted{Name: "high leverage", X: []float64{h.X}, Y: []float64{h.Y}})
	}
	if d.Knee != nil && first && *d.Knee > 0 && finite(*d.Knee) {
		label := d.KneeLabel
		if label == "" {
			label = "knee " + xText(*d.Knee, d.XUnit)
		}
		r := &rule{Vertical: true, At: *d.Knee, Line: dashed(lightInk, 1), Text: textStyle(noteSize, inkColor),
			Label: label}
		p.Add(r)
		ch.add(Plotted{Name: "knee", X: []float64{*d.Knee}})
	}
	xmax := measuredMax
	for _, pr := range d.Predictions {
		if of(pr.Of) && finite(pr.X) {
			xmax = math.Max(xmax, pr.X)
		}
	}
	minX := math.Inf(1)
	for _, s := range ch.Plotted {
		for _, x := range s.X {
			if x > 0 {
				minX = math.Min(minX, x)
			}
		}
	}
	logRange(&p.X, minX, xmax*1.4)
	// Throughput starts at zero so a 20 % loss looks like one; the top
	// leaves room for the legend.
	p.Y.Min = 0
	p.Y.Max = ymax * (1.1 + 0.06*float64(entries))
	p.Legend.Top = true
	p.Legend.Left = false
	ch.addPanel(p)
	return nil
}

// LoadSpeed is the data of the load speed chart (Figure 4 of the
// degradation article): the average load speed of each database.
type LoadSpeed struct {
	Title string
	// Unit of the speeds ("MB/s").
	Unit string
	// Names label the databases ("#1 9.04 GB").
	Names  []string
	Values []float64
	// Median is drawn as a line across the bars when set.
	Median *float64
	// Sizes, when every database has one (> 0), put the speeds on a
	// numeric log size axis in XUnit (as SizeThroughput.XUnit) instead
	// of one bar per database: 30.3 GB and 1.81 TB must not sit side by
	// side as if they were neighbours.
	Sizes []float64
	XUnit string
}

// LoadSpeedChart draws one bar per database with its load speed.
func LoadSpeedChart(d LoadSpeed) (*Chart, error) {
	ch := &Chart{Kind: KindLoadSpeed, Title: d.Title}
	if len(d.Values) == 0 || len(d.Names) != len(d.Values) {
		return nil, errNoData(ch.Kind, "databases")
	}
	if len(d.Sizes) == len(d.Values) && !slices.ContainsFunc(d.Sizes, func(x float64) bool { return !(x > 0) || !finite(x) }) {
		return loadBySize(ch, d)
	}
	horizontal := len(d.Names) > 14
	for _, n := range d.Names {
		if len([]rune(n)) > 12 {
			horizontal = true
		}
	}
	p := newPlot(d.Title, "database", "load speed ("+d.Unit+")")
	if horizontal {
		p.X.Label.Text, p.Y.Label.Text = p.Y.Label.Text, ""
	}
	valueGrid(p, horizontal)
	b := newBars(horizontal)
	names := make([]string, len(d.Names))
	xs := make([]float64, len(d.Values))
	for i, v := range d.Values {
		pos := float64(i)
		if horizontal {
			pos = float64(len(d.Values) - 1 - i) // first database on top
		}
		names[int(pos)] = d.Names[i]
		xs[i] = pos
		if !finite(v) {
			continue
		}
		b.add(bar{Pos: pos, Thick: 0.7, Hi: v, Color: seriesColor(0), Label: FormatValue(v)})
	}
	ch.add(Plotted{Name: "load speed", X: xs, Y: append([]float64(nil), d.Values...), Labels: append([]string(nil), d.Names...)})
	if horizontal {
		categoryAxis(&p.Y, names)
	} else {
		categoryAxis(&p.X, names)
	}
	legends := 0
	if d.Median != nil && finite(*d.Median) {
		// The median goes in the legend, not on the line, and the line
		// goes under the bars, so it never crosses their labels.
		r := &rule{Vertical: horizontal, At: *d.Median, Line: dashed(seriesColor(1), 1.4)}
		if horizontal {
			// Only along the bars, not through the legend below them.
			r.From, r.To = -0.5, float64(len(d.Values))-0.5
		}
		p.Add(r)
		p.Legend.Add("median "+FormatValue(*d.Median)+" "+d.Unit, r)
		ch.add(Plotted{Name: "median", Y: []float64{*d.Median}})
		legends++
	}
	p.Add(b)
	b.Inside = true
	if horizontal {
		p.X.Min = 0
		ch.addBarsPanel(p, len(d.Values), legends)
	} else {
		p.Y.Min = 0
		_, _, _, ymax := b.DataRange()
		p.Y.Max = ymax * 1.2
		ch.addPanel(p)
	}
	return ch, nil
}

// loadBySize draws the load speeds against the database size on a log
// axis: a dot per database, the line between them dashed across a gap,
// and the median.
func loadBySize(ch *Chart, d LoadSpeed) (*Chart, error) {
	p := newPlot(d.Title, "database size (log scale)", "load speed ("+d.Unit+")")
	if f, ok := iecFactor(d.XUnit); ok {
		p.X.Tick.Marker = binaryTicks{Factor: f}
	} else {
		p.X.Tick.Marker = figureTicks{}
	}
	p.X.Scale = gplot.LogScale{}
	p.Add(newGrid())
	xys := positiveXYs(d.Sizes, d.Values)
	if len(xys) == 0 {
		return nil, errNoData(ch.Kind, "databases")
	}
	slices.SortStableFunc(xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	col := seriesColor(0)
	segs, gaps := splitGaps(xys, true)
	for _, sg := range segs {
		l, err := plotter.NewLine(sg)
		if err != nil {
			return nil, err
		}
		l.LineStyle = solid(withAlpha(col, 0x70), 1)
		p.Add(l)
	}
	for _, g := range gaps {
		l, err := plotter.NewLine(g)
		if err != nil {
			return nil, err
		}
		l.LineStyle = dashed(withAlpha(col, 0x50), 0.8)
		l.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(4)}
		p.Add(l)
		ch.add(Plotted{Name: "load speed gap", X: xyX(g), Y: xyY(g)})
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.2), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	label := "load speed of each database"
	if len(gaps) > 0 {
		label += " (dashed: not measured between)"
	}
	p.Legend.Add(label, sc)
	ch.add(Plotted{Name: "load speed", X: xyX(xys), Y: xyY(xys), Labels: append([]string(nil), d.Names...)})
	ymax := 0.0
	for _, pt := range xys {
		ymax = math.Max(ymax, pt.Y)
	}
	if d.Median != nil && finite(*d.Median) {
		r := &rule{At: *d.Median, Line: dashed(seriesColor(1), 1.4)}
		p.Add(r)
		p.Legend.Add("median "+FormatValue(*d.Median)+" "+d.Unit, r)
		ch.add(Plotted{Name: "median", Y: []float64{*d.Median}})
	}
	logRange(&p.X, xys[0].X/1.2, xys[len(xys)-1].X*1.2)
	p.Legend.Top, p.Legend.Left = true, false
	p.Y.Min = 0
	p.Y.Max = ymax * 1.3
	ch.addPanel(p)
	return ch, nil
}

func positiveXYs(x, y []float64) plotter.XYs {
	var out plotter.XYs
	for i := range x {
		if i < len(y) && x[i] > 0 && finite(x[i], y[i]) {
			out = append(out, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	return out
}

func xyX(xys plotter.XYs) []float64 {
	out := make([]float64, len(xys))
	for i := range xys {
		out[i] = xys[i].X
	}
	return out
}

func xyY(xys plotter.XYs) []float64 {
	out := make([]float64, len(xys))
	for i := range xys {
		out[i] = xys[i].Y
	}
	return out
}

// fitStyle is how a fit is drawn over its series' sizes (beyond them it
// is dashed, in col and width): hue is its colour before a not
// significant fit fades it, which its prediction keeps.
type fitStyle struct {
	hue, col color.RGBA
	width    float64
	dashes   []vg.Length
}

// modelDashes tell apart the fits of one series on a chart of several,
// all in the series' colour: the first solid, then dash-dot and
// dash-dot-dot (the plain dash is the extrapolation's).
var modelDashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2), vg.Points(1.5), vg.Points(2)},
}

// fitStyles gives each of d's fits its style. With one series the
// fits are its models, told apart by colour. With several, each fit
// takes its own series' colour, so that a legend of "series: fit"
// entries pairs them by colour as well as by name (they were coloured
// after the series, by their order: the bench mix's page_buffers=256
// series pink, its fit blue); several fits of one series differ by
// dash pattern, and a fit that is not significant is dotted, not only
// pale, or it would read as the series' own line between its points.
func fitStyles(d SizeThroughput) []fitStyle {
	out := make([]fitStyle, len(d.Fits))
	k := map[int]int{} // fits of a series so far
	for i, f := range d.Fits {
		st := fitStyle{hue: seriesColor(len(d.Series) + i), width: 1.6}
		several := len(d.Series) > 1
		if several {
			si := 0 // ("" is the first)
			for j, s := range d.Series {
				if s.Name == f.Of {
					si = j
					break
				}
			}
			st.hue, st.dashes = seriesColor(si), modelDashes[k[si]%len(modelDashes)]
			k[si]++
		}
		st.col = st.hue
		if f.Faint {
			st.col, st.width = withAlpha(st.hue, 0x60), 1
			if several && st.dashes == nil {
				st.col, st.width = withAlpha(st.hue, 0xA0), 1.4
				st.dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			}
		}
		out[i] = st
	}
	return out
}

// seriesMaxima is the largest positive size of each series the panel
// shows (in), by name ("" for the first, as Curve.Of names it), and of
// them all.
func seriesMaxima(series []Series, in func(int) bool) (map[string]float64, float64) {
	byName, all := map[string]float64{}, math.Inf(-1)
	for i, s := range series {
		xys := positiveXYs(s.X, s.Y)
		if len(xys) == 0 || !in(i) {
			continue
		}
		m := math.Inf(-1)
		for _, pt := range xys {
			m = math.Max(m, pt.X)
		}
		byName[s.Name], all = m, math.Max(all, m)
		if i == 0 {
			byName[""] = m
		}
	}
	return byName, all
}

// solidEnd is where the fit of series of stops being drawn solid: its
// own series' largest size, all's for a series the panel does not show.
func solidEnd(of string, seriesMax map[string]float64, all float64) float64 {
	if m, ok := seriesMax[of]; ok {
		return m
	}
	return all
}

// splitAt cuts a curve at x = at: the part up to it and the part from
// it on (the boundary point is in both so the line stays joined).
func splitAt(xys plotter.XYs, at float64) (in, out plotter.XYs) {
	for i, pt := range xys {
		if pt.X <= at {
			in = append(in, pt)
		}
		if pt.X >= at || (i+1 < len(xys) && xys[i+1].X > at && pt.X <= at) {
			out = append(out, pt)
		}
	}
	return in, out
}

// iecUnits are the IEC size units an x axis can be in, each 1024 times
// the one before.
var iecUnits = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}

// iecFactor is the bytes of one x unit when the unit is an IEC size.
func iecFactor(unit string) (float64, bool) {
	for i, u := range iecUnits {
		if unit == u {
			return math.Pow(1024, float64(i)), true
		}
	}
	return 0, false
}

// xText writes an x value for a label: a size as units.SizeFloat does
// ("2.00 TiB"), anything else as a figure with its unit ("1000
// warehouses").
func xText(v float64, unit string) string {
	if f, ok := iecFactor(unit); ok {
		return units.SizeFloat(v * f)
	}
	return strings.TrimSpace(FormatValue(v) + " " + unit)
}

// figureTicks marks a log axis of figures without a size unit as
// sizeTicks does (powers of ten, 2× and 5× on narrow ranges), labelled
// with the figures alone.
type figureTicks struct{}

// Ticks implements gplot.Ticker.
func (figureTicks) Ticks(min, max float64) []gplot.Tick {
	ticks := sizeTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = FormatValue(ticks[i].Value)
		}
	}
	return ticks
}

// sizeTick is a tick label of a size axis: units.SizeFloat without the
// zeros that only say "three significant digits" ("16 GiB", "1 TiB",
// "1.5 TiB").
func sizeTick(bytes float64) string {
	s := units.SizeFloat(bytes)
	num, unit, ok := strings.Cut(s, " ")
	if ok && strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + " " + unit
}

// binaryTicks marks a log axis of sizes (x in units of Factor bytes) at
// powers of two: every doubling ticked, a label every 1, 2, 5 or 10
// doublings so that about eight are labelled and 1 KiB, 1 MiB, 1 GiB,
// 1 TiB are among them. A range holding fewer than three powers of two
// (9 to 31 GiB) is ticked at 1.5 × 2^n too (12, 16, 24 GiB).
type binaryTicks struct {
	Factor float64
	// MaxLabels bounds the labelled ticks (8 when 0) for a narrow axis.
	MaxLabels int
}

// Ticks implements gplot.Ticker.
func (t binaryTicks) Ticks(min, max float64) []gplot.Tick {
	lo, hi := min*t.Factor, max*t.Factor
	if !(lo > 0) || !(hi > lo) || !finite(lo, hi) {
		return nil
	}
	e0, e1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
	most := t.MaxLabels
	if most <= 0 {
		most = 8
	}
	step := 1
	for _, k := range []int{1, 2, 5, 10} {
		step = k
		if (e1-e0)/k+1 <= most {
			break
		}
	}
	var ticks []gplot.Tick
	add := func(b float64, label bool) {
		if b < lo*0.9999 || b > hi*1.0001 {
			return
		}
		tk := gplot.Tick{Value: b / t.Factor}
		if label {
			tk.Label = sizeTick(b)
		}
		ticks = append(ticks, tk)
	}
	narrow := e1-e0 < 2
	for e := e0 - 1; e <= e1; e++ {
		b := math.Ldexp(1, e)
		add(b, e%step == 0)
		if narrow {
			add(1.5*b, true)
		}
	}
	return ticks
}
