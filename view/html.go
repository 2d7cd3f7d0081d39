package view

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"
)

// writeHTML writes a document as an HTML fragment for the report's page:
// the headline as boxes, the findings as a list, each table in a
// scrolling box. It uses the report's CSS classes (headlines, findings,
// num, muted, scroll) and writes no script and no style.
func writeHTML(b *bufio.Writer, d *Doc, opt Options) error {
	fmt.Fprintln(b, `<div class="view">`)
	if len(d.Headline) > 0 {
		fmt.Fprintln(b, `<div class="headlines">`)
		for _, f := range d.Headline {
			fmt.Fprintf(b, `<div class="headline" data-key="%s"><span class="v">%s</span><span class="l">%s</span></div>`+"\n",
				esc(f.Key), esc(fieldText(f)), esc(f.Label))
		}
		fmt.Fprintln(b, `</div>`)
	}
	if len(d.Findings) > 0 {
		fmt.Fprintf(b, "<h3>%s</h3>\n<ul class=\"findings\">\n", esc(findingsTitle(d)))
		shown, more := shownFindings(d, opt)
		for _, f := range shown {
			sev := esc(f.Severity)
			s := fmt.Sprintf(`<li class="%s"><span class="sev">%s</span>%s <bdi>%s</bdi>`, sev, sev, esc(f.Rule), escClipped(f.Object))
			if fig := figureText(f); fig != "" {
				s += ": " + esc(fig)
			}
			s += ". " + escClipped(findingMessage(&f))
			if f.Advice != "" {
				s += " Do: " + escClipped(f.Advice)
			}
			if f.Source != "" {
				s += ` <span class="muted">(source: ` + esc(f.Source) + ")</span>"
			}
			fmt.Fprintln(b, s+"</li>")
		}
		fmt.Fprintln(b, "</ul>")
		if more != "" {
			fmt.Fprintf(b, "<p class=\"muted\">%s</p>\n", esc(more))
		}
	}
	for _, t := range d.Tables {
		htmlTable(b, t.forPeople(), opt)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(b, "<p class=\"muted\">%s</p>\n", esc(n))
	}
	fmt.Fprintln(b, `</div>`)
	return b.Flush()
}

// htmlTable writes one table: a number cell carries its Machine value in
// data-sort, a text cell is isolated in <bdi>.
func htmlTable(w io.Writer, t *Table, opt Options) {
	fmt.Fprintf(w, "<div class=\"scroll\"><table data-table=\"%s\">\n", esc(t.Name))
	if t.Title != "" {
		fmt.Fprintf(w, "<caption>%s</caption>\n", esc(t.Title))
	}
	var head strings.Builder
	for _, c := range t.Columns {
		fmt.Fprintf(&head, `<th%s data-key="%s">%s</th>`, numClass(c.Kind), esc(c.Key), esc(c.Title))
	}
	fmt.Fprintf(w, "<thead><tr>%s</tr></thead>\n<tbody>\n", head.String())
	limit := shown(t, opt)
	count, printed := 0, 0
	for r := range t.All() {
		count++
		if limit > 0 && count > limit {
			continue
		}
		var row strings.Builder
		for i, c := range t.Columns {
			var cell Cell
			if i < len(r) {
				cell = r[i]
			} else {
				cell = Null(c.Kind)
			}
			switch {
			case c.Kind.numeric():
				fmt.Fprintf(&row, `<td class="num" data-sort="%s">%s</td>`, esc(cell.Machine()), esc(cell.Human()))
			case cell.Null || cell.Human() == "":
				row.WriteString("<td></td>")
			default:
				fmt.Fprintf(&row, "<td><bdi>%s</bdi></td>", escClipped(cell.Human()))
			}
		}
		fmt.Fprintf(w, "<tr>%s</tr>\n", row.String())
		printed++
	}
	fmt.Fprintln(w, "</tbody>\n</table></div>")
	notes := t.Notes
	if n := moreNote(t, opt, printed, count); n != "" {
		notes = append([]string{n}, notes...)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "<p class=\"muted\">%s</p>\n", esc(n))
	}
}

func numClass(k Kind) string {
	if k.numeric() {
		return ` class="num"`
	}
	return ""
}

// esc escapes text for HTML after making it printable.
func esc(s string) string { return html.EscapeString(safe(s)) }

// HTMLTextWidth bounds a table cell's text, and a finding's object,
// message and advice, in HTML: a name read from a mangled log can be a
// megabyte (a line of 1.5 MB inside an index name made a report page of
// 4.2 MB, the name in four tables). Firebird names are at most 63
// characters; fbdiag's longest reason on the corpus 425.
const HTMLTextWidth = 1000

// escClipped is esc of s clipped to HTMLTextWidth columns.
func escClipped(s string) string { return esc(clip(s, HTMLTextWidth)) }
