package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// serverlessCredentials lets a live command get as far as connecting
// without a server: the refusals tested here come before.
func serverlessCredentials(t *testing.T) {
	t.Setenv("ISC_USER", "SYSDBA")
	t.Setenv("ISC_PASSWORD", "unused-by-these-tests")
}

// writeUserFile writes a file the test then checks is left byte for byte.
func writeUserFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkUnchanged(t *testing.T, what, p, text string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != text {
		t.Errorf("%s: %s changed: %q, %v", what, p, b, err)
	}
}

// Finding 1: "backup --force DB DB" renamed the new backup over the
// database (exit 0, "completed"). BACKUP_FILE that is DATABASE, by its
// cleaned path, a symlink or a hard link, is refused before connecting,
// with or without --force, as gbak refuses it.
func TestBackupOverItsDatabaseRefused(t *testing.T) {
	serverlessCredentials(t)
	addr := testutil.ClosedAddr(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "a.fdb")
	const text = "the user's database\n"
	writeUserFile(t, db, text)
	link := filepath.Join(dir, "link.fbk")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.fbk")
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	logDir := t.TempDir()
	for _, fbk := range []string{db, dir + "/./a.fdb", dir + "//a.fdb", link, hard} {
		for _, force := range []bool{false, true} {
			args := []string{"backup", "--server", addr, "--log", filepath.Join(logDir, "b.log")}
			if force {
				args = append(args, "--force")
			}
			out, errs, code := runCLI(t, nil, append(args, db, fbk)...)
			if code != exitError || out != "" {
				t.Errorf("%s (force %v): exit %d, stdout %q", fbk, force, code, out)
			}
			want := "fbdiag: cannot back up " + db + " on " + addr + ": the backup file " + fbk +
				" is the database itself; nothing done (gbak: multiple sources or destinations specified)\n"
			if errs != want {
				t.Errorf("%s (force %v): stderr %q, want %q", fbk, force, errs, want)
			}
		}
	}
	checkUnchanged(t, "backup over itself", db, text)
	if names := liveDirEntries(t, logDir); len(names) != 0 {
		t.Errorf("files left beside the log: %v", names)
	}
	if names := liveDirEntries(t, dir); len(names) != 3 {
		t.Errorf("files beside the database: %v", names)
	}
}

// Finding 2: with --force, --log or --out replaced the command's own
// files, exit 0: "restore --replace --force --log DB FBK DB" left a text
// log where both databases had been, "backup --force --log FBK DB FBK"
// replaced the new backup with its log, "collect --force --out DB DB" the
// database with the snapshot. A log, snapshot or sidecar that is one of
// the command's files (by path, symlink or hard link) is refused before
// connecting, with or without --force.
func TestOutputsNotOwnFiles(t *testing.T) {
	serverlessCredentials(t)
	addr := testutil.ClosedAddr(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "a.fdb")
	fbk := filepath.Join(dir, "a.fbk")
	const dbText, fbkText = "the user's database\n", "the user's backup\n"
	writeUserFile(t, db, dbText)
	writeUserFile(t, fbk, fbkText)
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	// A relative --log is the same file as an absolute path.
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"restore", "--replace", "--log", db, fbk, db}, "restore: --log " + db + " is the database " + db},
		{[]string{"restore", "--log", fbk, fbk, db}, "restore: --log " + fbk + " is the backup file " + fbk},
		{[]string{"restore", "--replace", "--log", "a.fdb", fbk, db}, "restore: --log a.fdb is the database " + db},
		{[]string{"backup", "--log", fbk, db, fbk}, "backup: --log " + fbk + " is the backup file " + fbk},
		{[]string{"backup", "--log", link, db, fbk}, "backup: --log " + link + " is the database " + db},
		{[]string{"collect", "--out", db, db}, "collect: --out " + db + " is the database " + db},
		{[]string{"collect", "--out", "a", filepath.Join(dir, "a.mon.json")},
			"collect: the sidecar a.mon.json is the database " + filepath.Join(dir, "a.mon.json")},
	} {
		if c.args[0] == "collect" {
			writeUserFile(t, filepath.Join(dir, "a.mon.json"), dbText)
		}
		for _, force := range []bool{false, true} {
			args := append([]string{c.args[0], "--server", addr}, c.args[1:]...)
			if force {
				args = append([]string{c.args[0], "--force"}, args[1:]...)
			}
			out, errs, code := runCLI(t, nil, args...)
			if code != exitError || out != "" {
				t.Errorf("%v: exit %d, stdout %q", args, code, out)
			}
			if want := "fbdiag: " + c.want + "; nothing done, with or without --force (name another file)\n"; errs != want {
				t.Errorf("%v: stderr %q, want %q", args, errs, want)
			}
		}
	}
	checkUnchanged(t, "own files", db, dbText)
	checkUnchanged(t, "own files", fbk, fbkText)
	checkUnchanged(t, "own files", filepath.Join(dir, "a.mon.json"), dbText)
	if names := liveDirEntries(t, dir); len(names) != 4 {
		t.Errorf("files in the folder: %v", names)
	}
}

