package parse

import "testing"

// TestParseGstatNameID: a block's id is read while its digits are scanned
// back from the ")": the same ids as atoi64 reads and the same refusals
// (past int64, more than 19 digits, no digits, a sign).
func TestParseGstatNameID(t *testing.T) {
	for _, c := range []struct {
		line string
		name string
		id   int64
		ok   bool
	}{
		{"CUSTOMER_00001 (1129)", "CUSTOMER_00001", 1129, true},
		{"RDB$PAGES (0)", "RDB$PAGES", 0, true},
		{"T (007)", "T", 7, true},
		{"A (B) (12)", "A (B)", 12, true},
		{"T (9223372036854775807)", "T", 9223372036854775807, true},
		{"T (0000000000000000001)", "T", 1, true},
		{"T (9223372036854775808)", "", 0, false},
		{"T (18446744073709551616)", "", 0, false},
		{"T (00000000000000000001)", "", 0, false},
		{"T (99999999999999999999)", "", 0, false},
		{"T ()", "", 0, false},
		{"T (-1)", "", 0, false},
		{"T(1)", "", 0, false},
	} {
		var s gstatSlab
		_, name, id, ok := parseGstatName(&s, []byte(c.line))
		if name != c.name || id != c.id || ok != c.ok {
			t.Errorf("%q: %q %d %v, want %q %d %v", c.line, name, id, ok, c.name, c.id, c.ok)
		}
	}
}

// TestNoLevelLabel: blockItem takes a label that starts with "Level " (a
// blob level's) for an unknown one without looking it up.
func TestNoLevelLabel(t *testing.T) {
	for _, s := range []*itemLabels{tableItems, indexItems} {
		for _, l := range s.labels {
			if hasPrefix([]byte(l), "Level ") {
				t.Errorf("label %q starts with \"Level \"", l)
			}
		}
	}
}
