package plot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
)

// DepthCount is how many indices have a given depth.
type DepthCount struct {
	Depth, Count int
	// Severity colours the bar when the analysis warns about this depth.
	Severity Severity
}

// IndexBar is one index among the largest, with its worst warning.
type IndexBar struct {
	Name string
	// Table owns the index; shown as "INDEX (TABLE)" when set.
	Table string
	Size  float64
	// Severity is the worst warning the analysis gave this index.
	Severity Severity
}

// Indices is the data of the index chart: depth distribution on the
// left, the largest indices coloured by their worst warning on the right.
type Indices struct {
	Title string
	// SizeUnit is the unit of IndexBar.Size ("MiB", "pages").
	SizeUnit string
	Depths   []DepthCount
	Largest  []IndexBar
}

// IndicesChart draws the two index panels.
func IndicesChart(d Indices) (*Chart, error) {
	ch := &Chart{Kind: KindIndices, Title: d.Title}
	if len(d.Depths) == 0 && len(d.Largest) == 0 {
		return nil, errNoData(ch.Kind, "indices")
	}
	if len(d.Depths) > 0 {
		p := newPlot(d.Title, "index depth (levels)", "indices")
		valueGrid(p, false)
		b := newBars(false)
		names := make([]string, len(d.Depths))
		pl := Plotted{Name: "depth"}
		for i, dc := range d.Depths {
			names[i] = strconv.Itoa(dc.Depth)
			b.add(bar{Pos: float64(i), Thick: 0.6, Hi: float64(dc.Count), Color: severityColor(dc.Severity), Label: strconv.Itoa(dc.Count)})
			pl.X = append(pl.X, float64(dc.Depth))
			pl.Y = append(pl.Y, float64(dc.Count))
		}
		p.Add(b)
		ch.add(pl)
		categoryAxis(&p.X, names)
		p.Y.Min = 0
		_, _, _, ymax := b.DataRange()
		p.Y.Max = ymax * 1.12
		ch.addPanel(p)
	}
	if len(d.Largest) > 0 {
		title := "largest indices"
		if len(ch.panels) == 0 {
			title = d.Title
		}
		p := newPlot(title, "size ("+d.SizeUnit+")", "")
		bars := make([]sizeBar, len(d.Largest))
		for i, ix := range d.Largest {
			name := ix.Name
			if ix.Table != "" {
				name = Ellipsis(ix.Name, 18) + " (" + Ellipsis(ix.Table, 12) + ")"
			}
			bars[i] = sizeBar{axis: name, label: ix.Name, size: ix.Size, severity: ix.Severity}
		}
		legend := ch.addSizeBars(p, "largest", bars)
		ch.addBarsPanel(p, len(bars), legend)
	}
	return ch, nil
}

// sizeBar is one bar of a "largest first" panel.
type sizeBar struct {
	axis, label string // the name on the axis, and in the plotted data
	size        float64
	severity    Severity
}

// addSizeBars draws sizes as horizontal bars, the first at the top, each
// coloured by its severity, with a legend of the severities shown (worst
// first) so that colour means the same in the index and table charts. It
// returns the number of legend entries.
func (ch *Chart) addSizeBars(p *gplot.Plot, plotted string, bars []sizeBar) int {
	valueGrid(p, true)
	b := newBars(true)
	n := len(bars)
	names := make([]string, n)
	pl := Plotted{Name: plotted}
	seen := map[string]bool{}
	var legend []Severity
	for i, sb := range bars {
		pos := float64(n - 1 - i)
		names[n-1-i] = sb.axis
		if finite(sb.size) {
			b.add(bar{Pos: pos, Thick: 0.66, Hi: sb.size, Color: severityColor(sb.severity), Label: FormatValue(sb.size)})
		}
		pl.X, pl.Y, pl.Labels = append(pl.X, pos), append(pl.Y, sb.size), append(pl.Labels, sb.label)
		if l := severityLabel(sb.severity); !seen[l] {
			seen[l] = true
			legend = append(legend, sb.severity)
		}
	}
	p.Add(b)
	ch.add(pl)
	categoryAxis(&p.Y, names)
	legend = sortSeverities(legend)
	for _, s := range legend {
		p.Legend.Add(severityLabel(s), swatch{severityColor(s)})
	}
	p.X.Min = 0
	return len(legend)
}

