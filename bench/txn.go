package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	fb "github.com/nakagami/firebirdsql"

	"github.com/fbdiag/fbdiag/collect"
)

// The execution modes.
const (
	ModeSP     = "sp"     // one stored procedure call a transaction
	ModeClient = "client" // the transaction's statements sent one by one
)

// errRollback is the spec's New-Order that names an unused item: rolled
// back on purpose, not an error.
var errRollback = errors.New("unused item: rolled back")

// errRowMissed is a write that must change one row and changed none.
// Firebird 3.0.11 lets a READ COMMITTED UPDATE ... RETURNING racing a
// concurrent change of its row update nothing (a CI run: New-Order's
// DISTRICT update, then an order inserted with a null O_ID). The
// procedures raise BENCH_ROW_MISSED for it (sql/procs.sql); the client
// mode gets no row back. Either is a conflict: the transaction is rolled
// back and retried, as "cannot update erased record" is.
var errRowMissed = errors.New("a write that must change one row changed none (a race with a concurrent change)")

// missed is err, or errRowMissed when an UPDATE ... RETURNING gave no row.
func missed(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return errRowMissed
	}
	return err
}

// isConflict says whether err is a conflict a retry may clear: the
// server's (collect.IsConflict), a write that missed its row, or a
// request whose record went from under it.
func isConflict(err error) bool {
	return collect.IsConflict(err) || errors.Is(err, errRowMissed) || collect.IsException(err, "BENCH_ROW_MISSED") || noCurrentRecord(err)
}

// noCurrentRecord is Firebird's "no current record for fetch operation"
// (isc_no_cur_rec): a request stopped because the record it stood on was
// removed meanwhile, a race of the engine's (firebird#6969 and #6901,
// open). With garbage collected during the runs, a CI run of
// TestLiveBench/run met it once in BENCH_PAYMENT on 3.0.11; the
// transaction is retried as a conflict is.
func noCurrentRecord(err error) bool {
	var fe *fb.FbError
	if !errors.As(err, &fe) {
		return false
	}
	return slices.Contains(fe.GDSCodes, fb.ISCNoCurRec) || strings.Contains(fe.Message, "no current record for fetch operation")
}

// executor runs the five transactions' work inside a transaction the
// terminal began; the terminal commits or rolls back.
type executor interface {
	newOrder(ctx context.Context, tx *sql.Tx, in newOrderIn) error
	payment(ctx context.Context, tx *sql.Tx, in paymentIn) error
	orderStatus(ctx context.Context, tx *sql.Tx, c customerIn) error
	delivery(ctx context.Context, tx *sql.Tx, w, carrier int) error
	stockLevel(ctx context.Context, tx *sql.Tx, w, d, threshold int) error
	close()
}

// prepared holds statements prepared on the pool, shared by the
// terminals. A transaction uses one through tx.StmtContext, which prepares
// it on the transaction's connection the first time and reuses that
// preparation afterwards. (A statement prepared on a sql.Conn would not
// do: database/sql prepares such a statement again for every
// transaction, two more round trips a statement.)
type prepared struct {
	stmts []*sql.Stmt
}

func (p *prepared) prepare(ctx context.Context, db *sql.DB, q string) (*sql.Stmt, error) {
	s, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("preparing %.40q: %w", q, err)
	}
	p.stmts = append(p.stmts, s)
	return s, nil
}

func (p *prepared) close() {
	for _, s := range p.stmts {
		closeLost(s)
	}
}

// spExecutor calls the BENCH_* procedures: one statement a transaction.
type spExecutor struct {
	prepared
	no, pay, os, del, sl *sql.Stmt
}

