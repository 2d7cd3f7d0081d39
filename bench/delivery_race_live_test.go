package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// Two Deliveries that read the same oldest new order, the second
// deleting it after the first committed, found no row to delete: the
// second skipped the district and committed, counted as a whole Delivery
// (a run of 4 terminals on one warehouse: 97 Deliveries counted, 969
// orders delivered, not 970). Now such a miss is a conflict, retried: a
// Delivery that commits delivered one order in every district that had
// one. Deliveries race here on one warehouse whose ten districts hold
// more new orders than they can take.
func TestLiveDeliveryMissIsConflict(t *testing.T) {
	srv := livetest.Server(t)
	path := livetest.TempPath(t, srv, "delivery-race.fdb")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := srv.CreateEmpty(ctx, path); err != nil {
		t.Fatal(err)
	}
	const terminals = 4
	db, err := srv.Pool(ctx, path, terminals+1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Prepare(ctx, srv, db, path); err != nil {
		t.Fatal(err)
	}
	const perDistrict = 1000
	fill := fmt.Sprintf(`EXECUTE BLOCK AS
DECLARE D INTEGER = 1;
DECLARE O INTEGER;
BEGIN
  WHILE (D <= 10) DO
  BEGIN
    O = 1;
    WHILE (O <= %d) DO
    BEGIN
      INSERT INTO ORDERS (O_ID, O_D_ID, O_W_ID, O_C_ID, O_OL_CNT) VALUES (:O, :D, 1, 1, 0);
      INSERT INTO NEW_ORDER (NO_O_ID, NO_D_ID, NO_W_ID) VALUES (:O, :D, 1);
      O = O + 1;
    END
    D = D + 1;
  END
END`, perDistrict)
	if _, err := db.ExecContext(ctx, fill); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{ModeSP, ModeClient} {
		t.Run(mode, func(t *testing.T) {
			var ex executor
			if mode == ModeClient {
				ex, err = newClientExecutor(ctx, db)
			} else {
				ex, err = newSPExecutor(ctx, db)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ex.close()
			var tot totals
			var errs errorLog
			var stop atomic.Bool
			var wg sync.WaitGroup
			terms := make([]*terminal, terminals)
			for i := range terms {
				tm, err := newTerminal(ctx, db, ex, i, 1, RunOptions{Retries: DefaultRetries}, 1, &tot, &errs)
				if err != nil {
					t.Fatal(err)
				}
				defer tm.close()
				tm.rec.t0 = time.Now()
				terms[i] = tm
			}
			var before int
			if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM NEW_ORDER").Scan(&before); err != nil {
				t.Fatal(err)
			}
			for _, tm := range terms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// (25 each: some 40 conflicts with the procedures,
					// over 150 from the client; 60 took 12 s.)
					for i := 0; i < 25; i++ {
						if err := tm.operation(Delivery, &stop); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			var after int
			if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM NEW_ORDER").Scan(&after); err != nil {
				t.Fatal(err)
			}
			done := tot.committed[Delivery].Load()
			if e := errs.list(); len(e) > 0 {
				t.Errorf("errors: %v", e)
			}
			if got := before - after; int64(got) != 10*done {
				t.Errorf("%d Deliveries committed, %d orders delivered, want %d", done, got, 10*done)
			}
			t.Logf("%d Deliveries, %d conflicts", done, tot.conflicts.Load())
		})
	}
}
