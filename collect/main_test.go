package collect_test

import (
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestMain lets livetest keep one shop database for the package's tests
// to copy, and remove it once they are done; the big database's test,
// in a process of its own, starts with the others.
func TestMain(m *testing.M) {
	stop := testutil.StartEarly("TestLiveBigDatabase")
	code := livetest.Main(m)
	stop()
	os.Exit(code)
}
