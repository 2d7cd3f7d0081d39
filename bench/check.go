package bench

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Check is one consistency condition of TPC-C 5.11 clause 3.3.2, run on a
// range of warehouses: Violations counts the warehouses, districts,
// orders, lines or customers that break it.
type Check struct {
	ID         int    `json:"id"` // the clause's number, 3.3.2.ID
	Condition  string `json:"condition"`
	Scope      string `json:"scope"` // what Violations counts
	Violations int64  `json:"violations"`
	Passed     bool   `json:"passed"`
}

type condition struct {
	id        int
	text      string
	scope     string
	freshOnly bool // holds only before any transaction ran
	// sql counts the violations; a second column, when pair is set,
	// counts those of condition pair, whose sql is empty.
	sql  string
	pair int
}

// conditions are clause 3.3.2's twelve; every ? pair is the warehouse
// range.
var conditions = []condition{
	{1, "W_YTD = sum(D_YTD)", "warehouses", false,
		`SELECT COUNT(*) FROM WAREHOUSE W WHERE W.W_ID BETWEEN ? AND ?
  AND W.W_YTD <> (SELECT SUM(D.D_YTD) FROM DISTRICT D WHERE D.D_W_ID = W.W_ID)`, 0},
	{2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", "districts", false,
		`SELECT COUNT(*) FROM DISTRICT D WHERE D.D_W_ID BETWEEN ? AND ?
  AND (D.D_NEXT_O_ID - 1 <> (SELECT MAX(O.O_ID) FROM ORDERS O WHERE O.O_W_ID = D.D_W_ID AND O.O_D_ID = D.D_ID)
    OR D.D_NEXT_O_ID - 1 <> (SELECT MAX(N.NO_O_ID) FROM NEW_ORDER N WHERE N.NO_W_ID = D.D_W_ID AND N.NO_D_ID = D.D_ID))`, 0},
	{3, "max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW_ORDER", "districts", false,
		`SELECT COUNT(*) FROM (SELECT NO_W_ID, NO_D_ID, MAX(NO_O_ID) - MIN(NO_O_ID) + 1 AS SPAN, COUNT(*) AS N
  FROM NEW_ORDER WHERE NO_W_ID BETWEEN ? AND ? GROUP BY NO_W_ID, NO_D_ID) WHERE SPAN <> N`, 0},
	{4, "sum(O_OL_CNT) = rows in ORDER_LINE", "districts", false,
		`SELECT COUNT(*) FROM DISTRICT D WHERE D.D_W_ID BETWEEN ? AND ?
  AND (SELECT SUM(O.O_OL_CNT) FROM ORDERS O WHERE O.O_W_ID = D.D_W_ID AND O.O_D_ID = D.D_ID)
   <> (SELECT COUNT(*) FROM ORDER_LINE L WHERE L.OL_W_ID = D.D_W_ID AND L.OL_D_ID = D.D_ID)`, 0},
	{5, "O_CARRIER_ID is null exactly for orders in NEW_ORDER", "orders", false,
		`SELECT COUNT(*) FROM ORDERS O WHERE O.O_W_ID BETWEEN ? AND ?
  AND (O.O_CARRIER_ID IS NULL) <> EXISTS (SELECT 1 FROM NEW_ORDER N
    WHERE N.NO_W_ID = O.O_W_ID AND N.NO_D_ID = O.O_D_ID AND N.NO_O_ID = O.O_ID)`, 0},
	{6, "O_OL_CNT = the order's rows in ORDER_LINE", "orders", false,
		`SELECT COUNT(*) FROM ORDERS O WHERE O.O_W_ID BETWEEN ? AND ?
  AND O.O_OL_CNT <> (SELECT COUNT(*) FROM ORDER_LINE L WHERE L.OL_W_ID = O.O_W_ID AND L.OL_D_ID = O.O_D_ID AND L.OL_O_ID = O.O_ID)`, 0},
	// 7 and 10 join every order to its lines: "+ 0" keeps the orders'
	// key from their index, so that the orders are read in order and
	// their lines found by ORDER_LINE's key (30,000 lookups a warehouse),
	// not each of 300,000 lines' order by ORDERS' (0.48 and 0.67 s a
	// warehouse against 0.20 and 0.51 s on Firebird 3.0.11).
	{7, "OL_DELIVERY_D is null exactly when O_CARRIER_ID is", "order lines", false,
		`SELECT COUNT(*) FROM ORDERS O JOIN ORDER_LINE L ON L.OL_W_ID = O.O_W_ID + 0 AND L.OL_D_ID = O.O_D_ID + 0 AND L.OL_O_ID = O.O_ID + 0
  WHERE O.O_W_ID BETWEEN ? AND ? AND (L.OL_DELIVERY_D IS NULL) <> (O.O_CARRIER_ID IS NULL)`, 0},
	{8, "W_YTD = sum(H_AMOUNT)", "warehouses", false,
		`SELECT COUNT(*) FROM WAREHOUSE W LEFT JOIN (SELECT H_W_ID, SUM(H_AMOUNT) AS S FROM HISTORY
  WHERE H_W_ID BETWEEN ? AND ? GROUP BY H_W_ID) H ON H.H_W_ID = W.W_ID
  WHERE W.W_ID BETWEEN ? AND ? AND W.W_YTD IS DISTINCT FROM H.S`, 0},
	// 9 adds up each district's D_YTD less its payments in one grouped
	// pass: the history joined to each district was read once a district
	// (0.33 s a warehouse against 0.04 s). A district without payments
	// holds when its D_YTD is 0 (the sum of none); payments of no
	// district are no district's.
	{9, "D_YTD = sum(H_AMOUNT)", "districts", false,
		`SELECT COUNT(NULLIF(S, 0)) FROM (SELECT SUM(X) AS S FROM (
    SELECT D_W_ID AS W, D_ID AS D, D_YTD AS X, 1 AS IS_D FROM DISTRICT WHERE D_W_ID BETWEEN ? AND ?
    UNION ALL SELECT H_W_ID, H_D_ID, -H_AMOUNT, 0 FROM HISTORY WHERE H_W_ID BETWEEN ? AND ?)
  GROUP BY W, D HAVING MAX(IS_D) = 1)`, 0},
	// 10 and 12 add up, per customer, the balance, the payments and the
	// delivered lines in one grouped pass, the two conditions' sums side
	// by side: Firebird 3 evaluates a derived table joined per customer
	// once for every customer, and HISTORY has no index. (Their two
	// passes took 0.70 and 0.63 s a warehouse, the shared one 0.70 s.)
	{10, "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)", "customers", false,
		`SELECT COUNT(NULLIF(S10, 0)), COUNT(NULLIF(S12, 0)) FROM (SELECT SUM(X10) AS S10, SUM(X12) AS S12 FROM (
    SELECT C_W_ID AS W, C_D_ID AS D, C_ID AS C, C_BALANCE AS X10, C_BALANCE + C_YTD_PAYMENT AS X12
      FROM CUSTOMER WHERE C_W_ID BETWEEN ? AND ?
    UNION ALL SELECT H_C_W_ID, H_C_D_ID, H_C_ID, H_AMOUNT, 0 FROM HISTORY WHERE H_C_W_ID BETWEEN ? AND ?
    UNION ALL SELECT O.O_W_ID, O.O_D_ID, O.O_C_ID, -L.OL_AMOUNT, -L.OL_AMOUNT FROM ORDERS O
      JOIN ORDER_LINE L ON L.OL_W_ID = O.O_W_ID + 0 AND L.OL_D_ID = O.O_D_ID + 0 AND L.OL_O_ID = O.O_ID + 0
      WHERE O.O_W_ID BETWEEN ? AND ? AND L.OL_DELIVERY_D IS NOT NULL)
  GROUP BY W, D, C)`, 12},
	{11, "rows in ORDERS - rows in NEW_ORDER = 2100 (before any run)", "districts", true,
		`SELECT COUNT(*) FROM DISTRICT D WHERE D.D_W_ID BETWEEN ? AND ?
  AND (SELECT COUNT(*) FROM ORDERS O WHERE O.O_W_ID = D.D_W_ID AND O.O_D_ID = D.D_ID)
    - (SELECT COUNT(*) FROM NEW_ORDER N WHERE N.NO_W_ID = D.D_W_ID AND N.NO_D_ID = D.D_ID) <> 2100`, 0},
	{12, "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)", "customers", false, "", 0}, // (10's second column)
}

// Consistency runs the conditions on warehouses lo..hi in one read-only
// transaction (one snapshot); fresh adds condition 11, which holds only
// before any transaction ran.
func Consistency(ctx context.Context, db *sql.DB, lo, hi int, fresh bool) ([]Check, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: false})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	out := []Check{}
	paired := map[int]int64{} // the counts of the conditions counted by another's query
	for _, c := range conditions {
		if c.freshOnly && !fresh {
			continue
		}
		n, ok := paired[c.id]
		if c.sql != "" {
			args := make([]any, 0, 6)
			for range strings.Count(c.sql, "?") / 2 {
				args = append(args, lo, hi)
			}
			var m int64
			dest := []any{&n}
			if c.pair != 0 {
				dest = append(dest, &m)
			}
			if err := tx.QueryRowContext(ctx, c.sql, args...).Scan(dest...); err != nil {
				return nil, err
			}
			if c.pair != 0 {
				paired[c.pair] = m
			}
		} else if !ok {
			return nil, fmt.Errorf("condition %d: no query counted it", c.id)
		}
		out = append(out, Check{ID: c.id, Condition: c.text, Scope: c.scope, Violations: n, Passed: n == 0})
	}
	return out, nil
}
