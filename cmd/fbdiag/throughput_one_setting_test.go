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

// A sweep stopped after its first setting (bench sweep interrupted in
// the round's second value: the 256-buffer runs of testdata/bench's real
// sweep, 13100, 13950 and 11890 tpmC) has no worst setting and nothing
// to compare: it read "worst setting off the best 0.0 % (at 256)" and
// "best 256 (median 13100); worst 256 (0.0 % off the best)".
func TestThroughputSweepOneSetting(t *testing.T) {
	var keep []string
	for i, l := range strings.Split(string(readFile(t, testutil.Testdata(t, "bench", "sweep-w1", "buffers.csv"))), "\n") {
		if i == 0 || strings.HasPrefix(l, "256,") {
			keep = append(keep, l)
		}
	}
	path := filepath.Join(t.TempDir(), "buffers.csv")
	if err := os.WriteFile(path, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := runOut(t, "throughput", path)
	if !strings.Contains(text, "\nbest page_buffers  256 (median 13100)\n\n") || strings.Contains(text, "worst") ||
		!strings.Contains(text, "\none setting measured, 256 (13100): nothing to compare it with\n") {
		t.Errorf("text:\n%s", text)
	}
	var res analyze.Result
	if err := json.Unmarshal([]byte(runOut(t, "throughput", "--format", "json", path)), &res); err != nil {
		t.Fatal(err)
	}
	if sw := res.Series[0].Sweep; sw == nil || len(sw.Settings) != 1 || sw.Settings[0].N != 3 ||
		sw.Verdict != "one setting measured, 256 (13100): nothing to compare it with" {
		t.Errorf("JSON sweep: %+v", sw)
	}
	if csv := runOut(t, "throughput", "--format", "csv", "--table", "summary", path); strings.Contains(csv, "worst_vs_best_share") {
		t.Errorf("CSV summary:\n%s", csv)
	}
}
