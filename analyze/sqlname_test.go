package analyze

import "testing"

// The quoted forms were run on Firebird 3.0.11: CREATE TABLE "ORDER",
// CREATE INDEX "my ""odd"" idx", ALTER INDEX "my ""odd"" idx" INACTIVE
// and SET STATISTICS INDEX "my ""odd"" idx" succeed, CREATE TABLE ORDER
// fails with "Token unknown", and the unquoted NAME (not a keyword) works.
func TestQuoteIdent(t *testing.T) {
	for name, want := range map[string]string{
		"RDB$PRIMARY2":   "RDB$PRIMARY2",
		"CUSTOMER_LAST":  "CUSTOMER_LAST",
		"NAME":           "NAME",
		"ORDER":          `"ORDER"`,
		"USER":           `"USER"`,
		"Name":           `"Name"`,
		`my "odd" idx`:   `"my ""odd"" idx"`,
		"MY TABLE":       `"MY TABLE"`,
		"1ST":            `"1ST"`,
		"":               `""`,
		"IDX_Ä":          `"IDX_Ä"`,
		"PK_ORDER_LINES": "PK_ORDER_LINES",
	} {
		if got := QuoteIdent(name); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", name, got, want)
		}
	}
	if got := QuoteName("PUBLIC", "RDB$PRIMARY1"); got != "PUBLIC.RDB$PRIMARY1" {
		t.Errorf("QuoteName = %s", got)
	}
	if got := sqlString(`it's`); got != `'it''s'` {
		t.Errorf("sqlString = %s", got)
	}
}
