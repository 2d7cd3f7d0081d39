package report

import (
	"fmt"
	"math"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// BenchTimelineChart is a bench run's throughput over time: every kind
// together and New-Orders, per second, from the run's start, counted as
// tpmC and tpmTotal count them (completed: committed or rolled back by
// design); the warm-up and the drain shaded, the window's mean as a line.
func BenchTimelineChart(s *analyze.BenchSummary, seconds []parse.BenchSecond, title string) plot.BenchTimeline {
	d := plot.BenchTimeline{Title: title, YLabel: "transactions completed per second"}
	all := plot.Series{Name: "all five kinds"}
	no := plot.Series{Name: "new_order (tpmC / 60)"}
	for _, sec := range seconds {
		d.T = append(d.T, float64(sec.T))
		var n int64
		for _, c := range sec.Kinds {
			n += c.Completed()
		}
		all.Y = append(all.Y, float64(n))
		no.Y = append(no.Y, float64(sec.Kinds[0].Completed()))
	}
	d.Series = []plot.Series{all, no}
	if s.Window[0] > 0 {
		d.Shaded = append(d.Shaded, plot.Shade{From: 0, To: float64(s.Window[0]), Label: "warm-up"})
	}
	if end := len(seconds); end > 0 && seconds[end-1].T+1 > s.Window[1] {
		d.Shaded = append(d.Shaded, plot.Shade{From: float64(s.Window[1]), To: float64(seconds[end-1].T + 1), Label: "drain"})
	}
	if s.TpmTotal != nil {
		mean := *s.TpmTotal / 60
		d.Level = &mean
		d.LevelLabel = fmt.Sprintf("window mean %s/s", plot.FormatValue(mean))
	}
	return d
}

// BenchLatencyChart is the latency percentiles of each kind in the
// window, as the summary gives them.
func BenchLatencyChart(s *analyze.BenchSummary, title string) plot.BenchLatency {
	d := plot.BenchLatency{Title: title}
	for _, t := range s.Transactions {
		r := plot.LatencyRow{Name: t.Name, P50: math.NaN(), P90: math.NaN(), P95: math.NaN(), P99: math.NaN(), Max: math.NaN()}
		if l := t.LatencyMs; l != nil {
			r = plot.LatencyRow{Name: t.Name, P50: nanOr(l.P50), P90: nanOr(l.P90), P95: nanOr(l.P95), P99: nanOr(l.P99), Max: l.Max}
		}
		d.Rows = append(d.Rows, r)
	}
	return d
}

// nanOr is *v, NaN when v is nil (a percentile of too few operations).
func nanOr(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// BenchCharts draws a bench run's charts.
func BenchCharts(s *analyze.BenchSummary, seconds []parse.BenchSecond, name string) ([]*plot.Chart, error) {
	var out []*plot.Chart
	tl, err := plot.BenchTimelineChart(BenchTimelineChart(s, seconds, "Throughput over time: "+name))
	if err != nil {
		return nil, err
	}
	tl.Name = name
	out = append(out, tl)
	lat, err := plot.BenchLatencyChart(BenchLatencyChart(s, "Latency in the window: "+name))
	if err == nil {
		lat.Name = name
		out = append(out, lat)
	}
	return out, nil
}
