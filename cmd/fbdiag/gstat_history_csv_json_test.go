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