func newSPExecutor(ctx context.Context, db *sql.DB) (*spExecutor, error) {
	e := &spExecutor{}
	var err error
	for _, p := range []struct {
		s **sql.Stmt
		q string
	}{
		{&e.no, "EXECUTE PROCEDURE BENCH_NEW_ORDER(?, ?, ?, ?, ?)"},
		{&e.pay, "EXECUTE PROCEDURE BENCH_PAYMENT(?, ?, ?, ?, ?, ?, ?)"},
		{&e.os, "SELECT O_ID, OL_I_ID, OL_SUPPLY_W_ID, OL_QUANTITY, OL_AMOUNT, OL_DELIVERY_D FROM BENCH_ORDER_STATUS(?, ?, ?, ?)"},
		{&e.del, "EXECUTE PROCEDURE BENCH_DELIVERY(?, ?)"},
		{&e.sl, "EXECUTE PROCEDURE BENCH_STOCK_LEVEL(?, ?, ?)"},
	} {
		if *p.s, err = e.prepare(ctx, db, p.q); err != nil {
			e.close()
			return nil, err
		}
	}
	return e, nil
}

func (e *spExecutor) newOrder(ctx context.Context, tx *sql.Tx, in newOrderIn) error {
	var oid int64
	var total sql.NullString
	err := tx.StmtContext(ctx, e.no).QueryRowContext(ctx, in.w, in.d, in.c, len(in.lines), in.linesText()).Scan(&oid, &total)
	if err != nil && (collect.IsException(err, "BENCH_ITEM_NOT_FOUND") || in.rollback && rolledBackInProcedure(err)) {
		return errRollback
	}
	return err
}

// rolledBackInProcedure says whether a New-Order that names the unused
// item on purpose failed inside its procedure for a reason other than a
// conflict: the exception it raises for that item. Firebird 3.0.11 once
// gave a status vector holding only "At procedure 'BENCH_NEW_ORDER' line:
// 45, col: 29" (the EXCEPTION statement), without the exception's name.
func rolledBackInProcedure(err error) bool {
	return !isConflict(err) && strings.Contains(err.Error(), "BENCH_NEW_ORDER")
}

// nullName is a customer's last name as the procedures take it: NULL when
// the customer is named by number.
func (c customerIn) nullName() any {
	if !c.byName {
		return nil
	}
	return c.last
}

func (c customerIn) nullID() any {
	if c.byName {
		return nil
	}
	return c.id
}

func (e *spExecutor) payment(ctx context.Context, tx *sql.Tx, in paymentIn) error {
	var cid int64
	var balance sql.NullString
	return tx.StmtContext(ctx, e.pay).QueryRowContext(ctx, in.w, in.d, in.c.w, in.c.d, in.c.nullID(), in.c.nullName(),
		in.amountText()).Scan(&cid, &balance)
}

func (e *spExecutor) orderStatus(ctx context.Context, tx *sql.Tx, c customerIn) error {
	rows, err := tx.StmtContext(ctx, e.os).QueryContext(ctx, c.w, c.d, c.nullID(), c.nullName())
	if err != nil {
		return err
	}
	return drain(rows, 6)
}

func (e *spExecutor) delivery(ctx context.Context, tx *sql.Tx, w, carrier int) error {
	var n int64
	return tx.StmtContext(ctx, e.del).QueryRowContext(ctx, w, carrier).Scan(&n)
}

func (e *spExecutor) stockLevel(ctx context.Context, tx *sql.Tx, w, d, threshold int) error {
	var n int64
	return tx.StmtContext(ctx, e.sl).QueryRowContext(ctx, w, d, threshold).Scan(&n)
}

// drain reads every row (of n columns) and closes rows.
func drain(rows *sql.Rows, n int) error {
	defer rows.Close()
	dest := make([]any, n)
	for i := range dest {
		dest[i] = new(sql.RawBytes)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
	}
	return rows.Err()
}

// clientExecutor sends the transactions' statements one by one, as an
// application without stored procedures would (10 to 40 round trips a
// transaction). The statements are the procedures', moved to the client.
type clientExecutor struct {
	prepared
	wTax, district, cust, order, insNO, item, stock, line   *sql.Stmt
	byName, payCust, payDist, payWh, history                *sql.Stmt
	balance, lastOrder, lines                               *sql.Stmt
	oldestNO, delNO, carrier, deliverLines, lineSum, credit *sql.Stmt
	nextOID, lowStock                                       *sql.Stmt
}

