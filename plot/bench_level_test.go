package plot

import (
	"bytes"
	"testing"
)

// The window's mean is named in the legend, top right: its label on the
// line, at the right edge, was crossed by the curve it levels and cut by
// the shade of the seconds after the window (the embedded sample's
// "window mean 373/s"). Drawn with and without the label, the two
// pictures differ in the legend only.
func TestBenchLevelInLegend(t *testing.T) {
	level := 20.0
	d := BenchTimeline{Title: "t", YLabel: "per second", Level: &level}
	var y []float64
	for i := range 60 {
		d.T = append(d.T, float64(i))
		y = append(y, 100)
	}
	d.Series = []Series{{Name: "all five kinds", Y: y}}
	draw := func(label string) []byte {
		d.LevelLabel = label
		c, err := BenchTimelineChart(d)
		if err != nil {
			t.Fatal(err)
		}
		img := c.render(Options{Width: 600, Height: 340})
		defer putCanvas(img)
		return bytes.Clone(img.Pix)
	}
	with, without := draw("window mean 20/s"), draw("")
	const w, h = 600, 340
	lowest := -1
	for i := 0; i+3 < len(with); i += 4 {
		if !bytes.Equal(with[i:i+4], without[i:i+4]) {
			lowest = max(lowest, i/4/w)
		}
	}
	if lowest < 0 || lowest > h/3 {
		t.Errorf("the label changes pixels down to row %d of %d (the line is near the bottom); want the legend's, at the top", lowest, h)
	}
}
