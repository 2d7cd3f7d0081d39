package collect

import (
	"errors"
	"fmt"
	"testing"

	fb "github.com/nakagami/firebirdsql"
)

// The errors bench's terminals meet, as the driver returns them, with
// Firebird 3.0.11's messages.
func TestIsConflict(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&fb.FbError{GDSCodes: []int{fb.ISCLockConflict, fb.ISCConcurrentTransaction}, Message: "lock conflict on no wait transaction\nconcurrent transaction number is 1234"}, true},
		{&fb.FbError{GDSCodes: []int{fb.ISCUpdateConflict}, Message: "update conflicts with concurrent update"}, true},
		{fmt.Errorf("wrapped: %w", &fb.FbError{GDSCodes: []int{fb.ISCDeadlock}, Message: "deadlock"}), true},
		// The message the live test's Deliveries met; its code is not
		// one the driver names, so the message decides.
		{&fb.FbError{Message: "cannot update erased record\nAt procedure 'BENCH_DELIVERY' line: 15, col: 7"}, true},
		{&fb.FbError{GDSCodes: []int{fb.ISCExcept}, Params: [][]string{{"1"}, {"BENCH_ITEM_NOT_FOUND"}}, Message: "exception 1\nBENCH_ITEM_NOT_FOUND\nitem not found"}, false},
		{&fb.FbError{GDSCodes: []int{335544665}, Message: "violation of PRIMARY or UNIQUE KEY constraint"}, false},
		{errors.New("cannot update erased record"), false},
	} {
		if got := IsConflict(c.err); got != c.want {
			t.Errorf("IsConflict(%v) = %v", c.err, got)
		}
	}
	rb := &fb.FbError{GDSCodes: []int{fb.ISCExcept}, Params: [][]string{{"1"}, {"BENCH_ITEM_NOT_FOUND"}}, Message: "exception 1\nBENCH_ITEM_NOT_FOUND"}
	if !IsException(rb, "BENCH_ITEM_NOT_FOUND") || IsException(rb, "OTHER") {
		t.Error("IsException")
	}
}
