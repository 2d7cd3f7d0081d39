package collect_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The live tests run side by side (t.Parallel), each on databases of its
// own; TestLiveBigDatabase, in a process of its own, waits for them
// before it kills the server.

// shopRecords are the rows testdata/live/shop.sql leaves in each table.
var shopRecords = map[string]int{
	"WAREHOUSE": 5, "CUSTOMER": 3000, "ORDERS": 9500, "ORDER_LINE": 50000, "STOCK": 5000, "DOCS": 200,
}

// shopIndices are the user indices of testdata/live/shop.sql.
var shopIndices = []string{
	"CUSTOMER_LAST", "OL_ITEM", "ORDERS_CARRIER", "ORDERS_DATE_D",
	"RDB$PRIMARY1", "RDB$PRIMARY2", "RDB$PRIMARY3", "RDB$PRIMARY4", "RDB$PRIMARY5", "RDB$PRIMARY6",
}

// localServer is the live server, or skips the test, saying why, when the
// server's files are not on this machine.
func localServer(t *testing.T, why string) collect.Server {
	t.Helper()
	s := livetest.Server(t)
	if !collect.LocalForTest(s, livetest.DataDir()) {
		t.Skip(why)
	}
	return s
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// The snapshot collected through the Services API is what the server's
// own fbstat -d -i -r prints for the same database, after fbdiag's
// preamble: the same tables, records and indices, line for line.
func TestLiveStatsMatchFbstat(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	sw, err := collect.ParseSwitches("-a -r")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	snap, err := s.Stats(ctxT(t), db, sw, &buf)
	if err != nil {
		t.Fatal(err)
	}
	// Debian's Firebird 3 requires wire encryption; its only cipher is Arc4.
	if !strings.Contains(snap.ServerVersion, "Firebird") || snap.Database != db || snap.Switches != "-d -i -r" ||
		snap.WireCipher == "" {
		t.Errorf("snapshot = %+v", snap)
	}
	got := buf.String()
	if !strings.HasPrefix(got, collect.PreamblePrefix+"server "+s.Addr+" (") {
		t.Errorf("snapshot does not start with the preamble:\n%.300s", got)
	}
	want := string(livetest.Fbstat(t, s, db, "-d", "-i", "-r"))
	body := func(s string) string {
		i := strings.Index(s, "Analyzing database pages")
		if i < 0 {
			t.Fatalf("no 'Analyzing database pages' in:\n%.500s", s)
		}
		var keep []string
		for _, l := range strings.Split(s[i:], "\n") {
			l = strings.TrimRight(l, " \r")
			if !strings.HasPrefix(l, "Gstat completion time") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if body(got) != body(want) {
		t.Errorf("collected statistics differ from fbstat -d -i -r:\n--- collect\n%s\n--- fbstat\n%s", body(got), body(want))
	}
	// Both, read by the gstat reader: the same tables, records and indices,
	// and the schema's known row counts. The reader skips the preamble with
	// one notice.
	mine, theirs := readGstat(t, got, "collect"), readGstat(t, want, "fbstat")
	if len(mine.Notices) != 1 || mine.Notices[0].Line != 1 || !strings.Contains(mine.Notices[0].Msg, "skipped 4 lines") {
		t.Errorf("notices on the snapshot: %v, want one for the 4 preamble lines", mine.Notices)
	}
	if len(theirs.Notices) != 0 {
		t.Errorf("notices on fbstat's output: %v", theirs.Notices)
	}
	if a, b := gstatSummary(mine), gstatSummary(theirs); a != b {
		t.Errorf("tables and indices differ:\n--- collect\n%s\n--- fbstat\n%s", a, b)
	}
	recs := map[string]int{}
	for _, tb := range mine.Tables {
		if tb.TotalRecords != nil {
			recs[tb.Name] = int(*tb.TotalRecords)
		}
	}
	if len(recs) != len(shopRecords) {
		t.Errorf("tables = %v, want %v", recs, shopRecords)
	}
	for name, n := range shopRecords {
		if recs[name] != n {
			t.Errorf("%s: %d records, want %d", name, recs[name], n)
		}
	}
	if len(mine.Indices) != len(shopIndices) {
		t.Errorf("indices = %d, want %d", len(mine.Indices), len(shopIndices))
	}
}

func readGstat(t *testing.T, text, name string) *parse.GstatReport {
	t.Helper()
	reps, err := parse.ReadGstat(strings.NewReader(text), name)
	if err != nil || len(reps) != 1 {
		t.Fatalf("%s: %d reports, %v", name, len(reps), err)
	}
	return reps[0]
}

// gstatSummary lists each table's records and versions and each index's
// nodes and total dup.
func gstatSummary(r *parse.GstatReport) string {
	var b strings.Builder
	for _, tb := range r.Tables {
		fmt.Fprintf(&b, "%s records=%s versions=%s\n", tb.Name, ptr(tb.TotalRecords), ptr(tb.TotalVersions))
		for _, ix := range tb.Indices {
			fmt.Fprintf(&b, "  %s nodes=%s dup=%s\n", ix.Name, ptr(ix.Nodes), ptr(ix.TotalDup))
		}
	}
	return b.String()
}

func ptr(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}

// holdTransaction opens another attachment to db and a transaction in it,
// both closed when the test ends.
func holdTransaction(t *testing.T, ctx context.Context, s collect.Server, db string) (*sql.DB, *sql.Tx) {
	t.Helper()
	hold, err := collect.OpenForTest(ctx, s, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hold.Close() })
	tx, err := hold.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback() })
	return hold, tx
}

