package view

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// FuzzThroughputView feeds any input through the readers, every
// analysis and the view, and draws every chart the view makes: no panic,
// and no chart whose drawing panics (plot turns a panic into an error;
// a chart with nothing to draw is not one).
func FuzzThroughputView(f *testing.F) {
	for _, name := range []string{"degradation-throughput-sata.csv", "page-buffers-1.7tb.csv", "power-plan-tpcc.tsv"} {
		f.Add(testutil.ReadTestdata(f, "seeds", name), uint8(0))
	}
	f.Add([]byte("size_gb,tps,latency_ms\n9,500,10\n18,480,11\n36,450,12.5\n72,420,14\n144,380,16\n288,330,19\n"), uint8(0))
	f.Add([]byte("threads,tps,qps\n1,100,2000\n2,190,3800\n4,350,7000\n8,500,10000\n16,520,10400\n"), uint8(0))
	f.Add([]byte("clients,select_only_tps,tpcb_tps\n1,9000,600\n2,16000,1000\n4,21000,1400\n8,22000,1500\n"), uint8(2))
	f.Add([]byte("size_gb,latency_ms\n9,10\n18,11\n36,12.5\n72,14\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		start := time.Now()
		defer func() {
			if el := time.Since(start); el > 3*time.Second {
				t.Fatalf("%v for %d bytes", el, len(data))
			}
		}()
		tables, runs, notes, err := parse.ReadThroughput(bytes.NewReader(data), "fuzz.txt")
		if err != nil {
			return
		}
		modes := []string{"", analyze.ModeDegradation, analyze.ModeSweep, analyze.ModeAB, analyze.ModeLoad}
		opt := analyze.Options{Mode: modes[int(mode)%len(modes)]}
		r, err := analyze.Throughput(analyze.Input{Tables: tables, Runs: runs, Notices: notes}, opt)
		if err != nil {
			return
		}
		d := Throughput(r, "fuzz.txt")
		for _, c := range d.Charts {
			if _, err := c.PNG(plot.Options{Width: 320, Height: 180, DPI: 40}); err != nil && !errors.Is(err, plot.ErrNotDrawn) {
				t.Fatalf("chart %s: %v", c.File(), err)
			}
		}
	})
}
