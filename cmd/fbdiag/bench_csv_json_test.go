package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
)

// The CSV of bench run (--format csv: the transactions, then the run)
// reads as its JSON, of the summaries of real runs' result files: every
// transaction's counts, share, rate and latencies unrounded (44.7 and
// 10.2 before 2026-12-06 where JSON has 44.69064105427742 and
// 10.173999299280286), and the run table's rows keyed as JSON's figures
// (tpmC, the steady state and the cache hit were in no CSV row as
// figures).
func TestBenchRunCSVReadsAsJSON(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testutil.Testdata(t, "bench", "sweep-w1"), "*.jsonl"))
	paths = append(paths, testutil.Testdata(t, "bench", "run-w1-t4.jsonl"), testutil.Testdata(t, "bench", "run-w1-t1-1s.jsonl"),
		testutil.Testdata(t, "bench", "page_buffers-512-run1.jsonl"))
	for _, path := range paths {
		res, err := parse.ReadBenchResult(bytes.NewReader(readFile(t, path)), path)
		if err != nil {
			t.Fatal(err)
		}
		s := analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
		var j, c bytes.Buffer
		if err := writeBenchSummary(&j, report.JSON, s); err != nil {
			t.Fatal(err)
		}
		if err := writeBenchSummary(&c, report.CSV, s); err != nil {
			t.Fatal(err)
		}
		d := json.NewDecoder(&j)
		d.UseNumber()
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		out := c.String()
		r := csv.NewReader(strings.NewReader(out))
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		what := filepath.Base(path)
		var tx [][]string
		run := map[string]string{}
		for _, rec := range recs {
			switch rec[0] {
			case "transactions":
				tx = append(tx, rec[1:])
			case "run":
				run[rec[1]] = rec[2]
			}
		}
		txs := jlist(doc, "transactions")
		if len(tx) != len(txs) {
			t.Fatalf("%s: %d transactions, JSON %d", what, len(tx), len(txs))
		}
		for i, rec := range tx {
			x := txs[i]
			want := []any{jget(x, "name"), jget(x, "committed"), jget(x, "share"), jget(x, "per_minute"), jget(x, "rolled_back"),
				jget(x, "conflicts"), jget(x, "gave_up"), jget(x, "errors")}
			for _, k := range []string{"mean", "p50", "p90", "p95", "p99", "max"} {
				want = append(want, jget(x, "latency_ms", k))
			}
			for k, v := range want {
				if !sameAsJSON(rec[k], v) {
					t.Errorf("%s: %s column %d: CSV %q, JSON %v", what, rec[0], k+1, rec[k], v)
				}
			}
		}
		for k, v := range map[string]any{"tpmc": doc["tpmc"], "tpm_total": doc["tpm_total"], "window_seconds": doc["window_seconds"],
			"steady_state": doc["steady_state"], "cache_hit": doc["cache_hit"], "terminals": doc["terminals"], "warehouses": doc["warehouses"],
			"page_buffers": jget(doc, "server", "page_buffers"), "partial": doc["partial"]} {
			if got, ok := run[k]; !ok || !sameAsJSON(got, v) {
				t.Errorf("%s: run %s: CSV %q, JSON %v", what, k, got, v)
			}
		}
		if what == "run-w1-t4.jsonl" && !strings.Contains(out, "\ntransactions,new_order,10004,44.992891416385284,10127,123,") {
			t.Errorf("%s: CSV:\n%s", what, out)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
