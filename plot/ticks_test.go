package plot

import (
	"strings"
	"testing"
	"time"

	gplot "gonum.org/v1/plot"
)

// Issue 12 A.2: a gbak step of 10¹⁴ s hung the timeline chart (one tick
// per day of the span). Every duration axis, from a minute to 10³⁰⁰ s,
// gets 2 to MaxDurationTicks labelled ticks, each label distinct, in a
// unit the axis label names, and quickly.
func TestDurationTicksBounded(t *testing.T) {
	cases := []struct {
		hi    float64
		label string // the axis label's unit
		first string // the first label after 0
	}{
		{90, "h:mm:ss", "0:00:15"},
		{3000, "h:mm:ss", "0:10:00"},
		{7200, "h:mm:ss", "0:15:00"},
		{2 * 86400, "h:mm:ss", "6:00:00"},
		{10 * 86400, "days", "2"},
		{40 * 86400, "days", "7"},
		{100 * 86400, "weeks", "2"},
		{300 * 86400, "months", "2"},
		{1e8, "years", "1"},
		{1e9, "years", "5"},
		{1e14, "years", "500k"},
		{1e20, "years", "500G"},
		{1e300, "years", "5e+282G"},
	}
	start := time.Now()
	for _, c := range cases {
		var a gplot.Axis
		durationAxis(&a, "time", 0, c.hi)
		if want := "time (" + c.label + ")"; a.Label.Text != want {
			t.Errorf("%g s: axis label %q, want %q", c.hi, a.Label.Text, want)
		}
		ticks := a.Tick.Marker.Ticks(0, c.hi)
		var labels []string
		seen := map[string]bool{}
		for _, tk := range ticks {
			if tk.Label == "" {
				continue
			}
			if seen[tk.Label] {
				t.Errorf("%g s: label %q twice", c.hi, tk.Label)
			}
			seen[tk.Label] = true
			labels = append(labels, tk.Label)
		}
		if len(labels) < 2 || len(labels) > MaxDurationTicks {
			t.Errorf("%g s: %d labels %q, want 2 to %d", c.hi, len(labels), labels, MaxDurationTicks)
			continue
		}
		if labels[1] != c.first {
			t.Errorf("%g s: labels %q, want the second %q", c.hi, strings.Join(labels, " "), c.first)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("ticks of %d axes took %s", len(cases), d)
	}
}

// The whole chart of a log whose last step claims 10¹⁴ s draws quickly.
func TestRestoreTimelineHugeSpan(t *testing.T) {
	for _, d := range []float64{1e8, 1e14} {
		start := time.Now()
		c, err := RestoreTimelineChart(RestoreTimeline{Title: "huge", Phases: []Span{
			{Name: "metadata", Kind: "phase", Start: 0, Duration: d},
		}, Items: []Span{
			{Name: "A", Kind: "domain", Start: 0, Duration: 0.1},
			{Name: "committing metadata", Kind: "", Start: 0.1, Duration: d},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.PNG(Options{Width: 400, Height: 300, DPI: 72}); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%g s: drawn in %s", d, el)
		}
	}
}
