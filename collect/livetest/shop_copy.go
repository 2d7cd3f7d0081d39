package livetest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"path"
	"sync"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
)

// The test databases made once a process and copied: the shop script
// took 0.5 s of the server's CPU a database, and the suite made some
// twenty, in two cores' worth of tests that keep both busy; the big
// database, 1.5 s. A database file with no attachment is a consistent
// copy (Firebird 3 closes it when the last attachment ends, its pages
// written), and a copy is a database of its own (the server knows a file
// by its device and inode, not its name).
var templates struct {
	sync.Mutex
	main   bool                 // Main runs the tests: it removes the templates
	noCopy bool                 // the server's files are not this process's to copy
	kinds  map[string]*template // by the database's kind ("shop", "big300000")
}

// template is a copy of the first database of a kind, kept to copy from.
// Its lock is held while the first is made: the others wait to copy.
type template struct {
	sync.Mutex
	path string
}

// Main runs a package's tests (call it from TestMain) and then removes
// the databases this process kept to copy from.
func Main(m *testing.M) int {
	templates.Lock()
	templates.main = true
	templates.Unlock()
	code := m.Run()
	templates.Lock()
	defer templates.Unlock()
	for _, tp := range templates.kinds {
		tp.Lock()
		if tp.path != "" {
			os.Remove(tp.path)
			tp.path = ""
		}
		tp.Unlock()
	}
	return code
}

// makeCopy makes a database of a kind at p: a copy of the kind's
// template, or, the first time, by create, then copied to the template.
// Copies are made only under Main, and only where this process can read
// and write the server's files (a local server, the tests run as root or
// as firebird, as in CI); else each database is made by create.
func makeCopy(t testing.TB, s collect.Server, p, kind string, create func(testing.TB, collect.Server, string)) {
	t.Helper()
	templates.Lock()
	if !templates.main || templates.noCopy {
		templates.Unlock()
		create(t, s, p) // (side by side, as the tests run)
		return
	}
	if templates.kinds == nil {
		templates.kinds = map[string]*template{}
	}
	tp := templates.kinds[kind]
	if tp == nil {
		tp = &template{}
		templates.kinds[kind] = tp
	}
	templates.Unlock()
	tp.Lock()
	defer tp.Unlock()
	if tp.path != "" {
		err := copyFile(tp.path, p)
		if err != nil {
			t.Logf("copying the %s database: %v; making it instead", kind, err)
			os.Remove(p)
			noCopies()
			create(t, s, p)
		}
		return
	}
	create(t, s, p)
	var b [6]byte
	rand.Read(b[:])
	tpath := path.Join(path.Dir(p), "fbdiag-test-"+hex.EncodeToString(b[:])+"-"+kind+"-template.fdb")
	if err := copyFile(p, tpath); err != nil {
		// (A remote server: its file is not here.)
		os.Remove(tpath)
		noCopies()
		return
	}
	tp.path = tpath
}

// noCopies makes every database by its script from now on.
func noCopies() {
	templates.Lock()
	templates.noCopy = true
	templates.Unlock()
}

// copyFile copies src to a new file dst with src's owner (the server's
// user, which must open it) and mode.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = sameOwner(out, fi)
	}
	if err == nil {
		err = out.Chmod(fi.Mode().Perm())
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
