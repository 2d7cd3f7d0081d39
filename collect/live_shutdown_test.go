package collect_test

import (
	"bytes"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

const shutScript = "CREATE TABLE T (ID INTEGER NOT NULL PRIMARY KEY);\nINSERT INTO T VALUES (1);\n"

// smallDatabase creates the database name (livetest.TempPath) of one
// table and one row (shutScript).
func smallDatabase(t *testing.T, s collect.Server, name string) string {
	t.Helper()
	db := livetest.TempPath(t, s, name)
	if err := s.CreateDatabase(ctxT(t), db, strings.NewReader(shutScript)); err != nil {
		t.Fatal(err)
	}
	return db
}

// A DBA takes a database to single-user shutdown (gfix -shut single
// -force 0) for a backup no one else writes into: gbak, from the command
// line or through the Services API, backs it up. fbdiag's own attachment,
// kept to cancel the backup on Ctrl-C, took the one place the shutdown
// admits, and gbak's was refused: "cannot back up X: database X
// shutdown; Exiting before completion due to errors".
func TestLiveBackupInSingleUserShutdown(t *testing.T) {
	s := livetest.Server(t)
	ctx := ctxT(t)
	db := smallDatabase(t, s, "single.fdb")
	if err := collect.ShutdownForTest(ctx, s, db, 2); err != nil {
		t.Fatal(err)
	}
	fbk := livetest.TempPath(t, s, "single.fbk")
	run, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil)
	if err != nil || !run.Completed {
		t.Fatalf("backup of a database in single-user shutdown: %v", err)
	}
	if h := header(t, ctx, s, db); !strings.Contains(h, "\tAttributes\t\tforce write, single-user maintenance\n") {
		t.Errorf("after the backup, the header:\n%s", h)
	}
	if err := collect.OnlineForTest(ctx, s, db); err != nil {
		t.Fatal(err)
	}
	restored := livetest.TempPath(t, s, "single-restored.fdb")
	if _, err := s.Restore(ctx, fbk, restored, collect.RestoreOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	if n := count(t, ctx, s, restored, "T"); n != 1 {
		t.Errorf("the restored database has %d rows, want 1", n)
	}
}

// A database in full shutdown admits no attachment. The errors said
// "database X shutdown" and no more, and restore --replace said "it
// exists and the server cannot open it as a database", a damaged file;
// they now say it is shut down and how to reach it, and restore without
// --replace says the database exists, as of any other.
func TestLiveFullShutdownErrors(t *testing.T) {
	s := livetest.Server(t)
	ctx := ctxT(t)
	db := smallDatabase(t, s, "full.fdb")
	fbk := livetest.TempPath(t, s, "full.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	if err := collect.ShutdownForTest(ctx, s, db, 3); err != nil {
		t.Fatal(err)
	}
	defer collect.OnlineForTest(ctx, s, db)
	remote := target(s, db)
	shut := ": the database is shut down (database " + db + " shutdown): bring it online (gfix -online " + remote + "), or, " +
		"from a full shutdown, to single-user shutdown (gfix -online single " + remote + "), which admits one attachment, " +
		"of SYSDBA or the owner; in single-user or multi-user shutdown it refuses an attachment when that one is taken or the user is neither"
	other := livetest.TempPath(t, s, "full-other.fbk")
	_, backupErr := s.Backup(ctx, db, other, collect.BackupOptions{}, io.Discard, nil)
	_, replaceErr := s.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, io.Discard, nil)
	_, restoreErr := s.Restore(ctx, fbk, db, collect.RestoreOptions{}, io.Discard, nil)
	_, statsErr := s.Stats(ctx, db, collect.Switches{}, &bytes.Buffer{})
	_, monErr := s.Monitor(ctx, db)
	for _, c := range []struct {
		what string
		err  error
		kind collect.Kind
		want string
	}{
		{"backup", backupErr, collect.KindShutdown, "cannot back up " + db + " on " + s.Addr + shut},
		{"restore --replace", replaceErr, collect.KindShutdown, "cannot restore to " + db + " on " + s.Addr + shut},
		{"restore", restoreErr, collect.KindExists, "cannot restore to " + db + " on " + s.Addr +
			": database already exists (--replace replaces it once the new one is complete)"},
		{"stats", statsErr, collect.KindShutdown, "cannot read statistics of " + db + " on " + s.Addr + shut},
		{"monitor", monErr, collect.KindShutdown, "cannot attach to " + db + " on " + s.Addr + shut},
	} {
		var ce *collect.Error
		if !errors.As(c.err, &ce) || ce.Kind != c.kind || c.err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.what, c.err, c.want)
		}
	}
	if !collect.IsDatabaseFile(db) {
		t.Errorf("%s is gone", db)
	}
	// The commands, as the errors print them (livetest.Gfix names the
	// database as remote does; gfix -shut single, which they gave
	// before, fails from a full shutdown: "Target shutdown mode is
	// invalid"): single-user admits fbdiag's attachment, online too.
	for _, switches := range [][]string{{"-online", "single"}, {"-online"}} {
		livetest.Gfix(t, s, db, switches...)
		if _, err := s.Monitor(ctx, db); err != nil {
			t.Errorf("after gfix %s %s: %v", strings.Join(switches, " "), remote, err)
		}
	}
}