func newClientExecutor(ctx context.Context, db *sql.DB) (*clientExecutor, error) {
	e := &clientExecutor{}
	var err error
	for _, p := range []struct {
		s **sql.Stmt
		q string
	}{
		{&e.wTax, "SELECT W_TAX FROM WAREHOUSE WHERE W_ID = ?"},
		{&e.district, "UPDATE DISTRICT SET D_NEXT_O_ID = D_NEXT_O_ID + 1 WHERE D_W_ID = ? AND D_ID = ? RETURNING OLD.D_NEXT_O_ID, D_TAX"},
		{&e.cust, "SELECT C_DISCOUNT, C_LAST, C_CREDIT FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?"},
		{&e.order, "INSERT INTO ORDERS (O_ID, O_D_ID, O_W_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID, O_OL_CNT, O_ALL_LOCAL) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, NULL, ?, ?)"},
		{&e.insNO, "INSERT INTO NEW_ORDER (NO_O_ID, NO_D_ID, NO_W_ID) VALUES (?, ?, ?)"},
		{&e.item, "SELECT I_PRICE, I_NAME, I_DATA FROM ITEM WHERE I_ID = ?"},
		{&e.stock, `UPDATE STOCK SET S_QUANTITY = IIF(S_QUANTITY >= ? + 10, S_QUANTITY - ?, S_QUANTITY - ? + 91),
  S_YTD = S_YTD + ?, S_ORDER_CNT = S_ORDER_CNT + 1, S_REMOTE_CNT = S_REMOTE_CNT + ?
  WHERE S_I_ID = ? AND S_W_ID = ?
  RETURNING S_DATA, DECODE(CAST(? AS INTEGER), 1, S_DIST_01, 2, S_DIST_02, 3, S_DIST_03, 4, S_DIST_04, 5, S_DIST_05,
    6, S_DIST_06, 7, S_DIST_07, 8, S_DIST_08, 9, S_DIST_09, S_DIST_10)`},
		{&e.line, `INSERT INTO ORDER_LINE (OL_O_ID, OL_D_ID, OL_W_ID, OL_NUMBER, OL_I_ID, OL_SUPPLY_W_ID, OL_DELIVERY_D,
  OL_QUANTITY, OL_AMOUNT, OL_DIST_INFO) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`},
		{&e.byName, "SELECT C_ID FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_LAST = ? ORDER BY C_FIRST"},
		{&e.payCust, `UPDATE CUSTOMER SET C_BALANCE = C_BALANCE - ?, C_YTD_PAYMENT = C_YTD_PAYMENT + ?,
  C_PAYMENT_CNT = C_PAYMENT_CNT + 1,
  C_DATA = IIF(C_CREDIT = 'BC', LEFT(? || C_DATA, 500), C_DATA)
  WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ? RETURNING C_BALANCE`},
		{&e.payDist, "UPDATE DISTRICT SET D_YTD = D_YTD + ? WHERE D_W_ID = ? AND D_ID = ? RETURNING D_NAME"},
		{&e.payWh, "UPDATE WAREHOUSE SET W_YTD = W_YTD + ? WHERE W_ID = ? RETURNING W_NAME"},
		{&e.history, `INSERT INTO HISTORY (H_C_ID, H_C_D_ID, H_C_W_ID, H_D_ID, H_W_ID, H_DATE, H_AMOUNT, H_DATA)
  VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?)`},
		{&e.balance, "SELECT C_BALANCE FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?"},
		{&e.lastOrder, "SELECT FIRST 1 O_ID, O_CARRIER_ID FROM ORDERS WHERE O_W_ID = ? AND O_D_ID = ? AND O_C_ID = ? ORDER BY O_ID DESC"},
		{&e.lines, "SELECT OL_I_ID, OL_SUPPLY_W_ID, OL_QUANTITY, OL_AMOUNT, OL_DELIVERY_D FROM ORDER_LINE WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?"},
		{&e.oldestNO, "SELECT FIRST 1 NO_O_ID FROM NEW_ORDER WHERE NO_W_ID = ? AND NO_D_ID = ? ORDER BY NO_O_ID"},
		{&e.delNO, "DELETE FROM NEW_ORDER WHERE NO_W_ID = ? AND NO_D_ID = ? AND NO_O_ID = ?"},
		{&e.carrier, "UPDATE ORDERS SET O_CARRIER_ID = ? WHERE O_W_ID = ? AND O_D_ID = ? AND O_ID = ? RETURNING O_C_ID"},
		{&e.deliverLines, "UPDATE ORDER_LINE SET OL_DELIVERY_D = CURRENT_TIMESTAMP WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?"},
		{&e.lineSum, "SELECT SUM(OL_AMOUNT) FROM ORDER_LINE WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?"},
		{&e.credit, "UPDATE CUSTOMER SET C_BALANCE = C_BALANCE + ?, C_DELIVERY_CNT = C_DELIVERY_CNT + 1 WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?"},
		{&e.nextOID, "SELECT D_NEXT_O_ID FROM DISTRICT WHERE D_W_ID = ? AND D_ID = ?"},
		{&e.lowStock, `SELECT COUNT(DISTINCT S_I_ID) FROM ORDER_LINE JOIN STOCK ON S_W_ID = ? AND S_I_ID = OL_I_ID
  WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID < ? AND OL_O_ID >= ? AND S_QUANTITY < ?`},
	} {
		if *p.s, err = e.prepare(ctx, db, p.q); err != nil {
			e.close()
			return nil, err
		}
	}
	return e, nil
}

