package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
)

// An A/B table of 100 variants drew 101 bars; the chart keeps the
// baseline and the 30-1 variants of the biggest changes, in their
// order, and its title says so.
func TestABChartKeepsBiggestChanges(t *testing.T) {
	var b strings.Builder
	b.WriteString("variant\ttps\n")
	b.WriteString("base\t1000\n")
	for i := 1; i <= 100; i++ {
		// Variant i changes by i % 50 - 25 percent: ±25 the biggest.
		fmt.Fprintf(&b, "v%03d\t%d\n", i, 1000+10*(i%50-25))
	}
	tables, runs, notices, err := parse.ReadThroughput(strings.NewReader(b.String()), "ab.tsv")
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyze.Throughput(analyze.Input{Tables: tables, Runs: runs, Notices: notices}, analyze.Options{Mode: analyze.ModeAB})
	if err != nil {
		t.Fatal(err)
	}
	d := ABChart(res, "A/B")
	if want := "A/B (the 29 biggest changes of 100 configurations)"; d.Title != want {
		t.Errorf("title %q, want %q", d.Title, want)
	}
	if len(d.Names) != TopBars || d.Names[0] != "base" {
		t.Fatalf("%d bars %q", len(d.Names), d.Names)
	}
	for i, n := range d.Names[1:] {
		if d.Deltas[i+1] > -17.5 && d.Deltas[i+1] < 17.5 { // 2 of ±25 %, 24 of ±19 to ±24 %, 3 of ±18 %
			t.Errorf("%s: change %.0f %% kept among the biggest", n, d.Deltas[i+1])
		}
		if i > 0 && n < d.Names[i] {
			t.Errorf("%s after %s: not in the table's order", n, d.Names[i])
		}
	}
}
