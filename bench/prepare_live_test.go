package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// A database an earlier fbdiag prepared holds the loader's helper
// functions, called by its procedures (BENCH_LOAD_ITEMS by BENCH_DATA,
// which calls BENCH_STR): Prepare writes the procedures over and drops
// the helpers, and the loader still loads.
func TestLivePrepareDropsOldHelpers(t *testing.T) {
	srv := livetest.Server(t)
	path := livetest.TempPath(t, srv, "helpers.fdb")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.CreateEmpty(ctx, path); err != nil {
		t.Fatal(err)
	}
	db, err := srv.Pool(ctx, path, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Prepare(ctx, srv, db, path); err != nil {
		t.Fatal(err)
	}
	old := `SET TERM ^ ;
CREATE OR ALTER FUNCTION BENCH_RND (LO INTEGER, HI INTEGER) RETURNS INTEGER AS
BEGIN
  RETURN LO + FLOOR(RAND() * (HI - LO + 1));
END^
CREATE OR ALTER FUNCTION BENCH_STR (LO INTEGER, HI INTEGER) RETURNS VARCHAR(500) CHARACTER SET ASCII AS
BEGIN
  RETURN LPAD('', BENCH_RND(LO, HI), 'x');
END^
CREATE OR ALTER FUNCTION BENCH_DATA RETURNS VARCHAR(50) CHARACTER SET ASCII AS
BEGIN
  RETURN BENCH_STR(26, 50);
END^
CREATE OR ALTER PROCEDURE BENCH_LOAD_ITEMS (PART INTEGER) RETURNS (ROWS_LOADED INTEGER) AS
BEGIN
  INSERT INTO ITEM (I_ID, I_IM_ID, I_NAME, I_PRICE, I_DATA)
  VALUES (:PART, BENCH_RND(1, 10000), BENCH_STR(14, 24), 1, BENCH_DATA());
  ROWS_LOADED = 1;
END^
SET TERM ; ^
`
	if err := srv.RunScript(ctx, db, path, strings.NewReader(old)); err != nil {
		t.Fatal(err)
	}
	helpers := func() int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME STARTING WITH 'BENCH_'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := helpers(); n != 3 {
		t.Fatalf("%d helper functions before, want 3", n)
	}
	if err := Prepare(ctx, srv, db, path); err != nil {
		t.Fatal(err)
	}
	if n := helpers(); n != 0 {
		t.Errorf("%d helper functions left", n)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if rows, err := loadPart(ctx, conn, part{0, 1}); err != nil || rows != 10000 {
		t.Errorf("the items of part 1: %d, %v", rows, err)
	}
}

// An init interrupted (Ctrl-C) after some parts logs them in BENCH_LOADS
// with the time they took, so that the load history counts it: the next
// init's step said the whole size had loaded in its own time. Here the
// items: 10,000 rows a part, 10 parts before any district.
func TestLiveInitInterruptedLogged(t *testing.T) {
	srv := livetest.Server(t)
	path := livetest.TempPath(t, srv, "interrupted.fdb")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	_, initErr := Init(ctx, srv, path, InitOptions{Warehouses: 1, Jobs: 1, Tick: 20 * time.Millisecond,
		Progress: func(p LoadProgress) {
			if p.PartsDone >= 1 {
				cancel()
			}
		}})
	took := time.Since(started).Seconds()
	if initErr == nil || !strings.Contains(initErr.Error(), ": interrupted (") {
		t.Fatalf("error %v", initErr)
	}
	hist, parts := loadState(t, srv, path)
	if len(hist) != 1 {
		t.Fatalf("load history %+v, want the interrupted step", hist)
	}
	h := hist[0]
	if h.Parts != len(parts) || h.Parts < 1 || h.Parts > 10 || h.Rows != int64(h.Parts)*10000 || h.Warehouses != 1 || h.Jobs != 1 ||
		h.Seconds <= 0 || h.Seconds > took || h.BytesTo < h.BytesFrom {
		t.Errorf("step %+v for %d parts committed in %.1f s", h, len(parts), took)
	}
	if want := fmt.Sprintf(": interrupted (%d of 20 parts committed, %d rows, kept and logged: bench init again loads the rest)", h.Parts, h.Rows); !strings.HasSuffix(initErr.Error(), want) {
		t.Errorf("error %q, want it to end %q", initErr, want)
	}
}

// A Ctrl-C that comes once a part's rows are in, while it commits, lets
// the commit end before the load reads which parts it kept: the driver
// gave up on a commit whose context ended before the server's answer,
// the server committed all the same, and the load logged 1 part of the 2
// it had committed. Here the load is cancelled between the first part's
// call and its commit: that part is kept, logged and counted.
func TestLiveInitCancelledWhileCommitting(t *testing.T) {
	srv := livetest.Server(t)
	path := livetest.TempPath(t, srv, "cancelled-commit.fdb")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	partCalled = cancel
	defer func() { partCalled = func() {} }()
	_, initErr := Init(ctx, srv, path, InitOptions{Warehouses: 1, Jobs: 1})
	const want = ": interrupted (1 of 20 parts committed, 10000 rows, kept and logged: bench init again loads the rest)"
	if initErr == nil || !strings.HasSuffix(initErr.Error(), want) {
		t.Fatalf("error %v, want it to end %q", initErr, want)
	}
	hist, parts := loadState(t, srv, path)
	if len(hist) != 1 || hist[0].Parts != 1 || hist[0].Rows != 10000 || len(parts) != 1 || parts[part{0, 1}] != 10000 {
		t.Errorf("load history %+v, parts %v; want the items' part 1 of 10,000 rows, committed and logged", hist, parts)
	}
}

// loadState reads what a load left in the database at path: its load
// history (BENCH_LOADS) and the rows of each part marked loaded.
func loadState(t *testing.T, srv collect.Server, path string) ([]LoadStep, map[part]int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := srv.Pool(ctx, path, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hist, err := loadHistory(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := loadedPartRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return hist, parts
}
