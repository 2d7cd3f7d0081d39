package report

import (
	"math"
	"path/filepath"
	"slices"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
)

// TopSteps is how many steps the restore charts show.
const TopSteps = 10

// GbakTimelineChart is the timeline chart input: the phases as runs of
// consecutive steps (a phase gbak returns to, like metadata after the
// data, gets several bars on its row), then the slowest tables and
// indices (top, by seconds) where they ran.
func GbakTimelineChart(tl *analyze.Timeline, top int) plot.RestoreTimeline {
	d := plot.RestoreTimeline{Title: "Timeline: " + filepath.Base(tl.File)}
	var cur *plot.Span
	for _, st := range tl.Steps {
		if st.Start == nil || st.Phase == "" {
			continue
		}
		end := *st.Start
		if st.Seconds != nil {
			end += *st.Seconds
		}
		if cur != nil && cur.Name == st.Phase {
			cur.Duration = max(cur.Duration, end-cur.Start)
			cur.AtLeast = cur.AtLeast || st.LowerBound
			continue
		}
		d.Phases = append(d.Phases, plot.Span{Name: st.Phase, Start: *st.Start, Duration: end - *st.Start, Kind: "phase", AtLeast: st.LowerBound})
		cur = &d.Phases[len(d.Phases)-1]
	}
	var items []plot.Span
	for _, st := range tl.Steps {
		if st.Start == nil || st.Seconds == nil {
			continue
		}
		switch st.Kind {
		case "data":
			name := st.Name
			if st.LowerBound {
				name += " (incomplete)" // the log ends inside it: the bar is what was logged
			}
			items = append(items, plot.Span{Name: name, Start: *st.Start, Duration: *st.Seconds, Kind: "table data", AtLeast: st.LowerBound})
		case "activate_index":
			items = append(items, plot.Span{Name: st.Name, Start: *st.Start, Duration: *st.Seconds, Kind: "index build"})
		}
	}
	slices.SortStableFunc(items, func(a, b plot.Span) int {
		switch {
		case a.Duration > b.Duration:
			return -1
		case a.Duration < b.Duration:
			return 1
		}
		return 0
	})
	if len(items) > top {
		items = items[:top]
	}
	// In time order, so the chart reads top to bottom like the log.
	slices.SortStableFunc(items, func(a, b plot.Span) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	d.Items = items
	return d
}

// GbakComparisonChart is the comparison chart input: the slowest steps
// (top) of the first two sides, median seconds of each.
func GbakComparisonChart(c *analyze.GbakComparison, top int) plot.RestoreComparison {
	d := plot.RestoreComparison{Title: "Restore comparison"}
	if len(c.Sides) >= 2 {
		d.A, d.B = c.Sides[0].Label, c.Sides[1].Label
		d.Title = "Slowest steps: " + d.A + " vs " + d.B
	}
	for _, s := range c.Slowest(top) {
		p := plot.StepPair{Name: s.Name, A: math.NaN(), B: math.NaN()}
		if len(s.Median) > 0 {
			p.A = fv(s.Median[0])
		}
		if len(s.Median) > 1 {
			p.B = fv(s.Median[1])
		}
		d.Steps = append(d.Steps, p)
	}
	return d
}

// GbakCharts draws the timeline of one gbak log (none when the log has no
// timed step); fbdiag gbak --png writes them with WritePNGs.
func GbakCharts(tl *analyze.Timeline) ([]*plot.Chart, error) {
	d := GbakTimelineChart(tl, TopSteps)
	if len(d.Phases)+len(d.Items) == 0 {
		return nil, nil
	}
	c, err := plot.RestoreTimelineChart(d)
	if err != nil {
		return nil, err
	}
	c.Name = plot.SafeName(filepath.Base(tl.File))
	return []*plot.Chart{c}, nil
}

// GbakComparisonCharts draws the comparison of gbak runs (fbdiag gbak
// compare --png).
func GbakComparisonCharts(c *analyze.GbakComparison) ([]*plot.Chart, error) {
	ch, err := plot.RestoreComparisonChart(GbakComparisonChart(c, TopSteps))
	if err != nil {
		return nil, err
	}
	ch.Name = "compare"
	return []*plot.Chart{ch}, nil
}
