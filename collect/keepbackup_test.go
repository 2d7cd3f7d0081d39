package collect

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The first 32 bytes of a database Firebird 3.0.11 created (4 KiB pages,
// ODS 12.0) and of the gbak backup of it, as xxd printed them.
var (
	fb30Header = []byte{0x01, 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x10, 0x0c, 0x80, 0x03, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0x1a, 0x00, 0x00, 0x00}
	fb30Backup = []byte{0x00, 0x02, 0x04, 0x0a, 0x00, 0x00, 0x00, 0x04, 0x04, 0x01, 0x00, 0x00, 0x00, 0x05, 0x04, 0x01,
		0x00, 0x00, 0x00, 0x06, 0x04, 0x00, 0x00, 0x04, 0x00, 0x08, 0x04, 0x01, 0x00, 0x00, 0x00, 0x07}
)

// A backup is never renamed over a database, whatever name led there:
// backup -ig of an alias that resolves to BACKUP_FILE allows no
// attachment to tell (the database would have been replaced by its own
// backup, as with backup --force DB DB).
func TestKeepBackupNeverOverADatabase(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	db := write("shop.fdb", append(bytes.Clone(fb30Header), make([]byte, 4096)...))
	old := write("shop.fbk", fb30Backup)
	if !IsDatabaseFile(db) || IsDatabaseFile(old) {
		t.Fatalf("isDatabaseFile: database %v, backup %v", IsDatabaseFile(db), IsDatabaseFile(old))
	}
	tmp := write(".shop.fdb.tmp-1", fb30Backup)
	err := Server{Addr: "localhost:3050"}.keepBackup(&GbakRun{}, tmp, db, true)
	if err == nil || !strings.Contains(err.Error(), "is a Firebird database (its first page is a database header), not a backup: not replaced") {
		t.Fatalf("renamed over the database: %v", err)
	}
	if b, _ := os.ReadFile(db); !bytes.HasPrefix(b, fb30Header) {
		t.Error("the database was changed")
	}
	// An earlier backup is replaced, as --force asks.
	tmp = write(".shop.fbk.tmp-2", fb30Backup[:16])
	if err := (Server{Addr: "localhost:3050"}).keepBackup(&GbakRun{}, tmp, old, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); len(b) != 16 {
		t.Errorf("the old backup was not replaced: %d bytes", len(b))
	}
}

// backup --force DB OTHER.fdb, OTHER a database (a typing error): the
// whole backup ran, for hours on a large database, before keepBackup
// refused the rename, and the complete backup was left under its
// temporary name. It is refused before connecting now.
func TestBackupForceOntoADatabaseRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "other.fdb")
	page := append(bytes.Clone(fb30Header), make([]byte, 4096)...)
	if err := os.WriteFile(db, page, 0o600); err != nil {
		t.Fatal(err)
	}
	// (No server listens: an attempt to connect would be another error.)
	_, err := Server{Addr: "localhost:1"}.Backup(context.Background(), "/data/shop.fdb", db, BackupOptions{Force: true}, io.Discard, nil)
	want := "cannot back up /data/shop.fdb on localhost:1: " + db + " is a Firebird database (its first page is a database header), " +
		"not a backup: not replaced, with or without --force; nothing done (name another file)"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if b, _ := os.ReadFile(db); !bytes.Equal(b, page) {
		t.Error("the database was changed")
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("in the folder: %v", names)
	}
}

// backup --force replacing a backup kept 0600 (all the database's data):
// gbak writing over it keeps its mode, but fbdiag renamed the server's new
// file, 0644, into its place, readable by every user. The new backup now
// takes the old one's mode (and owner and group, where this user may).
func TestKeepBackupKeepsTheMode(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "shop.fbk")
	if err := os.WriteFile(old, fb30Backup, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o640); err != nil { // (whatever the umask)
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".shop.fbk.tmp-3")
	if err := os.WriteFile(tmp, fb30Backup[:16], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		t.Fatal(err)
	}
	run := &GbakRun{}
	if err := (Server{Addr: "localhost:3050"}).keepBackup(run, tmp, old, true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(old)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 16 || !run.Replaced || fi.Mode().Perm() != 0o640 {
		t.Errorf("after --force: %d bytes, replaced %v, mode %v; want 16, true and -rw-r-----", fi.Size(), run.Replaced, fi.Mode().Perm())
	}
	// A new backup (nothing replaced) keeps the mode the server gave it.
	tmp2 := filepath.Join(dir, ".new.fbk.tmp-4")
	if err := os.WriteFile(tmp2, fb30Backup, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp2, 0o604); err != nil {
		t.Fatal(err)
	}
	if err := (Server{Addr: "localhost:3050"}).keepBackup(&GbakRun{}, tmp2, filepath.Join(dir, "new.fbk"), false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "new.fbk")); err != nil || fi.Mode().Perm() != 0o604 {
		t.Errorf("new backup: %v %v, want -rw----r--", fi.Mode().Perm(), err)
	}
}

// A relative path the server did not find: the file of that name here is
// named, since the server resolved it in its own working folder.
func TestRelativeHere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("shop.fdb", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	local, remote := Server{Addr: "localhost:3050"}, Server{Addr: "192.0.2.1:3050"}
	for _, c := range []struct {
		s          Server
		path, want string
	}{
		{local, "shop.fdb", "the server resolves a relative path in its own working folder, not in this one: give " + filepath.Join(dir, "shop.fdb")},
		{local, dir + "/shop.fdb", ""},
		{local, "nosuch.fdb", ""},
		{local, "C:/data/shop.fdb", ""},
		{remote, "shop.fdb", ""},
	} {
		if got := c.s.relativeHere(c.path); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.s.Addr, c.path, got, c.want)
		}
	}
}

// A server's path is absolute by the server's rules, either kind: on
// Linux filepath.IsAbs took a Windows server's C:\data\shop.fdb for an
// alias, and backup -ig refused the path the user gave.
func TestServerAbs(t *testing.T) {
	for path, want := range map[string]bool{
		`/var/lib/firebird/data/shop.fdb`: true, `C:\data\shop.fdb`: true, `c:/data/shop.fdb`: true,
		`\\server\share\shop.fdb`: true, `shop`: false, `SHOPALIAS`: false, `data/shop.fdb`: false, `C:shop.fdb`: false,
	} {
		if got := serverAbs(path); got != want {
			t.Errorf("serverAbs(%q) = %v, want %v", path, got, want)
		}
	}
}
