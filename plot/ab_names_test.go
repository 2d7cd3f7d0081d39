package plot

import (
	"slices"
	"testing"

	gplot "gonum.org/v1/plot"
)

// The names under an A/B chart's bars do not run into each other: the
// corpus's five pgbench configurations (fbdiag report
// ../shared/corpus) were one line each of up to 41 runes under bars a
// fifth of the axis wide, "clients=4 threads=2 · pgbench15-runs-trace"
// over "clients=2 threads=1 · …": each part of a name is a line now, cut
// to the bar's share of the axis, and a name of two bars is whole.
func TestABChartNamesFitTheirBars(t *testing.T) {
	names := []string{
		"clients=4 threads=2 · pgbench15-runs-trace",
		"clients=2 threads=1 · pgbench15-runs-trace",
		"clients=2 threads=2 · pgbench15-runs-trace",
		"pgbench-aggregate-log",
		"clients=1 · pgbench-transaction-log",
	}
	ch, err := ABChart(AB{Names: names, Values: []float64{1350.0, 1041.0, 1098.0, 954.0, 251.0}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"clients=4 threads=2\npgbench15-runs-trace",
		"clients=2 threads=1\npgbench15-runs-trace",
		"clients=2 threads=2\npgbench15-runs-trace",
		"pgbench-aggregate-log",
		"clients=1\npgbench-transaction-log",
	}
	if got := tickLabels(ch); !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	two := []string{"clients=2 · select only · pgbench-select-progress", "clients=4 · TPC-B (sort of) · pgbench-tpcb-progress"}
	ch, err = ABChart(AB{Names: two, Values: []float64{18481.125554, 1767.584284}})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"clients=2\nselect only\npgbench-select-progress", "clients=4\nTPC-B (sort of)\npgbench-tpcb-progress"}
	if got := tickLabels(ch); !slices.Equal(got, want) {
		t.Errorf("two bars: labels %q, want %q", got, want)
	}
}

func tickLabels(ch *Chart) []string {
	var out []string
	for _, tk := range ch.panels[0].Plot.X.Tick.Marker.(gplot.ConstantTicks) {
		out = append(out, tk.Label)
	}
	return out
}