// The monitoring tables name the transaction another attachment keeps
// open, with its start in the server's time, and RDB$STATISTICS is 0 for
// indices created on empty tables.
func TestLiveMonitor(t *testing.T) {
	// (Not side by side with the others: it sets time.Local.)
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := ctxT(t)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatalf("no zone data: %v", err)
	}
	saved := time.Local
	time.Local = ny
	t.Cleanup(func() { time.Local = saved })
	hold, tx := holdTransaction(t, ctx, s, db)
	var txID, attID int64
	var version, now string
	if err := tx.QueryRowContext(ctx, `SELECT CURRENT_TRANSACTION, CURRENT_CONNECTION,
  RDB$GET_CONTEXT('SYSTEM', 'ENGINE_VERSION'), CAST(CURRENT_TIMESTAMP AS VARCHAR(40)) FROM RDB$DATABASE`).Scan(
		&txID, &attID, &version, &now); err != nil {
		t.Fatal(err)
	}
	m, err := s.Monitor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	checkStartedIsServerTime(t, version, now, m.OldestTx)
	if m.Header.PageSize != 4096 || m.Header.ODSMajor != 12 || m.Header.Pages == 0 {
		t.Errorf("header = %+v, want page size 4096, ODS 12", m.Header)
	}
	if m.Attachments != 1 {
		t.Errorf("other attachments = %d, want 1", m.Attachments)
	}
	// The driver may keep its own transaction open in that attachment,
	// started before ours: the oldest is ours or older, and in it.
	if oa := m.OldestTx; oa == nil || oa.TransactionID > txID || oa.AttachmentID != attID ||
		oa.User != strings.ToUpper(s.User) || oa.AgeSeconds < 0 || oa.AgeSeconds > 60 ||
		oa.RemoteAddress == nil || !strings.Contains(*oa.RemoteAddress, "127.0.0.1") {
		t.Errorf("oldest active = %+v, want transaction ≤ %d of attachment %d, %s from 127.0.0.1", oa, txID, attID, s.User)
	}
	if m.Header.OldestActive > txID || m.Header.NextTransaction <= txID {
		t.Errorf("OAT %d / next %d do not bracket the held transaction %d", m.Header.OldestActive, m.Header.NextTransaction, txID)
	}
	var names []string
	for _, ix := range m.Indices {
		names = append(names, ix.Index)
		if ix.Stored == nil || *ix.Stored != 0 {
			t.Errorf("%s: stored selectivity %v, want 0 (created before the data)", ix.Index, ix.Stored)
		}
		// The primary keys are unnamed: Firebird names them INTEG_n and
		// their indices RDB$PRIMARYn; the four others enforce nothing.
		primary := strings.HasPrefix(ix.Index, "RDB$PRIMARY")
		if primary != (ix.ConstraintType != nil && *ix.ConstraintType == "PRIMARY KEY") ||
			primary != (ix.Constraint != nil && strings.HasPrefix(*ix.Constraint, "INTEG_")) {
			t.Errorf("%s: constraint %v of type %v", ix.Index, deref(ix.Constraint), deref(ix.ConstraintType))
		}
	}
	if strings.Join(sorted(names), " ") != strings.Join(shopIndices, " ") {
		t.Errorf("indices = %v, want %v", names, shopIndices)
	}
	if m.IO.PageFetches == 0 {
		t.Errorf("io = %+v, want page fetches", m.IO)
	}
	// SET STATISTICS stores 1 / distinct keys: OL_ITEM has 5000.
	tx.Rollback()
	if _, err := hold.ExecContext(ctx, "SET STATISTICS INDEX OL_ITEM"); err != nil {
		t.Fatal(err)
	}
	if m, err = s.Monitor(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, ix := range m.Indices {
		if ix.Index == "OL_ITEM" && (ix.Stored == nil || math.Abs(*ix.Stored-1.0/5000) > 1e-9) {
			t.Errorf("OL_ITEM stored selectivity after SET STATISTICS = %v, want 0.0002", ix.Stored)
		}
	}
}

