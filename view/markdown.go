package view

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes a document as GitHub-flavoured markdown.
func writeMarkdown(b *bufio.Writer, d *Doc, opt Options) error {
	sep := false
	para := func() {
		if sep {
			fmt.Fprintln(b)
		}
		sep = true
	}
	if d.Title != "" {
		para()
		fmt.Fprintf(b, "## %s\n", md(d.Lead+d.Title))
	}
	if len(d.Headline) > 0 {
		para()
		for _, f := range d.Headline {
			fmt.Fprintf(b, "- **%s**: %s\n", md(f.Label), md(fieldText(f)))
		}
	}
	for _, t := range d.Tables {
		para()
		mdTable(b, t.forPeople(), opt)
	}
	if len(d.Findings) > 0 || d.FindingsTitle != "" {
		para()
		fmt.Fprintf(b, "### %s\n\n", md(findingsTitle(d)))
		if len(d.Findings) == 0 {
			fmt.Fprintln(b, "none")
		}
		shown, more := shownFindings(d, opt)
		for _, f := range shown {
			s := "**" + strings.ToUpper(f.Severity) + "** " + md(f.Rule) + " — " + md(f.Object)
			if fig := figureText(f); fig != "" {
				s += ": " + md(fig)
			}
			s += ". " + md(findingMessage(&f))
			if f.Advice != "" {
				s += " Do: " + md(f.Advice)
			}
			if f.Source != "" {
				s += " (source: " + md(f.Source) + ")"
			}
			fmt.Fprintf(b, "- %s\n", s)
		}
		if more != "" {
			fmt.Fprintf(b, "\n%s\n", mdLine(more))
		}
	}
	if len(d.Notes) > 0 {
		para()
		for _, n := range d.Notes {
			fmt.Fprintf(b, "%s\n\n", mdLine(n))
		}
	}
	return b.Flush()
}

// mdTable writes a pipe table: the title as a heading, numbers
// right-aligned, the note on the rows left out and the notes under it.
func mdTable(w io.Writer, t *Table, opt Options) {
	if t.Title != "" {
		fmt.Fprintf(w, "### %s\n\n", md(t.Title))
	}
	limit := shown(t, opt)
	count, printed := 0, 0
	if len(t.Columns) > 0 {
		var head, rule []string
		for _, c := range t.Columns {
			head = append(head, md(c.Title))
			if c.Kind.numeric() {
				rule = append(rule, "---:")
			} else {
				rule = append(rule, "---")
			}
		}
		fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	}
	for r := range t.All() {
		count++
		if limit > 0 && count > limit || len(t.Columns) == 0 {
			continue
		}
		cells := make([]string, len(t.Columns))
		for i := range t.Columns {
			if i < len(r) {
				cells[i] = md(r[i].Human())
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		printed++
	}
	notes := t.Notes
	if n := moreNote(t, opt, printed, count); n != "" {
		notes = append([]string{n}, notes...)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "\n%s\n", mdLine(n))
	}
}

// md makes s literal markdown text on one line: control characters
// escaped, then a backslash before every character that could start
// markup or end a table cell (\ | < > * _ ` [ ] ~ and & before a letter or
// #), never HTML entities. An underscore inside a word (ORDER_LINE) is
// left alone: it cannot start emphasis there.
func md(s string) string {
	s = safe(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '|', '<', '>', '*', '`', '[', ']', '~':
			b.WriteByte('\\')
		case '_':
			if i == 0 || i == len(s)-1 || !wordByte(s[i-1]) || !wordByte(s[i+1]) {
				b.WriteByte('\\')
			}
		case '&':
			if i+1 < len(s) && (s[i+1] == '#' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z') {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// mdLine is md for a paragraph: a first character that would make the
// line a heading, a list item or a quote is escaped too.
func mdLine(s string) string {
	s = md(s)
	if s != "" && strings.ContainsRune("#-+=", rune(s[0])) {
		return `\` + s
	}
	return s
}
