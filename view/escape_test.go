package view

import (
	"slices"
	"strings"
	"testing"
)

// TestWrap: a finding's text wrapped as the text view prints it: words
// fill a line up to max columns with its indent, a word wider than a line
// stands alone, and a Korean syllable takes two columns.
func TestWrap(t *testing.T) {
	for _, c := range []struct {
		s, indent string
		max       int
		want      []string
	}{
		{"27865 more keys share one value (5.1% of the index)", "  ", 20,
			[]string{"  27865 more keys", "  share one value", "  (5.1% of the", "  index)"}},
		{"RDB$FOREIGN123456789012 is long", "    ", 10,
			[]string{"    RDB$FOREIGN123456789012", "    is", "    long"}},
		{"  spaces\tand\ttabs  ", "", 11, []string{"spaces and", "tabs"}},
		{"데이터베이스 크기 대 처리량", "> ", 16, []string{"> 데이터베이스", "> 크기 대 처리량"}},
		{"", "  ", 10, nil},
		{"one", "", 1, []string{"one"}},
	} {
		got := wrap(c.s, c.indent, c.max)
		if !slices.Equal(got, c.want) {
			t.Errorf("wrap(%q, %q, %d) = %q, want %q", c.s, c.indent, c.max, got, c.want)
		}
		for _, l := range got {
			if w := width(l); w > c.max && strings.Count(strings.TrimPrefix(l, c.indent), " ") > 0 {
				t.Errorf("wrap(%q): line %q of %d columns holds two words", c.s, l, w)
			}
		}
	}
}
