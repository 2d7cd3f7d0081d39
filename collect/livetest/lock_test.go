//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package livetest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Shared holders exclude an exclusive one and the other way round, also
// between two descriptors of one process (as between two test binaries).
func TestLockSharedExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "test.lock")
	open := func() *os.File {
		f, err := os.OpenFile(p, os.O_RDONLY|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b, c := open(), open(), open()
	try := func(f *os.File, exclusive, want bool) {
		t.Helper()
		ok, err := tryLock(f, exclusive)
		if err != nil || ok != want {
			t.Fatalf("tryLock(exclusive %v) = %v, %v; want %v", exclusive, ok, err, want)
		}
	}
	try(a, false, true)
	try(b, false, true) // two readers
	try(c, true, false) // no writer while they hold it
	unlock(a)
	unlock(b)
	try(c, true, true)
	try(a, false, false) // no reader while the writer holds it
	unlock(c)
	try(a, false, true)
}

// A test that holds the server exclusively keeps other processes out of
// the lock (so new tests queue behind it); when it lets go it goes back
// to sharing for the rest of the test.
func TestHoldExclusive(t *testing.T) {
	saved := lockDir
	lockDir = t.TempDir()
	t.Cleanup(func() { lockDir = saved })
	holdShared(t)
	lock, gate := otherDescriptor(t, LockName), otherDescriptor(t, GateName)
	if ok, _ := tryLock(lock, false); !ok {
		t.Fatal("two sharing processes excluded each other")
	}
	unlock(lock)
	release := HoldExclusive(t)
	if !holdsExclusive() {
		t.Fatal("not exclusive")
	}
	if ok, _ := tryLock(lock, false); ok {
		t.Errorf("%s granted to another process during the exclusive hold", lock.Name())
		unlock(lock)
	}
	// Granted at once, it did not close the gate: another process's
	// test passes it and waits at the lock.
	if ok, _ := tryLock(gate, false); !ok {
		t.Error("the gate closed though nobody was waiting")
	} else {
		unlock(gate)
	}
	holdShared(t) // a nested Server call does not deadlock
	release()
	if holdsExclusive() {
		t.Error("still exclusive after release")
	}
	if ok, _ := tryLock(lock, false); !ok {
		t.Error("others cannot share after the release")
	}
	unlock(lock)
	if ok, _ := tryLock(lock, true); ok {
		t.Error("this test no longer shares the lock after the release")
	}
}

// HoldExclusive refuses while another test of this process uses the
// server (tests side by side, t.Parallel): killing the server would hit
// it, since the process holds the lock once for all its tests. Its own
// test's holds (the test and its subtests) are no obstacle.
func TestHoldExclusiveRefusesSiblings(t *testing.T) {
	saved := lockDir
	lockDir = t.TempDir()
	t.Cleanup(func() { lockDir = saved })
	other := &fatalTB{TB: t, name: "TestOther"}
	holdShared(other)
	parent := &fatalTB{TB: t, name: "TestKiller"}
	holdShared(parent)
	t.Cleanup(parent.cleanup)
	killer := &fatalTB{TB: t, name: "TestKiller/server killed"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		HoldExclusive(killer)
	}()
	<-done
	if want := "HoldExclusive while TestOther, in this process, uses the server: run the test in a process of its own (testutil.InProcessOfItsOwn)"; killer.fatal != want {
		t.Errorf("fatal %q, want %q", killer.fatal, want)
	}
	if holdsExclusive() {
		t.Error("exclusive with a sibling sharing")
	}
	other.cleanup() // TestOther ends: TestKiller's own hold is no obstacle
	mine := &fatalTB{TB: t, name: "TestKiller/server killed"}
	HoldExclusive(mine)
	if mine.fatal != "" || !holdsExclusive() {
		t.Errorf("fatal %q, exclusive %v", mine.fatal, holdsExclusive())
	}
	mine.cleanup() // (the release)
	if holdsExclusive() {
		t.Error("still exclusive")
	}
}

// fatalTB is t under another name, whose Fatalf ends the goroutine and
// keeps the message, and whose cleanups run when cleanup is called.
type fatalTB struct {
	testing.TB
	name     string
	fatal    string
	cleanups []func()
}

func (f *fatalTB) Name() string      { return f.name }
func (f *fatalTB) Helper()           {}
func (f *fatalTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fatalTB) Fatal(args ...any) { f.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (f *fatalTB) cleanup() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	f.cleanups = nil
}

// While another process's test holds the lock shared, HoldExclusive waits
// with the gate open for politeWait (new tests still start), then closes
// the gate and takes the lock when that test lets go.
func TestHoldExclusiveWaitsPolitely(t *testing.T) {
	savedDir, savedWait := lockDir, politeWait
	lockDir, politeWait = t.TempDir(), 300*time.Millisecond
	t.Cleanup(func() { lockDir, politeWait = savedDir, savedWait })
	reader, gate := otherDescriptor(t, LockName), otherDescriptor(t, GateName)
	if ok, _ := tryLock(reader, false); !ok {
		t.Fatal("no shared lock")
	}
	var openEarly, closedLate bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		if ok, _ := tryLock(gate, false); ok {
			openEarly = true
			unlock(gate)
		}
		time.Sleep(500 * time.Millisecond)
		ok, _ := tryLock(gate, false)
		closedLate = !ok
		if ok {
			unlock(gate)
		}
		unlock(reader) // the running test ends
	}()
	start := time.Now()
	release := HoldExclusive(t)
	waited := time.Since(start)
	<-done
	if !openEarly || !closedLate || waited < 600*time.Millisecond {
		t.Errorf("gate open while polite %v, closed after %v; waited %v for the reader", openEarly, closedLate, waited)
	}
	release()
	if ok, _ := tryLock(gate, false); !ok {
		t.Error("the gate stays closed after the release")
	}
}

