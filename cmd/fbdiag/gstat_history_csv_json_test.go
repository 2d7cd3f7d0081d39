package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gstat trend's JSON size_change is bytes, its CSV size_change a share
// (the CSV's bytes are size_change_bytes, as diff's, whose JSON key is
// size_bytes_change): one figure under two names, which
// docs/gstat-history-json.md maps. Of corpus/fb30's a-r and r-later,
// STOCK lost 65536 bytes, 1.7 % of its 3801088.
func TestGstatHistoryCSVChangesReadAsJSON(t *testing.T) {
	a := testutil.Corpus(t, "fb30", "shop-gstat-a-r.txt")
	b := testutil.Corpus(t, "fb30", "shop-gstat-r-later.txt")
	rowOf := func(cmd, name string) map[string]string {
		t.Helper()
		out, errs, code := runCLI(t, nil, "gstat", cmd, "--format", "csv", "--table", "tables", a, b)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if code != 0 || err != nil {
			t.Fatalf("%s: exit %d %s %v", cmd, code, errs, err)
		}
		for _, r := range recs[1:] {
			if r[0] == name {
				m := map[string]string{}
				for i, k := range recs[0] {
					m[k] = r[i]
				}
				return m
			}
		}
		t.Fatalf("%s: no row %s", cmd, name)
		return nil
	}
	table := func(cmd, name string) map[string]any {
		t.Helper()
		out, errs, code := runCLI(t, nil, "gstat", cmd, "--format", "json", a, b)
		var doc struct{ Tables []map[string]any }
		if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
			t.Fatalf("%s: exit %d %s %v", cmd, code, errs, err)
		}
		for _, x := range doc.Tables {
			if x["name"] == name {
				return x
			}
		}
		t.Fatalf("%s JSON: no table %s", cmd, name)
		return nil
	}
	tr, trJSON := rowOf("trend", "STOCK"), table("trend", "STOCK")
	if tr["size_change_bytes"] != "-65536" || tr["size_change"] != "-0.017241379310344827" || trJSON["size_change"] != -65536.0 {
		t.Errorf("trend STOCK: CSV size_change_bytes %s size_change %s, JSON size_change %v",
			tr["size_change_bytes"], tr["size_change"], trJSON["size_change"])
	}
	df, dfJSON := rowOf("diff", "STOCK"), table("diff", "STOCK")
	if df["size_change_bytes"] != "-65536" || df["size_change"] != "-0.017241379310344827" || dfJSON["size_bytes_change"] != -65536.0 {
		t.Errorf("diff STOCK: CSV size_change_bytes %s size_change %s, JSON size_bytes_change %v",
			df["size_change_bytes"], df["size_change"], dfJSON["size_bytes_change"])
	}
}

// A header-only gstat -h run has no table or index blocks: fbdiag gstat's
// JSON totals say null, and so do diff's and trend's snapshots in every
// format (they read 0 tables, 0 indices, as if the database had none).
func TestGstatHistorySnapshotOfHeaderHasNoCount(t *testing.T) {
	h := testutil.Corpus(t, "fb30", "shop-gstat-h.txt")
	later := testutil.Corpus(t, "fb30", "shop-gstat-r-later.txt")
	out, _, _ := runCLI(t, nil, "gstat", "--format", "json", h)
	var g struct {
		Totals struct{ Tables, Indices *int }
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil || g.Totals.Tables != nil || g.Totals.Indices != nil {
		t.Fatalf("gstat JSON totals %+v %v", g.Totals, err)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "json", h, later)
	var d struct {
		Before, After struct{ Tables, Indices *int }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Before.Tables != nil || d.Before.Indices != nil ||
		d.After.Tables == nil || *d.After.Tables != 6 || d.After.Indices == nil || *d.After.Indices != 10 {
		t.Errorf("diff JSON before %+v after %+v %v", d.Before, d.After, err)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "snapshots", h, later)
	if want := "old,h,2026-12-02T14:14:21,gstat,12.0,,,,3.0\nnew,r-later,2026-12-02T14:14:32,gstat,12.0,6,63586304,10,3.0\n"; !strings.HasSuffix(out, want) {
		t.Errorf("diff CSV snapshots:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", h, later)
	if !strings.Contains(out, "old  h         2026-12-02 14:14:21  gstat  12.0                             3.0\n") {
		t.Errorf("diff text:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "gstat", "trend", "--format", "json", h, later)
	var tr struct{ Snapshots []struct{ Tables *int } }
	if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.Snapshots) != 2 || tr.Snapshots[0].Tables != nil {
		t.Errorf("trend JSON snapshots %+v %v", tr.Snapshots, err)
	}
}
