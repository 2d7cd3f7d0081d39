package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// TestReportBigRun: the report of one 32 MiB gstat -a -r (25,146 tables
// grown from the fb30 sample) reads the run as a stream: the process
// peaks under 160 MB (it held the run whole before, 306 MB, and 1 GB at
// 100 MiB), report.json lists every warning of the whole analysis as a
// finding, and the page shows the 20 largest tables and the charts.
func TestReportBigRun(t *testing.T) {
	t.Parallel() // (a process of its own: beside the live tests, which mostly wait)
	path, a := bigGstatRun(t, 32<<20)
	warnings := len(a.Warnings)
	a = nil
	dir := filepath.Join(t.TempDir(), "report")
	rss := runPeakTo(t, nil, "report", "-o", dir, path)
	t.Logf("peak %d MB", rss>>10)
	if rss > 160<<10 && !testutil.Race { // (the race detector's shadow memory doubles it)
		t.Errorf("report: peak RSS %d MB, want at most 160", rss>>10)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Databases []struct {
			Verdict  string            `json:"verdict"`
			Findings []json.RawMessage `json:"findings"`
		} `json:"databases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Databases) != 1 || doc.Databases[0].Verdict != "attention" || len(doc.Databases[0].Findings) != warnings || warnings != 37719 {
		t.Fatalf("report.json: %d databases; want one, attention, with the %d findings of the whole analysis (37719)", len(doc.Databases), warnings)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Tables by size", "20 of 25146 tables", "Largest tables: big.txt", "Index depth: big.txt", "Page fill: big.txt"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// bigGstatRun writes a gstat -a -r of about size bytes grown from the
// fb30 sample (testutil.BigGstat: 25,146 tables at 32 MiB, 12,576 at 16)
// to a temporary file, and returns its path and its analysis, read whole.
func bigGstatRun(t *testing.T, size int64) (string, *analyze.GstatAnalysis) {
	t.Helper()
	path, data := bigGstatFile(t, size)
	reps, err := parse.ReadGstat(strings.NewReader(string(data)), path)
	if err != nil || len(reps) != 1 {
		t.Fatalf("%d runs, %v", len(reps), err)
	}
	a := analyze.Gstat(reps[0], analyze.NewThresholds())
	if want := map[int64]int{16 << 20: 12576, 32 << 20: 25146}[size]; want != 0 && len(a.Tables) != want {
		t.Fatalf("%d tables, want %d", len(a.Tables), want)
	}
	return path, a
}
