package collect_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// A backup holding a duplicate key of a unique index (made as
// testdata/gbak/README.md says: one byte of the key changed in the
// backup file) restores on Firebird 3.0.11 to the end: gbak prints
// "cannot commit index UX_U_CODE", goes on without the index and
// leaves the database offline. restore --replace took that run for a
// success, shut the original down and swapped it out: the good,
// online database was deleted and an offline one with an inactive index
// took its name (exit status 0, "Replaced the existing database once
// the new one was complete"). Now the original stays as it was and the
// error says where the restored database is.
func TestLiveRestoreWithFailedIndexKeepsTheOriginal(t *testing.T) {
	s := localServer(t, "the swap needs the database's folder on this machine")
	ctx := ctxT(t)
	db, fbk := livetest.DuplicateKeyBackup(t, s)
	// The original gets a third row, which the backup does not have.
	conn, err := collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO U VALUES (3, 7)"); err != nil {
		t.Fatal(err)
	}
	conn.Close()

	var log bytes.Buffer
	run, err := s.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, &log, nil)
	var ce *collect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("restore --replace of a backup with a duplicate key: %v, want an error (log:\n%s)", err, log.String())
	}
	kept, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".failed-*"))
	wantDetail := `gbak finished with errors: cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"`
	if ce.Detail != wantDetail || len(kept) != 1 ||
		ce.Outcome != db+" not replaced, untouched; the restored database is kept as "+kept[0]+
			", offline (single-user maintenance): fix what the log names, then gfix -online "+target(s, kept[0])+", or delete it" {
		t.Errorf("error %q\ndetail %q\noutcome %q\nkept %q", err, ce.Detail, ce.Outcome, kept)
	}
	if !run.Completed || run.Replaced {
		t.Errorf("completed %v, replaced %v; want gbak's run complete and nothing replaced", run.Completed, run.Replaced)
	}
	// The original: online, its three rows, its index active.
	if n := count(t, ctx, s, db, "U"); n != 3 {
		t.Errorf("the original has %d rows, want its 3", n)
	}
	if h := header(t, ctx, s, db); !strings.Contains(h, "\tAttributes\t\tforce write\n") {
		t.Errorf("the original's header:\n%s", h)
	}
	if len(kept) == 1 && !strings.Contains(header(t, ctx, s, kept[0]), "single-user maintenance") {
		t.Errorf("the kept database %s is not in single-user maintenance", kept[0])
	}

	// The next run says what the kept database is, not "left by an
	// earlier backup or restore that did not end (fbdiag killed?)".
	var warnings []string
	s2 := s
	s2.Warn = func(m string) { warnings = append(warnings, m) }
	if _, err := s2.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, &bytes.Buffer{}, nil); err == nil {
		t.Error("the second restore --replace succeeded")
	}
	if len(kept) != 1 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], kept[0]+" (") ||
		!strings.HasSuffix(warnings[0], " is the database of an earlier restore that gbak finished with errors, kept to be fixed; delete it unless you mean to") {
		t.Errorf("warnings of the next run: %q", warnings)
	}

	// A new database is left under its name, as gbak leaves it, and the
	// run is an error (gbak's exit code is 2).
	fresh := livetest.TempPath(t, s, "dupkey-new.fdb")
	_, err = s.Restore(ctx, fbk, fresh, collect.RestoreOptions{}, &bytes.Buffer{}, nil)
	if !errors.As(err, &ce) || ce.Outcome != "the restored database is "+fresh+
		", offline (single-user maintenance): fix what the log names, then gfix -online "+target(s, fresh)+", or delete it" {
		t.Errorf("restore of a backup with a duplicate key to a new database: %v", err)
	}
	if !collect.IsDatabaseFile(fresh) {
		t.Errorf("no database at %s", fresh)
	}
}

