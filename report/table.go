package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	eaw "golang.org/x/text/width"
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
func WriteJSON(w io.Writer, v any) error {
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

func writeText(w io.Writer, t *Table) error {
	if t.Title != "" {
		fmt.Fprintln(w, t.Title)
	}
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		widths[i] = width(c.Name)
	}
	for _, r := range t.Rows {
		for i := range t.Columns {
			if i < len(r) && width(r[i]) > widths[i] {
				widths[i] = width(r[i])
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range t.Columns {
			v := ""
			if i < len(cells) {
				v = cells[i]
			}
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
		names := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			names[i] = c.Name
		}
		line(names)
		for _, r := range t.Rows {
			line(r)
		}
	}
	for _, n := range t.Notes {
		// Notes are sentences (verdicts, tests): wrapped to fit 100
		// columns, continuation lines indented.
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

func writeCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	if t.Name != "" && len(t.Columns) > 0 {
		// First column names the table so that several tables can share
		// one CSV stream and still be told apart by a spreadsheet filter.
		names := []string{"table"}
		for _, c := range t.Columns {
			names = append(names, c.Name)
		}
		cw.Write(names)
		for _, r := range t.Rows {
			cw.Write(append([]string{t.Name}, r...))
		}
	} else {
		names := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			names[i] = c.Name
		}
		cw.Write(names)
		for _, r := range t.Rows {
			cw.Write(r)
		}
	}
	cw.Flush()
	return cw.Error()
}

func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;")
	return r.Replace(s)
}

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
