package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gstat trend reads a folder's files; a folder inside it (snapshots kept
// by month) was passed over without a word. It is named on stderr, and a
// folder of folders only says to give them.
func TestGstatTrendNamesSubfolders(t *testing.T) {
	dir := t.TempDir()
	month := filepath.Join(dir, "2026-11")
	if err := os.Mkdir(month, 0o777); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]string{"shop-gstat-a-r.txt": dir, "shop-gstat-r-later.txt": month} {
		if err := os.WriteFile(filepath.Join(to, name), testutil.ReadTestdata(t, "fb30", name), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := runCLI(t, nil, "gstat", "trend", dir)
	if code != 0 || !strings.Contains(errs, "skipped: "+month+": a folder (a folder's snapshots are its files; give this one as an input too)\n") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if err := os.Remove(filepath.Join(dir, "shop-gstat-a-r.txt")); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "gstat", "trend", dir)
	if code == 0 || !strings.Contains(errs, dir+": no files, only folders ("+month+"): give them as inputs") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// A symbolic link in a folder of snapshots (to a snapshot kept
// elsewhere) was left out without a word: "gstat trend over 1 snapshot"
// of a folder of two; then named and still left out. It is read as the
// snapshot it points to, as 'fbdiag report' reads it; a folder holding
// only a link to nothing says so.
func TestGstatTrendNamesSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o666); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "b.txt")
	if err := os.Symlink(testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"), link); err != nil {
		t.Skip(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "trend", dir)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "gstat trend over 2 snapshots of /var/lib/firebird/data/shop.fdb\n") {
		t.Errorf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runCLI(t, nil, "gstat", "trend", dir)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "gstat trend over 1 snapshot of /var/lib/firebird/data/shop.fdb\n") {
		t.Errorf("link only: exit %d, stderr %q\n%s", code, errs, out)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", link); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "gstat", "trend", dir)
	if want := "fbdiag: " + dir + ": no regular files (" + link + ": a symbolic link to a.txt, which does not exist)\n"; code != 1 || errs != want {
		t.Errorf("dangling only: exit %d, stderr %q; want %q", code, errs, want)
	}
}
