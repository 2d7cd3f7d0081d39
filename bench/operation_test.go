package bench

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	fb "github.com/nakagami/firebirdsql"
)

// scriptDriver is a database/sql driver whose transactions commit with
// the errors of a script, one a commit, and nil once it runs out.
type scriptDriver struct {
	commits       []error
	calls         int
	opens, closes int
}

func (d *scriptDriver) Open(string) (driver.Conn, error) { d.opens++; return scriptConn{d}, nil }

type scriptConn struct{ d *scriptDriver }

func (scriptConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("no statements") }
func (c scriptConn) Close() error                      { c.d.closes++; return nil }
func (c scriptConn) Begin() (driver.Tx, error)         { return scriptTx(c), nil }

// BeginTx takes the terminals' READ COMMITTED NO WAIT, which Begin refuses.
func (c scriptConn) BeginTx(context.Context, driver.TxOptions) (driver.Tx, error) {
	return scriptTx(c), nil
}

type scriptTx struct{ d *scriptDriver }

func (t scriptTx) Commit() error {
	t.d.calls++
	if t.d.calls <= len(t.d.commits) {
		return t.d.commits[t.d.calls-1]
	}
	return nil
}
func (scriptTx) Rollback() error { return nil }

// scriptTerminal is a terminal on a connection of d, with 10 retries.
func scriptTerminal(t *testing.T, d *scriptDriver) *terminal {
	t.Helper()
	db := sql.OpenDB(scriptConnector{d})
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &terminal{db: db, conn: conn, ctx: context.Background(), retries: 10, jitter: rand.New(rand.NewPCG(1, 2)),
		rec: &recorder{t0: time.Now(), totals: &totals{}}, errs: &errorLog{}}
}

type scriptConnector struct{ d *scriptDriver }

func (c scriptConnector) Connect(context.Context) (driver.Conn, error) { return c.d.Open("") }
func (c scriptConnector) Driver() driver.Driver                        { return c.d }

// A conflict met by the work is retried; a commit that fails, even with a
// conflict's code, is counted an error once and never retried (the
// server may have committed it, and a retry would commit the operation
// twice), and its connection is replaced.
func TestCommitNotRetried(t *testing.T) {
	conflict := &fb.FbError{GDSCodes: []int{fb.ISCLockConflict}, Message: "lock conflict on no wait transaction"}

	d := &scriptDriver{commits: []error{conflict}}
	tm := scriptTerminal(t, d)
	works := 0
	if err := tm.runOperation(NewOrder, func(context.Context, *sql.Tx) error { works++; return nil }, false, &atomic.Bool{}); err != nil {
		t.Fatal(err)
	}
	if works != 1 || d.calls != 1 {
		t.Errorf("a commit refused with a conflict: the work ran %d times, commit called %d times; want 1 and 1", works, d.calls)
	}
	s := tm.rec.seconds[0][NewOrder]
	if s.committed != 0 || s.errors != 1 || s.conflicts != 0 {
		t.Errorf("committed %d, errors %d, conflicts %d; want 0, 1, 0", s.committed, s.errors, s.conflicts)
	}
	if l := tm.errs.list(); len(l) != 1 || l[0].Message != "commit: lock conflict on no wait transaction" {
		t.Errorf("errors %+v", l)
	}
	// The connection, whose transaction Firebird keeps active after a
	// failed commit, is closed, and the terminal goes on with a new one.
	if d.opens != 2 || d.closes != 1 {
		t.Errorf("connections opened %d, closed %d; want 2 and 1", d.opens, d.closes)
	}
	if err := tm.runOperation(NewOrder, func(context.Context, *sql.Tx) error { return nil }, false, &atomic.Bool{}); err != nil {
		t.Fatal(err)
	}
	if s := tm.rec.seconds[0][NewOrder]; s.committed != 1 || d.calls != 2 {
		t.Errorf("after the new connection: committed %d, commits %d; want 1 and 2", s.committed, d.calls)
	}

	// The work's conflict: rolled back, retried, committed on the second
	// attempt.
	d2 := &scriptDriver{}
	tm2 := scriptTerminal(t, d2)
	works = 0
	if err := tm2.runOperation(NewOrder, func(context.Context, *sql.Tx) error {
		works++
		if works == 1 {
			return conflict
		}
		return nil
	}, false, &atomic.Bool{}); err != nil {
		t.Fatal(err)
	}
	s = tm2.rec.seconds[0][NewOrder]
	if works != 2 || d2.calls != 1 || s.committed != 1 || s.conflicts != 1 || s.errors != 0 {
		t.Errorf("the work's conflict: %d runs, %d commits; committed %d, conflicts %d, errors %d; want 2, 1, 1, 1, 0",
			works, d2.calls, s.committed, s.conflicts, s.errors)
	}
}

// A New-Order that names the unused item (the spec's 1 %) is rolled back
// by design: counted rolled back, neither a conflict nor an error, also
// after a conflict retried first; and the progress line's tpmC counts it
// with the committed ones, as the summary's tpmC does (it counted the
// committed only).
func TestRollbackByDesignCounted(t *testing.T) {
	conflict := &fb.FbError{GDSCodes: []int{fb.ISCLockConflict}, Message: "lock conflict on no wait transaction"}
	tm := scriptTerminal(t, &scriptDriver{})
	works := 0
	rollback := func(context.Context, *sql.Tx) error {
		works++
		if works == 1 {
			return conflict
		}
		return errRollback
	}
	if err := tm.runOperation(NewOrder, rollback, false, &atomic.Bool{}); err != nil {
		t.Fatal(err)
	}
	if err := tm.runOperation(NewOrder, func(context.Context, *sql.Tx) error { return nil }, false, &atomic.Bool{}); err != nil {
		t.Fatal(err)
	}
	s := tm.rec.seconds[0][NewOrder]
	if s.committed != 1 || s.rolledBack != 1 || s.conflicts != 1 || s.errors != 0 || s.gaveUp != 0 || works != 2 {
		t.Errorf("committed %d, rolled back %d, conflicts %d, errors %d, gave up %d, runs %d; want 1, 1, 1, 0, 0, 2",
			s.committed, s.rolledBack, s.conflicts, s.errors, s.gaveUp, works)
	}
	if n := tm.rec.totals.newOrdersDone(); n != 2 || tm.rec.totals.errors.Load() != 0 {
		t.Errorf("progress: %d New-Orders done, %d errors; want 2 and 0", n, tm.rec.totals.errors.Load())
	}
}
