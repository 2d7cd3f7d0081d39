package collect_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// Restore --replace swapped the files in two renames: original aside,
// then the new one into place. fbdiag killed between them (SIGKILL, the
// OOM killer; reproduced with strace -e inject=renameat2:signal=SIGKILL)
// left no file under DATABASE: every application got "No such file or
// directory" until someone found .NAME.old-* and gfix -online'd it. The
// name now holds a database at every step of the swap: the original,
// then, in one renameat2(RENAME_EXCHANGE), the restored one.
func TestLiveReplaceNeverLeavesTheNameEmpty(t *testing.T) {
	s := localServer(t, "the swap needs the database's folder on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "swap.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	// The original loses its warehouses; the backup has the 5.
	conn, err := collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "DELETE FROM WAREHOUSE"); err != nil {
		t.Fatal(err)
	}
	conn.Close()

	var steps []string
	defer collect.OnSwapStepForTest(func(step string) {
		steps = append(steps, step)
		if !collect.IsDatabaseFile(db) {
			t.Errorf("after the swap's step %q, %s is no database file", step, db)
		}
	})()
	if _, err := s.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "shut down, exchanged, original deleted"; strings.Join(steps, ", ") != want {
		t.Errorf("swap steps %q, want %s", steps, want)
	}
	conn, err = collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM WAREHOUSE").Scan(&n); err != nil || n != 5 {
		t.Errorf("the replaced database has %d warehouses (%v), want the backup's 5", n, err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".*"))
	if len(left) != 0 {
		t.Errorf("left beside it: %q", left)
	}
}

// restore --replace left the database with the server's mode, whatever
// the original's: a database kept 0600 from the other users of the
// server's group became 0660. The replacement now takes the original's
// mode and owner.
func TestLiveReplaceKeepsTheMode(t *testing.T) {
	s := localServer(t, "the swap needs the database's folder on this machine")
	ctx := ctxT(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "mode.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(db, 0o600); err != nil {
		t.Skipf("cannot set the database's mode here: %v", err)
	}
	if _, err := s.Restore(ctx, fbk, db, collect.RestoreOptions{Replace: true}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(db); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("after restore --replace: %v (%v), want -rw-------", st.Mode().Perm(), err)
	}
}
