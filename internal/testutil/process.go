package testutil

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// ownProcessEnv, in the environment of a copy of the test binary, names
// the test that copy runs for InProcessOfItsOwn.
const ownProcessEnv = "FBDIAG_TEST_OWN_PROCESS"

// InProcessOfItsOwn runs the top-level test t in a second process of the
// test binary, started at once (or already, by StartEarly from
// TestMain), while this process goes on with the
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
	p := takeEarly(t.Name())
	if p == nil {
		timeout := ""
		if d, ok := t.Deadline(); ok {
			timeout = time.Until(d).Round(time.Second).String()
		}
		var err error
		if p, err = startOwn(t.Name(), timeout); err != nil {
			t.Fatal(err)
		}
	}
	// (An early process too: the test's end ends it.)
	context.AfterFunc(t.Context(), func() { p.cmd.Process.Kill() })
	cmd, out, start := p.cmd, p.out, p.start
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

// ownProcess is a test's process of its own, started.
type ownProcess struct {
	cmd   *exec.Cmd
	out   *bytes.Buffer
	start time.Time
}

// startOwn starts the test binary for the top-level test name alone,
// with the -test.timeout given ("" for none).
func startOwn(name, timeout string) (*ownProcess, error) {
	args := []string{"-test.run=^" + regexp.QuoteMeta(name) + "$", "-test.v=true", "-test.count=1"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if timeout != "" {
		args = append(args, "-test.timeout="+timeout)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+name)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	p := &ownProcess{cmd: cmd, out: out, start: time.Now()}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// early holds the processes StartEarly started until their tests take
// them.
var early struct {
	sync.Mutex
	procs map[string]*ownProcess
}

// takeEarly is the process StartEarly started for the test name, once.
func takeEarly(name string) *ownProcess {
	early.Lock()
	defer early.Unlock()
	p := early.procs[name]
	delete(early.procs, name)
	return p
}

// StartEarly starts, from TestMain before the tests run, the processes
// of their own of the named top-level tests (tests that call
// InProcessOfItsOwn first): a long one then runs from the start of the
// package's run beside its sequential tests, instead of from where its
// source puts it among them (cmd/fbdiag's TestLiveBench came 3.8 s in,
// collect's TestLiveBigDatabase 11 s in, and each ended its package).
// It does so only in a run of the whole package (no -test.run,
// -test.skip or -test.list), and not in a process of its own. The
// returned function, called once the tests ran, ends the processes no
// test took (a run that stopped early: -test.failfast, a panic).
func StartEarly(names ...string) (stop func()) {
	if !flag.Parsed() {
		flag.Parse()
	}
	value := func(name string) string {
		if f := flag.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	if os.Getenv(ownProcessEnv) != "" || value("test.run") != "" || value("test.skip") != "" || value("test.list") != "" {
		return func() {}
	}
	timeout := value("test.timeout")
	if timeout == "0s" {
		timeout = ""
	}
	early.Lock()
	defer early.Unlock()
	early.procs = map[string]*ownProcess{}
	for _, name := range names {
		if p, err := startOwn(name, timeout); err == nil {
			early.procs[name] = p
		} // (else the test starts its process itself, and says why it cannot)
	}
	return func() {
		early.Lock()
		defer early.Unlock()
		for name, p := range early.procs {
			p.cmd.Process.Kill()
			p.cmd.Wait()
			delete(early.procs, name)
		}
	}
}