// A backup file cut short (a copy stopped half way, a disk that filled
// during the backup): gbak on the command line asks for the next volume,
// but through the Services API the restore just ends, with no error,
// after "20000 records restored" of ORDER_LINE. The error said "gbak
// stopped before its final line (74 lines)" and no more; it now says
// what ends a restore so.
func TestLiveRestoreOfABackupCutShort(t *testing.T) {
	s := localServer(t, "cutting the backup file needs its folder on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "cut.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(fbk)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(fbk, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	target := livetest.TempPath(t, s, "cut.fdb")
	run, err := s.Restore(ctx, fbk, target, collect.RestoreOptions{}, &bytes.Buffer{}, nil)
	head := "cannot restore " + fbk + " to " + target + " on " + s.Addr + ": gbak stopped before its final line (" +
		strconv.Itoa(run.Lines) + " lines): "
	tail := "; gbak's last step: " + run.LastStep + "; nothing left; nothing under " + target
	want := head + "the server ended the restore without an error, as it does when the backup " +
		"file ends early (a copy cut short, a disk that filled during the backup; gbak -c asks for the next volume " +
		"there)" + tail
	// Or, in some runs (a CI run on 3.0.11, after "committing metadata"),
	// a reply the driver could not read: "Error op_response:291362718".
	garbled := regexp.MustCompile("^" + regexp.QuoteMeta(head+"the server's reply could not be read (the driver: Error op_response:") +
		`-?\d+` + regexp.QuoteMeta("); a backup file that ends early (a copy cut short, a disk that filled during the backup) "+
		"ends a restore so, or without an error"+tail) + "$")
	switch {
	case err == nil || run.Completed || run.LastStep == "":
		t.Errorf("restore of a backup cut short: %v, completed %v (last step %q)", err, run.Completed, run.LastStep)
	case err.Error() == want:
		if !strings.Contains(run.LastStep, "records restored") {
			t.Errorf("restore of a backup cut short ended without an error after %q, not in the data", run.LastStep)
		}
	case !garbled.MatchString(err.Error()):
		t.Errorf("restore of a backup cut short: %v\nwant %s\nor %s", err, want, garbled)
	}
	if collect.IsDatabaseFile(target) {
		t.Errorf("a database was left at %s", target)
	}
}

// A user who is neither SYSDBA nor the database's owner: the driver's
// words for Firebird's "Unable to perform operation.  You must be either
// SYSDBA or owner of the database" stop at its first sentence, and gbak's
// "no permission for CREATE access to DATABASE" named fbdiag's temporary
// file. Each error now says which right the user lacks; restore --replace
// by a user who may create databases keeps the original as it was.
func TestLiveUserWithoutRights(t *testing.T) {
	s := localServer(t, "restore --replace needs the database's folder on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	admin, err := collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatal(err)
	}
	var b [4]byte
	rand.Read(b[:])
	user := "FBDIAG_T_" + strings.ToUpper(hex.EncodeToString(b[:]))
	// Each in a transaction of its own, committed: the user management
	// of Firebird 3 applies a change when its transaction ends, and the
	// driver's autocommit keeps it open (commit retaining).
	sec := func(ctx context.Context, stmt string) error {
		tx, err := admin.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	if err := sec(ctx, "CREATE USER "+user+" PASSWORD 'x9Tq2w' USING PLUGIN Srp"); err != nil {
		admin.Close()
		t.Skipf("cannot create a test user: %v", err)
	}
	t.Cleanup(func() {
		// (A grant outlives its user.)
		if err := sec(context.Background(), "REVOKE CREATE DATABASE FROM USER "+user); err != nil {
			t.Errorf("revoking the test user's %s grant: %v", user, err)
		}
		if err := sec(context.Background(), "DROP USER "+user+" USING PLUGIN Srp"); err != nil {
			t.Errorf("dropping the test user %s: %v", user, err)
		}
		admin.Close()
	})
	u := s
	u.User, u.Password = user, "x9Tq2w"
	notOwner := "permission denied: the user " + user + " (ISC_USER) is neither SYSDBA nor the owner of the database, which the server requires for this (Unable to perform operation"

	sw, _ := collect.ParseSwitches("-d") // (-h alone is allowed to anyone)
	_, err = u.Stats(ctx, db, sw, io.Discard)
	if want := "cannot read statistics of " + db + " on " + s.Addr + ": " + notOwner + ")"; err == nil || err.Error() != want {
		t.Errorf("collect: %v\nwant %s", err, want)
	}
	fbk := livetest.TempPath(t, s, "rights.fbk")
	_, err = u.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil)
	if want := "cannot back up " + db + " on " + s.Addr + ": " + notOwner + "); nothing left; " + fbk + " untouched"; err == nil || err.Error() != want {
		t.Errorf("backup: %v\nwant %s", err, want)
	}
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	target := livetest.TempPath(t, s, "rights.fdb")
	_, err = u.Restore(ctx, fbk, target, collect.RestoreOptions{}, io.Discard, nil)
	if want := "cannot restore " + fbk + " to " + target + " on " + s.Addr + ": permission denied: the user " + user +
		" (ISC_USER) may not create databases: connect as SYSDBA, or grant it with GRANT CREATE DATABASE TO USER " + user +
		" (Firebird 3 and later) (no permission for CREATE access to DATABASE " + target + "; failed to create database " + target +
		"); nothing left; nothing under " + target; err == nil || err.Error() != want {
		t.Errorf("restore: %v\nwant %s", err, want)
	}

	// Allowed to create databases, not to shut down SYSDBA's.
	if err := sec(ctx, "GRANT CREATE DATABASE TO USER "+user); err != nil {
		t.Fatal(err)
	}
	_, err = u.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, io.Discard, nil)
	kept, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".restored-*"))
	if len(kept) != 1 {
		t.Fatalf("beside the database: %q (error %v)", kept, err)
	}
	if want := "cannot replace " + db + " on " + s.Addr + ": permission denied: the user " + user + " (ISC_USER) may not shut it down, " +
		"which replacing it needs: only SYSDBA or the owner of the database may (no permission for shutdown access to database " + db +
		"); not replaced, online and untouched; the restored database is kept, complete, as " + kept[0]; err == nil || err.Error() != want {
		t.Errorf("restore --replace: %v\nwant %s", err, want)
	}
	if n := count(t, ctx, s, db, "WAREHOUSE"); n != 5 {
		t.Errorf("the original has %d warehouses, want its 5", n)
	}
}

