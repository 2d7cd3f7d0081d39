package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// gstat diff read both runs whole and kept their analyses: 243 MB for
// two 30 MiB runs, 820 MB for two of 100 MiB. It now streams each run
// and keeps what a diff compares (analyze.DiffSamples). Two 32 MiB runs
// of 25,146 tables, the second with 808 data pages grown to 809 in the
// ORDERS tables, diffed as a process of its own: every table and index
// listed, the grown ones changed, under 160 MB (it took 107 MB at 30 MiB
// when this was written).
func TestGstatDiffBig(t *testing.T) {
	t.Parallel() // (a process of its own)
	path, a := bigGstatRun(t, 32<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	grown := bytes.Count(data, []byte("Data pages: 808,"))
	later := filepath.Join(t.TempDir(), "later.txt")
	if err := os.WriteFile(later, bytes.ReplaceAll(data, []byte("Data pages: 808,"), []byte("Data pages: 809,")), 0o644); err != nil {
		t.Fatal(err)
	}
	indices := a.Totals.Indices
	a = nil
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
	if grown < 1000 || changed != grown || changed+unchanged != 25146 || len(d.Indices) != indices {
		t.Errorf("%d tables changed, %d unchanged, %d indices; want %d, %d and %d", changed, unchanged, len(d.Indices), grown, 25146-grown, indices)
	}
	t.Logf("gstat diff of two 32 MiB runs: peak %d MB", rss>>10)
	if rss > 160<<10 {
		t.Errorf("peak RSS %d MB, want at most 160", rss>>10)
	}
}

// The report's history diffed two runs read again whole: two 30 MiB
// snapshots of one database made a report of 358 MB (two of 100 MiB:
// 1.16 GB). They are read again as streams (report.historySnapshots):
// two 32 MiB snapshots a day apart, the second with 808 data pages grown
// to 809 in the ORDERS tables, under 260 MB (227 MB at 30 MiB when this
// was written), the history's diff on the page.
func TestReportBigHistory(t *testing.T) {
	t.Parallel() // (a process of its own)
	path, _ := bigGstatRun(t, 32<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
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
	_, rss := runPeak(t, "report", "-o", dir, in)
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
	t.Logf("report of two 32 MiB snapshots (%d tables grown): peak %d MB", grown, rss>>10)
	if rss > 260<<10 {
		t.Errorf("peak RSS %d MB, want at most 260", rss>>10)
	}
}

// runPeak runs fbdiag with args as a process of its own and returns its
// standard output and peak resident memory in KiB.
func runPeak(t *testing.T, args ...string) (stdout []byte, peakKB int) {
	t.Helper()
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := fbdiagCommand(t, args...)
	cmd.Env = append(cmd.Env, peakRSSEnv+"="+peak)
	var out bytes.Buffer
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fbdiag %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out.Bytes(), readPeakKB(t, peak)
}
