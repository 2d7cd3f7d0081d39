package plot

import (
	"strings"
	"testing"
)

// A size axis in GiB is ticked at powers of two and labelled in IEC units
// as fbdiag prints sizes: the seed's 9.04 GiB to 3.54 TiB every other
// doubling, 9 to 31 GiB at 1.5 × 2^n too.
func TestBinaryTicks(t *testing.T) {
	labels := func(min, max float64) string {
		var out []string
		for _, tk := range (binaryTicks{Factor: 1 << 30}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return strings.Join(out, ",")
	}
	if got := labels(9.04, 2*1813.969025*1.4); got != "16 GiB,64 GiB,256 GiB,1 TiB,4 TiB" {
		t.Errorf("9 GiB to 5 TiB: %s", got)
	}
	if got := labels(9.04, 2048*1.4); got != "16 GiB,32 GiB,64 GiB,128 GiB,256 GiB,512 GiB,1 TiB,2 TiB" {
		t.Errorf("9 GiB to 2.8 TiB: %s", got)
	}
	if got := labels(9, 31); got != "12 GiB,16 GiB,24 GiB" {
		t.Errorf("9 to 31 GiB: %s", got)
	}
	if ticks := (binaryTicks{Factor: 1 << 30}).Ticks(0, 10); ticks != nil {
		t.Errorf("a range from 0: %v", ticks)
	}
	if got := xText(2048, "GiB"); got != "2.00 TiB" {
		t.Errorf("xText(2048 GiB) = %q", got)
	}
	var fig []string
	for _, tk := range (figureTicks{}).Ticks(9, 1800) {
		if tk.Label != "" {
			fig = append(fig, tk.Label)
		}
	}
	if got := strings.Join(fig, ","); got != "10,20,50,100,200,500,1000" {
		t.Errorf("warehouses 9 to 1800: %s", got)
	}
	if got := xText(1000, "warehouses"); got != "1000 warehouses" {
		t.Errorf("xText(1000 warehouses) = %q", got)
	}
}

// A sweep of series of very different scale (pgbench select-only at
// 22000 tps beside TPC-B at 1500) gives each a panel of its own, its best
// point with it, as the size chart does; series of one scale share one.
func TestSweepScalePanels(t *testing.T) {
	xs := []float64{1, 2, 4, 8, 16}
	d := Sweep{Title: "Sweep: pg.csv", XLabel: "clients", YLabel: "tps", Series: []Series{
		{Name: "select_only_tps", X: xs, Y: []float64{9000, 16000, 21000, 22000, 21500}},
		{Name: "tpcb_tps", X: xs, Y: []float64{600, 1000, 1400, 1500, 1450}},
	}, Best: []Point{{X: 8, Y: 22000, Label: "select_only_tps"}, {X: 8, Y: 1500, Label: "tpcb_tps"}}}
	c, err := SweepChart(d)
	if err != nil {
		t.Fatal(err)
	}
	if c.Panels() != 2 {
		t.Fatalf("%d panels, want 2", c.Panels())
	}
	for name, panel := range map[string]int{"select_only_tps": 0, "tpcb_tps": 1, "best select_only_tps": 0, "best tpcb_tps": 1} {
		if s := c.Series(name); s == nil || s.Panel != panel {
			t.Errorf("%s: %+v, want panel %d", name, s, panel)
		}
	}
	d.Series[1].Y = []float64{8000, 15000, 20000, 21000, 20500}
	d.Best[1].Y = 21000
	if c, err = SweepChart(d); err != nil || c.Panels() != 1 {
		t.Errorf("one scale: %v panels, %v", c.Panels(), err)
	}
}
