package collect_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

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

// The gbak switches reach the server and do what gbak's do, as the
// restored database (and, for -g, the backed-up one) shows.
func TestLiveGbakOptions(t *testing.T) {
	t.Parallel()
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
	if kindOf(err) != collect.KindInUse || !strings.HasPrefix(err.Error(), "cannot restore to "+db2+" on "+s.Addr+": in use by 1 other attachment; not replaced") {
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