// CreateEmpty creates a database with forced writes on (the server's
// default) and finds it the second time; SetForcedWrites switches the
// write mode both ways, as gfix -write async|sync, and SetPageBuffers
// writes the header's page buffers.
func TestLiveCreateEmptyWriteMode(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	ctx := ctxT(t)
	db := livetest.TempPath(t, s, "empty.fdb")
	header := func() collect.MonDatabase {
		t.Helper()
		m, err := s.Monitor(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		return m.Header
	}
	if created, err := s.CreateEmpty(ctx, db); err != nil || !created {
		t.Fatalf("created %v: %v", created, err)
	}
	if h := header(); !h.ForcedWrites || h.PageSize != 4096 {
		t.Errorf("new database: forced writes %v, page size %d; want on, 4096", h.ForcedWrites, h.PageSize)
	}
	if created, err := s.CreateEmpty(ctx, db); err != nil || created {
		t.Fatalf("second time: created %v: %v", created, err)
	}
	for _, on := range []bool{false, true} {
		if err := s.SetForcedWrites(ctx, db, on); err != nil {
			t.Fatal(err)
		}
		if h := header(); h.ForcedWrites != on {
			t.Errorf("forced writes %v after SetForcedWrites(%v)", h.ForcedWrites, on)
		}
	}
	if err := s.SetPageBuffers(ctx, db, 300); err != nil {
		t.Fatal(err)
	}
	if n, err := s.HeaderPageBuffers(ctx, db); err != nil || n != 300 {
		t.Errorf("header page buffers %d, %v; want 300", n, err)
	}
}

// A backup and a restore through the Services API stream complete gbak
// logs with -st tdrw columns; a second restore to the same name is refused
// without --replace and allowed with it.
func TestLiveBackupRestore(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := ctxT(t)
	fbk := livetest.TempPath(t, s, "shop.fbk")
	var blog bytes.Buffer
	run, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, &blog, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Completed || !strings.HasPrefix(blog.String(), "gbak: time     delta  reads  writes\n") {
		t.Errorf("backup run %+v, log starts %.80q", run, blog.String())
	}
	if !regexp.MustCompile(`(?m)^gbak:\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+ closing file, committing, and finishing\. \d+ bytes written$`).MatchString(blog.String()) {
		t.Errorf("backup log lacks its final line:\n%s", tail(blog.String()))
	}
	target := livetest.TempPath(t, s, "restored.fdb")
	var rlog bytes.Buffer
	var progress int
	run, err = s.Restore(ctx, fbk, target, collect.RestoreOptions{}, &rlog, func(collect.Progress) { progress++ })
	if err != nil {
		t.Fatal(err)
	}
	if !run.Completed || progress != run.Lines-1 {
		t.Errorf("restore run %+v, %d progress calls", run, progress)
	}
	for _, ix := range shopIndices {
		if !strings.Contains(rlog.String(), " restoring index "+ix+"\n") {
			t.Errorf("restore log lacks index %s", ix)
		}
	}
	if n := strings.Count(rlog.String(), "records restored"); n < len(shopRecords) {
		t.Errorf("%d 'records restored' lines, want at least %d", n, len(shopRecords))
	}
	var again bytes.Buffer
	_, err = s.Restore(ctx, fbk, target, collect.RestoreOptions{}, &again, nil)
	var ce *collect.Error
	if !errors.As(err, &ce) || ce.Kind != collect.KindExists || again.Len() != 0 {
		t.Errorf("restore over an existing database without Replace: err = %v, %d bytes logged", err, again.Len())
	}
	if _, err := s.Restore(ctx, fbk, target, collect.RestoreOptions{Replace: true}, &again, nil); err != nil {
		t.Errorf("restore with Replace: %v", err)
	}
}

// Each failure is one line that names the step and the cause, with its Kind.
func TestLiveFailures(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	ctx := ctxT(t)
	sw, _ := collect.ParseSwitches("-h")
	missing := livetest.DataDir() + "/fbdiag-no-such-database.fdb"
	bad := s
	bad.Password = s.Password + "-wrong"
	down := s
	down.Addr = testutil.ClosedAddr(t)
	clear := s
	clear.WireCrypt = collect.WireCryptDisabled
	// A file the server process may not open: in a private folder of the
	// test's user (root in CI), or itself unreadable.
	unreadable := filepath.Join(t.TempDir(), "secret.fdb")
	if err := os.WriteFile(unreadable, nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		srv  collect.Server
		db   string
		kind collect.Kind
		msg  string
	}{
		{"wire encryption disabled", clear, missing, collect.KindWireCrypt, "cannot connect to " + s.Addr +
			": wire encryption refused: --wire-crypt disabled and the server's WireCrypt setting do not match"},
		{"unreadable database", s, unreadable, collect.KindDenied, "cannot read statistics of " + unreadable + " on " + s.Addr + ": permission denied"},
		{"wrong password", bad, missing, collect.KindLogin, "cannot connect to " + s.Addr + ": wrong user name or password"},
		{"server down", down, missing, collect.KindUnreachable, "cannot connect to " + down.Addr + ": server not reachable"},
		{"unknown database", s, missing, collect.KindNoDatabase, "cannot read statistics of " + missing + " on " + s.Addr + ": database not found"},
	} {
		var buf bytes.Buffer
		_, err := c.srv.Stats(ctx, c.db, sw, &buf)
		var ce *collect.Error
		if !errors.As(err, &ce) || ce.Kind != c.kind {
			t.Errorf("%s: err = %v, want kind %d", c.name, err, c.kind)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, c.msg) || strings.Contains(msg, "\n") || strings.Contains(msg, s.Password) {
			t.Errorf("%s: error %q, want one line starting %q without the password", c.name, msg, c.msg)
		}
	}
	// A backup of it says the same.
	_, err := s.Backup(ctx, unreadable, livetest.TempPath(t, s, "secret.fbk"), collect.BackupOptions{}, io.Discard, nil)
	if want := "cannot back up " + unreadable + " on " + s.Addr + ": permission denied"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("backup of an unreadable database: %v, want %q…", err, want)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func tail(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > 5 {
		l = l[len(l)-5:]
	}
	return strings.Join(l, "\n")
}

// A connection that drops in the middle of the statistics stream is
// reported as lost, not as a short but complete snapshot.
func TestLiveConnectionLost(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := ctxT(t)
	sw, _ := collect.ParseSwitches("-a -r")
	// First measure what a whole run sends through the proxy.
	addr, sent := livetest.CuttingProxy(t, s.Addr, 0)
	via := s
	via.Addr = addr
	var full bytes.Buffer
	if _, err := via.Stats(ctx, db, sw, &full); err != nil {
		t.Fatal(err)
	}
	conns := sent()
	if len(conns) != 1 {
		t.Fatalf("%d connections through the proxy, want 1", len(conns))
	}
	whole := conns[0]
	// Then cut it at 80%: past the login, in the middle of the gstat text.
	addr, _ = livetest.CuttingProxy(t, s.Addr, whole*8/10)
	via.Addr = addr
	var part bytes.Buffer
	_, err := via.Stats(ctx, db, sw, &part)
	var ce *collect.Error
	if !errors.As(err, &ce) || ce.Kind != collect.KindLost {
		t.Fatalf("cut after %d of %d bytes: err = %v, want a lost connection", whole*8/10, whole, err)
	}
	if !strings.HasPrefix(err.Error(), "cannot read statistics of "+db+" on "+addr+": connection lost") {
		t.Errorf("error %q", err)
	}
	if part.Len() == 0 || part.Len() >= full.Len() {
		t.Errorf("wrote %d of %d bytes before the cut; want part of it", part.Len(), full.Len())
	}
}

// A restore whose connection drops fails with the step gbak had reached,
// since the partial log is not kept.
func TestLiveRestoreLost(t *testing.T) {
	t.Parallel()
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := ctxT(t)
	fbk := livetest.TempPath(t, s, "shop.fbk")
	if _, err := s.Backup(ctx, db, fbk, collect.BackupOptions{}, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	addr, sent := livetest.CuttingProxy(t, s.Addr, 0)
	via := s
	via.Addr = addr
	var full bytes.Buffer
	if _, err := via.Restore(ctx, fbk, livetest.TempPath(t, s, "whole.fdb"), collect.RestoreOptions{}, &full, nil); err != nil {
		t.Fatal(err)
	}
	// The service's is the last connection (a target on this machine is
	// looked at directly, a remote one attached to first).
	conns := sent()
	svc := len(conns) - 1
	addr, _ = livetest.CuttingProxyOn(t, s.Addr, svc, conns[svc]*6/10)
	via.Addr = addr
	var part bytes.Buffer
	cut := livetest.TempPath(t, s, "cut.fdb")
	run, err := via.Restore(ctx, fbk, cut, collect.RestoreOptions{}, &part, nil)
	var ce *collect.Error
	if !errors.As(err, &ce) || ce.Kind != collect.KindLost || run.Completed {
		t.Fatalf("err = %v, completed %v; want a lost connection", err, run.Completed)
	}
	if ce.After == "" || !strings.Contains(full.String(), " "+ce.After+"\n") ||
		!strings.Contains(err.Error(), "; gbak's last step: "+ce.After+"; ") {
		t.Errorf("error %q: last step %q is not a line of the whole log", err, ce.After)
	}
	// The server may go on restoring: into a file fbdiag deleted.
	if !strings.HasSuffix(err.Error(), "which fbdiag deleted, it leaves nothing when it ends; nothing under "+cut) {
		t.Errorf("error %q does not say what was left", err)
	}
	if left := tempFiles(t, cut); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	t.Logf("cut after %d bytes: %v", conns[svc]*6/10, err)
}

// tempFiles lists fbdiag's temporary files beside a server path (the
// server is on this machine in the tests).
func tempFiles(t *testing.T, p string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// The oldest active transaction's start is the server's wall clock. On
// Firebird 3 MON$TIMESTAMP has no zone, so none is invented: the client's
// zone (the test runs in New York's, whatever the server's is) must not
// appear. serverNow is CAST(CURRENT_TIMESTAMP AS VARCHAR) in the held
// transaction, just after it started.
func checkStartedIsServerTime(t *testing.T, version, serverNow string, oa *collect.OldestActive) {
	t.Helper()
	if !strings.HasPrefix(version, "3.") {
		t.Logf("Firebird %s gives MON$TIMESTAMP a zone; the check is for 3.0", version)
		return
	}
	b, err := json.Marshal(oa)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Started string }
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	started, err := time.Parse("2006-01-02T15:04:05.9999", got.Started)
	if err != nil {
		t.Fatalf("started %q: want the server's wall clock without a zone: %v", got.Started, err)
	}
	now, err := time.Parse("2006-01-02 15:04:05.9999", strings.TrimSpace(serverNow))
	if err != nil {
		t.Fatal(err)
	}
	if d := now.Sub(started); d < 0 || d > 5*time.Second {
		t.Errorf("started %s, server time in the transaction %s: want started just before", got.Started, serverNow)
	}
}