// A backup into a folder this user may write and the server's may not
// (root's 0700 folder, the server running as firebird): gbak says
// "cannot open backup file /DIR/.x.fbk.tmp-…", a name the user never
// gave, and no reason. The error now says what the server could not do
// and what it needs.
func TestLiveBackupIntoFolderTheServerCannotWrite(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs a folder this user may write and the server's user may not: run as root")
	}
	s := livetest.Server(t)
	ctx := ctxT(t)
	db := smallDatabase(t, s, "nowrite.fdb")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fbk := filepath.Join(dir, "x.fbk")
	_, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil)
	want := "cannot back up " + db + " on " + s.Addr + ": the server cannot create " + fbk + " in " + dir +
		": its user (firebird on Debian) must be allowed to write that folder (gbak: cannot open backup file " + dir + "/.x.fbk.tmp-"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; nothing left; "+fbk+" untouched") {
		t.Errorf("backup into %s: %v\nwant %s…", dir, err, want)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("left in the folder: %v", names)
	}
}

// backup --force into a folder that is not there (a typing error, the
// server on this machine): gbak says "cannot open backup file X" and no
// reason; the error now names the missing folder, as restore's does.
func TestLiveBackupForceIntoMissingFolder(t *testing.T) {
	s := livetest.Server(t)
	ctx := ctxT(t)
	db := smallDatabase(t, s, "nofolder.fdb")
	dir := t.TempDir()
	fbk := filepath.Join(dir, "no", "x.fbk")
	_, err := s.Backup(ctx, db, fbk, collect.BackupOptions{Force: true}, io.Discard, nil)
	want := "cannot back up " + db + " on " + s.Addr + ": the server cannot create " + fbk + ": there is no folder " + dir +
		"/no (gbak: cannot open backup file " + fbk + "); gbak stopped before creating " +
		fbk + ": nothing was created or changed"
	if err == nil || err.Error() != want {
		t.Errorf("backup --force into %s: %v\nwant %s", fbk, err, want)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("left in the folder: %v", names)
	}
}

// A restore from a backup the server cannot reach (root's 0700 folder)
// or that is not there said gbak's "cannot open backup file X" for both.
// On this machine fbdiag looks, and says which.
func TestLiveRestoreFromBackupTheServerCannotRead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs a folder this user may read and the server's user may not: run as root")
	}
	s := livetest.Server(t)
	ctx := ctxT(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(dir, "private.fbk")
	if err := os.WriteFile(private, []byte("a backup\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.fbk")
	db := livetest.TempPath(t, s, "unread.fdb")
	for _, c := range []struct{ fbk, want string }{
		{private, "the server cannot read " + private + ": its user (firebird on Debian) must be allowed to read it, and to enter its folders (gbak: cannot open backup file " + private},
		{missing, "there is no file " + missing + " (gbak: cannot open backup file " + missing},
	} {
		_, err := s.Restore(ctx, c.fbk, db, collect.RestoreOptions{}, io.Discard, nil)
		want := "cannot restore " + c.fbk + " to " + db + " on " + s.Addr + ": " + c.want
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; nothing left; nothing under "+db) {
			t.Errorf("restore from %s: %v\nwant %s…", c.fbk, err, want)
		}
	}
}

// A restore into a folder that does not exist said "database not found
// (I/O error during "open O_CREAT" operation …; No such file or
// directory)", the words of a database missing where one was expected.
func TestLiveRestoreIntoMissingFolder(t *testing.T) {
	s := livetest.Server(t)
	ctx := ctxT(t)
	_, fbk := livetest.DuplicateKeyBackup(t, s)
	nodir := livetest.TempPath(t, s, "nodir")
	db := nodir + "/x.fdb"
	_, err := s.Restore(ctx, fbk, db, collect.RestoreOptions{}, io.Discard, nil)
	var ce *collect.Error
	want := "cannot restore " + fbk + " to " + db + " on " + s.Addr + ": the server cannot create " + db + ": there is no folder " + nodir +
		` (I/O error during "open O_CREAT" operation for file "` + db + `"; Error while trying to create file; No such file or directory)`
	if !errors.As(err, &ce) || ce.Kind == collect.KindNoDatabase || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("restore into a missing folder: %v\nwant %s…", err, want)
	}
}

