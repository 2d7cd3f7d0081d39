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

// isKeyword tells a keyword by its length and first letter before the
// map: every keyword is one, and so are the map's answers for its
// neighbours (a letter changed, one added or cut) and for every regular
// name of one and two letters; appendQuoteIdent quotes as QuoteIdent.
func TestIsKeyword(t *testing.T) {
	var names []string
	for w := range sqlKeywords {
		if !isRegularIdent(w) || !isKeyword(w) {
			t.Errorf("keyword %s: regular %v, keyword %v", w, isRegularIdent(w), isKeyword(w))
		}
		names = append(names, w[1:], w[:len(w)-1], w+"S", "X"+w, string(w[0]^1)+w[1:])
	}
	for a := 'A'; a <= 'Z'; a++ {
		names = append(names, string(a))
		for b := range 256 {
			names = append(names, string(a)+string(rune(b)))
		}
	}
	n := 0
	for _, name := range names {
		if isRegularIdent(name) {
			n++
			if isKeyword(name) != sqlKeywords[name] {
				t.Errorf("%q: isKeyword %v", name, isKeyword(name))
			}
		}
		if got, want := string(appendQuoteIdent([]byte("x"), name)), "x"+QuoteIdent(name); got != want {
			t.Errorf("appendQuoteIdent(%q) = %s, want %s", name, got, want)
		}
	}
	if n < 2000 {
		t.Fatal(n, "regular names")
	}
}
