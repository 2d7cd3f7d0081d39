package livetest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// LockName is the file in os.TempDir() that every live test locks: shared
// while it uses the server, exclusive while it kills the server process.
// go test ./... runs packages in parallel, and other checkouts' tests may
// use the same server, so the lock is between processes (flock), not a
// mutex. GateName is a second file that gives an exclusive holder that
// has waited politeWait precedence: readers pass the gate shared on their
// way in, the writer closes it, so that new tests wait behind it instead
// of starving it. WantName is held shared by a writer while it waits
// politely, so that a long test can step aside between two of its
// phases (LetExclusiveIn).
const (
	LockName = "fbdiag-live.lock"
	GateName = "fbdiag-live.gate"
	WantName = "fbdiag-live.want"
)

// LockWait bounds the wait for a lock; a test that cannot get one in this
// time fails saying so.
const LockWait = 5 * time.Minute

// politeWait is how long HoldExclusive first waits with the gate open:
// the tests running go on and new ones still start, and it takes the lock
// in the first moment none holds it, which in a go test ./... run is
// when the other packages' live tests are over. Only after it does the
// gate close. (Closing it at once held every other package's next live
// test behind the longest one running, cmd/fbdiag's TestLiveBench, for
// as long as that ran.)
var politeWait = 2 * time.Minute

// The process's own state: one test may call Server several times, and a
// package's tests may run side by side (collect's do).
var lk struct {
	sync.Mutex
	shared    *os.File // the lock file, held shared, while sharedN > 0
	sharedN   int
	holders   map[string]int // sharedN by top-level test
	exclusive *os.File       // the lock file, held exclusively
	gate      *os.File       // the gate, held exclusively with it
}

