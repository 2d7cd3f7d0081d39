package collect_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// BACKUP_FILE a symlink to the backup kept elsewhere (latest.fbk to a
// file on another disk), replaced with --force: gbak writes through the
// link. fbdiag renamed its new backup onto the link itself: the link
// became a file in its folder and the file it named kept yesterday's
// backup, while the output said "Replaced the existing backup file".
// The new backup now takes the place of the file the link names, and
// the link stays.
func TestLiveBackupForceThroughSymlink(t *testing.T) {
	s := localServer(t, "the rename needs the backup's folder on this machine")
	ctx := ctxT(t)
	db := smallDatabase(t, s, "linked.fdb")
	real := livetest.TempPath(t, s, "real.fbk")
	const old = "yesterday's backup\n"
	if err := os.WriteFile(real, []byte(old), 0o666); err != nil {
		t.Fatal(err)
	}
	link := livetest.TempPath(t, s, "latest.fbk")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	run, err := s.Backup(ctx, db, link, collect.BackupOptions{Force: true}, io.Discard, nil)
	if err != nil || !run.Replaced {
		t.Fatalf("backup --force to a symlink: %v, replaced %v", err, run.Replaced)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink: %v, %v", link, fi, err)
	}
	if b, _ := os.ReadFile(real); len(b) < 1000 || string(b) == old {
		t.Errorf("the file the link names holds %d bytes, want the new backup", len(b))
	}
	if !collect.IsDatabaseFile(db) {
		t.Errorf("%s is no database", db)
	}
}

// BACKUP_FILE a folder, with --force: the whole backup ran, then "cannot
// name the backup X: rename .X.tmp-… X: file exists" left it under its
// temporary name. A folder is refused before anything starts.
func TestLiveBackupToAFolder(t *testing.T) {
	s := localServer(t, "needs the backup's folder on this machine")
	ctx := ctxT(t)
	db := smallDatabase(t, s, "tofolder.fdb")
	dir := livetest.TempPath(t, s, "folder.fbk")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(dir)
	run, err := s.Backup(ctx, db, dir, collect.BackupOptions{Force: true}, io.Discard, nil)
	if want := "cannot back up " + db + " on " + s.Addr + ": " + dir + " is a folder; nothing done (name a file in it)"; err == nil || err.Error() != want || run.Lines != 0 {
		t.Errorf("backup to a folder: %v (%d lines)\nwant %s", err, run.Lines, want)
	}
}

// backup --force over a backup kept 0600 (all the database's data): the
// server writes the new one with its own mode (0644 on Debian), and fbdiag
// renamed that into place, readable by every user, where gbak writing
// over the file keeps its mode. The new backup now has the old one's mode
// from when the server creates it to its end.
func TestLiveBackupForceKeepsTheMode(t *testing.T) {
	s := localServer(t, "the rename needs the backup's folder on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "private.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(fbk, 0o600); err != nil {
		t.Fatal(err)
	}
	var during []os.FileMode
	progress := func(p collect.Progress) {
		if p.Phase != collect.PhaseData || len(during) > 0 {
			return
		}
		tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(fbk), "."+filepath.Base(fbk)+".tmp-*"))
		for _, tmp := range tmps {
			if fi, err := os.Stat(tmp); err == nil {
				during = append(during, fi.Mode().Perm())
			}
		}
	}
	run, err := s.Backup(ctx, db, fbk, collect.BackupOptions{Force: true}, io.Discard, progress)
	if err != nil || !run.Replaced {
		t.Fatalf("backup --force: %v, replaced %v", err, run.Replaced)
	}
	if len(during) != 1 || during[0] != 0o600 {
		t.Errorf("the new backup while written: %v, want -rw-------", during)
	}
	if fi, err := os.Stat(fbk); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new backup: %v %v, want -rw-------", fi.Mode().Perm(), err)
	}
}