// The original taken to full shutdown (gfix -shut full -force 0) while
// restore --replace ran: the swap's own shutdown was refused with the
// server's "Target shutdown mode is invalid", and the error read "it
// could not be shut down (…)" of a database that was shut down. It now
// says what happened; the original stays as it was left.
func TestLiveReplaceOfDatabaseShutDownMeanwhile(t *testing.T) {
	s := localServer(t, "the swap needs the database's folder on this machine")
	ctx := ctxT(t)
	db, good := cleanBackup(t, s)
	shut := false
	progress := func(p collect.Progress) {
		if !shut && p.Phase == collect.PhaseData {
			shut = true
			if err := collect.ShutdownForTest(ctx, s, db, 3); err != nil {
				t.Errorf("shutting %s down: %v", db, err)
			}
		}
	}
	defer collect.OnlineForTest(ctx, s, db)
	_, err := s.Restore(ctx, good, db, collect.RestoreOptions{Replace: true}, io.Discard, progress)
	kept, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".restored-*"))
	if len(kept) != 1 {
		t.Fatalf("beside the database: %q (error %v)", kept, err)
	}
	want := "cannot replace " + db + " on " + s.Addr + `: it was taken to full shutdown during the restore (Target shutdown mode is invalid for database "` + db +
		`"), so it was not replaced and stays shut down; the restored database is kept, complete, as ` + kept[0]
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if h := livetest.Fbstat(t, s, db, "-h"); !bytes.Contains(h, []byte("\tAttributes\t\tforce write, full shutdown\n")) {
		t.Errorf("the original's header:\n%s", h)
	}
}

// Someone attached to the original while restore --replace ran (after
// its check that the database was unused): the server refuses the
// swap's shutdown ("database shutdown unsuccessful"), and the original
// stays online. The error read "it could not be shut down (…)", with no
// word of the attachment, and left the complete restored database under
// its temporary name, which the next run called "left by an earlier
// backup or restore that did not end (fbdiag killed?)". It now says why,
// keeps the database as .NAME.restored-…, and the next run names it so.
func TestLiveReplaceOfDatabaseAttachedMeanwhile(t *testing.T) {
	s := localServer(t, "the swap needs the database's folder on this machine")
	ctx := ctxT(t)
	db, good := cleanBackup(t, s)
	var user *sql.DB
	progress := func(p collect.Progress) {
		if user == nil && p.Phase == collect.PhaseData {
			c, err := collect.OpenForTest(ctx, s, db)
			if err != nil {
				t.Errorf("attaching to %s: %v", db, err)
				return
			}
			user = c
		}
	}
	_, err := s.Restore(ctx, good, db, collect.RestoreOptions{Replace: true}, io.Discard, progress)
	if user == nil {
		t.Fatal("no attachment was made during the restore")
	}
	kept, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".restored-*"))
	if len(kept) != 1 {
		t.Fatalf("beside the database: %q (error %v)", kept, err)
	}
	want := "cannot replace " + db + " on " + s.Addr + ": someone attached to it during the restore, and the server does not shut a " +
		"database down under open attachments (database shutdown unsuccessful), so it was not replaced and stays online, " +
		"untouched; the restored database is kept, complete, as " + kept[0] + ": restore --replace again once they are gone, or delete it"
	var ce *collect.Error
	if !errors.As(err, &ce) || ce.Kind != collect.KindInUse || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// The original: online, and the attachment still works.
	var n int
	if err := user.QueryRowContext(ctx, "SELECT COUNT(*) FROM U").Scan(&n); err != nil || n != 2 {
		t.Errorf("the user's attachment: %d rows, %v; want the original's 2", n, err)
	}
	user.Close()
	if h := livetest.Fbstat(t, s, db, "-h"); !bytes.Contains(h, []byte("\tAttributes\t\tforce write\n")) {
		t.Errorf("the original's header:\n%s", h)
	}
	// The next run names the kept database for what it is.
	var warnings []string
	s2 := s
	s2.Warn = func(m string) { warnings = append(warnings, m) }
	if _, err := s2.Restore(ctx, good, db, collect.RestoreOptions{Replace: true}, io.Discard, nil); err != nil {
		t.Errorf("the next restore --replace: %v", err)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], kept[0]+" (") ||
		!strings.HasSuffix(warnings[0], " is the complete database of an earlier restore --replace that could not take the place of "+db+", kept; delete it unless you mean to use it") {
		t.Errorf("warnings of the next run: %q", warnings)
	}
}

// cleanBackup is DuplicateKeyBackup's database and a backup of it that
// restores cleanly (the database's own, not the one with the duplicate
// key).
func cleanBackup(t *testing.T, s collect.Server) (db, good string) {
	db, _ = livetest.DuplicateKeyBackup(t, s)
	good = livetest.TempPath(t, s, "good.fbk")
	if _, err := s.Backup(ctxT(t), db, good, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	return db, good
}
