package analyze

import (
	"math"
	"testing"
)

// The figures of fbdiag collect's first look at the live test's shop
// database on Firebird 3.0.11 (testdata/live/shop.sql, just created):
// MON$IO_STATS 59 page reads for 445 fetches, so the cache served
// 386 of 445 pages, 86.7 %; the header OIT 17, OAT 18, OST 18, Next 18.
func TestLiveFigures(t *testing.T) {
	if h := CacheHitShare(59, 445); h == nil || math.Abs(*h-386.0/445) > 1e-15 {
		t.Errorf("cache hit share %v, want 386/445", h)
	}
	if h := CacheHitShare(0, 0); h != nil {
		t.Errorf("cache hit share before any fetch %v, want null", *h)
	}
	ms := TransactionMarkers(17, 18, 18, 18)
	want := []TransactionMarker{{"oldest transaction (OIT)", 17, 1}, {"oldest active (OAT)", 18, 0},
		{"oldest snapshot (OST)", 18, 0}, {"next transaction", 18, 0}}
	if len(ms) != len(want) {
		t.Fatalf("markers %+v", ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("marker %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
}
