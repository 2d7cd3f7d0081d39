package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/bench"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// TestLiveBench is issue 17's acceptance on the live server, on one
// database loaded once: bench init --warehouses 1 completes with the
// spec's row counts and every consistency condition passing.
func TestLiveBench(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.TempPath(t, s, "tpcc.fdb")
	if !t.Run("init", func(t *testing.T) { benchInitLive(t, s, db) }) {
		return
	}
}

func benchInitLive(t *testing.T, s collect.Server, db string) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "load.csv")
	code, out, errs := runCLI(t, nil, "bench", "init", "--server", s.Addr, "--warehouses", "1", "--format", "json", "--out", csv, db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res bench.LoadResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d rows in %.1fs on %d connections, %d bytes", res.Rows, res.Seconds, res.Jobs, res.SizeBytes[1])
	if !res.Created || res.Warehouses != 1 || len(res.Loaded) != 1 || res.Parts != 20 || !res.CountsChecked || !res.Consistent {
		t.Errorf("created %v, warehouses %d, loaded %v, parts %d, counts checked %v, consistent %v",
			res.Created, res.Warehouses, res.Loaded, res.Parts, res.CountsChecked, res.Consistent)
	}
	want := map[string]int64{"ITEM": 100000, "WAREHOUSE": 1, "STOCK": 100000, "DISTRICT": 10, "CUSTOMER": 30000,
		"HISTORY": 30000, "ORDERS": 30000, "NEW_ORDER": 9000}
	var total int64
	for _, c := range res.Counts {
		total += c.Rows
		if c.Table == "ORDER_LINE" {
			// 3000 orders of 5 to 15 lines in each of 10 districts:
			// 300,000 on average with a standard deviation of 548 (√10 a
			// order): ±10,000 is 18 of them.
			if c.Rows < 290000 || c.Rows > 310000 || !c.OK {
				t.Errorf("ORDER_LINE %d rows, ok %v: want about 300000", c.Rows, c.OK)
			}
			continue
		}
		if c.Rows != want[c.Table] || !c.OK {
			t.Errorf("%s: %d rows, ok %v; want %d", c.Table, c.Rows, c.OK, want[c.Table])
		}
	}
	if len(res.Counts) != 9 || total != res.Rows {
		t.Errorf("%d tables hold %d rows, the loader reported %d", len(res.Counts), total, res.Rows)
	}
	if len(res.Checks) != 12 {
		t.Errorf("%d checks, want 12", len(res.Checks))
	}
	for _, c := range res.Checks {
		if !c.Passed || c.Violations != 0 {
			t.Errorf("condition %d (%s): %d %s violate it", c.ID, c.Condition, c.Violations, c.Scope)
		}
	}
	if res.RowsPerSecond == nil || *res.RowsPerSecond <= 0 || res.SizeBytes[1] <= res.SizeBytes[0] {
		t.Errorf("rate %v, size %v", res.RowsPerSecond, res.SizeBytes)
	}
	// The load history reads as a load-speed result.
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || lines[0] != "step,warehouses,size_mb,load_time_s,load_speed_mb_s,rows,rows_per_s,jobs" {
		t.Errorf("load csv:\n%s", b)
	}
	code, out, errs = runCLI(t, nil, "throughput", "--format", "json", csv)
	var tp struct {
		Mode string `json:"mode"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &tp) != nil || tp.Mode != "load" {
		t.Errorf("throughput of the load history: exit %d, mode %q: %s", code, tp.Mode, errs)
	}
	// A second init finds everything loaded: nothing to do, still consistent.
	code, out, errs = runCLI(t, nil, "bench", "init", "--server", s.Addr, "--warehouses", "1", "--format", "json", db)
	var again bench.LoadResult
	if code != exitOK || json.Unmarshal([]byte(out), &again) != nil {
		t.Fatalf("second init: exit %d: %s", code, errs)
	}
	if again.Created || again.Parts != 0 || len(again.Loaded) != 0 || again.Warehouses != 1 || !again.Consistent ||
		len(again.Checks) != 11 || again.CountsChecked || len(again.History) != 1 {
		t.Errorf("second init: created %v, parts %d, loaded %v, warehouses %d, consistent %v, %d checks, counts checked %v, history %d",
			again.Created, again.Parts, again.Loaded, again.Warehouses, again.Consistent, len(again.Checks), again.CountsChecked, len(again.History))
	}
}
