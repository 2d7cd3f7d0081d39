package livetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
)

// ServerPID finds the Firebird server process on this machine: the one
// process named firebird whose parent is fbguard (Debian's SuperServer).
func ServerPID(t testing.TB) int {
	t.Helper()
	found := serverPIDs()
	if len(found) != 1 {
		unavailableKill(t, "want one firebird process started by fbguard, found %v", found)
	}
	return found[0]
}

// serverPIDs lists the live (not zombie) firebird processes of fbguard.
func serverPIDs() []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var found []int
	for _, d := range dirs {
		if comm(d) != "firebird" || state(d) == "Z" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		if comm(filepath.Join("/proc", strconv.Itoa(parentPID(d)))) == "fbguard" {
			found = append(found, pid)
		}
	}
	return found
}

func comm(procDir string) string {
	b, _ := os.ReadFile(filepath.Join(procDir, "comm"))
	return string(bytes.TrimSpace(b))
}

// statFields are the fields of /proc/PID/stat after "pid (comm)": state,
// ppid, …; comm may hold blanks and parentheses.
func statFields(procDir string) [][]byte {
	b, err := os.ReadFile(filepath.Join(procDir, "stat"))
	if err != nil {
		return nil
	}
	return bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
}

func state(procDir string) string {
	if f := statFields(procDir); len(f) > 0 {
		return string(f[0])
	}
	return ""
}

func parentPID(procDir string) int {
	f := statFields(procDir)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(string(f[1]))
	return ppid
}

// KillServer kills the server process pid with SIGKILL, as a crash or
// the OOM killer would, and waits until fbguard has started a new one
// that accepts logins. The test must hold the server exclusively
// (HoldExclusive). It returns how long the server was away.
func KillServer(t testing.TB, s collect.Server, pid int) time.Duration {
	t.Helper()
	if !holdsExclusive() {
		t.Fatal("KillServer without HoldExclusive: other live tests would lose the server")
	}
	start := time.Now()
	// (os.Process.Kill is SIGKILL here, and builds on Windows too)
	p, err := os.FindProcess(pid)
	if err == nil {
		err = p.Kill()
	}
	if err != nil {
		unavailableKill(t, "kill %d: %v (the tests run as root in CI)", pid, err)
	}
	for time.Since(start) < time.Minute {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := s.Version(ctx)
		cancel()
		if pids := serverPIDs(); err == nil && len(pids) == 1 && pids[0] != pid {
			return time.Since(start)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the server did not come back within a minute after kill %d (is fbguard running?)", pid)
	return 0
}

// unavailableKill skips a server-killing test where the server cannot be
// killed from here, or fails it when the live tests are mandatory.
func unavailableKill(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Mandatory() {
		t.Fatalf("FBDIAG_LIVE=1 but the server cannot be killed: %s", msg)
	}
	t.Skipf("skipped: cannot kill the server: %s", msg)
}
