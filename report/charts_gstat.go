package report

import (
	"math"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
)

// TopObjects is how many tables or indices a chart shows.
const TopObjects = 12

// sizeMiB is a size in bytes as MiB (2²⁰), as every fbdiag output
// shows sizes, NaN when unknown.
func sizeMiB(b *int64) float64 {
	if b == nil {
		return math.NaN()
	}
	return float64(*b) / (1 << 20)
}

// GstatTablesChart is the tables chart input: the largest tables by size
// (bytes, else data pages), with records, back versions and fragments.
func GstatTablesChart(a *analyze.GstatAnalysis, top int) plot.Tables {
	return wholeChartKeeper(a, top).tablesChart(a.File)
}

// GstatIndicesChart is the indices chart input: how many indices have
// each depth (a bar takes the worst severity of the depth warnings at
// that depth) and the largest indices by leaf size with their worst
// warning.
func GstatIndicesChart(a *analyze.GstatAnalysis, top int) plot.Indices {
	return wholeChartKeeper(a, top).indicesChart(a.File)
}

// isDepthRule tells the index depth rules ("index-deep").
func isDepthRule(rule string) bool {
	return strings.Contains(rule, "deep") || strings.Contains(rule, "depth")
}

// GstatFillChart is the fill chart input: data pages of all tables and
// leaf pages of all indices per fill bucket.
func GstatFillChart(a *analyze.GstatAnalysis) plot.Fill {
	return wholeChartKeeper(a, TopObjects).fillChart(a.File)
}

// GstatCharts draws the tables, indices and fill charts of one gstat run
// (each only when the run has what it shows); fbdiag gstat --png writes
// them with WritePNGs. A run read as a stream is charted the same by a
// GstatChartKeeper.
func GstatCharts(a *analyze.GstatAnalysis) ([]*plot.Chart, error) {
	return wholeChartKeeper(a, TopObjects).data(a.File).Draw()
}
