package plot

import (
	"math"

	"github.com/fbdiag/fbdiag/internal/units"
)

// StepRow is one restore step measured in every run (or side) of a
// comparison, in seconds; NaN where the step is missing from a run or
// its cost is unknown.
type StepRow struct {
	Name    string
	Seconds []float64
	// Notes follow the duration on each run's bar, one per run, the
	// baseline's usually empty: the ratio to the baseline and its word
	// ("×1.85 slower", "×1.02 ~"), worded by the caller so that the chart
	// reads as the text does.
	Notes []string
}

// RestoreComparison is the data of the restore comparison chart: the
// top steps of two or more runs side by side.
type RestoreComparison struct {
	Title string
	// Runs name the series (file labels or sides), the baseline first.
	Runs []string
	// Steps in display order, the biggest first.
	Steps []StepRow
	// Notes are sentences under the legend (Chart.Notes): what a word
	// of the bars' notes means.
	Notes []string
	// Backup is set when every run is a backup: the chart is a
	// backup-comparison.
	Backup bool
}

// RestoreComparisonChart draws horizontal grouped bars, one per run for
// each step, the first run on top; each bar is labelled with its
// duration and its note.
func RestoreComparisonChart(d RestoreComparison) (*Chart, error) {
	ch := &Chart{Kind: KindRestoreComparison, Title: d.Title}
	if d.Backup {
		ch.Kind = KindBackupComparison
	}
	if len(d.Steps) == 0 || len(d.Runs) == 0 {
		return nil, errNoData(ch.Kind, "steps")
	}
	p := newPlot(d.Title, "", "")
	longest := 0.0
	for _, st := range d.Steps {
		for _, v := range st.Seconds {
			if finite(v) {
				longest = math.Max(longest, v)
			}
		}
	}
	durationAxis(&p.X, "duration", 0, longest)
	valueGrid(p, true)
	b := newBars(true)
	n, k := len(d.Steps), len(d.Runs)
	names := make([]string, n)
	series := make([]Plotted, k)
	for j, r := range d.Runs {
		series[j].Name = r
	}
	// The runs share 0.72 of a row, the first on top.
	thick := 0.72 / float64(k)
	for i, s := range d.Steps {
		pos := float64(n - 1 - i) // biggest on top
		names[n-1-i] = s.Name
		for j := range d.Runs {
			v := math.NaN()
			if j < len(s.Seconds) {
				v = s.Seconds[j]
			}
			series[j].X, series[j].Y, series[j].Labels = append(series[j].X, pos), append(series[j].Y, v), append(series[j].Labels, s.Name)
			if !finite(v) {
				continue
			}
			lbl := units.Seconds(v)
			if j < len(s.Notes) && s.Notes[j] != "" {
				lbl += "  " + s.Notes[j]
			}
			off := 0.36 - thick*(float64(j)+0.5)
			b.add(bar{Pos: pos, Offset: off, Thick: thick * 0.95, Hi: v, Color: seriesColor(j), Label: lbl})
		}
	}
	p.Add(b)
	for j := range series {
		ch.add(series[j])
		p.Legend.Add(Ellipsis(d.Runs[j], 40), swatch{seriesColor(j)})
	}
	for _, s := range d.Notes {
		p.Legend.Add(s)
	}
	ch.Notes = append(ch.Notes, d.Notes...)
	categoryAxis(&p.Y, names)
	p.X.Min = 0
	ch.addBarsPanel(p, n, k)
	return ch, nil
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
	// the span): its row's label reads "≥ 5.375 s".
	AtLeast bool
	// Label, when set on a span, labels its row instead of the sum of the
	// row's durations (a phase whose table figure sums its steps' costs,
	// not the wall-clock time of its bars).
	Label string
}

// RestoreTimeline is the data of the restore timeline: the phases of one
// gbak run and its biggest tables and indices as a Gantt chart.
type RestoreTimeline struct {
	Title string
	// Phases first (drawn on top), then the biggest items.
	Phases []Span
	Items  []Span
	// Backup is set for a backup's run: the chart is a backup-timeline.
	Backup bool
}

// RestoreTimelineChart draws one row per span name; spans with the same
// name and kind (a phase gbak left and came back to) share a row, as
// several bars, labelled once with their total.
func RestoreTimelineChart(d RestoreTimeline) (*Chart, error) {
	ch := &Chart{Kind: KindRestoreTimeline, Title: d.Title}
	if d.Backup {
		ch.Kind = KindBackupTimeline
	}
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
		total, last, atLeast, given := 0.0, 0, false, ""
		for j, s := range r.spans {
			total += s.Duration
			atLeast = atLeast || s.AtLeast
			if s.Start+s.Duration >= r.spans[last].Start+r.spans[last].Duration {
				last = j
			}
			if s.Label != "" {
				given = s.Label
			}
		}
		for j, s := range r.spans {
			lbl := ""
			if j == last {
				lbl = units.Seconds(total)
				if atLeast {
					lbl = "≥ " + lbl
				}
				if given != "" {
					lbl = given
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
