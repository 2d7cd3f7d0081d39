package plot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var nan = math.NaN()

// Sweep is the data of a parameter sweep chart (Figure 2 of the 1.7 TB
// tuning article: page buffers vs score, Classic vs SuperClassic).
type Sweep struct {
	Title string
	// XLabel and YLabel include their units ("page buffers (pages)").
	XLabel, YLabel string
	Series         []Series
	// Best marks the best point of each series; Label names the series.
	// BestText, when given, is the text of each mark after the setting
	// ("Classic 390"), so the chart reads as the caller's tables do.
	Best     []Point
	BestText []string
	// LogX puts the setting on a log axis (when it grows by doubling).
	LogX bool
	// Settings, when given, are each series' settings as the analysis
	// summarises them (same order as Series): the line then joins the
	// medians, every run is a dot and the range of a setting's runs a
	// whisker.
	Settings [][]SweepSetting
	// Near is what the "~" over a setting says of it, in the legend:
	// "not told apart from it" (a test found no difference, the text's
	// words), "within the assumed 2.0 % noise of it"; empty: "within the
	// noise of it".
	Near string
}

// SweepSetting is one setting of a sweep: the median, smallest and
// largest of its N runs, and whether it is marked "~" (a test did not
// tell it apart from the best, or it is within an assumed noise of it:
// Sweep.Near says which).
type SweepSetting struct {
	X, Median, Lo, Hi float64
	N                 int
	WithinNoise       bool
}

// SweepChart draws one line per series with its best point marked;
// series of very different scale (ScaleRatio) get a panel each, side by
// side, with their own axis, as SizeThroughputChart gives them.
func SweepChart(d Sweep) (*Chart, error) {
	ch := &Chart{Kind: KindSweep, Title: d.Title}
	groups := scaleGroups(d.Series)
	for _, g := range groups {
		if err := sweepPanel(ch, d, g, panelTitle(d.Title, d.Series, groups, g)); err != nil {
			return nil, err
		}
	}
	if len(ch.panels) == 0 {
		return nil, errNoData(ch.Kind, "series")
	}
	return ch, nil
}

