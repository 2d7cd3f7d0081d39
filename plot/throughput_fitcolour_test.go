package plot

import (
	"bytes"
	"image/color"
	"math"
	"slices"
	"testing"
)

// twoSeries is a chart of two series, a and b, each with its best fit
// (b's first, as no caller need order them) and a prediction.
func twoSeries() SizeThroughput {
	xs := []float64{1, 2, 4, 8, 16, 32}
	curve := func(y0, k float64) (x, y []float64) {
		for _, v := range []float64{1, 2, 4, 8, 16, 32, 64} {
			x, y = append(x, v), append(y, y0*math.Pow(v, k))
		}
		return x, y
	}
	bx, by := curve(815, -0.1)
	ax, ay := curve(1000, -0.15)
	return SizeThroughput{Title: "two", XUnit: "GiB", YLabel: "tps",
		Series: []Series{
			{Name: "a", X: xs, Y: []float64{1000, 905, 830, 740, 690, 600}},
			{Name: "b", X: xs, Y: []float64{800, 790, 700, 690, 600, 570}},
		},
		Fits: []Curve{
			{Name: "b: loglinear fit", X: bx, Y: by, Of: "b"},
			{Name: "a: power fit", X: ax, Y: ay, Of: "a"},
		},
		Predictions: []Prediction{
			{Point: Point{X: 64, Y: 519}, Interval: &Interval{Lo: 435, Hi: 602}, Fit: 0, Of: "b"},
			{Point: Point{X: 64, Y: 553}, Interval: &Interval{Lo: 521, Hi: 586}, Fit: 1, Of: "a"},
		},
	}
}

// With several series on one chart each fit is drawn in its own series'
// colour: they were coloured by their order after the series (b's fit
// green, a's purple), and the legend paired them by name alone.
func TestSizeFitsTakeTheirSeriesColour(t *testing.T) {
	d := twoSeries()
	st := fitStyles(d)
	if st[0].hue != seriesColor(1) || st[1].hue != seriesColor(0) || st[0].dashes != nil || st[1].dashes != nil {
		t.Errorf("styles %+v: want b's fit in %v, a's in %v, both solid", st, seriesColor(1), seriesColor(0))
	}
	c, err := SizeThroughputChart(d)
	if err != nil {
		t.Fatal(err)
	}
	img := c.render(Options{Width: 600, Height: 340})
	defer putCanvas(img)
	// Neither the old fit colours nor anything else in them is drawn.
	count := func(want color.RGBA) int {
		n := 0
		for i := 0; i+3 < len(img.Pix); i += 4 {
			if bytes.Equal(img.Pix[i:i+4], []byte{want.R, want.G, want.B, want.A}) {
				n++
			}
		}
		return n
	}
	if g, p := count(seriesColor(2)), count(seriesColor(3)); g != 0 || p != 0 {
		t.Errorf("%d green and %d purple pixels: fits in colours of no series", g, p)
	}
	if n := count(seriesColor(1)); n < 200 {
		t.Errorf("%d pixels of b's colour: its fit is not in it", n)
	}
	// Deterministic: the same chart twice is the same PNG.
	p1, err1 := c.PNG(Options{Width: 600, Height: 340})
	p2, err2 := c.PNG(Options{Width: 600, Height: 340})
	if err1 != nil || err2 != nil || !bytes.Equal(p1, p2) {
		t.Errorf("two renders differ (%v, %v)", err1, err2)
	}
}

// Several fits of one series on a chart of several differ by dash
// pattern, all in the series' colour; one that is not significant is
// dotted (pale and solid, it read as the series' own line). One series'
// fits keep their colours, solid: nothing to pair there.
func TestSizeFitStyles(t *testing.T) {
	d := twoSeries()
	d.Fits = append(d.Fits, Curve{Name: "b: power fit", Of: "b"}, Curve{Name: "a: linear fit", Of: "a", Faint: true})
	st := fitStyles(d)
	if st[2].hue != seriesColor(1) || !slices.Equal(st[2].dashes, modelDashes[1]) {
		t.Errorf("b's second fit: %+v", st[2])
	}
	if st[3].hue != seriesColor(0) || !slices.Equal(st[3].dashes, modelDashes[1]) || st[3].width != 1 {
		t.Errorf("a's second fit, faint: %+v", st[3])
	}
	d.Fits = []Curve{{Name: "a: power fit", Of: "a", Faint: true}}
	if st := fitStyles(d); st[0].hue != seriesColor(0) || len(st[0].dashes) != 2 || st[0].col != withAlpha(seriesColor(0), 0xA0) {
		t.Errorf("a faint fit on a chart of several: %+v", st[0])
	}
	one := SizeThroughput{Series: d.Series[:1], Fits: []Curve{{Name: "linear"}, {Name: "loglinear"}, {Name: "power", Faint: true}}}
	st = fitStyles(one)
	for i, s := range st {
		if s.hue != seriesColor(1+i) || s.dashes != nil {
			t.Errorf("one series, fit %d: %+v", i, s)
		}
	}
	if st[2].col != withAlpha(seriesColor(3), 0x60) || st[2].width != 1 {
		t.Errorf("one series, faint fit: %+v", st[2])
	}
}
