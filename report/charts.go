package report

import "math"

// The adapters in charts_*.go fill the plot package's input structs from
// analysis results: they pick and convert, never judge (severities are
// the analyses' own). The helpers below turn the analyses' nullable
// figures into chart values (NaN: not drawn).

// f64 is *p as float64, or NaN.
func f64(p *int64) float64 {
	if p == nil {
		return math.NaN()
	}
	return float64(*p)
}
