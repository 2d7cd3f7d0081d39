package view

import (
	"regexp"
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

// TestWrapAdvice: the text view's "do:" lines keep a double-quoted name
// whole, its blanks as they are, wherever the line ends fall, so that the
// statement pasted from the terminal names the index the advice names;
// outside quotes the words wrap as wrap's do.
func TestWrapAdvice(t *testing.T) {
	quoted := regexp.MustCompile(`"(?:[^"]|"")*"`)
	for _, c := range []struct {
		s    string
		max  int
		want []string
	}{
		{`do: if no query plan uses it: DROP INDEX "items  flag"; or replace it`, 40,
			[]string{`  do: if no query plan uses it: DROP`, `  INDEX "items  flag"; or replace it`}},
		{`DROP INDEX "a b c d e f g h"; then`, 12,
			[]string{`  DROP INDEX`, `  "a b c d e f g h";`, `  then`}},
		// A doubled quote leaves the name open; a tab in a name reaches
		// the view as the Go escape safe writes.
		{`ALTER INDEX "my ""odd"" idx" ACTIVE;`, 14,
			[]string{`  ALTER INDEX`, `  "my ""odd"" idx"`, `  ACTIVE;`}},
		{`SET STATISTICS INDEX PUBLIC."a\tb";`, 10,
			[]string{`  SET`, `  STATISTICS`, `  INDEX`, `  PUBLIC."a\tb";`}},
		// A quote never closed keeps the rest whole rather than cut a name.
		{`DROP INDEX "open name ends here`, 12, []string{`  DROP INDEX`, `  "open name ends here`}},
		{"no quotes  at\tall", 9, []string{`  no`, `  quotes`, `  at all`}},
	} {
		got := wrapAdvice(c.s, "  ", c.max)
		if !slices.Equal(got, c.want) {
			t.Errorf("wrapAdvice(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
		for _, name := range quoted.FindAllString(c.s, -1) {
			if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, name) }) {
				t.Errorf("wrapAdvice(%q, %d): no line holds %s", c.s, c.max, name)
			}
		}
	}
	// What wrap printed before: the name cut at the line end.
	if got := wrap(`DROP INDEX "items  flag";`, "", 17); !slices.Equal(got, []string{`DROP INDEX "items`, `flag";`}) {
		t.Errorf("wrap = %q", got)
	}
}