func (e *clientExecutor) newOrder(ctx context.Context, tx *sql.Tx, in newOrderIn) error {
	var wTax, dTax, discount sql.NullString
	var last, credit sql.NullString
	if err := tx.StmtContext(ctx, e.wTax).QueryRowContext(ctx, in.w).Scan(&wTax); err != nil {
		return err
	}
	var oid int64
	if err := tx.StmtContext(ctx, e.district).QueryRowContext(ctx, in.w, in.d).Scan(&oid, &dTax); err != nil {
		return missed(err)
	}
	if err := tx.StmtContext(ctx, e.cust).QueryRowContext(ctx, in.w, in.d, in.c).Scan(&discount, &last, &credit); err != nil {
		return err
	}
	allLocal := 1
	for _, l := range in.lines {
		if l.supply != in.w {
			allLocal = 0
		}
	}
	if _, err := tx.StmtContext(ctx, e.order).ExecContext(ctx, oid, in.d, in.w, in.c, len(in.lines), allLocal); err != nil {
		return err
	}
	if _, err := tx.StmtContext(ctx, e.insNO).ExecContext(ctx, oid, in.d, in.w); err != nil {
		return err
	}
	item, stock, line := tx.StmtContext(ctx, e.item), tx.StmtContext(ctx, e.stock), tx.StmtContext(ctx, e.line)
	for n, l := range in.lines {
		var price float64
		var name, data, sData, dist sql.NullString
		err := item.QueryRowContext(ctx, l.item).Scan(&price, &name, &data)
		if errors.Is(err, sql.ErrNoRows) {
			return errRollback
		}
		if err != nil {
			return err
		}
		remote := 0
		if l.supply != in.w {
			remote = 1
		}
		if err := stock.QueryRowContext(ctx, l.qty, l.qty, l.qty, l.qty, remote, l.item, l.supply, in.d).Scan(&sData, &dist); err != nil {
			return missed(err)
		}
		amount := fmt.Sprintf("%.2f", float64(l.qty)*price)
		if _, err := line.ExecContext(ctx, oid, in.d, in.w, n+1, l.item, l.supply, l.qty, amount, dist.String); err != nil {
			return err
		}
	}
	return nil
}

// customerID finds a customer named by last name: the one in the middle
// of those with the name, ordered by first name (clause 2.5.2.2).
func (e *clientExecutor) customerID(ctx context.Context, tx *sql.Tx, c customerIn) (int, error) {
	if !c.byName {
		return c.id, nil
	}
	rows, err := tx.StmtContext(ctx, e.byName).QueryContext(ctx, c.w, c.d, c.last)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("no customer named %s in warehouse %d district %d", c.last, c.w, c.d)
	}
	return ids[(len(ids)+1)/2-1], nil
}

