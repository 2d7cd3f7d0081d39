package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gstat diff read both runs whole and kept their analyses: 136 MB for
// two 16 MiB runs, 820 MB for two of 100 MiB. It now streams each run
// and keeps what a diff compares (analyze.DiffSamples). Two 16 MiB runs
// of 12,576 tables, the second with 808 data pages grown to 809 in the
// ORDERS tables, diffed as a process of its own: every table and index
// listed, the grown ones changed, under 100 MB (67 MB when this was
// written).
func TestGstatDiffBig(t *testing.T) {
	t.Parallel() // (a process of its own)
	path, data := bigGstatFile(t, 16<<20)
	grown := bytes.Count(data, []byte("Data pages: 808,"))
	later := filepath.Join(t.TempDir(), "later.txt")
	if err := os.WriteFile(later, bytes.ReplaceAll(data, []byte("Data pages: 808,"), []byte("Data pages: 809,")), 0o644); err != nil {
		t.Fatal(err)
	}
	tables, indices := bytes.Count(data, []byte("Primary pointer page:")), bytes.Count(data, []byte("\n    Index "))
	stdout, rss := runPeak(t, "gstat", "diff", "--format", "json", path, later)
	var d analyze.SnapshotDiff
	if err := json.Unmarshal(stdout, &d); err != nil {
		t.Fatal(err)
	}
	changed, unchanged := 0, 0
	for _, td := range d.Tables {
		switch td.Status {
		case analyze.StatusChanged:
			changed++
			if !strings.HasPrefix(td.Name, "ORDERS") || !is64(td.DataPagesChange, 1) {
				t.Errorf("%s changed by %s data pages, want an ORDERS table grown by 1", td.Name, jsonOf(td.DataPagesChange))
			}
		case analyze.StatusUnchanged:
			unchanged++
		}
	}
	if grown < 500 || tables != 12576 || changed != grown || changed+unchanged != tables || len(d.Indices) != indices {
		t.Errorf("%d tables changed, %d unchanged, %d indices; want %d, %d and %d", changed, unchanged, len(d.Indices), grown, tables-grown, indices)
	}
	t.Logf("gstat diff of two 16 MiB runs of %d tables and %d indices: peak %d MB", tables, indices, rss>>10)
	if rss > 100<<10 && !testutil.Race { // (the race detector's shadow memory doubles it)
		t.Errorf("peak RSS %d MB, want at most 100", rss>>10)
	}
}

// The report's history diffed two runs read again whole: two 16 MiB
// snapshots of one database made a report of 194 MB (two of 100 MiB:
// 1.16 GB). They are read again as streams (report.historySnapshots):
// two 16 MiB snapshots a day apart, the second with 808 data pages grown
// to 809 in the ORDERS tables, under 160 MB (123 MB when this was
// written), the history's diff on the page.
func TestReportBigHistory(t *testing.T) {
	t.Parallel() // (a process of its own)
	_, data := bigGstatFile(t, 16<<20)
	in := filepath.Join(t.TempDir(), "snapshots")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	later := bytes.Replace(data, []byte("Gstat execution time Wed Dec  2 14:09:54 2026"), []byte("Gstat execution time Thu Dec  3 14:09:54 2026"), 1)
	later = bytes.ReplaceAll(later, []byte("Data pages: 808,"), []byte("Data pages: 809,"))
	if bytes.Equal(later[:200], data[:200]) {
		t.Fatal("the big run's execution time is not the shop sample's")
	}
	for name, b := range map[string][]byte{"day1.txt": data, "day2.txt": later} {
		if err := os.WriteFile(filepath.Join(in, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "report")
	rss := runPeakTo(t, nil, "report", "-o", dir, in)
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	grown := bytes.Count(data, []byte("Data pages: 808,"))
	for _, want := range []string{"<h3>History</h3>", "2 gstat snapshots of", "1d 0:00:00 apart",
		"<h3>The latest snapshot and the one before (fbdiag gstat diff)</h3>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	t.Logf("report of two 16 MiB snapshots (%d tables grown): peak %d MB", grown, rss>>10)
	if rss > 160<<10 && !testutil.Race { // (the race detector's shadow memory doubles it)
		t.Errorf("peak RSS %d MB, want at most 160", rss>>10)
	}
}

// bigGstatFile writes a gstat -a -r of about size bytes grown from the
// fb30 sample (testutil.BigGstat) to a temporary file, and returns its
// path and text.
func bigGstatFile(t *testing.T, size int64) (string, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: a big input")
	}
	_, data := testutil.BigGstat(t, size)
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// runPeak runs fbdiag with args as a process of its own and returns its
// standard output and peak resident memory in KiB.
func runPeak(t *testing.T, args ...string) (stdout []byte, peakKB int) {
	t.Helper()
	var out bytes.Buffer
	peakKB = runPeakTo(t, &out, args...)
	return out.Bytes(), peakKB
}

// runPeakTo is runPeak with the standard output written to w (nil: the
// null device, as for a run whose output is not looked at: a buffer
// growing to the 100 MB of a big input's JSON cost more than the run).
func runPeakTo(t *testing.T, w io.Writer, args ...string) (peakKB int) {
	t.Helper()
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := fbdiagCommand(t, args...)
	cmd.Env = append(cmd.Env, peakRSSEnv+"="+peak)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fbdiag %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return readPeakKB(t, peak)
}
