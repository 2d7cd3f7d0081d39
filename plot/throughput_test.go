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
