//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package livetest

import (
	"os"
	"path/filepath"
	"testing"
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
// the lock and of the gate (so new tests queue behind it); when it lets
// go it goes back to sharing for the rest of the test.
func TestHoldExclusive(t *testing.T) {
	saved := lockDir
	lockDir = t.TempDir()
	t.Cleanup(func() { lockDir = saved })
	other := func(name string) *os.File { // another process's descriptor
		f, err := os.OpenFile(lockPath(name), os.O_RDONLY|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	holdShared(t)
	lock, gate := other(LockName), other(GateName)
	if ok, _ := tryLock(lock, false); !ok {
		t.Fatal("two sharing processes excluded each other")
	}
	unlock(lock)
	release := HoldExclusive(t)
	if !holdsExclusive() {
		t.Fatal("not exclusive")
	}
	for _, f := range []*os.File{lock, gate} {
		if ok, _ := tryLock(f, false); ok {
			t.Errorf("%s granted to another process during the exclusive hold", f.Name())
			unlock(f)
		}
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
