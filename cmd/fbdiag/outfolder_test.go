package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A --log or --out that names a folder, or a file in a folder that is
// not there, was found only when the file was written: backup --force
// --log DIR ran the whole backup, then ended with "rename
// DIR/..tmp-1258342455 DIR/: file exists", and collect --out
// nodir/s.txt took its snapshot from the server, then said "open
// nodir/.s.txt.tmp-510740981: no such file or directory". Both are now
// refused before the server is asked anything (no server is needed
// here), as bench's --out is.
func TestOutputFolderCheckedFirst(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "")
	dir, other := t.TempDir(), t.TempDir()
	nodir := filepath.Join(dir, "nodir")
	// --force onto a link writes where it points: a link into a folder
	// not there was probed in the link's folder, and failed only after
	// the restore.
	link := filepath.Join(other, "latest.log")
	if err := os.Symlink(filepath.Join(nodir, "r.log"), link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--force", "--log", dir, "/data/shop.fdb", "/data/shop.fbk"},
			"fbdiag: backup: --log " + dir + " is a folder; nothing done (name a file in it)\n"},
		{[]string{"restore", "--log", filepath.Join(nodir, "r.log"), "/data/shop.fbk", "/data/shop.fdb"},
			"fbdiag: restore: --log " + filepath.Join(nodir, "r.log") + ": no folder " + nodir + " (make it first)\n"},
		{[]string{"collect", "--force", "--out", dir, "/data/shop.fdb"},
			"fbdiag: collect: --out " + dir + " is a folder; nothing done (name a file in it)\n"},
		{[]string{"collect", "--out", filepath.Join(nodir, "s.txt"), "/data/shop.fdb"},
			"fbdiag: collect: --out " + filepath.Join(nodir, "s.txt") + ": no folder " + nodir + " (make it first)\n"},
		{[]string{"restore", "--force", "--log", link, "/data/shop.fbk", "/data/shop.fdb"},
			"fbdiag: restore: --log " + link + ": no folder " + nodir + " (make it first)\n"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != exitError || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stdout %q\nstderr %q\nwant   %q", c.args, code, out, errs, c.want)
		}
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("left in %s: %q", dir, names)
	}
}
