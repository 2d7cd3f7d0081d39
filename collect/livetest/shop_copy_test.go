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
// templateOf is the template of a kind of database, and whether copies
// are off.
func templateOf(kind string) (string, bool) {
	templates.Lock()
	defer templates.Unlock()
	path := ""
	if tp := templates.kinds[kind]; tp != nil {
		tp.Lock()
		path = tp.path
		tp.Unlock()
	}
	return path, templates.noCopy
}

func TestShopDatabaseCopied(t *testing.T) {
	s := Server(t)
	a, b := ShopDatabase(t, s), ShopDatabase(t, s)
	template, noCopy := templateOf("shop")
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

// A big database of some rows is made once and copied too, a template for
// each row count.
func TestBigDatabaseCopied(t *testing.T) {
	s := Server(t)
	a, b := BigDatabase(t, s, 1000), BigDatabase(t, s, 1000)
	template, noCopy := templateOf("big1000")
	if noCopy {
		t.Skipf("this process cannot write %s: each test makes its database", DataDir())
	}
	ti, err := os.Stat(template)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, p := range []string{a, b} {
		if fi, err := os.Stat(p); err != nil || os.SameFile(fi, ti) || fi.Size() != ti.Size() {
			t.Errorf("%s: %v; not a copy of %s", p, err, template)
		}
		db, err := s.Pool(ctx, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		var n, m int
		err = db.QueryRowContext(ctx, "SELECT COUNT(*), MAX(ID) FROM BIG").Scan(&n, &m)
		db.Close()
		if err != nil || n != 1000 || m != 999 {
			t.Errorf("%s: %d rows, the last %d (%v); want 1000 and 999", p, n, m, err)
		}
	}
	if other, _ := templateOf("big2000"); other != "" {
		t.Errorf("a template for 2000 rows: %s", other)
	}
}
