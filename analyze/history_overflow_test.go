package analyze

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The fb30 pair (4 min 38 s apart) after a 2018 snapshot of another
// database: ORDERS shrank 320 KiB in minutes, 3164 days after day 0, and
// the exponential intercept e^(ln size − slope·3164) was +Inf, so
// 'fbdiag gstat trend --format json' failed with "json: unsupported
// value: +Inf".
func TestTrendExponentialOverflowIsNull(t *testing.T) {
	var snaps []*HistorySnapshot
	for _, p := range []string{
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
		testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out"),
	} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(f, p)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			snaps = append(snaps, NewHistorySnapshot(r, SnapshotOptions{}))
		}
	}
	tr := TrendOf(snaps, 0)
	if _, err := json.Marshal(tr); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	for _, g := range tr.Tables {
		if g.Name != "ORDERS" {
			continue
		}
		if g.Exponential != nil || g.Linear == nil || g.SizeChange == nil || *g.SizeChange != -320*1024 {
			t.Errorf("ORDERS: exponential %+v, linear %+v, change %v", g.Exponential, g.Linear, g.SizeChange)
		}
		return
	}
	t.Error("no ORDERS in the trend")
}
