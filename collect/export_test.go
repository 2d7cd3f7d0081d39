package collect

import (
	"context"
	"database/sql"
)

// OpenForTest lets the live tests hold a transaction in another attachment.
func OpenForTest(ctx context.Context, s Server, database string) (*sql.DB, error) {
	return s.open(ctx, database)
}

// OnSwapStepForTest makes f see each step of restore's swap; the
// returned func puts the hook back.
func OnSwapStepForTest(f func(step string)) (restore func()) {
	old := swapStep
	swapStep = f
	return func() { swapStep = old }
}

// LocalForTest tells whether fbdiag can rename files in the server's
// folder dir.
func LocalForTest(s Server, dir string) bool {
	return s.locate(dir + "/x").local
}