// A log or a snapshot never replaces a file that begins with a Firebird
// database header, whatever name reached it: an alias the server resolves
// (SHOPALIAS here) is no path a comparison sees, and under -ig no
// attachment may resolve it.
func TestOutputNeverOverADatabase(t *testing.T) {
	serverlessCredentials(t)
	addr := testutil.ClosedAddr(t)
	dir := t.TempDir()
	// The first 20 bytes of a database Firebird 3.0.11 created: page type
	// 1, 4 KiB pages, ODS 12 with the Firebird flag.
	header := []byte{1, 0, 0, 0, 0x1f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x10, 0x0c, 0x80}
	db := filepath.Join(dir, "shop.fdb")
	if err := os.WriteFile(db, append(header, make([]byte, 4076)...), 0o600); err != nil {
		t.Fatal(err)
	}
	// bench init, run and sweep wrote their result over it with --force
	// (bench run --out tpcc.fdb --force tpcc.fdb: a 5 KiB JSON file where
	// the loaded database was).
	for _, args := range [][]string{
		{"backup", "--force", "--ignore-checksums", "--server", addr, "--log", db, "SHOPALIAS", filepath.Join(dir, "shop.fbk")},
		{"collect", "--force", "--server", addr, "--out", db, "SHOPALIAS"},
		{"bench", "init", "--force", "--server", addr, "--out", db, "SHOPALIAS"},
		{"bench", "run", "--force", "--server", addr, "--out", db, "SHOPALIAS"},
		{"bench", "sweep", "--buffers", "256,1024", "--force", "--server", addr, "--out", db, "SHOPALIAS"},
	} {
		cmd, flag := args[0], "--out"
		if cmd == "bench" {
			cmd += " " + args[1]
		}
		if cmd == "backup" {
			flag = "--log"
		}
		_, errs, code := runCLI(t, nil, args...)
		want := "fbdiag: " + cmd + ": " + flag + " " + db + " is a Firebird database (its first page is a database header); nothing done, with or without --force (name another file)\n"
		if code != exitError || errs != want {
			t.Errorf("%v: exit %d, stderr %q, want %q", args[:2], code, errs, want)
		}
	}
	// A database bench init is to create is named by its path: the load
	// history would have replaced it.
	newDB := filepath.Join(dir, "tpcc.fdb")
	_, errs, code := runCLI(t, nil, "bench", "init", "--force", "--server", addr, "--out", newDB, newDB)
	if want := "fbdiag: bench init: --out " + newDB + " is the database " + newDB + "; nothing done, with or without --force (name another file)\n"; code != exitError || errs != want {
		t.Errorf("bench init --out DATABASE: exit %d, stderr %q, want %q", code, errs, want)
	}
	if b, _ := os.ReadFile(db); len(b) != 4096 || b[0] != 1 {
		t.Error("the database was changed")
	}
}
