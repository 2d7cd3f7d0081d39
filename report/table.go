package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	eaw "golang.org/x/text/width"

	"github.com/fbdiag/fbdiag/internal/lazyre"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// Format is an output format shared by every fbdiag command.
type Format string

// The formats every analysis command accepts with --format.
const (
	Text     Format = "text"
	JSON     Format = "json"
	CSV      Format = "csv"
	Markdown Format = "markdown"
)

// Formats lists the accepted --format values.
var Formats = []Format{Text, JSON, CSV, Markdown}

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "text", "txt", "":
		return Text, nil
	case "json":
		return JSON, nil
	case "csv":
		return CSV, nil
	case "markdown", "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("unknown format %q (want text, json, csv or markdown)", s)
}

// Table is a titled grid of cells: the common shape of every text, CSV and
// markdown output, so that all commands print alike.
type Table struct {
	// Name identifies the table in CSV output ("tables", "indices").
	Name string
	// Title is printed above the table in text and markdown.
	Title   string
	Columns []Column
	Rows    [][]string
	// Notes are printed under the table in text and markdown.
	Notes []string
}

// Column describes one column; numbers are right-aligned.
type Column struct {
	Name  string
	Right bool
}

// Cols builds columns from names; a name starting with '>' is
// right-aligned (the '>' is dropped).
func Cols(names ...string) []Column {
	cols := make([]Column, len(names))
	for i, n := range names {
		if strings.HasPrefix(n, ">") {
			cols[i] = Column{Name: n[1:], Right: true}
		} else {
			cols[i] = Column{Name: n}
		}
	}
	return cols
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// WriteTables writes tables in text, csv or markdown.
func WriteTables(w io.Writer, f Format, tables ...*Table) error {
	for i, t := range tables {
		if t == nil {
			continue
		}
		var err error
		switch f {
		case CSV:
			if i > 0 {
				fmt.Fprintln(w)
			}
			err = writeCSV(w, t)
		case Markdown:
			if i > 0 {
				fmt.Fprintln(w)
			}
			err = writeMarkdown(w, t)
		default:
			if i > 0 {
				fmt.Fprintln(w)
			}
			err = writeText(w, t)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes v as indented JSON, without HTML escaping so that names
// like "Order Lines <x>" stay readable.
// A struct is written field by field and its slices element by element
// (the same bytes), so that memory holds the analysis, not also its JSON.
func WriteJSON(w io.Writer, v any) error {
	if ok, err := writeJSONStreamed(w, v); ok {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// width is the number of terminal columns s takes: Korean, Chinese and
// Japanese characters (the seed articles' column names) take two, so
// counting runes misaligned the columns after them.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 { // below it nothing is wide; skips the lookup for ASCII and Latin
			switch eaw.LookupRune(r).Kind() {
			case eaw.EastAsianWide, eaw.EastAsianFullwidth:
				n++
			}
		}
	}
	return n
}

// writeText prints a table for a terminal: every text escaped (see
// printable.String) before the columns are measured.
func writeText(w io.Writer, t *Table) error {
	if t.Title != "" {
		fmt.Fprintln(w, printable.String(t.Title))
	}
	names := make([]string, len(t.Columns))
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = printable.String(c.Name)
		widths[i] = width(names[i])
	}
	rows := make([][]string, len(t.Rows))
	for j, r := range t.Rows {
		rows[j] = make([]string, len(t.Columns))
		for i := range min(len(r), len(t.Columns)) {
			rows[j][i] = printable.String(r[i])
			widths[i] = max(widths[i], width(rows[j][i]))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range t.Columns {
			v := cells[i]
			pad := strings.Repeat(" ", widths[i]-width(v))
			if i > 0 {
				b.WriteString("  ")
			}
			if c.Right {
				b.WriteString(pad + v)
			} else if i == len(t.Columns)-1 {
				b.WriteString(v)
			} else {
				b.WriteString(v + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	if len(t.Columns) > 0 {
		line(names)
		for _, r := range rows {
			line(r)
		}
	}
	for _, n := range t.Notes {
		// Notes are sentences (verdicts, tests): wrapped to fit 100
		// columns, continuation lines indented.
		n = printable.String(n)
		if width(n) <= 100 {
			fmt.Fprintln(w, n)
			continue
		}
		for i, l := range Wrap(n, "  ", 100) {
			if i == 0 {
				l = strings.TrimPrefix(l, "  ")
			}
			fmt.Fprintln(w, l)
		}
	}
	return nil
}

// writeCSV writes a table for a spreadsheet: every cell escaped and
// neutralised by csvCell.
func writeCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	// With a name, the first column names the table so that several
	// tables can share one CSV stream and still be told apart by a
	// spreadsheet filter.
	named := t.Name != "" && len(t.Columns) > 0
	record := func(first string, cells []string, n int) []string {
		var out []string
		if named {
			out = append(out, first)
		}
		for i := range n {
			out = append(out, csvCell(cells[i]))
		}
		return out
	}
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	cw.Write(record("table", names, len(names)))
	for _, r := range t.Rows {
		cw.Write(record(t.Name, r, len(r)))
	}
	cw.Flush()
	return cw.Error()
}

// csvCell escapes the control characters of a cell and neutralises a
// text cell that a spreadsheet would run as a formula: one that starts
// with =, +, - or @ gets a single quote in front (OWASP, "CSV
// Injection"). A number such as -12.5 or +13.4% stays a number, and a
// lone "-" (an empty figure) is no formula.
func csvCell(s string) string {
	s = printable.String(s)
	if len(s) < 2 || !strings.ContainsRune("=+-@", rune(s[0])) || reCSVNumber().MatchString(s) {
		return s
	}
	return "'" + s
}

// reCSVNumber matches the figures fbdiag writes: signed decimals, with an
// exponent or a percent sign.
var reCSVNumber = lazyre.New(`^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?%?$`)

// mdEscape makes s one markdown table cell or line of text: control
// characters escaped, then |, <, > and & made literal.
func mdEscape(s string) string { return mdReplacer.Replace(printable.String(s)) }

var mdReplacer = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;")

func writeMarkdown(w io.Writer, t *Table) error {
	if t.Title != "" {
		fmt.Fprintf(w, "### %s\n\n", mdEscape(t.Title))
	}
	if len(t.Columns) > 0 {
		var head, sep []string
		for _, c := range t.Columns {
			head = append(head, mdEscape(c.Name))
			if c.Right {
				sep = append(sep, "---:")
			} else {
				sep = append(sep, "---")
			}
		}
		fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(sep, " | "))
		for _, r := range t.Rows {
			cells := make([]string, len(t.Columns))
			for i := range t.Columns {
				if i < len(r) {
					cells[i] = mdEscape(r[i])
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	if len(t.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range t.Notes {
			fmt.Fprintf(w, "%s\n", mdEscape(n))
		}
	}
	return nil
}
