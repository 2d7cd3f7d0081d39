package main

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// closedServer is a local address nothing listens on: a run that got as
// far as connecting says "server not reachable" at once.
func closedServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

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
	addr := closedServer(t)
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
