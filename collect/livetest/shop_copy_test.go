package livetest

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// The first shop database of a process runs the script and is copied to
// the template; the second is a copy of that. Each is a database of its
// own on the server, with the script's data.
func TestShopDatabaseCopied(t *testing.T) {
	s := Server(t)
	a, b := ShopDatabase(t, s), ShopDatabase(t, s)
	shop.Lock()
	template, noCopy := shop.template, shop.noCopy
	shop.Unlock()
	if noCopy {
		if Mandatory() && os.Geteuid() == 0 {
			t.Fatalf("FBDIAG_LIVE=1 as root, but the shop database was not copied into %s", DataDir())
		}
		t.Skipf("this process cannot write %s: each test runs the shop script", DataDir())
	}
	ti, err := os.Stat(template)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if p == template || os.SameFile(fi, ti) || fi.Size() != ti.Size() || fi.Mode() != ti.Mode() {
			t.Errorf("%s (%d bytes, %v) and %s (%d bytes, %v): not copies", p, fi.Size(), fi.Mode(), template, ti.Size(), ti.Mode())
		}
		if err := sameOwnerAs(fi, ti); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	count := func(p, query string) int {
		db, err := s.Pool(ctx, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return n
	}
	// A change to one is not in the other (the server holds both open).
	dbA, err := s.Pool(ctx, a, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer dbA.Close()
	if _, err := dbA.ExecContext(ctx, "DELETE FROM DOCS"); err != nil {
		t.Fatal(err)
	}
	if n := count(a, "SELECT COUNT(*) FROM DOCS"); n != 0 {
		t.Errorf("%d DOCS left in %s", n, a)
	}
	if n, m := count(b, "SELECT COUNT(*) FROM DOCS"), count(b, "SELECT COUNT(*) FROM ORDERS"); n != 200 || m != 9500 {
		t.Errorf("%s: %d DOCS and %d ORDERS, want the script's 200 and 9500", b, n, m)
	}
}
