package collect

import (
	"context"
	"database/sql"

	fb "github.com/nakagami/firebirdsql"
)

// spbPrpForce is isc_spb_prp_force_shutdown: seconds before attachments
// are cut.
const spbPrpForce = 41

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

// ShutdownForTest takes database to a shutdown mode (isc_spb_prp_sm_*: 1
// multi, 2 single, 3 full) at once, as gfix -shut MODE -force 0 does.
func ShutdownForTest(ctx context.Context, s Server, database string, mode byte) error {
	return s.properties(ctx, fb.NewXPBWriterFromTag(actionProperties).
		PutString(spbDbName, database).
		PutByte(spbPrpShutdownMode, mode).
		PutInt32(spbPrpForce, 0).Bytes())
}

// OnlineForTest brings database back online (gfix -online).
func OnlineForTest(ctx context.Context, s Server, database string) error {
	return s.online(ctx, database)
}
