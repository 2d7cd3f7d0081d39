package collect_test

import (
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// TestMain lets livetest keep one shop database for the package's tests
// to copy, and remove it once they are done.
func TestMain(m *testing.M) { os.Exit(livetest.Main(m)) }
