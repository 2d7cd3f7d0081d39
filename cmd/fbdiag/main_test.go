package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// helperEnv makes the test binary run fbdiag itself (TestMain): the
// tests that need a process of their own (a signal, its peak memory)
// run the CLI through the test binary.
const helperEnv = "FBDIAG_TEST_AS_FBDIAG"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		code := run(append([]string{"fbdiag"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr)
		if p := os.Getenv(peakRSSEnv); p != "" {
			// The peak of this program's own memory: the rusage of a
			// child also counts its parent's at the exec (Linux keeps
			// the high-water mark of the memory it replaced).
			if b, err := os.ReadFile("/proc/self/status"); err == nil {
				for _, l := range strings.Split(string(b), "\n") {
					if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
						os.WriteFile(p, []byte(strings.TrimSpace(v)), 0o644)
					}
				}
			}
		}
		os.Exit(code)
	}
	// The workload runner's test, in a process of its own, starts with
	// the others (it bounds the package's run).
	stop := testutil.StartEarly("TestLiveBench")
	code := livetest.Main(m)
	stop()
	os.Exit(code)
}

// peakRSSEnv names the file where a helper run writes its peak resident
// memory (VmHWM, "123456 kB").
const peakRSSEnv = "FBDIAG_TEST_PEAK_RSS_FILE"

// fbdiagCommand is fbdiag args as a process of its own.
func fbdiagCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	return testBinaryCommand(t, helperEnv+"=1", args...)
}

// testBinaryCommand is the test binary run with args, in this process's
// environment with env (NAME=value) added.
func testBinaryCommand(t testing.TB, env string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env)
	return cmd
}

// withContext is cmd killed when ctx ends.
func withContext(ctx context.Context, cmd *exec.Cmd) *exec.Cmd {
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	c.Env = cmd.Env
	return c
}
