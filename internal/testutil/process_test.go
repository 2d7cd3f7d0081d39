package testutil

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// earlyFileEnv names the file where TestEarlyProcess's own process writes
// when it started.
const earlyFileEnv = "FBDIAG_TEST_EARLY_FILE"

// processStarted is when this process began (its package's variables).
var processStarted = time.Now()

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

// runTests runs the tests with earlyFileEnv set to a file in a temporary
// folder, which it removes.
func runTests(m *testing.M) int {
	if os.Getenv(ownProcessEnv) == "" {
		dir, err := os.MkdirTemp("", "testutil-early-")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		os.Setenv(earlyFileEnv, filepath.Join(dir, "started"))
	}
	stop := StartEarly("TestEarlyProcess")
	defer stop()
	return m.Run()
}

// The sequential tests before TestEarlyProcess take this long at least.
func TestBeforeEarlyProcess(t *testing.T) { time.Sleep(300 * time.Millisecond) }

// A test StartEarly names runs in its process of its own from the start
// of the package's run, not from where the sequential tests before it
// let it start; the process is the one the test waits for and reports.
func TestEarlyProcess(t *testing.T) {
	reached := time.Now()
	if InProcessOfItsOwn(t) {
		if err := os.WriteFile(os.Getenv(earlyFileEnv), []byte(strconv.FormatInt(processStarted.UnixNano(), 10)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(os.Getenv(earlyFileEnv))
	if err != nil {
		t.Fatalf("the process of its own wrote nothing: %v", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Unix(0, n)
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		// (A run of chosen tests starts it here.)
		if started.Before(reached) {
			t.Errorf("started %v before the test was reached in a run of chosen tests", reached.Sub(started))
		}
		return
	}
	if !started.Before(reached) {
		t.Errorf("started %v after the test was reached, want before", started.Sub(reached))
	}
	if p := takeEarly(t.Name()); p != nil {
		t.Errorf("the early process is still to take")
	}
}