func (e *clientExecutor) payment(ctx context.Context, tx *sql.Tx, in paymentIn) error {
	cid, err := e.customerID(ctx, tx, in.c)
	if err != nil {
		return err
	}
	amount := in.amountText()
	note := fmt.Sprintf("%d %d %d %d %d %s ", cid, in.c.d, in.c.w, in.d, in.w, amount)
	var balance, dName, wName sql.NullString
	if err := tx.StmtContext(ctx, e.payCust).QueryRowContext(ctx, amount, amount, note, in.c.w, in.c.d, cid).Scan(&balance); err != nil {
		return missed(err)
	}
	if err := tx.StmtContext(ctx, e.payDist).QueryRowContext(ctx, amount, in.w, in.d).Scan(&dName); err != nil {
		return missed(err)
	}
	if err := tx.StmtContext(ctx, e.payWh).QueryRowContext(ctx, amount, in.w).Scan(&wName); err != nil {
		return missed(err)
	}
	_, err = tx.StmtContext(ctx, e.history).ExecContext(ctx, cid, in.c.d, in.c.w, in.d, in.w, amount, wName.String+"    "+dName.String)
	return err
}

func (e *clientExecutor) orderStatus(ctx context.Context, tx *sql.Tx, c customerIn) error {
	cid, err := e.customerID(ctx, tx, c)
	if err != nil {
		return err
	}
	var balance sql.NullString
	if err := tx.StmtContext(ctx, e.balance).QueryRowContext(ctx, c.w, c.d, cid).Scan(&balance); err != nil {
		return err
	}
	var oid int64
	var carrier sql.NullInt64
	err = tx.StmtContext(ctx, e.lastOrder).QueryRowContext(ctx, c.w, c.d, cid).Scan(&oid, &carrier)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rows, err := tx.StmtContext(ctx, e.lines).QueryContext(ctx, c.w, c.d, oid)
	if err != nil {
		return err
	}
	return drain(rows, 5)
}

func (e *clientExecutor) delivery(ctx context.Context, tx *sql.Tx, w, carrier int) error {
	oldest, del, car := tx.StmtContext(ctx, e.oldestNO), tx.StmtContext(ctx, e.delNO), tx.StmtContext(ctx, e.carrier)
	for d := 1; d <= DistrictsPerW; d++ {
		var oid int64
		err := oldest.QueryRowContext(ctx, w, d).Scan(&oid)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		res, err := del.ExecContext(ctx, w, d, oid)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			// Another Delivery took it and committed since the SELECT: a
			// conflict, not a district to skip while it has new orders.
			return errRowMissed
		}
		var cid int64
		if err := car.QueryRowContext(ctx, carrier, w, d, oid).Scan(&cid); err != nil {
			return missed(err)
		}
		if _, err := tx.StmtContext(ctx, e.deliverLines).ExecContext(ctx, w, d, oid); err != nil {
			return err
		}
		var sum sql.NullString
		if err := tx.StmtContext(ctx, e.lineSum).QueryRowContext(ctx, w, d, oid).Scan(&sum); err != nil {
			return err
		}
		amount := sum.String
		if !sum.Valid {
			amount = "0"
		}
		if _, err := tx.StmtContext(ctx, e.credit).ExecContext(ctx, amount, w, d, cid); err != nil {
			return err
		}
	}
	return nil
}

func (e *clientExecutor) stockLevel(ctx context.Context, tx *sql.Tx, w, d, threshold int) error {
	var next int64
	if err := tx.StmtContext(ctx, e.nextOID).QueryRowContext(ctx, w, d).Scan(&next); err != nil {
		return err
	}
	var n int64
	return tx.StmtContext(ctx, e.lowStock).QueryRowContext(ctx, w, w, d, next, next-20, threshold).Scan(&n)
}
