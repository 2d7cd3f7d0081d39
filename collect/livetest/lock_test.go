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
	p := filepath.Join(t.TempDir(), LockName)
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
