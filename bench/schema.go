package bench

import (
	"context"
	"database/sql"
	_ "embed"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
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

// loaderScript is load.sql with its string pools (1024 letters and
// digits and 64 digits, drawn once from a fixed seed so that every
// database gets the same pools; the rows still differ: the server's RAND()
// picks the slices) and its {{NAME args}} expressions written out.
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
	s := strings.NewReplacer(
		"{{ALNUM_POOL}}", pool(alnumPool, alnum),
		"{{DIGIT_POOL}}", pool(digitPool, "0123456789"),
		"{{C_LAST_LOAD}}", strconv.Itoa(CLastLoad),
	).Replace(loadSQL)
	return loaderExpr().ReplaceAllStringFunc(s, expandLoaderExpr)
}

// The pools' lengths, as load.sql declares POOL and DPOOL.
const (
	alnumPool = 1024
	digitPool = 64
)

var loaderExpr = lazyre.New(`\{\{[A-Z]+( [0-9]+| :?[A-Z]+)*\}\}`)

// expandLoaderExpr writes out one of load.sql's expressions (its header
// lists them); the slices of the pools start where the longest string
// asked fits.
func expandLoaderExpr(m string) string {
	f := strings.Fields(strings.Trim(m, "{}"))
	rnd := func(lo, hi string) string { // (an integer, as a function returning INTEGER made it)
		return "CAST(" + lo + " + FLOOR(RAND() * (" + hi + " - " + lo + " + 1)) AS INTEGER)"
	}
	slice := func(pool string, size int, hi, length string) string {
		return "SUBSTRING(:" + pool + " FROM 1 + CAST(FLOOR(RAND() * (" + strconv.Itoa(size) + " - " + hi + ")) AS INTEGER) FOR " + length + ")"
	}
	syllable := func(n string) string { // (lastName's syllables)
		d := "DECODE(" + n
		for i, s := range syllables[:len(syllables)-1] {
			d += ", " + strconv.Itoa(i) + ", '" + s + "'"
		}
		return d + ", '" + syllables[len(syllables)-1] + "')"
	}
	switch {
	case f[0] == "RND" && len(f) == 3:
		return rnd(f[1], f[2])
	case f[0] == "STR" && len(f) == 3 && f[1] == f[2]:
		return slice("POOL", alnumPool, f[2], f[1])
	case f[0] == "STR" && len(f) == 3:
		return slice("POOL", alnumPool, f[2], rnd(f[1], f[2]))
	case f[0] == "DIGITS" && len(f) == 2:
		return slice("DPOOL", digitPool, f[1], f[1])
	case f[0] == "ZIP" && len(f) == 1:
		return slice("DPOOL", digitPool, "4", "4") + " || '11111'"
	case f[0] == "NURAND" && len(f) == 5:
		a, x, y, c := f[1], f[2], f[3], f[4]
		return "(MOD(BIN_OR(" + rnd("0", a) + ", " + rnd(x, y) + ") + " + c + ", " + y + " - " + x + " + 1) + " + x + ")"
	case f[0] == "LAST" && len(f) == 2:
		n := f[1]
		return syllable(n+" / 100") + " || " + syllable("MOD("+n+" / 10, 10)") + " || " + syllable("MOD("+n+", 10)")
	case f[0] == "DATA" && len(f) == 1:
		return "XDATA = " + slice("POOL", alnumPool, "50", rnd("26", "50")) + `;
    IF (RAND() < 0.1) THEN
    BEGIN
      P = 1 + CAST(FLOOR(RAND() * (CHAR_LENGTH(XDATA) - 7)) AS INTEGER);
      XDATA = SUBSTRING(XDATA FROM 1 FOR P - 1) || 'ORIGINAL' || SUBSTRING(XDATA FROM P + 8);
    END`
	}
	panic("load.sql: no expression " + m) // (TestLoaderScript reads them all)
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
