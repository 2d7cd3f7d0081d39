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
	template string // the first shop database, kept for copying ("" before)
	noCopy   bool   // this process cannot write the data folder
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

// copyShop makes p a copy of the process's shop database, making that
// first; false when it cannot (the script must run), having left nothing
// at p.
func copyShop(t testing.TB, s collect.Server, p string) bool {
	t.Helper()
	shop.Lock()
	defer shop.Unlock()
	if !shop.main || shop.noCopy {
		return false
	}
	// Whether this process can write a file where the server reads
	// them: p, which the copy fills.
	dst, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o660)
	if err != nil {
		shop.noCopy = true
		return false
	}
	if shop.template == "" {
		dst.Close()
		os.Remove(p) // (a test that fails making the template leaves nothing at p)
		shop.template = makeTemplate(t, s)
		if dst, err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o660); err != nil {
			shop.noCopy = true
			return false
		}
	}
	if err := copyFile(dst, shop.template); err != nil {
		t.Logf("copying the shop database: %v; running its script instead", err)
		os.Remove(p)
		shop.noCopy = true
		return false
	}
	return true
}

// makeTemplate runs the shop script into a new file of the data folder
// and returns its path; a failure fails the test and leaves nothing.
func makeTemplate(t testing.TB, s collect.Server) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	tp := path.Join(DataDir(), "fbdiag-test-"+hex.EncodeToString(b[:])+"-shop-template.fdb")
	made := false
	defer func() {
		if !made {
			os.Remove(tp)
		}
	}()
	runShopScript(t, s, tp)
	made = true
	return tp
}

// copyFile copies src into dst, closes dst and gives it src's owner (the
// server's user, which must open it) and mode.
func copyFile(dst *os.File, src string) error {
	in, err := os.Open(src)
	if err != nil {
		dst.Close()
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err == nil {
		_, err = io.Copy(dst, in)
	}
	if err == nil {
		err = sameOwner(dst, fi)
	}
	if err == nil {
		err = dst.Chmod(fi.Mode().Perm())
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}
