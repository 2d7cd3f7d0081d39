package collect_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// count runs SELECT COUNT(*) FROM table in db.
func count(t *testing.T, ctx context.Context, s collect.Server, db, table string) int64 {
	t.Helper()
	c, err := collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatalf("attach to %s: %v", db, err)
	}
	defer c.Close()
	var n int64
	if err := c.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// header returns gstat -h of db, as the server prints it.
func header(t *testing.T, ctx context.Context, s collect.Server, db string) string {
	t.Helper()
	sw, _ := collect.ParseSwitches("-h")
	var b bytes.Buffer
	if _, err := s.Stats(ctx, db, sw, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// versions is gstat -r's total back versions of one table.
func versions(t *testing.T, ctx context.Context, s collect.Server, db, table string) int64 {
	t.Helper()
	sw, _ := collect.ParseSwitches("-r -t " + table)
	var b bytes.Buffer
	if _, err := s.Stats(ctx, db, sw, &b); err != nil {
		t.Fatal(err)
	}
	rep := readGstat(t, b.String(), table)
	for _, tb := range rep.Tables {
		if tb.Name == table && tb.TotalVersions != nil {
			return *tb.TotalVersions
		}
	}
	t.Fatalf("no versions of %s in:\n%s", table, b.String())
	return 0
}

// cancelAt returns a progress function that cancels when a line with the
// given message prefix arrives, and the context it cancels.
func cancelAt(t *testing.T, prefix string) (context.Context, func(collect.Progress)) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx, func(p collect.Progress) {
		if strings.HasPrefix(p.Step, prefix) {
			cancel()
		}
	}
}

func kindOf(err error) collect.Kind {
	var ce *collect.Error
	if errors.As(err, &ce) {
		return ce.Kind
	}
	return -1
}

// The big database (a backup takes more than a second) serves three
// tests: a backup and a restore interrupted (Ctrl-C), and the server
// killed in the middle of a backup and a restore.
func TestLiveBigDatabase(t *testing.T) {
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

// The gbak switches reach the server and do what gbak's do, as the
// restored database (and, for -g, the backed-up one) shows.
func TestLiveGbakOptions(t *testing.T) {
	s := livetest.Server(t)
	ctx := ctxT(t)
	shop := livetest.ShopDatabase(t, s)

	// -g: garbage stays. 50000 deleted ORDER_LINE rows are back versions
	// until someone reads them with garbage collection on.
	c, err := collect.OpenForTest(ctx, s, shop)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(ctx, "DELETE FROM ORDER_LINE"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if v := versions(t, ctx, s, shop, "ORDER_LINE"); v != 50000 {
		t.Fatalf("after the delete: %d versions, want 50000", v)
	}
	fbk := livetest.TempPath(t, s, "nogc.fbk")
	run, err := s.Backup(ctx, shop, fbk, collect.BackupOptions{NoGarbageCollect: true}, io.Discard, nil)
	if err != nil || run.Switches != "-b -v -st tdrw -g" {
		t.Fatalf("backup -g: %v, %+v", err, run)
	}
	if v := versions(t, ctx, s, shop, "ORDER_LINE"); v != 50000 {
		t.Errorf("after backup -g: %d versions, want the 50000 left alone", v)
	}
	if _, err := s.Backup(ctx, shop, fbk, collect.BackupOptions{Force: true}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	if v := versions(t, ctx, s, shop, "ORDER_LINE"); v != 0 {
		t.Errorf("after a backup with garbage collection: %d versions, want 0", v)
	}

	// -m, then -bu -i -o -use_all_space -mode read_only.
	meta := livetest.TempPath(t, s, "meta.fbk")
	if _, err := s.Backup(ctx, shop, meta, collect.BackupOptions{MetadataOnly: true, NonTransportable: true,
		IgnoreChecksums: true, IgnoreLimbo: true}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	db := livetest.TempPath(t, s, "meta.fdb")
	var log bytes.Buffer
	opt := collect.RestoreOptions{Buffers: 300, Inactive: true, OneAtATime: true, UseAllSpace: true, ReadOnly: true,
		FixFSSData: "WIN1252", FixFSSMetadata: "WIN1252"}
	if run, err = s.Restore(ctx, meta, db, opt, &log, nil); err != nil {
		t.Fatal(err)
	}
	if run.Switches != "-c -v -st tdrw -bu 300 -i -o -use_all_space -mode read_only -fix_fss_data WIN1252 -fix_fss_metadata WIN1252" {
		t.Errorf("switches %q", run.Switches)
	}
	h := header(t, ctx, s, db)
	if !strings.Contains(h, "\tPage buffers\t\t300\n") || !strings.Contains(h, "\tAttributes\t\tforce write, no reserve, read only\n") {
		t.Errorf("header of the restored database:\n%s", h)
	}
	m, err := s.Monitor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Indices) != len(shopIndices) || !m.Header.ReadOnly {
		t.Errorf("indices %d, read only %v", len(m.Indices), m.Header.ReadOnly)
	}
	for _, ix := range m.Indices {
		if !ix.Inactive {
			t.Errorf("%s is active after restore -i", ix.Index)
		}
	}
	for table := range shopRecords {
		if n := count(t, ctx, s, db, table); n != 0 {
			t.Errorf("%s: %d records after a metadata-only backup", table, n)
		}
	}
	// -o commits table by table, and says so; -nt is not XDR.
	l := log.String()
	if n := strings.Count(l, " committing metadata for table "); n != len(shopRecords) {
		t.Errorf("restore -o: %d tables committed one by one, want %d", n, len(shopRecords))
	}
	if strings.Contains(l, "transportable backup -- data in XDR format") {
		t.Error("backup -nt was transportable")
	}

	// -skip_data: the named tables come back empty, the others whole.
	// Its log cannot be written (a full disk): the backup goes on all
	// the same, gets its name, and the error says so.
	skip := livetest.TempPath(t, s, "skip.fbk")
	run, err = s.Backup(ctx, shop, skip, collect.BackupOptions{SkipData: "(STOCK|DOCS)"}, &fullDisk{room: 300}, nil)
	if want := "cannot write the log of the backup of " + shop + " on " + s.Addr + ": no space left on device; the backup itself is complete: " + skip; err == nil || err.Error() != want || !run.Completed || !exists(skip) {
		t.Fatalf("log on a full disk: %v (completed %v, backup there %v)\nwant %s", err, run.Completed, exists(skip), want)
	}
	db2 := livetest.TempPath(t, s, "skip.fdb")
	if _, err := s.Restore(ctx, skip, db2, collect.RestoreOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]int64{"STOCK": 0, "DOCS": 0, "CUSTOMER": 3000, "ORDERS": 9500} {
		if n := count(t, ctx, s, db2, table); n != want {
			t.Errorf("after -skip_data: %s has %d records, want %d", table, n, want)
		}
	}

	// restore --replace refuses a database in use, before restoring,
	// and leaves it as it was.
	_, tx := holdTransaction(t, ctx, s, db2)
	var rlog bytes.Buffer
	_, err = s.Restore(ctx, skip, db2, collect.RestoreOptions{Replace: true}, &rlog, nil)
	if kindOf(err) != collect.KindInUse || !strings.HasPrefix(err.Error(), "cannot restore to "+db2+" on "+s.Addr+": in use by 1 other attachment(s); not replaced") {
		t.Errorf("restore --replace of a database in use: %v", err)
	}
	if rlog.Len() != 0 || len(tempFiles(t, db2)) != 0 {
		t.Errorf("restore started: %d bytes of log, %v", rlog.Len(), tempFiles(t, db2))
	}
	tx.Rollback()

	// -par is Firebird 5.0's: refused before anything starts.
	_, err = s.Backup(ctx, shop, livetest.TempPath(t, s, "par.fbk"), collect.BackupOptions{Parallel: 2}, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "--parallel (gbak -par) needs Firebird 5.0 or later; the server is ") {
		t.Errorf("-par on Firebird 3: %v", err)
	}
}

// fullDisk is a log file on a disk with room bytes left.
type fullDisk struct{ room int }

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.room {
		n := d.room
		d.room = 0
		return n, errors.New("no space left on device")
	}
	d.room -= len(p)
	return len(p), nil
}
