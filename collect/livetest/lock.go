package livetest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// LockName is the file in os.TempDir() that every live test locks: shared
// while it uses the server, exclusive while it kills the server process.
// go test ./... runs packages in parallel, and other checkouts' tests may
// use the same server, so the lock is between processes (flock), not a
// mutex.
const LockName = "fbdiag-live.lock"

// LockWait bounds the wait for the lock; a test that cannot get it in
// this time fails saying who it waited for.
const LockWait = 5 * time.Minute

var (
	exclusiveMu   sync.Mutex
	exclusiveHeld int // exclusive locks this process holds
)

// lockPath is the lock file's path.
func lockPath() string { return filepath.Join(os.TempDir(), LockName) }

// holdShared takes the lock shared until the test ends. A process that
// holds it exclusively already has the server to itself.
func holdShared(t testing.TB) {
	t.Helper()
	exclusiveMu.Lock()
	held := exclusiveHeld > 0
	exclusiveMu.Unlock()
	if held {
		return
	}
	hold(t, false)
}

// holdExclusive takes the lock exclusively until the test ends: no other
// live test, in this process or another, runs meanwhile.
func holdExclusive(t testing.TB) {
	t.Helper()
	hold(t, true)
	exclusiveMu.Lock()
	exclusiveHeld++
	exclusiveMu.Unlock()
	t.Cleanup(func() {
		exclusiveMu.Lock()
		exclusiveHeld--
		exclusiveMu.Unlock()
	})
}

func hold(t testing.TB, exclusive bool) {
	t.Helper()
	f, err := os.OpenFile(lockPath(), os.O_RDONLY|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("live test lock: %v", err)
	}
	deadline := time.Now().Add(LockWait)
	for {
		ok, err := tryLock(f, exclusive)
		if err != nil {
			f.Close()
			t.Fatalf("live test lock %s: %v", lockPath(), err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			f.Close()
			t.Fatalf("live test lock %s: not granted after %v (exclusive %v): another test holds the server", lockPath(), LockWait, exclusive)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() {
		unlock(f)
		f.Close()
	})
}
