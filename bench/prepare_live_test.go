package bench

import (
	"context"
	"strings"
	"testing"
	"time"

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
