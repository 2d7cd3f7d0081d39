package analyze

import "testing"

// Stored values against the real Firebird 3.0 shop snapshot: CUSTOMER_LAST
// has 1000 distinct keys (selectivity 0.001), ORDERS_CARRIER 11.
func TestCheckSelectivity(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	stored := []StoredSelectivity{
		{Table: "CUSTOMER", Index: "CUSTOMER_LAST", Stored: f(0.0015)},  // within 2x: fresh
		{Table: "ORDERS", Index: "ORDERS_CARRIER", Stored: f(0)},        // never computed
		{Table: "ORDER_LINE", Index: "OL_ITEM", Stored: f(0.0002)},      // 10x the actual 2e-05
		{Table: "WAREHOUSE", Index: "RDB$PRIMARY1", Stored: f(0.2)},     // exact
		{Table: "STOCK", Index: "RDB$PRIMARY5", Stored: nil},            // null in the catalogue
		{Table: "NEW_TABLE", Index: "NEW_IDX", Stored: f(0.5)},          // not in the snapshot
		{Table: "ORDERS", Index: "ORDERS_DATE_D", Stored: f(0.0000049)}, // just over 2x below 1e-05
	}
	got := CheckSelectivity(shop(t), stored, NewThresholds())
	want := []struct {
		stale  bool
		unique int64 // 0: no figures
	}{{false, 1000}, {true, 11}, {true, 50000}, {false, 5}, {true, 50000}, {false, 0}, {true, 100000}}
	if len(got) != len(want) {
		t.Fatalf("%d checks, want %d", len(got), len(want))
	}
	for i, w := range want {
		c := got[i]
		if c.Stale != w.stale {
			t.Errorf("%s: stale = %v, want %v", c.Index, c.Stale, w.stale)
		}
		switch {
		case w.unique == 0 && (c.UniqueKeys != nil || c.Actual != nil):
			t.Errorf("%s: figures %v/%v for an index gstat did not print", c.Index, c.UniqueKeys, c.Actual)
		case w.unique != 0 && (c.UniqueKeys == nil || *c.UniqueKeys != w.unique || *c.Actual != 1/float64(w.unique)):
			t.Errorf("%s: unique keys %v, want %d", c.Index, c.UniqueKeys, w.unique)
		}
	}
	// A looser factor from a --rules file makes the 10x drift acceptable.
	th := NewThresholds()
	if err := th.Set("index-stale-statistics.factor", 20); err != nil {
		t.Fatal(err)
	}
	if got := CheckSelectivity(shop(t), stored[2:3], th); got[0].Stale {
		t.Errorf("OL_ITEM stale with factor 20")
	}
}
