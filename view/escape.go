package view

import (
	"strings"
	"unicode"

	eaw "golang.org/x/text/width"

	"github.com/fbdiag/fbdiag/internal/printable"
)

// safe is text from an input made printable: control characters, bidi
// controls and invalid UTF-8 written as Go escapes (internal/printable).
// Every writer but OpenMetrics, which escapes on its own terms, passes
// each text through it once.
func safe(s string) string { return printable.String(s) }

// width is the number of terminal columns s takes: East Asian wide and
// fullwidth characters take two.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 {
			switch eaw.LookupRune(r).Kind() {
			case eaw.EastAsianWide, eaw.EastAsianFullwidth:
				n++
			}
		}
	}
	return n
}

// clip shortens s to n columns, ending it with "…".
func clip(s string, n int) string {
	if n <= 0 || width(s) <= n {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := width(string(r))
		if w+rw > n-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return b.String() + "…"
}

// clipLeft keeps the end of s (a path's file name) in n columns.
func clipLeft(s string, n int) string {
	if n <= 0 || width(s) <= n {
		return s
	}
	r := []rune(s)
	w := 1
	i := len(r)
	for i > 0 && w+width(string(r[i-1])) <= n {
		i--
		w += width(string(r[i]))
	}
	return "…" + string(r[i:])
}

// wrap splits s into lines of at most max columns, each starting with
// indent; a word longer than a line is kept whole.
func wrap(s, indent string, max int) []string {
	return wrapWords(strings.Fields(s), indent, max)
}

// wrapAdvice is wrap for advice: a double-quoted name stays whole with
// its blanks as they are ("items  flag"), so that the statement a DBA
// copies from the terminal names the object the advice names, not one
// cut at a line end or with its blanks squeezed.
func wrapAdvice(s, indent string, max int) []string {
	return wrapWords(adviceFields(s), indent, max)
}

// adviceFields splits s at blanks (as strings.Fields) outside double
// quotes; a quote doubled inside a name ("my ""odd"" idx") leaves the
// name open, and a quote never closed keeps the rest as one word.
func adviceFields(s string) []string {
	var words []string
	start, quoted := -1, false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && unicode.IsSpace(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// wrapWords places words on lines of at most max columns, each starting
// with indent, one blank between two words of a line.
func wrapWords(words []string, indent string, max int) []string {
	// The line's width is kept as words are added, not measured again
	// each word (a fifth of the text of a file of 36,315 small runs).
	var lines []string
	var line strings.Builder
	indentWidth := width(indent)
	w := -1 // the line's width; -1 while it holds only the indent
	for _, word := range words {
		ww := width(word)
		if w >= 0 && w+1+ww > max {
			lines = append(lines, line.String())
			w = -1
		}
		if w < 0 {
			line.Reset()
			line.WriteString(indent)
			w = indentWidth
		} else {
			line.WriteByte(' ')
			w++
		}
		line.WriteString(word)
		w += ww
	}
	if w >= 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// findingMessage is a finding's message as markdown and HTML run it on:
// a sentence, closed by a full stop when advice follows ("… ("ID" = 9).
// Do: …", not "… ("ID" = 9) Do: …", as the report's summary).
func findingMessage(f *Finding) string {
	s := sentence(f.Message)
	if f.Advice != "" && s != "" && !strings.ContainsRune(".!?", rune(s[len(s)-1])) {
		s += "."
	}
	return s
}

// sentence ends s with a full stop unless it ends with punctuation, so
// that findings run on as sentences in markdown and HTML.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsRune(".!?:;)\"'", rune(s[len(s)-1])) {
		return s
	}
	return s + "."
}
