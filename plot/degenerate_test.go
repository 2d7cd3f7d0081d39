package plot

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"strings"
	"testing"
)

// TestDegenerateInputs: odd but possible analysis results (one point,
// zeros, NaN for unknown, a 200-character name) draw, return an error or
// become their notes only (every panel would be empty); they never panic
// and never draw a blank picture.
func TestDegenerateInputs(t *testing.T) {
	nan := math.NaN()
	long := strings.Repeat("VERY_LONG_NAME_", 14)
	zero := 0.0
	cases := map[string]func() (*Chart, error){
		"one size": func() (*Chart, error) {
			return SizeThroughputChart(SizeThroughput{XUnit: "GB", Series: []Series{{Name: long, X: []float64{10}, Y: []float64{5}}}})
		},
		"zero throughput": func() (*Chart, error) {
			return SizeThroughputChart(SizeThroughput{XUnit: "MB", Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{0, 0}}}, Knee: &zero})
		},
		"nan load": func() (*Chart, error) {
			return LoadSpeedChart(LoadSpeed{Unit: "MB/s", Names: []string{long, "b"}, Values: []float64{nan, 0}})
		},
		"only-in-b step": func() (*Chart, error) {
			return RestoreComparisonChart(RestoreComparison{Runs: []string{long, "b"}, Steps: []StepRow{{Name: long, Seconds: []float64{nan, 3}}, {Name: "x", Seconds: []float64{0, 0}}}})
		},
		"zero-length spans": func() (*Chart, error) {
			return RestoreTimelineChart(RestoreTimeline{Phases: []Span{{Name: "p", Start: 0, Duration: 0}}, Items: []Span{{Name: long, Start: nan, Duration: 1}}})
		},
		"no sizes": func() (*Chart, error) {
			return IndicesChart(Indices{Depths: []DepthCount{{Depth: 0, Count: 0}}, Largest: []IndexBar{{Name: long, Table: long, Size: nan}}})
		},
		"tables without -r": func() (*Chart, error) {
			return TablesChart(Tables{SizeUnit: "pages", Tables: []TableBar{{Name: long, Size: 0, Records: nan, Versions: nan, Fragments: nan}}})
		},
		"empty fill": func() (*Chart, error) {
			return FillChart(Fill{Groups: []FillGroup{{Name: long}}})
		},
		"flat sweep": func() (*Chart, error) {
			return SweepChart(Sweep{Series: []Series{{Name: "s", X: []float64{1}, Y: []float64{0}}}, Best: []Point{{X: 1, Y: 0}}, LogX: true})
		},
		"zero baseline": func() (*Chart, error) {
			return ABChart(AB{Names: []string{"a", long}, Values: []float64{0, 5}})
		},
	}
	notesOnly := map[string]string{
		"tables without -r": "no table has data pages in this snapshot",
		"empty fill":        "no " + long + " in this snapshot",
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := mk()
			if err != nil {
				t.Logf("refused: %v", err)
				return
			}
			if want, ok := notesOnly[name]; ok || !c.Drawn() {
				if c.Drawn() || len(c.Notes) != 1 || c.Notes[0] != want {
					t.Fatalf("drawn %v, notes %q, want the notes only %q", c.Drawn(), c.Notes, want)
				}
				if _, err := c.PNG(Options{}); !errors.Is(err, ErrNotDrawn) {
					t.Fatalf("PNG of notes only: %v", err)
				}
				return
			}
			b, err := c.PNG(Options{Width: 480, Height: 300, DPI: 72})
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			// Axes and title at least: far from an empty canvas's 0.
			if v := Variance(img); v < 20 {
				t.Fatalf("pixel variance %.1f", v)
			}
		})
	}
}
