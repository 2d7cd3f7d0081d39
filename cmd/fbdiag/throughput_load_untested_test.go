package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A load history of one step (bench init --warehouses 1 --out load.csv,
// README's first example: the first step of testdata/bench/load.csv, 113.80
// MiB in 62.09 s) has no trend to test: its headline read "load speed per
// size doubling +0.0 % (not significant, p<0.001)", a p-value of one
// point, and JSON had trend_per_doubling 0 and trend_p 0. Both are null,
// and every format says it was not tested.
func TestThroughputLoadOneStepNotTested(t *testing.T) {
	lines := strings.SplitN(string(readFile(t, testutil.Testdata(t, "bench", "load.csv"))), "\n", 3)
	path := filepath.Join(t.TempDir(), "load.csv")
	if err := os.WriteFile(path, []byte(lines[0]+"\n"+lines[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := runOut(t, "throughput", path)
	if want := "\nload speed per size doubling  not tested: need at least 3 points at 2 distinct sizes or more\n"; !strings.Contains(text, want) ||
		!strings.Contains(text, "\nmedian load speed (MiB/s)     1.83\n") {
		t.Errorf("text:\n%s", text)
	}
	csv := runOut(t, "throughput", "--format", "csv", "--table", "summary", path)
	if want := "\nload_speed_per_doubling_change,not tested: need at least 3 points at 2 distinct sizes or more\n"; !strings.Contains(csv, want) {
		t.Errorf("CSV summary:\n%s", csv)
	}
	var res analyze.Result
	if err := json.Unmarshal([]byte(runOut(t, "throughput", "--format", "json", path)), &res); err != nil {
		t.Fatal(err)
	}
	l := res.Series[0].Load
	if l == nil || l.TrendPerDoubling != nil || l.TrendP != nil || l.Trend || l.Summary.Median < 1.832 || l.Summary.Median > 1.833 {
		t.Errorf("JSON load: %+v", l)
	}
}