// sortSeverities orders legend entries worst first.
func sortSeverities(ss []Severity) []Severity {
	var out []Severity
	for _, want := range []string{"critical", "warning", "info", "no warning"} {
		for _, s := range ss {
			if severityLabel(s) == want {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// TableBar is one table among the largest.
type TableBar struct {
	Name string
	Size float64
	// Records, Versions (back versions) and Fragments as gstat -r
	// counts them; NaN when the input lacked -r.
	Records, Versions, Fragments float64
	Severity                     Severity
}

// Tables is the data of the table chart: the largest tables by size on
// the left, their back versions and fragments per record on the right.
type Tables struct {
	Title    string
	SizeUnit string
	Tables   []TableBar
	// Of is how many tables the snapshot has, when Tables are only its
	// largest (0: they are all): a note about them then says so.
	Of int
}

// TablesChart draws the two table panels.
func TablesChart(d Tables) (*Chart, error) {
	ch := &Chart{Kind: KindTables, Title: d.Title}
	if len(d.Tables) == 0 {
		return nil, errNoData(ch.Kind, "tables")
	}
	n := len(d.Tables)
	// Sizes that are all zero or unknown make an empty panel.
	sized := slices.ContainsFunc(d.Tables, func(t TableBar) bool { return finite(t.Size) && t.Size > 0 })
	p := newPlot(d.Title, "size ("+d.SizeUnit+")", "")
	bars := make([]sizeBar, n)
	for i, t := range d.Tables {
		bars[i] = sizeBar{axis: t.Name, label: t.Name, size: t.Size, severity: t.Severity}
	}
	// Both panels reserve the same legend room so their rows line up.
	legendRows := max(ch.addSizeBars(p, "size", bars), 3)
	ch.addBarsPanel(p, n, legendRows)

	// Right: back versions and fragments per record, the garbage a
	// sweep or a backup/restore would remove. A measure that is zero in
	// every table is not drawn (a −1…1 axis of stacked "0" labels says
	// nothing): a sentence says it instead, and with neither the panel
	// is not made.
	// (per record, as the table's ver/rec and frag/rec columns and the
	// rules' limits read: the chart said 10.4 where they say 0.104)
	q := newPlot("back versions, fragments", "per record", "")
	valueGrid(q, true)
	vb := newBars(true)
	pv := Plotted{Name: "versions per record"}
	pf := Plotted{Name: "fragments per record"}
	cv, cf := seriesColor(1), seriesColor(3)
	var anyV, anyF, knownV, knownF bool
	for i, t := range d.Tables {
		pos := float64(n - 1 - i)
		v, f := perRecord(t.Versions, t.Records), perRecord(t.Fragments, t.Records)
		pv.X, pv.Y = append(pv.X, pos), append(pv.Y, v)
		pf.X, pf.Y = append(pf.X, pos), append(pf.Y, f)
		knownV, knownF = knownV || finite(v), knownF || finite(f)
		anyV, anyF = anyV || v > 0, anyF || f > 0
	}
	both := anyV && anyF
	for i := range d.Tables {
		pos := float64(n - 1 - i)
		off, thick := 0.18, 0.34
		if !both {
			off, thick = 0, 0.5
		}
		if v := pv.Y[i]; anyV && finite(v) {
			vb.add(bar{Pos: pos, Offset: off, Thick: thick, Hi: v, Color: cv, Label: FormatValue(v)})
		}
		if f := pf.Y[i]; anyF && finite(f) {
			vb.add(bar{Pos: pos, Offset: -off, Thick: thick, Hi: f, Color: cf, Label: FormatValue(f)})
		}
	}
	var none []string
	if knownV && !anyV {
		none = append(none, "record versions")
	}
	if knownF && !anyF {
		none = append(none, "fragmented records")
	}
	if len(none) > 0 {
		// Of 1578 tables, the 12 largest may have no back versions where
		// others have 7.89 million: "in this snapshot" was then untrue.
		where := "in this snapshot"
		if d.Of > n {
			where = fmt.Sprintf("in the %d largest tables (of %d)", n, d.Of)
		}
		ch.Notes = append(ch.Notes, "no "+strings.Join(none, " and no ")+" "+where)
	}
	if !sized && !anyV && !anyF {
		// Every panel would be empty: the sentences stand for them.
		note := "no table has data pages in this snapshot"
		if !slices.ContainsFunc(d.Tables, func(t TableBar) bool { return finite(t.Size) }) {
			note = "no table size in this snapshot"
		}
		return NotesOnly(ch.Kind, d.Title, append([]string{note}, ch.Notes...)...), nil
	}
	switch {
	case anyV || anyF:
		q.Add(vb)
		if anyV {
			ch.add(pv)
			q.Legend.Add("back versions", swatch{cv})
			if anyF {
				q.Title.Text = "back versions, fragments"
			} else {
				q.Title.Text = "back versions"
			}
		}
		if anyF {
			ch.add(pf)
			q.Legend.Add("fragments", swatch{cf})
			if !anyV {
				q.Title.Text = "fragments"
			}
		}
		for _, s := range ch.Notes {
			q.Legend.Add(s)
		}
		// The same category axis as the left panel, names hidden: the
		// rows line up with the sizes.
		categoryAxis(&q.Y, make([]string, n))
		q.X.Min = 0
		ch.addBarsPanel(q, n, legendRows)
	case len(ch.Notes) > 0:
		// No right panel: the sentence goes under the left one's
		// legend.
		for _, s := range ch.Notes {
			p.Legend.Add(s)
		}
		ch.panels[0].legends++
	}
	return ch, nil
}

// perRecord is part/records, NaN when unknown or no records.
func perRecord(part, records float64) float64 {
	if !finite(part, records) || records <= 0 {
		return nan
	}
	return part / records
}

// FillGroup is how many pages of a group (tables, indices or one object)
// fall in each fill bucket 0–19 %, 20–39 %, 40–59 %, 60–79 %, 80–99 %.
type FillGroup struct {
	Name  string
	Pages [5]float64
}

// Fill is the data of the fill distribution chart.
type Fill struct {
	Title  string
	Groups []FillGroup
}

// FillBuckets are gstat's fill distribution buckets.
var FillBuckets = [5]string{"0–19 %", "20–39 %", "40–59 %", "60–79 %", "80–99 %"}

// FillChart draws, per bucket, the share of each group's pages, labelled
// with the page count.
func FillChart(d Fill) (*Chart, error) {
	ch := &Chart{Kind: KindFill, Title: d.Title}
	if len(d.Groups) == 0 {
		return nil, errNoData(ch.Kind, "fill distributions")
	}
	var empty []string
	for _, grp := range d.Groups {
		if !slices.ContainsFunc(grp.Pages[:], func(v float64) bool { return finite(v) && v > 0 }) {
			empty = append(empty, grp.Name)
		}
	}
	if len(empty) == len(d.Groups) {
		// No page to share out: the sentence stands for the panel.
		return NotesOnly(ch.Kind, d.Title, "no "+strings.Join(empty, " and no ")+" in this snapshot"), nil
	}
	p := newPlot(d.Title, "page fill", "share of pages (%)")
	valueGrid(p, false)
	b := newBars(false)
	g := len(d.Groups)
	w := 0.8 / float64(g)
	for gi, grp := range d.Groups {
		total := 0.0
		for _, v := range grp.Pages {
			if finite(v) {
				total += v
			}
		}
		pl := Plotted{Name: grp.Name, X: []float64{0, 1, 2, 3, 4}, Labels: FillBuckets[:]}
		col := seriesColor(gi)
		for k, v := range grp.Pages {
			share := nan
			if total > 0 && finite(v) {
				share = v / total * 100
				b.add(bar{Pos: float64(k), Offset: (float64(gi) - float64(g-1)/2) * w, Thick: w * 0.92, Hi: share, Color: col, Label: FormatValue(v)})
			}
			pl.Y = append(pl.Y, share)
		}
		ch.add(pl)
		p.Legend.Add(fmt.Sprintf("%s (%s pages)", Ellipsis(grp.Name, MaxNameRunes), FormatValue(total)), swatch{col})
	}
	p.Add(b)
	categoryAxis(&p.X, FillBuckets[:])
	p.Legend.Top, p.Legend.Left = true, true
	p.Y.Min = 0
	// Room above 100 % for the legend; ticks stop at 100.
	p.Y.Max = 118
	ch.addPanel(p)
	return ch, nil
}
