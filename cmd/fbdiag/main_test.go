package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
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
	os.Exit(m.Run())
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

// ownProcessEnv, in the environment of a copy of the test binary, names
// the test that copy runs for inProcessOfItsOwn.
const ownProcessEnv = "FBDIAG_TEST_OWN_PROCESS"

// inProcessOfItsOwn runs the top-level test t in a second process of the
// test binary, started at once, while this process goes on with the
// other tests (t waits for it as a parallel test does, after the
// package's sequential tests). It returns true in that second process,
// where the test does its work, and false here, where t reports what the
// second process printed and passes, skips or fails as it did. A process
// of its own also keeps the test apart from what the others do to this
// one: signals (TestLiveInterruptKeepsPartialLog interrupts it), the
// environment and the working folder (t.Setenv, t.Chdir). Live tests
// take the live test lock per process, so the second process holds it
// on its own (livetest.Server).
func inProcessOfItsOwn(t *testing.T) bool {
	t.Helper()
	if os.Getenv(ownProcessEnv) == t.Name() {
		return true
	}
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.v=true", "-test.count=1"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := withContext(t.Context(), testBinaryCommand(t, ownProcessEnv+"="+t.Name(), args...))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	err := cmd.Wait()
	log := strings.TrimRight(out.String(), "\n")
	switch {
	case err != nil:
		t.Fatalf("%s in a process of its own: %v after %v:\n%s", t.Name(), err, time.Since(start).Round(time.Millisecond), log)
	case regexp.MustCompile(`(?m)^--- SKIP: ` + regexp.QuoteMeta(t.Name()) + ` `).MatchString(log):
		t.Skipf("%s in a process of its own skipped:\n%s", t.Name(), log)
	case !regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(t.Name()) + ` `).MatchString(log):
		t.Fatalf("%s in a process of its own: no result:\n%s", t.Name(), log)
	}
	t.Logf("%s in a process of its own, %v:\n%s", t.Name(), time.Since(start).Round(time.Millisecond), log)
	return false
}
