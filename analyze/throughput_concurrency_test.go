package analyze

import (
	"os"
	"path/filepath"
	"testing"
)

// A sweep over client threads is a sweep, also when the settings are
// 1, 2, 3… (which look like a row counter). The table is QA's sysbench
// sweep; the consecutive one is the same sweep over 1–6 connections.
func TestConcurrencySweep(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		best       float64
		within     []float64
	}{
		{"threads.csv", "threads,tps\n1,812\n2,1530\n4,2710\n8,3900\n16,4020\n32,3870\n", 16, nil},
		{"connections.csv", "connections,tps\n1,812\n2,1530\n3,2710\n4,3960\n5,4020\n6,3870\n", 5, []float64{4}},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		r := analyse(t, Options{}, p)
		if r.Mode != ModeSweep || len(r.Series) != 1 || r.Series[0].Sweep == nil {
			t.Fatalf("%s: mode %s, %d series", c.name, r.Mode, len(r.Series))
		}
		sw := r.Series[0].Sweep
		if sw.Best.X != c.best || sw.Best.Median != 4020 || sw.Worst.X != 1 || sw.Worst.Median != 812 {
			t.Errorf("%s: best %+v worst %+v", c.name, sw.Best, sw.Worst)
		}
		if len(sw.WithinNoise) != len(c.within) || (len(c.within) > 0 && sw.WithinNoise[0] != c.within[0]) {
			t.Errorf("%s: within noise = %v, want %v", c.name, sw.WithinNoise, c.within)
		}
	}
}

func TestConcurrencyLike(t *testing.T) {
	for name, want := range map[string]bool{"threads": true, "Clients": true, "num_threads": true,
		"connections": true, "workers": true, "run": false, "db": false, "#": false, "threads_per_core": false} {
		if got := concurrencyLike(name); got != want {
			t.Errorf("concurrencyLike(%q) = %v", name, got)
		}
	}
}
