package testutil

import (
	"strings"
	"testing"
)

// SecondSchema is testdata/gstat/shop-fb6-names.txt (Firebird 6 names)
// with its "PUBLIC"."ORDERS" block copied once as "SALES"."ORDERS" (140),
// indices and all: the same table name in two schemas, the case
// firebird#8773 made gstat print schemas for. Both copies fire the same
// warnings; only their schema tells them apart.
func SecondSchema(tb testing.TB) string {
	tb.Helper()
	s := string(ReadTestdata(tb, "gstat", "shop-fb6-names.txt"))
	const from, next = "\"PUBLIC\".\"ORDERS\" (130)\n", "\"PUBLIC\".\"ORDER_LINE\" (131)\n"
	i, j := strings.Index(s, from), strings.Index(s, next)
	if i < 0 || j < i {
		tb.Fatal("shop-fb6-names.txt: no ORDERS block before ORDER_LINE")
	}
	block := strings.ReplaceAll(s[i:j], "\"PUBLIC\".", "\"SALES\".")
	block = strings.Replace(block, "(130)", "(140)", 1)
	return s[:j] + block + s[j:]
}
