package plot

import (
	"fmt"
	"runtime"
	"testing"
)

// Thousands of series that peak at one setting share one note, made
// once: its text grew again with each series (a 300 KB CSV of 25,000
// columns held its chart for minutes).
func TestSweepManySeriesOneBest(t *testing.T) {
	bytes := map[int]uint64{}
	for _, n := range []int{1000, 4000} {
		d := Sweep{Title: "wide", XLabel: "x", YLabel: "y"}
		for i := range n {
			name := fmt.Sprintf("series_%05d", i)
			d.Series = append(d.Series, Series{Name: name, X: []float64{0}, Y: []float64{float64(i)}})
			d.Best = append(d.Best, Point{X: 0, Y: float64(i), Label: name})
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, err := SweepChart(d)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if s := c.Series(fmt.Sprintf("best series_%05d", n-1)); s == nil || len(s.Y) != 1 || s.Y[0] != float64(n-1) {
			t.Fatalf("%d series: best of the last %+v", n, s)
		}
		bytes[n] = after.TotalAlloc - before.TotalAlloc
	}
	// Four times the series: about four times the bytes (eight before).
	if ratio := float64(bytes[4000]) / float64(bytes[1000]); ratio > 5.5 {
		t.Errorf("allocated %d bytes for 1000 series, %d for 4000 (×%.1f)", bytes[1000], bytes[4000], ratio)
	}
}