// A long test steps aside for a test waiting to kill the server:
// LetExclusiveIn gives its shared hold back while the waiter holds the
// lock and takes it again once the waiter is done. With nobody waiting,
// or with another test sharing the server, it keeps its hold.
func TestLetExclusiveIn(t *testing.T) {
	saved := lockDir
	lockDir = t.TempDir()
	t.Cleanup(func() { lockDir = saved })
	holdShared(t)
	waiter, want, sharer := otherDescriptor(t, LockName), otherDescriptor(t, WantName), otherDescriptor(t, LockName)
	LetExclusiveIn(t) // nobody waits
	if ok, _ := tryLock(waiter, true); ok {
		t.Fatal("the hold was given back though nobody waited")
	}

	if ok, _ := tryLock(want, false); !ok {
		t.Fatal("want file")
	}
	released := make(chan time.Time, 1)
	// done: the waiter's last use of its descriptor is over (flock is no
	// synchronisation the race detector sees).
	done := make(chan struct{})
	go func() { // HoldExclusive's polite wait, then a server kill
		defer close(done)
		for {
			if ok, _ := tryLock(waiter, true); ok {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		unlock(want)
		time.Sleep(200 * time.Millisecond)
		released <- time.Now()
		unlock(waiter)
	}()
	start := time.Now()
	LetExclusiveIn(t)
	back := time.Now()
	select {
	case r := <-released:
		if back.Before(r) {
			t.Errorf("resumed %v before the waiter let go", r.Sub(back))
		}
	default:
		t.Fatalf("resumed after %v without the waiter getting in", back.Sub(start))
	}
	<-done
	if ok, _ := tryLock(waiter, true); ok {
		t.Fatal("not sharing the server again after the waiter")
	}

	// Another test shares the server: the waiter could not get in now.
	if ok, _ := tryLock(sharer, false); !ok {
		t.Fatal("sharer")
	}
	if ok, _ := tryLock(want, false); !ok {
		t.Fatal("want file")
	}
	start = time.Now()
	LetExclusiveIn(t)
	if d := time.Since(start); d > 500*time.Millisecond || lk.shared == nil {
		t.Errorf("with another sharer: back after %v, holding %v", d, lk.shared != nil)
	}
	unlock(want)
	unlock(sharer)
}

// otherDescriptor opens the lock file name as another process would: its
// own descriptor, whose flock the test's holds exclude.
func otherDescriptor(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(lockPath(name), os.O_RDONLY|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