// sweepPanel adds the panel of the series in only (all when nil) and
// their best points; a panel with no series to draw adds nothing.
func sweepPanel(ch *Chart, d Sweep, only []int, title string) error {
	in := func(i int) bool { return only == nil || slices.Contains(only, i) }
	p := newPlot(title, d.XLabel, d.YLabel)
	p.Add(newGrid())
	var allX []float64
	ymax := 0.0
	n := 0
	var tildes notes
	named := map[string]bool{}
	var unsteady *plotter.Scatter // (the legend's, the first series' with one)
	for i, s := range d.Series {
		if !in(i) {
			continue
		}
		named[s.Name] = true
		var xys plotter.XYs
		for j := range s.X {
			if j < len(s.Y) && finite(s.X[j], s.Y[j]) && (!d.LogX || s.X[j] > 0) {
				xys = append(xys, plotter.XY{X: s.X[j], Y: s.Y[j]})
			}
		}
		if len(xys) == 0 {
			continue
		}
		col := seriesColor(i)
		if i < len(d.Settings) {
			for _, st := range d.Settings[i] {
				if st.WithinNoise && finite(st.X, st.Median) && (!d.LogX || st.X > 0) {
					top := st.Median
					if st.N > 1 && finite(st.Hi) {
						top = math.Max(top, st.Hi)
					}
					tildes = append(tildes, note{X: st.X, Y: top, Offset: vg.Point{Y: vg.Points(3)},
						Text: "~", Style: centered(textStyle(labelSize, col))})
				}
			}
		}
		var sets []SweepSetting
		if i < len(d.Settings) && slices.ContainsFunc(d.Settings[i], func(st SweepSetting) bool { return st.N > 1 }) {
			sets = d.Settings[i]
		}
		line := xys
		if sets != nil {
			// Several runs a setting: the line joins the medians, the
			// runs are dots and their range a whisker.
			line = nil
			med := Plotted{Name: s.Name + " median"}
			lo, hi := Plotted{Name: s.Name + " min"}, Plotted{Name: s.Name + " max"}
			ws := &spreads{Line: solid(col, 1.1)}
			for _, st := range sets {
				if !finite(st.X, st.Median) || (d.LogX && st.X <= 0) {
					continue
				}
				line = append(line, plotter.XY{X: st.X, Y: st.Median})
				med.X, med.Y = append(med.X, st.X), append(med.Y, st.Median)
				if st.N > 1 && finite(st.Lo, st.Hi) {
					ws.S = append(ws.S, spread{X: st.X, Lo: st.Lo, Hi: st.Hi})
					lo.X, lo.Y = append(lo.X, st.X), append(lo.Y, st.Lo)
					hi.X, hi.Y = append(hi.X, st.X), append(hi.Y, st.Hi)
				}
			}
			p.Add(ws)
			ch.add(med)
			ch.add(lo)
			ch.add(hi)
		}
		segs, gaps := splitGaps(line, d.LogX)
		var thumb *plotter.Line
		for _, sg := range segs {
			l, err := plotter.NewLine(sg)
			if err != nil {
				return fmt.Errorf("plot %s: series %q: %w", ch.Kind, s.Name, err)
			}
			l.LineStyle = solid(col, 1.6)
			p.Add(l)
			thumb = l
		}
		for _, g := range gaps {
			l, err := plotter.NewLine(g)
			if err != nil {
				return err
			}
			l.LineStyle = dashed(withAlpha(col, 0x80), 1)
			p.Add(l)
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plot %s: series %q: %w", ch.Kind, s.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		hollow, err := addUnsteady(ch, p, s.Name, s.unsteadyXYs(func(x, y float64) bool { return finite(x, y) && (!d.LogX || x > 0) }), col, vg.Points(3))
		if err != nil {
			return err
		}
		if hollow != nil && unsteady == nil {
			unsteady = hollow
		}
		if thumb != nil {
			p.Legend.Add(Ellipsis(s.Name, MaxNameRunes), thumb, sc)
		} else {
			p.Legend.Add(Ellipsis(s.Name, MaxNameRunes), sc)
		}
		ch.add(Plotted{Name: s.Name, X: xyX(xys), Y: xyY(xys)})
		allX = append(allX, xyX(xys)...)
		for _, pt := range xys {
			ymax = math.Max(ymax, pt.Y)
		}
		n++
	}
	if len(tildes) > 0 {
		p.Add(tildes)
		ch.add(Plotted{Name: "not told apart", X: notesX(tildes)})
	}
	if n == 0 {
		return nil
	}
	// One note per marked setting: series that peak at the same setting
	// share it ("best 1500: Classic 390 · SuperClassic 392").
	var marks notes
	var parts [][]string // each mark's series
	var best plotter.XYs
	at := map[float64]int{}
	for i, b := range d.Best {
		if !finite(b.X, b.Y) || (only != nil && !named[b.Label]) {
			continue
		}
		best = append(best, plotter.XY{X: b.X, Y: b.Y})
		ch.add(Plotted{Name: "best " + b.Label, X: []float64{b.X}, Y: []float64{b.Y}})
		part := FormatValue(b.Y)
		if b.Label != "" {
			part = Ellipsis(b.Label, 20) + " " + part
		}
		if i < len(d.BestText) && d.BestText[i] != "" {
			part = Ellipsis(d.BestText[i], 32)
		}
		if i, ok := at[b.X]; ok {
			parts[i] = append(parts[i], part)
			marks[i].Y = math.Max(marks[i].Y, b.Y)
			continue
		}
		at[b.X] = len(marks)
		marks = append(marks, note{X: b.X, Y: b.Y, Offset: vg.Point{Y: vg.Points(10)},
			Text: "best " + FormatValue(b.X) + ": ", Style: centered(textStyle(noteSize, inkColor))})
		parts = append(parts, []string{part})
	}
	// (joined once: thousands of series peaking at one setting made the
	// note's text again for each)
	for i := range marks {
		marks[i].Text += strings.Join(parts[i], " · ")
	}
	if len(best) > 0 {
		sc, err := plotter.NewScatter(best)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
		p.Add(sc, marks)
		label := "best of each series"
		if len(tildes) > 0 {
			near := d.Near
			if near == "" {
				near = "within the noise of it"
			}
			label += " (~: " + near + ")"
		}
		p.Legend.Add(label, sc)
	}
	if unsteady != nil {
		p.Legend.Add(unsteadyLegend, unsteady)
	}
	if d.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range allX {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		logRange(&p.X, lo, hi)
	}
	if t := valueTicks(allX); len(t) <= 12 {
		p.X.Tick.Marker = t
	}
	p.Y.Min = 0
	p.Y.Max = ymax * 1.3
	p.Legend.Top, p.Legend.Left = true, true
	ch.addPanel(p)
	return nil
}

func centered(s text.Style) text.Style {
	s.XAlign, s.YAlign = draw.XCenter, draw.YBottom
	return s
}

// AB is the data of an A/B chart: one bar per variant, each labelled with
// its difference from the baseline (+24.6 %).
type AB struct {
	Title string
	// YLabel names the measure with its unit ("TPC-C score").
	YLabel string
	Names  []string
	Values []float64
	// Baseline is the index of the variant the others are compared to.
	Baseline int
	// Deltas are the differences from the baseline in percent as the
	// analysis computed them; nil to compute them here.
	Deltas []float64
	// Labels, when given, are the bars' labels as the caller's tables
	// print them ("21226: ×1.25, +24.6 % faster"); else the value and
	// its delta.
	Labels []string
	// Runs are every measured value of each variant, drawn as dots over
	// its bar so that a median of five noisy runs does not read as one
	// clean figure; nil or empty for a variant without them.
	Runs [][]float64
	// Unsteady, when given, marks the runs (same order as Runs) whose
	// own measurement was not steady: their dots are drawn hollow, as
	// the size and sweep charts draw them.
	Unsteady [][]bool
	// Spreads are each variant's range (smallest and largest run), drawn
	// as a whisker; a zero Interval draws none.
	Spreads []Interval
	// NotSignificant marks the variants whose difference from the
	// baseline a test did not find significant: their bar is paler and
	// "~" starts its label, as the text's tables write it.
	NotSignificant []bool
}

// abAxisName is a bar's name under it: the parts of a configuration
// ("clients=4 threads=2 · pgbench15-runs-trace") a line each, each cut
// to what the bar's share of the axis holds at the default size, so that
// the names of five bars do not run into each other.
func abAxisName(name string, bars int) string {
	runes := min(MaxNameRunes, max(8, abAxisRunes/max(bars, 1)))
	parts := strings.Split(name, " · ")
	for i, part := range parts {
		parts[i] = ellipsisKeepQualifier(part, runes)
	}
	return strings.Join(parts, "\n")
}

// abAxisRunes is the runes of name the category axis of an A/B chart
// holds in a line at the default size (DefaultWidth at 150 dpi: some
// 9 pixels a rune over the 1100 of the axis).
const abAxisRunes = 118

// ABChart draws the A/B bars: each variant's median as a bar, every run
// as a dot over it and the range of the runs as a whisker.
func ABChart(d AB) (*Chart, error) {
	ch := &Chart{Kind: KindAB, Title: d.Title}
	if len(d.Values) == 0 || len(d.Names) != len(d.Values) {
		return nil, errNoData(ch.Kind, "variants")
	}
	if d.Baseline < 0 || d.Baseline >= len(d.Values) {
		return nil, fmt.Errorf("plot %s: baseline %d out of range", ch.Kind, d.Baseline)
	}
	p := newPlot(d.Title, "", d.YLabel)
	valueGrid(p, false)
	b := newBars(false)
	base := d.Values[d.Baseline]
	pl := Plotted{Name: "values", Labels: append([]string(nil), d.Names...)}
	pd := Plotted{Name: "delta %"}
	runs := Plotted{Name: "runs"}
	lo, hi := Plotted{Name: "spread min"}, Plotted{Name: "spread max"}
	ns := Plotted{Name: "not significant"}
	var dots, hollow plotter.XYs
	ws := &spreads{Line: solid(inkColor, 1.2)}
	ymax := 0.0
	for i, v := range d.Values {
		pl.X = append(pl.X, float64(i))
		pl.Y = append(pl.Y, v)
		similar := i < len(d.NotSignificant) && d.NotSignificant[i] && i != d.Baseline
		if i < len(d.Runs) {
			rs := d.Runs[i]
			for j, off := range runOffsets(len(rs), 0.3) {
				if finite(rs[j]) {
					dots = append(dots, plotter.XY{X: float64(i) + off, Y: rs[j]})
					if i < len(d.Unsteady) && j < len(d.Unsteady[i]) && d.Unsteady[i][j] {
						hollow = append(hollow, plotter.XY{X: float64(i) + off, Y: rs[j]})
					}
					runs.X, runs.Y = append(runs.X, float64(i)), append(runs.Y, rs[j])
					ymax = math.Max(ymax, rs[j])
				}
			}
		}
		if i < len(d.Spreads) && d.Spreads[i] != (Interval{}) && finite(d.Spreads[i].Lo, d.Spreads[i].Hi) {
			iv := d.Spreads[i]
			ws.S = append(ws.S, spread{X: float64(i), Lo: iv.Lo, Hi: iv.Hi})
			lo.X, lo.Y = append(lo.X, float64(i)), append(lo.Y, iv.Lo)
			hi.X, hi.Y = append(hi.X, float64(i)), append(hi.Y, iv.Hi)
			ymax = math.Max(ymax, iv.Hi)
		}
		if !finite(v) {
			pd.Y = append(pd.Y, nan)
			continue
		}
		delta := nan
		if i < len(d.Deltas) {
			delta = d.Deltas[i]
		} else if d.Deltas == nil && base != 0 {
			delta = (v/base - 1) * 100
		}
		label := FormatValue(v)
		col := seriesColor(0)
		if i == d.Baseline {
			label += " (baseline)"
			col = seriesColor(6)
		} else if finite(delta) {
			label += fmt.Sprintf(" (%+.1f %%)", delta)
		}
		if i < len(d.Labels) && d.Labels[i] != "" {
			label = d.Labels[i]
		}
		if similar {
			ns.X, ns.Y = append(ns.X, float64(i)), append(ns.Y, v)
			if !strings.Contains(label, "~") {
				label = "~ " + label
			}
		}
		// The bar is the median, pale so that the runs over it read
		// first; a difference not significant is paler still.
		alpha := uint8(0x90)
		if similar {
			alpha = 0x48
		}
		pd.Y = append(pd.Y, delta)
		top := v
		if i < len(d.Spreads) && finite(d.Spreads[i].Hi) {
			top = math.Max(top, d.Spreads[i].Hi)
		}
		if i < len(d.Runs) {
			for _, r := range d.Runs[i] {
				if finite(r) {
					top = math.Max(top, r)
				}
			}
		}
		b.add(bar{Pos: float64(i), Thick: 0.55, Hi: v, LabelAt: top, Color: withAlpha(col, alpha), Label: label})
		ymax = math.Max(ymax, v)
	}
	pd.X = pl.X
	p.Add(b)
	ch.add(pl)
	ch.add(pd)
	if len(ws.S) > 0 {
		p.Add(ws)
		p.Legend.Add("range of the runs (min–max)", ws)
		ch.add(lo)
		ch.add(hi)
	}
	if len(dots) > 0 {
		sc, err := plotter.NewScatter(dots)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: inkColor, Radius: vg.Points(2.6), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add("each run (the bar is their median)", sc)
		ch.add(runs)
		ring, err := addUnsteady(ch, p, "runs", hollow, inkColor, vg.Points(2.6))
		if err != nil {
			return nil, err
		}
		if ring != nil {
			p.Legend.Add(unsteadyLegend, ring)
		}
	}
	if len(ns.X) > 0 {
		ch.add(ns)
	}
	categoryAxis(&p.X, d.Names)
	for i, n := range d.Names {
		p.X.Tick.Marker.(gplot.ConstantTicks)[i].Label = abAxisName(n, len(d.Names))
	}
	b.Label = textStyle(labelSize, inkColor)
	// Labels sit over the bars (the medians); with runs above the
	// median the whisker may cross them, so the axis leaves room above
	// the highest run for the legend.
	p.Legend.Top, p.Legend.Left = true, false
	p.Y.Min = 0
	p.Y.Max = ymax * 1.3
	ch.addPanel(p)
	return ch, nil
}
