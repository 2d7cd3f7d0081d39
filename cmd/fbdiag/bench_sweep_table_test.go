package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// bench sweep's table counts, beside the conflicts retried, the
// operations given up after their retries and those that failed: they
// were in no column, so a run whose tpmC fell because its Payments were
// given up read as a slow one, and its stderr line said only "tpmC
// 10004.0, steady". The real 4-terminal run of testdata/bench gave up 2
// Payments (JSON's transactions[1].gave_up), made a run of a terminals
// sweep here.
func TestBenchSweepTableCountsFailures(t *testing.T) {
	path := testutil.Testdata(t, "bench", "run-w1-t4.jsonl")
	res, err := parse.ReadBenchResult(bytes.NewReader(readFile(t, path)), path)
	if err != nil {
		t.Fatal(err)
	}
	res.Run.Sweep = &parse.BenchSweep{Axis: "terminals", Value: 4, Run: 1}
	sum := analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
	table := &sweepTable{axis: "terminals"}
	table.add(sum)
	var b strings.Builder
	if err := table.write(&b); err != nil {
		t.Fatal(err)
	}
	// tpmc 10127 (10,004 New-Orders committed and 123 rolled back by
	// design), 22385 committed in 60 s, New-Order p99 47.697 ms, 8835
	// conflicts, cache hit 0.98847, steady, 2048 buffers, 2 given up, no
	// error, 123 rolled back (the column that tells this table's tpmc from
	// one written before it counted them).
	want := "terminals,run,tpmc,committed,window_s,new_order_p99_ms,conflicts,cache_hit_pct,steady,page_buffers_used,gave_up,errors,rolled_back\n" +
		"4,1,10127.0,22385,60,47.70,8835,98.85,1,2048,2,0,123\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	if w := failedWords(sum); w != ", 2 given up" {
		t.Errorf("stderr words %q, want \", 2 given up\"", w)
	}
	sum.Transactions[0].Errors = 1
	if w := failedWords(sum); w != ", 2 given up, 1 error" {
		t.Errorf("stderr words %q", w)
	}
}

// An interrupted sweep says which runs its table holds, not only how
// many ("interrupted after 2 runs: buffers.csv holds them"): the rows
// written, by setting and run. A row added and not written (its write
// failed) is not named.
func TestBenchSweepTableRunNames(t *testing.T) {
	table := &sweepTable{axis: "page_buffers"}
	for _, name := range []string{"page_buffers-256-run1.jsonl", "page_buffers-4096-run1.jsonl", "page_buffers-256-run2.jsonl"} {
		path := testutil.Testdata(t, "bench", "sweep-w1", name)
		res, err := parse.ReadBenchResult(bytes.NewReader(readFile(t, path)), path)
		if err != nil {
			t.Fatal(err)
		}
		table.add(analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds()))
	}
	table.written = 2
	if got, want := table.runNames(), "page_buffers=256 run 1, page_buffers=4096 run 1"; got != want {
		t.Errorf("runs %q, want %q", got, want)
	}
}
