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

// The shop database made once a process and copied: the script took
// 0.5 s of the server's CPU a database, and the suite made some twenty,
// in two cores' worth of tests that keep both busy. A database file with
// no attachment is a consistent copy (Firebird 3 closes it when the last
// attachment ends, its pages written), and a copy is a database of its
// own (the server knows a file by its device and inode, not its name).
var shop struct {
	sync.Mutex
	main     bool   // Main runs the tests: it removes the template
	template string // a copy of the first shop database, kept to copy from
	noCopy   bool   // the server's files are not this process's to copy
}

// Main runs a package's tests (call it from TestMain) and then removes
// the shop database this process kept to copy from.
func Main(m *testing.M) int {
	shop.Lock()
	shop.main = true
	shop.Unlock()
	code := m.Run()
	shop.Lock()
	defer shop.Unlock()
	if shop.template != "" {
		os.Remove(shop.template)
		shop.template = ""
	}
	return code
}

// makeShop makes the shop database at p: a copy of the template, or, the
// first time, by the script, then copied to the template. Copies are made
// only under Main, and only where this process can read and write the
// server's files (a local server, the tests run as root or as firebird,
// as in CI); else each database runs the script.
func makeShop(t testing.TB, s collect.Server, p string) {
	t.Helper()
	shop.Lock()
	if !shop.main || shop.noCopy {
		shop.Unlock()
		runShopScript(t, s, p) // (side by side, as the tests run)
		return
	}
	defer shop.Unlock() // (the first one runs the script holding it: the others wait to copy)
	if shop.template != "" {
		err := copyFile(shop.template, p)
		if err != nil {
			t.Logf("copying the shop database: %v; running its script instead", err)
			os.Remove(p)
			shop.noCopy = true
			runShopScript(t, s, p)
		}
		return
	}
	runShopScript(t, s, p)
	var b [6]byte
	rand.Read(b[:])
	tp := path.Join(path.Dir(p), "fbdiag-test-"+hex.EncodeToString(b[:])+"-shop-template.fdb")
	if err := copyFile(p, tp); err != nil {
		// (A remote server: its file is not here.)
		os.Remove(tp)
		shop.noCopy = true
		return
	}
	shop.template = tp
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
