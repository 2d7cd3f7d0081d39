package livetest

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
)

// DuplicateKeyBackup makes a database of one table U (ID primary key,
// CODE under the unique index UX_U_CODE, rows (1, 305419896) and (2,
// 305419897)) and a backup of it in which the second CODE is changed to
// the first, as testdata/gbak/README.md made its failed restores: a live
// database cannot hold a duplicate under an active unique index. gbak
// restores such a backup to the end, without UX_U_CODE, and leaves the
// database offline. It returns the database and the backup; both are
// removed when the test ends. The backup file must be writable here (the
// server on this machine, the tests run as root or firebird).
func DuplicateKeyBackup(t testing.TB, s collect.Server) (database, backup string) {
	t.Helper()
	return duplicateBackup(t, s, "dupkey", `CREATE TABLE U (ID INTEGER NOT NULL PRIMARY KEY, CODE INTEGER);
CREATE UNIQUE INDEX UX_U_CODE ON U (CODE);
INSERT INTO U VALUES (1, 305419896);
INSERT INTO U VALUES (2, 305419897);
`)
}

// DuplicatePrimaryKeyBackup makes a database of one table P (ID primary
// key, its unnamed constraint's index RDB$PRIMARY1; rows (305419896, 1)
// and (305419897, 2)) and a backup of it in which the second ID is
// changed to the first. Firebird 3.0.11's gbak stops at the primary key's
// index ("Cannot deactivate index used by a PRIMARY/UNIQUE constraint",
// firebird#7269): the restore is not finished.
func DuplicatePrimaryKeyBackup(t testing.TB, s collect.Server) (database, backup string) {
	t.Helper()
	return duplicateBackup(t, s, "pkdup", `CREATE TABLE P (ID INTEGER NOT NULL PRIMARY KEY, V INTEGER);
INSERT INTO P VALUES (305419896, 1);
INSERT INTO P VALUES (305419897, 2);
`)
}

// duplicateBackup creates database NAME.fdb by script, backs it up to
// NAME.fbk and changes the key 305419897 of the backup to 305419896.
func duplicateBackup(t testing.TB, s collect.Server, name, script string) (database, backup string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	database = TempPath(t, s, name+".fdb")
	if err := s.CreateDatabase(ctx, database, strings.NewReader(script)); err != nil {
		t.Fatalf("creating the duplicate-key database: %v", err)
	}
	backup = TempPath(t, s, name+".fbk")
	if _, err := s.Backup(ctx, database, backup, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	// 0x12345679 to 0x12345678: XDR stores them big-endian, bytes no
	// run-length coding touches.
	second, first := []byte{0x12, 0x34, 0x56, 0x79}, []byte{0x12, 0x34, 0x56, 0x78}
	if n := bytes.Count(b, second); n != 1 {
		t.Fatalf("the backup holds the key 305419897 %d times, want 1", n)
	}
	if err := os.WriteFile(backup, bytes.Replace(b, second, first, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return database, backup
}
