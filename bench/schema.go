package bench

import (
	"context"
	"database/sql"
	_ "embed"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The SQL fbdiag bench puts in a database: the tables (created once), the
// loader and the five transactions (CREATE OR ALTER, every time, so that a
// newer fbdiag brings its own procedures).
var (
	//go:embed sql/schema.sql
	schemaSQL string
	//go:embed sql/load.sql
	loadSQL string
	//go:embed sql/procs.sql
	procsSQL string
)

// NURand's constants C (TPC-C clause 2.1.6): CLastLoad for the last names
// the loader writes, CLastRun for those the terminals look up; their
// difference, 66, is in the range clause 2.1.6.1 allows (65..119, not 96
// nor 112). CID and CItem are the run's constants for customer and item
// numbers.
const (
	CLastLoad = 157
	CLastRun  = 223
	CID       = 259
	CItem     = 7911
)

// The spec's cardinalities (clause 1.2.1 and 4.3.3.1).
const (
	Items              = 100000
	DistrictsPerW      = 10
	CustomersPerD      = 3000
	OrdersPerD         = 3000
	NewOrdersPerD      = 900
	StockPerW          = Items
	itemParts          = 10 // ITEM is loaded in 10 calls of 10,000 rows
	firstUndelivered   = 2101
	maxLinesPerOrder   = 15
	minLinesPerOrder   = 5
	initialOrdersMinus = OrdersPerD - NewOrdersPerD // 2100, consistency condition 11
)

// loaderScript is load.sql with its string pools: 1024 letters and digits
// and 64 digits, drawn once from a fixed seed so that every database gets
// the same pools (the rows still differ: the server's RAND() picks the
// slices).
func loaderScript() string {
	r := rand.New(rand.NewPCG(17, 2006))
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	pool := func(n int, from string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = from[r.IntN(len(from))]
		}
		return string(b)
	}
	return strings.NewReplacer(
		"{{ALNUM}}", pool(1024, alnum),
		"{{DIGITS}}", pool(64, "0123456789"),
		"{{C_LAST_LOAD}}", strconv.Itoa(CLastLoad),
	).Replace(loadSQL)
}

// Tables are the nine TPC-C tables, in the order the results list them.
var Tables = []string{"WAREHOUSE", "DISTRICT", "CUSTOMER", "HISTORY", "NEW_ORDER", "ORDERS", "ORDER_LINE", "ITEM", "STOCK"}

// hasSchema reports whether the database holds fbdiag bench's tables.
func hasSchema(ctx context.Context, db *sql.DB) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM RDB$RELATIONS
WHERE RDB$RELATION_NAME IN ('WAREHOUSE', 'BENCH_PART')`).Scan(&n)
	return n == 2, err
}