// A relative DATABASE or BACKUP_FILE, as gbak and isql take one from the
// shell's folder: the server resolves it in its own working folder ("/"
// under systemd) and said only "database not found" or "cannot open
// backup file shop.fbk", of a file that is right there. The error now
// gives the absolute path of the file here.
func TestLiveRelativePathNamesTheFileHere(t *testing.T) {
	s := localServer(t, "needs the server's files on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "rel.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Dir(db))
	hint := "the server resolves a relative path in its own working folder, not in this one: give "
	_, err := s.Monitor(ctx, filepath.Base(db))
	if err == nil {
		t.Skip("the server's working folder is the test databases' folder")
	}
	if !strings.HasPrefix(err.Error(), "cannot attach to "+filepath.Base(db)+" on "+s.Addr+": database not found (") ||
		!strings.HasSuffix(err.Error(), "); "+hint+db) {
		t.Errorf("collect of a relative path: %v", err)
	}
	target := livetest.TempPath(t, s, "rel.fdb")
	_, err = s.Restore(ctx, filepath.Base(fbk), target, collect.RestoreOptions{}, io.Discard, nil)
	want := "cannot restore " + filepath.Base(fbk) + " to " + target + " on " + s.Addr + ": the server found no file " + filepath.Base(fbk) +
		" (gbak: cannot open backup file " + filepath.Base(fbk) + "); " + hint + fbk +
		"; nothing left; nothing under " + target
	if err == nil || err.Error() != want {
		t.Errorf("restore from a relative path: %v\nwant %s", err, want)
	}
}

