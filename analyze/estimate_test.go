package analyze

import (
	"math"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The shop restore of Firebird 3.0.11 (35.170 s) as the earlier run.
func TestEstimateFromEarlierRestore(t *testing.T) {
	b := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	e, ok := NewEstimate(strings.NewReader(string(b)), "shop-restore.log")
	if !ok || e.Op != parse.GbakRestore || e.Total != 35.170 {
		t.Fatalf("estimate %+v, ok %v", e, ok)
	}
	for _, c := range []struct {
		msg, table     string
		kind           parse.GbakKind
		occ            int
		elapsed, since float64
		want           float64
	}{
		// Same pace: the earlier run's rest.
		{"restoring data for table ORDER_LINE", "", parse.GbakData, 0, 3.747, 0, 35.170 - 3.747},
		{"10000 records restored", "ORDER_LINE", parse.GbakRecords, 0, 4.424, 0, 35.170 - 4.424},
		{"activating and creating deferred index OL_ITEM", "", parse.GbakActivateIndex, 0, 34.712, 0, 35.170 - 34.712},
		// Twice as slow: twice the rest; 0.2 s into it, 0.2 s less.
		{"activating and creating deferred index OL_ITEM", "", parse.GbakActivateIndex, 0, 69.424, 0.2, 2*(35.170-34.712) - 0.2},
		// Past the earlier run's end: nothing left, not a negative time.
		{"activating and creating deferred index OL_ITEM", "", parse.GbakActivateIndex, 0, 34.712, 5, 0},
		// Early steps take the earlier pace as is.
		{"restoring domain RDB$1", "", parse.GbakMetadata, 0, 0.5, 0, 35.170 - 0.094},
	} {
		got, ok := e.Remaining(StepKey(c.msg, c.table, c.kind, c.occ), c.elapsed, c.since)
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s (%s) at %.3f+%.1f: %.3f, %v; want %.3f", c.msg, c.table, c.elapsed, c.since, got, ok, c.want)
		}
	}
	if _, ok := e.Remaining(StepKey("restoring data for table NOPE", "", parse.GbakData, 0), 1, 0); ok {
		t.Error("a step the earlier run did not have got an estimate")
	}
	// A log that did not complete gives no estimate.
	cut := string(b)[:strings.Index(string(b), "creating indexes")]
	if _, ok := NewEstimate(strings.NewReader(cut), "cut.log"); ok {
		t.Error("an incomplete log gave an estimate")
	}
}
