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
