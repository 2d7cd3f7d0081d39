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
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := fbdiagCommand(t, "gstat", "diff", "--format", "json", path, later)
	cmd.Env = append(cmd.Env, peakRSSEnv+"="+peak)
	var stdout bytes.Buffer
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	var d analyze.SnapshotDiff
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
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
	rss := readPeakKB(t, peak)
	t.Logf("gstat diff of two 32 MiB runs: peak %d MB", rss>>10)
	if rss > 160<<10 {
		t.Errorf("peak RSS %d MB, want at most 160", rss>>10)
	}
}