// A restore to a relative DATABASE is created in the server's working
// folder, which the output did not say: it named the database as given,
// and the DBA looked for it in the shell's folder. A warning now names
// the file. (Where the server may not write its working folder, "/"
// under systemd, the restore fails and there is nothing to test.)
func TestLiveRestoreToARelativePathSaysWhere(t *testing.T) {
	s := localServer(t, "needs the server's files on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "relto.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "fbdiag-test-" + hex.EncodeToString(b[:]) + "-relto.fdb"
	// Whatever the outcome, the database goes: found where the server
	// put it.
	var file string
	t.Cleanup(func() {
		if conn, err := collect.OpenForTest(context.Background(), s, name); err == nil {
			var f string
			conn.QueryRow("SELECT MON$DATABASE_NAME FROM MON$DATABASE").Scan(&f)
			conn.Close()
			file = strings.TrimSpace(f)
		}
		if file != "" {
			livetest.Remove(t, s, file)
		}
	})
	var warnings []string
	s2 := s
	s2.Warn = func(m string) { warnings = append(warnings, m) }
	_, err := s2.Restore(ctx, fbk, name, collect.RestoreOptions{}, io.Discard, nil)
	if err != nil {
		t.Skipf("the server cannot create %s in its working folder: %v", name, err)
	}
	const says = ": the server resolves a relative path in its own working folder, not in yours"
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], name+" was created as /") || !strings.HasSuffix(warnings[0], "/"+name+says) {
		t.Errorf("warnings: %q", warnings)
	}
	if len(warnings) == 1 {
		file = strings.TrimSuffix(strings.TrimPrefix(warnings[0], name+" was created as "), says)
		if !collect.IsDatabaseFile(file) {
			t.Errorf("no database at %s", file)
		}
	}
}

// backup --force to a relative BACKUP_FILE: the server wrote it in its
// own working folder, and the output named it as given, with no word of
// where. It now warns; the backup is found in the server's folder
// (/proc/PID/cwd) and removed.
func TestLiveBackupToARelativePathSaysWhere(t *testing.T) {
	s := localServer(t, "needs the server's files on this machine")
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", livetest.ServerPID(t)))
	if err != nil {
		t.Skipf("the server's working folder: %v", err)
	}
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	var b [6]byte
	rand.Read(b[:])
	name := "fbdiag-test-" + hex.EncodeToString(b[:]) + "-relto.fbk"
	t.Cleanup(func() { os.Remove(filepath.Join(cwd, name)) })
	var warnings []string
	s2 := s
	s2.Warn = func(m string) { warnings = append(warnings, m) }
	if _, err := s2.Backup(ctx, db, name, collect.BackupOptions{Force: true}, io.Discard, nil); err != nil {
		t.Skipf("the server cannot write %s in its working folder %s: %v", name, cwd, err)
	}
	want := name + " is a relative path: the server wrote it in its own working folder, not in yours (give an absolute path to choose where)"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings: %q", warnings)
	}
	if st, err := os.Stat(filepath.Join(cwd, name)); err != nil || st.Size() == 0 {
		t.Errorf("no backup in the server's folder %s: %v", cwd, err)
	}
}

// gbak's errors on the file fbdiag restores into name that file, a name
// the user never gave: "I/O error during "open O_CREAT" operation for
// file ".../.t.fdb.tmp-e42af008b7ba"". The error says what it is. A
// folder the server's user may not write to (owned by this process's
// user, mode 0755) stands for a full disk, which gives the same words
// with "write" and "No space left on device" (Firebird 3.0.11, a 1 MiB
// tmpfs).
func TestLiveRestoreNamesItsTemporaryFile(t *testing.T) {
	s := localServer(t, "fbdiag restores under a temporary name on this machine only")
	if u := os.Getenv("USER"); u == "firebird" {
		t.Skip("the tests run as firebird, whose server may write anywhere they may")
	}
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "tmpname.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	dir := livetest.TempPath(t, s, "closed")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	target := filepath.Join(dir, "t.fdb")
	_, err := s.Restore(ctx, fbk, target, collect.RestoreOptions{}, &bytes.Buffer{}, nil)
	tmp := regexp.QuoteMeta(filepath.Join(dir, ".t.fdb.tmp-")) + "[0-9a-f]+"
	want := regexp.MustCompile(`I/O error during "open O_CREAT" operation for file "` + tmp + `"; Error while trying to create file; Permission denied; ` +
		tmp + regexp.QuoteMeta(" is the temporary name fbdiag gives "+target+" until gbak succeeds") + `\b.*; nothing left; nothing under ` + regexp.QuoteMeta(target) + "$")
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("restore into a folder the server may not write to: %v\nwant %s", err, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}

// target is database on s as gfix takes it from another machine
// (host/port:path), as the errors name it.
func target(s collect.Server, database string) string {
	return collect.ClientPrefix(s.Addr) + database
}
