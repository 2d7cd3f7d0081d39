package collect_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Its test, which kills the server, runs in a process of its own beside
// the package's other live tests (parallel tests, on databases of their
// own) and the other packages' (cmd/fbdiag's). It waits for every live
// test running on the server to end (livetest.HoldExclusive) and keeps
// the next ones out until the server is back. (It ran last in the
// package, after the others one by one: the package took 35 to 45 s of
// one of go test's two package slots, most of it waiting.)

// The big database (a backup takes more than a second) serves three
// tests: a backup and a restore interrupted (Ctrl-C), and the server
// killed in the middle of a backup and a restore.
func TestLiveBigDatabase(t *testing.T) {
	// In a process of its own: it waits for the package's other live
	// tests, which run side by side, as for any other process's.
	if !testutil.InProcessOfItsOwn(t) {
		return
	}
	s := livetest.Server(t)
	big := livetest.BigDatabase(t, s, livetest.BigRows)
	fbk := livetest.TempPath(t, s, "big.fbk")
	if _, err := s.Backup(ctxT(t), big, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	t.Run("backup interrupted", func(t *testing.T) { backupInterrupted(t, s, big) })
	t.Run("restore interrupted", func(t *testing.T) { restoreInterrupted(t, s, fbk) })
	t.Run("server killed", func(t *testing.T) { serverKilled(t, s, big, fbk) })
}

// Ctrl-C: a backup is cancelled on the server (its attachment deleted)
// and leaves nothing.
func backupInterrupted(t *testing.T, s collect.Server, big string) {
	target := livetest.TempPath(t, s, "cancelled.fbk")
	ctx, progress := cancelAt(t, "writing data for table BIG")
	start := time.Now()
	_, err := s.Backup(ctx, big, target, collect.BackupOptions{}, io.Discard, progress)
	t.Logf("cancelled after %v: %v", time.Since(start), err)
	if kindOf(err) != collect.KindInterrupted || !strings.Contains(err.Error(), ": interrupted; gbak's last step: ") ||
		!strings.Contains(err.Error(), "; the backup was cancelled on the server (its attachment ") ||
		!strings.HasSuffix(err.Error(), "deleted); nothing left; "+target+" untouched") {
		t.Fatalf("err = %v", err)
	}
	if exists(target) || len(tempFiles(t, target)) > 0 {
		t.Errorf("files left: %v %v", exists(target), tempFiles(t, target))
	}
	// The server stopped: no service attachment on the database (a whole
	// backup takes longer than this test waited).
	c, err := collect.OpenForTest(ctxT(t), s, big)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow(`SELECT COUNT(*) FROM MON$ATTACHMENTS WHERE MON$REMOTE_PROCESS IS NULL
  AND MON$SYSTEM_FLAG = 0 AND MON$ATTACHMENT_ID <> CURRENT_CONNECTION`).Scan(&n); err != nil || n != 0 {
		t.Errorf("service attachments after the cancel: %d, %v", n, err)
	}
}

// Ctrl-C: a restore, which Firebird cannot cancel, leaves nothing either
// (fbdiag deletes its temporary database).
func restoreInterrupted(t *testing.T, s collect.Server, fbk string) {
	target := livetest.TempPath(t, s, "cancelled.fdb")
	ctx, progress := cancelAt(t, "restoring data for table BIG")
	_, err := s.Restore(ctx, fbk, target, collect.RestoreOptions{}, io.Discard, progress)
	if kindOf(err) != collect.KindInterrupted || !strings.HasSuffix(err.Error(), ", which fbdiag deleted, it leaves nothing when it ends; nothing under "+target) {
		t.Fatalf("err = %v", err)
	}
	if exists(target) || len(tempFiles(t, target)) > 0 {
		t.Errorf("files left: %v %v", exists(target), tempFiles(t, target))
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// A crash of the server mid-way (SIGKILL; fbguard restarts it) loses
// nothing: a backup replacing an old one leaves the old one as it was, a
// backup to a new name leaves nothing under it, a restore replacing a
// database leaves the original intact and online, and none leaves a
// temporary file.
func serverKilled(t *testing.T, s collect.Server, big, bigFbk string) {
	ctx := ctxT(t)
	shop := livetest.ShopDatabase(t, s)
	old := livetest.TempPath(t, s, "old.fbk")
	if _, err := s.Backup(ctx, shop, old, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	oldBytes, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	fresh := livetest.TempPath(t, s, "fresh.fbk")
	pid := livetest.ServerPID(t)

	// From here until the server is back no other live test runs.
	exclusive := livetest.HoldExclusive(t)
	defer exclusive()
	// Each job's log stops being read at its first records line, until
	// the server is killed: gbak then waits for its output to be read,
	// so all three are held mid-way, with their files written in part.
	release := make(chan struct{})
	var releaseOnce sync.Once
	let := func() { releaseOnce.Do(func() { close(release) }) }
	var wg sync.WaitGroup
	// Should the test stop early, the jobs end before its files go.
	t.Cleanup(func() { let(); wg.Wait() })
	errs := make([]error, 3)
	paused := make(chan int, 3)
	for i, job := range []func(w io.Writer) error{
		func(w io.Writer) error {
			_, err := s.Restore(ctx, bigFbk, shop, collect.RestoreOptions{Replace: true}, w, nil)
			return err
		},
		func(w io.Writer) error {
			_, err := s.Backup(ctx, big, old, collect.BackupOptions{Force: true}, w, nil)
			return err
		},
		func(w io.Writer) error {
			_, err := s.Backup(ctx, big, fresh, collect.BackupOptions{}, w, nil)
			return err
		},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = job(&pausingLog{at: " records ", paused: func() { paused <- i }, release: release})
			paused <- -1 - i // ended
		}()
	}
	for range 3 {
		select {
		case i := <-paused:
			if i < 0 {
				t.Fatalf("job %d ended before its first records: %v", -1-i, errs[-1-i])
			}
		case <-time.After(time.Minute):
			t.Fatal("the jobs did not reach their data within a minute")
		}
	}
	var sizes []int64
	for _, p := range []string{shop, old, fresh} {
		tmp := tempFiles(t, p)
		if len(tmp) != 1 {
			t.Fatalf("no temporary file beside %s when the server is killed", p)
		}
		fi, err := os.Stat(tmp[0])
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fi.Size())
	}
	t.Logf("killing the server with the restore's database at %d bytes, the backups at %d and %d", sizes[0], sizes[1], sizes[2])
	away := livetest.KillServer(t, s, pid)
	exclusive()
	let()
	wg.Wait()
	t.Logf("server back after %v", away)
	// gbak's output reaches the log late (the service's and the socket's
	// buffers hold it), so on an idle machine a job can end on the server
	// before the kill: then it must have written its whole file, and the
	// rest is checked for the jobs the kill cut.
	ended := make([]bool, 3)
	for i, err := range errs {
		if err == nil {
			ended[i] = true
			t.Logf("job %d ended before the kill", i)
			continue
		}
		if kindOf(err) != collect.KindLost {
			t.Errorf("job %d: %v, want a lost connection", i, err)
		}
	}
	suffixes := []string{"it leaves nothing when it ends; " + shop + " untouched", "; nothing left; " + old + " untouched", "; nothing left; " + fresh + " untouched"}
	for i, err := range errs {
		if !ended[i] && (err == nil || !strings.HasSuffix(err.Error(), suffixes[i])) {
			t.Errorf("job %d's error does not say what was left: %v", i, err)
		}
	}
	b, err := os.ReadFile(old)
	switch {
	case err != nil:
		t.Errorf("the old backup: %v", err)
	case !ended[1] && !bytes.Equal(b, oldBytes):
		t.Errorf("the old backup changed: %d bytes (was %d)", len(b), len(oldBytes))
	case ended[1] && bytes.Equal(b, oldBytes):
		t.Errorf("the forced backup ended but %s is the old one", old)
	}
	if fi, err := os.Stat(fresh); !ended[2] && err == nil {
		t.Errorf("a file under %s", fresh)
	} else if ended[2] && (err != nil || fi.Size() < sizes[2]) {
		t.Errorf("the backup ended but %s is not whole: %v", fresh, err)
	}
	for _, p := range []string{shop, old, fresh} {
		if left := tempFiles(t, p); len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
	}
	// The original database, or the restored one if the restore ended:
	// online, with its data.
	if h := header(t, ctx, s, shop); strings.Contains(h, "shutdown") || strings.Contains(h, "maintenance") {
		t.Errorf("database not online:\n%s", h)
	}
	if !ended[0] {
		if n := count(t, ctx, s, shop, "ORDER_LINE"); n != 50000 {
			t.Errorf("original ORDER_LINE: %d records, want 50000", n)
		}
	}
	if ended[0] && ended[1] && ended[2] {
		t.Skip("every job ended before the kill (an idle machine): nothing was cut")
	}
}

// pausingLog is a log that stops taking lines, once one containing at
// has come, until release is closed.
type pausingLog struct {
	at      string
	paused  func()
	release chan struct{}
	held    bool
}

func (l *pausingLog) Write(p []byte) (int, error) {
	if !l.held && strings.Contains(string(p), l.at) {
		l.held = true
		l.paused()
		<-l.release
	}
	return len(p), nil
}