// topTest is the name of t's top-level test.
func topTest(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// lockDir is where the lock files are; tests of the lock move it.
var lockDir = os.TempDir()

func lockPath(name string) string { return filepath.Join(lockDir, name) }

// holdShared takes the lock shared until the test ends. A process that
// holds it exclusively already has the server to itself.
func holdShared(t testing.TB) {
	t.Helper()
	lk.Lock()
	defer lk.Unlock()
	if lk.exclusive == nil && lk.sharedN == 0 {
		lk.shared = acquireShared(t)
	}
	lk.sharedN++
	if lk.holders == nil {
		lk.holders = map[string]int{}
	}
	top := topTest(t)
	lk.holders[top]++
	t.Cleanup(func() {
		lk.Lock()
		defer lk.Unlock()
		lk.sharedN--
		if lk.holders[top]--; lk.holders[top] == 0 {
			delete(lk.holders, top)
		}
		if lk.sharedN == 0 && lk.shared != nil {
			releaseFile(lk.shared)
			lk.shared = nil
		}
	})
}

// acquireShared passes the gate and takes the lock shared.
func acquireShared(t testing.TB) *os.File {
	t.Helper()
	gate := acquire(t, GateName, false)
	defer releaseFile(gate)
	return acquire(t, LockName, false)
}

// HoldExclusive takes the lock exclusively: once it returns, no other
// live test (in this package, another package, or another checkout that
// uses this package) runs until release is called (or the test ends). A
// test that kills the server holds it from before it starts the work it
// wants killed until the server is back (KillServer). It waits for the
// tests running to end, first letting new ones start (politeWait), then
// with the gate closed to them.
func HoldExclusive(t testing.TB) (release func()) {
	t.Helper()
	lk.Lock()
	defer lk.Unlock()
	if lk.exclusive != nil {
		t.Fatal("HoldExclusive twice")
	}
	// Another test of this process using the server would go on while it
	// is killed: the process's hold is one.
	for name := range lk.holders {
		if name != topTest(t) {
			t.Fatalf("HoldExclusive while %s, in this process, uses the server: run the test in a process of its own (testutil.InProcessOfItsOwn)", name)
		}
	}
	// This process's own shared lock would keep the exclusive one out.
	if lk.shared != nil {
		releaseFile(lk.shared)
		lk.shared = nil
	}
	// (Only a hint for LetExclusiveIn: the wait goes on without it.)
	want := tryFor(t, WantName, false, time.Second)
	if lk.exclusive = tryFor(t, LockName, true, politeWait); lk.exclusive == nil {
		lk.gate = acquire(t, GateName, true)
		lk.exclusive = acquire(t, LockName, true)
	}
	if want != nil {
		releaseFile(want)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			lk.Lock()
			defer lk.Unlock()
			releaseFile(lk.exclusive)
			if lk.gate != nil {
				releaseFile(lk.gate)
			}
			lk.exclusive, lk.gate = nil, nil
			if lk.sharedN > 0 {
				lk.shared = acquireShared(t)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// LetExclusiveIn lets a test waiting to hold the server exclusively (one
// that kills it, HoldExclusive) in now, between two phases of a long
// test: the caller's shared hold is given back and taken again once that
// test is done. It returns at once when nobody waits, or when other tests
// (of any process) share the server, whom the waiter must wait for
// anyway. Without it, a test that waits politely waits for the long
// test's end: cmd/fbdiag's TestLiveBench holds the server for half a
// minute, and collect's server kill then kept one of go test's two
// package slots idle as long, delaying every package after it. Call it
// only where the test has no attachment open and nothing else of its
// process uses the server.
func LetExclusiveIn(t testing.TB) {
	t.Helper()
	lk.Lock()
	defer lk.Unlock()
	if lk.exclusive != nil || lk.shared == nil || lk.sharedN != 1 || !wanted(t) {
		return
	}
	releaseFile(lk.shared)
	lk.shared = nil
	defer func() { lk.shared = acquireShared(t) }() // (behind the waiter, through the gate)
	probe := tryFor(t, LockName, true, 0)
	if probe == nil {
		return // another test shares it: the waiter cannot get in now
	}
	releaseFile(probe)
	// The waiter polls every 20 ms; once it holds the lock it lets go of
	// the want file.
	for deadline := time.Now().Add(time.Second); wanted(t) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// wanted reports whether a HoldExclusive waits politely: it holds the
// want file shared.
func wanted(t testing.TB) bool {
	t.Helper()
	f := tryFor(t, WantName, true, 0)
	if f == nil {
		return true
	}
	releaseFile(f)
	return false
}

// holdsExclusive reports whether this process holds the lock exclusively.
func holdsExclusive() bool {
	lk.Lock()
	defer lk.Unlock()
	return lk.exclusive != nil
}

// acquire opens name and locks it, waiting up to LockWait.
func acquire(t testing.TB, name string, exclusive bool) *os.File {
	t.Helper()
	f := tryFor(t, name, exclusive, LockWait)
	if f == nil {
		t.Fatalf("live test lock %s: not granted after %v (exclusive %v): another test holds the server", lockPath(name), LockWait, exclusive)
	}
	return f
}

// tryFor opens name and locks it, waiting up to wait; nil when it was
// not granted in that time.
func tryFor(t testing.TB, name string, exclusive bool, wait time.Duration) *os.File {
	t.Helper()
	f, err := os.OpenFile(lockPath(name), os.O_RDONLY|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("live test lock: %v", err)
	}
	start := time.Now()
	deadline := start.Add(wait)
	for {
		ok, err := tryLock(f, exclusive)
		if err != nil {
			f.Close()
			t.Fatalf("live test lock %s: %v", f.Name(), err)
		}
		if ok {
			// A slow live test may have waited here for another's
			// server kill (its own package's, or another checkout's).
			if d := time.Since(start); d >= 500*time.Millisecond {
				t.Logf("live test lock %s (exclusive %v): waited %v", f.Name(), exclusive, d.Round(time.Millisecond))
			}
			return f
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func releaseFile(f *os.File) {
	unlock(f)
	f.Close()
}
