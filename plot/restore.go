package plot

import (
	"fmt"
	"math"
)

// StepPair is one restore step measured in two runs, in seconds; NaN
// when the step is missing from a run.
type StepPair struct {
	Name string
	A, B float64
}

// RestoreComparison is the data of the restore comparison chart: the
// top steps of two restores side by side.
type RestoreComparison struct {
	Title string
	// A and B name the two runs (file names or labels).
	A, B string
	// Steps in display order, the biggest first.
	Steps []StepPair
}

// RestoreComparisonChart draws horizontal grouped bars, A above B for
// each step, B's bar labelled with its ratio to A.
func RestoreComparisonChart(d RestoreComparison) (*Chart, error) {
	ch := &Chart{Kind: KindRestoreComparison, Title: d.Title}
	if len(d.Steps) == 0 {
		return nil, errNoData(ch.Kind, "steps")
	}
	p := newPlot(d.Title, "", "")
	longest := 0.0
	for _, st := range d.Steps {
		for _, v := range []float64{st.A, st.B} {
			if finite(v) {
				longest = math.Max(longest, v)
			}
		}
	}
	durationAxis(&p.X, "duration", 0, longest)
	valueGrid(p, true)
	b := newBars(true)
	n := len(d.Steps)
	names := make([]string, n)
	pa := Plotted{Name: d.A}
	pb := Plotted{Name: d.B}
	ca, cb := seriesColor(0), seriesColor(1)
	for i, s := range d.Steps {
		pos := float64(n - 1 - i) // biggest on top
		names[n-1-i] = s.Name
		pa.X, pa.Y, pa.Labels = append(pa.X, pos), append(pa.Y, s.A), append(pa.Labels, s.Name)
		pb.X, pb.Y, pb.Labels = append(pb.X, pos), append(pb.Y, s.B), append(pb.Labels, s.Name)
		if finite(s.A) {
			b.add(bar{Pos: pos, Offset: 0.19, Thick: 0.36, Hi: s.A, Color: ca, Label: FormatSeconds(s.A)})
		}
		if finite(s.B) {
			lbl := FormatSeconds(s.B)
			if r, ok := ratio(s.B, s.A); ok {
				lbl += "  " + r
			} else if !finite(s.A) {
				lbl += fmt.Sprintf("  (not in %s)", Ellipsis(d.A, 16))
			}
			b.add(bar{Pos: pos, Offset: -0.19, Thick: 0.36, Hi: s.B, Color: cb, Label: lbl})
		}
	}
	p.Add(b)
	ch.add(pa)
	ch.add(pb)
	categoryAxis(&p.Y, names)
	p.Legend.Add(Ellipsis(d.A, 40), swatch{ca})
	p.Legend.Add(Ellipsis(d.B, 40), swatch{cb})
	p.X.Min = 0
	ch.addBarsPanel(p, n, 2)
	return ch, nil
}

// ratio prints b/a as "×1.23" when both are usable.
func ratio(b, a float64) (string, bool) {
	if !finite(a, b) || a <= 0 {
		return "", false
	}
	return fmt.Sprintf("×%.2f", b/a), true
}

// Span is one bar of a timeline: a phase, table or index, from Start for
// Duration seconds since the run began.
type Span struct {
	Name            string
	Start, Duration float64
	// Kind groups the spans for colour and legend: "phase", "table",
	// "index"…
	Kind string
	// AtLeast marks a duration that is a lower bound (the log ends inside
	// the span): its row's label reads "≥ 5.38 s".
	AtLeast bool
}

// RestoreTimeline is the data of the restore timeline: the phases of one
// gbak run and its biggest tables and indices as a Gantt chart.
type RestoreTimeline struct {
	Title string
	// Phases first (drawn on top), then the biggest items.
	Phases []Span
	Items  []Span
}

// RestoreTimelineChart draws one row per span name; spans with the same
// name and kind (a phase gbak left and came back to) share a row, as
// several bars, labelled once with their total.
func RestoreTimelineChart(d RestoreTimeline) (*Chart, error) {
	ch := &Chart{Kind: KindRestoreTimeline, Title: d.Title}
	spans := append(append([]Span(nil), d.Phases...), d.Items...)
	type row struct {
		name, kind string
		spans      []Span
	}
	var rows []*row
	byKey := map[[2]string]*row{}
	for _, s := range spans {
		if !finite(s.Start, s.Duration) || s.Duration < 0 {
			continue
		}
		k := [2]string{s.Kind, s.Name}
		r := byKey[k]
		if r == nil {
			r = &row{name: s.Name, kind: s.Kind}
			byKey[k] = r
			rows = append(rows, r)
		}
		r.spans = append(r.spans, s)
	}
	if len(rows) == 0 {
		return nil, errNoData(ch.Kind, "spans")
	}
	p := newPlot(d.Title, "", "")
	valueGrid(p, true)
	b := newBars(true)
	n := len(rows)
	names := make([]string, n)
	kinds := map[string]int{}
	var kindOrder []string
	pl := Plotted{Name: "spans"}
	end, first := 0.0, math.Inf(1)
	for i, r := range rows {
		pos := float64(n - 1 - i)
		names[n-1-i] = r.name
		k, ok := kinds[r.kind]
		if !ok {
			k = len(kindOrder)
			kinds[r.kind] = k
			kindOrder = append(kindOrder, r.kind)
		}
		total, last, atLeast := 0.0, 0, false
		for j, s := range r.spans {
			total += s.Duration
			atLeast = atLeast || s.AtLeast
			if s.Start+s.Duration >= r.spans[last].Start+r.spans[last].Duration {
				last = j
			}
		}
		for j, s := range r.spans {
			lbl := ""
			if j == last {
				lbl = FormatSeconds(total)
				if atLeast {
					lbl = "≥ " + lbl
				}
			}
			b.add(bar{Pos: pos, Thick: 0.62, Lo: s.Start, Hi: s.Start + s.Duration, Color: seriesColor(k), Label: lbl})
			pl.X = append(pl.X, s.Start)
			pl.Y = append(pl.Y, s.Duration)
			pl.Labels = append(pl.Labels, s.Name)
			end = math.Max(end, s.Start+s.Duration)
			first = math.Min(first, s.Start)
		}
	}
	p.Add(b)
	ch.add(pl)
	categoryAxis(&p.Y, names)
	for _, k := range kindOrder {
		name := k
		if name == "" {
			name = "step"
		}
		p.Legend.Add(name, swatch{seriesColor(kinds[k])})
	}
	// An excerpt of a long log (seed 003's last five index builds start
	// at 2 h 38 min) is drawn from its first step, not from zero.
	p.X.Min = 0
	if first > 0.2*end {
		p.X.Min = first
	}
	p.X.Max = math.Max(end, 1)
	durationAxis(&p.X, "time since start", p.X.Min, p.X.Max)
	ch.addBarsPanel(p, n, len(kindOrder))
	return ch, nil
}
