package bench

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	fb "github.com/nakagami/firebirdsql"

	"github.com/fbdiag/fbdiag/collect"
)

// A write that must change one row and changed none is a conflict to
// retry, as Firebird 3.0.11's races are: the procedures' BENCH_ROW_MISSED
// (a CI run had a New-Order insert its order with a null O_ID after its
// DISTRICT update changed nothing) and the client mode's UPDATE ...
// RETURNING without a row. Other exceptions and a missing row of a
// SELECT stay what they are.
func TestRowMissedIsConflict(t *testing.T) {
	raised := &fb.FbError{GDSCodes: []int{fb.ISCExcept}, Params: [][]string{{"2"}, {"BENCH_ROW_MISSED"}},
		Message: "exception 2\nBENCH_ROW_MISSED\na write that must change one row changed none\nAt procedure 'BENCH_NEW_ORDER' line: 24, col: 3"}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{raised, true},
		{fmt.Errorf("wrapped: %w", raised), true},
		{missed(sql.ErrNoRows), true},
		{missed(fmt.Errorf("scan: %w", sql.ErrNoRows)), true},
		{&fb.FbError{GDSCodes: []int{fb.ISCExcept}, Params: [][]string{{"1"}, {"BENCH_ITEM_NOT_FOUND"}}, Message: "exception 1\nBENCH_ITEM_NOT_FOUND"}, false},
		{sql.ErrNoRows, false},
		{&fb.FbError{GDSCodes: []int{fb.ISCNoCurRec}, Message: "no current record for fetch operation\nAt procedure 'BENCH_PAYMENT' line: 9, col: 3"}, true},
		{fmt.Errorf("payment: %w", &fb.FbError{Message: "no current record for fetch operation"}), true},
		{&fb.FbError{Message: "validation error for column \"ORDERS\".\"O_ID\", value \"*** null ***\""}, false},
	} {
		if got := isConflict(c.err); got != c.want {
			t.Errorf("isConflict(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if !errors.Is(missed(sql.ErrNoRows), errRowMissed) || missed(nil) != nil {
		t.Error("missed")
	}
	// A New-Order that named the unused item on purpose and met the race
	// is a conflict to retry, not the spec's rollback.
	if rolledBackInProcedure(raised) {
		t.Error("a missed row read as the unused item's rollback")
	}
	// Every write the procedures make that must change one row says so.
	if n := strings.Count(procsSQL, "IF (ROW_COUNT = 0) THEN EXCEPTION BENCH_ROW_MISSED;"); n != 7 || !collect.IsException(raised, "BENCH_ROW_MISSED") {
		t.Errorf("%d guards in procs.sql, want 7 (New-Order's district and stock, Payment's customer, district and warehouse, Delivery's new order and order)", n)
	}
}
