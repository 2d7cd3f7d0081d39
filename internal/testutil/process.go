package testutil

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ownProcessEnv, in the environment of a copy of the test binary, names
// the test that copy runs for InProcessOfItsOwn.
const ownProcessEnv = "FBDIAG_TEST_OWN_PROCESS"

// InProcessOfItsOwn runs the top-level test t in a second process of the
// test binary, started at once, while this process goes on with the
// other tests (t waits for it as a parallel test does, after the
// package's sequential tests). It returns true in that second process,
// where the test does its work, and false here, where t reports what the
// second process printed and passes, skips or fails as it did. A process
// of its own also keeps the test apart from what the others do to this
// one: signals, the environment and the working folder (t.Setenv,
// t.Chdir). Live tests take the live test lock per process, so the
// second process holds it on its own (livetest.Server): a test that
// kills the server (livetest.HoldExclusive) waits there for this
// process's parallel live tests as for any other process's.
func InProcessOfItsOwn(t *testing.T) bool {
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
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, args...)
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+t.Name())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	err = cmd.Wait()
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
