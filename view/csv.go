package view

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// SummaryTable is the CSV name of a document's headline (columns field,
// value).
const SummaryTable = "summary"

// findingsName is the CSV name of a document's findings.
func findingsName(d *Doc) string {
	if d.FindingsName != "" {
		return d.FindingsName
	}
	return "findings"
}

// TableNames lists the names CSV accepts for d: its tables, the summary
// when it has a headline and the findings, in that order.
func TableNames(d *Doc) []string {
	var names []string
	for _, t := range d.Tables {
		names = append(names, t.Name)
	}
	for _, t := range d.Empty {
		names = append(names, t.Name)
	}
	if len(d.Headline) > 0 {
		names = append(names, SummaryTable)
	}
	return append(names, findingsName(d))
}

// csvTable is the table of d named name ("" for d.Main): one of its
// tables, or its summary or findings laid out as one.
func csvTable(d *Doc, name string) (*Table, error) {
	if name == "" {
		name = d.Main
	}
	if name == "" && len(d.Tables) > 0 {
		name = d.Tables[0].Name
	}
	for _, t := range slices.Concat(d.Tables, d.Empty) {
		if t.Name == name {
			return t.forMachines(), nil
		}
	}
	switch {
	case name == SummaryTable && len(d.Headline) > 0:
		return summaryTable(d), nil
	case name == findingsName(d):
		return findingsTable(d), nil
	}
	return nil, &NoTableError{Name: name, Valid: TableNames(d)}
}

// summaryTable is the headline, then the MachineFields, as field/value
// rows.
func summaryTable(d *Doc) *Table {
	t := &Table{Name: SummaryTable, Columns: []Column{{Key: "field", Title: "field"}, {Key: "value", Title: "value"}}}
	for _, f := range slices.Concat(d.Headline, d.MachineFields) {
		t.Rows = append(t.Rows, []Cell{Str(f.Key), f.Value})
		if f.Caveat != "" {
			t.Rows = append(t.Rows, []Cell{Str(f.Key + "_caveat"), Str(f.Caveat)})
		}
	}
	return t
}

// findingsTable is the findings as rows, made as they are written: a
// gbak log of a million error lines held 740 MB of cells.
func findingsTable(d *Doc) *Table {
	return &Table{Name: findingsName(d), Columns: findingsColumns, Stream: func(yield func([]Cell) bool) {
		for _, f := range d.Findings {
			if !yield(findingCells(f)) {
				return
			}
		}
	}}
}

// findingsColumns are the columns of the findings table.
var findingsColumns = func() []Column {
	var cols []Column
	for _, k := range []string{"severity", "rule", "object", "value", "threshold", "unit", "message", "advice", "source"} {
		kind := TextKind
		if k == "value" || k == "threshold" {
			kind = NumberKind
		}
		cols = append(cols, Column{Key: k, Title: k, Kind: kind})
	}
	return cols
}()

// findingCells is a finding's row of the findings table.
func findingCells(f Finding) []Cell {
	return []Cell{Str(f.Severity), Str(f.Rule), Str(f.Object), f.Value, f.Threshold,
		Str(csvUnit(f)), Str(f.Message), Str(f.Advice), Str(f.Source)}
}

// csvUnit is a finding's unit in CSV, whose numbers are bare: its
// MachineUnit when it has one; else a share (0.88 of 1), bytes or
// seconds, which text prints as "88.0 %", "1.48 MiB" or "0:03:30"
// without a unit word, say so, as JSON's unit does.
func csvUnit(f Finding) string {
	if f.MachineUnit != "" {
		return f.MachineUnit
	}
	if f.Unit != "" {
		return f.Unit
	}
	switch f.Value.Kind {
	case ShareKind:
		return "share"
	case BytesKind:
		return "bytes"
	case SecondsKind:
		// (gbak's cut-short: 210.211, which text reads 0:03:30)
		return "seconds"
	}
	return ""
}

// csvWriter writes one table of every document into one RFC 4180 table:
// the header once, from the first document.
type csvWriter struct {
	w      *csv.Writer
	opt    Options
	header []string
	// raw, when set, is what w writes to, or the writer it guards when
	// that is a printable.Writer (the terminal's guard): writeLines
	// writes there, its lines' text escaped as the guard would (csvText
	// escapes more), the rest ASCII.
	raw io.Writer
	bw  *bufio.Writer
}

func (c *csvWriter) write(d *Doc) error {
	t, err := csvTable(d, c.opt.Table)
	if err != nil {
		return err
	}
	return c.writeRows(d, t, func(row func([]string) error) error {
		var fields []string
		for r := range t.All() {
			fields = csvFields(t.Columns, r, fields[:0])
			if err := row(fields); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeRows writes table t of d: the header, unless a document before
// wrote it, then the rows rows passes to row, each the fields of t's
// columns (csvFields).
func (c *csvWriter) writeRows(d *Doc, t *Table, rows func(row func([]string) error) error) error {
	head, err := c.head(d, t)
	if err != nil {
		return err
	}
	rec := make([]string, len(head))
	err = rows(func(fields []string) error {
		i := 0
		if c.opt.Source {
			rec[0] = csvText(d.Source)
			i = 1
		}
		copy(rec[i:], fields)
		return c.w.Write(rec)
	})
	if err != nil {
		return err
	}
	c.w.Flush()
	return c.w.Error()
}

// writeLines writes table t of d as writeRows does, the rows being the
// lines lines passes to line (appendCSVRow's, without the source
// column): the same bytes.
func (c *csvWriter) writeLines(d *Doc, t *Table, lines func(line func(string) error) error) error {
	if _, err := c.head(d, t); err != nil {
		return err
	}
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	if c.bw == nil {
		c.bw = bufio.NewWriterSize(c.raw, 512<<10) // (as gstat's JSON: fewer writes of a big output)
	}
	source := ""
	if c.opt.Source {
		source = string(appendCSVField(nil, csvText(d.Source))) + ","
	}
	err := lines(func(line string) error {
		c.bw.WriteString(source)
		_, err := c.bw.WriteString(line)
		return err
	})
	if err != nil {
		return err
	}
	return c.bw.Flush()
}

// head writes the header of table t of d unless a document before wrote
// it, and returns it.
func (c *csvWriter) head(d *Doc, t *Table) ([]string, error) {
	var head []string
	if c.opt.Source {
		// (not "source": the warnings table has a column of that name,
		// the threshold's, as JSON's warnings[].source)
		head = append(head, "snapshot")
	}
	for _, col := range t.Columns {
		head = append(head, col.Key)
	}
	if c.header == nil {
		c.header = head
		if err := c.w.Write(head); err != nil {
			return nil, err
		}
	} else if !slices.Equal(head, c.header) {
		return nil, fmt.Errorf("%s: table %q has the columns %s, not %s as the one before: %w",
			d.Source, t.Name, strings.Join(head, ","), strings.Join(c.header, ","), ErrNotRectangular)
	}
	return head, nil
}

// csvFields appends to out the CSV fields of a row of cells in the
// columns cols, but for the Human ones (as forMachines leaves them out).
func csvFields(cols []Column, r []Cell, out []string) []string {
	for j := range cols {
		if cols[j].Human {
			continue
		}
		v := ""
		if j < len(r) {
			v = r[j].Machine()
			// The cell's kind decides: a figure in the summary's value
			// column is a number, not text to neutralise.
			if r[j].Kind == TextKind {
				v = csvText(v)
			}
		}
		out = append(out, v)
	}
	return out
}

// csvText escapes the control characters of a text cell and neutralises
// one a spreadsheet would run as a formula: a cell starting with =, +, -,
// @, tab or carriage return gets an apostrophe in front (OWASP, "CSV
// Injection"). Numbers are written by Machine and never pass here.
func csvText(s string) string {
	if s != "" {
		switch s[0] {
		case '=', '+', '-', '@', '\t', '\r':
			s = "'" + s
		}
	}
	return safe(s)
}

// appendCSVText appends the field of a text cell:
// appendCSVField(b, csvText(s)), the bytes of s as they are when each is
// printable ASCII but a comma or quote and the first is not a space or
// starts no formula, which one scan of eight bytes at a time tells for a
// short one (the names of a big run's indices table: two a row); others
// go the long way.
func appendCSVText(b []byte, s string) []byte {
	if len(s) >= 32 {
		return appendLongCSVText(b, s)
	}
	if plainCSVText(s) {
		return append(b, s...)
	}
	return appendCSVField(b, csvText(s))
}

// appendLongCSVText is appendCSVText of an s of 32 bytes or more (a
// warning's reason, advice or source: a big run's warnings table holds a
// hundred megabytes of them). One scan, 32 bytes a step, tells whether
// every byte is printable ASCII, which csvText leaves as it is (then no
// byte is a newline or carriage return), and IndexByte finds a quote or
// a comma; s is copied, quoted when it needs to be. Others go the long
// way, the terminal's guard (printable.String) and csvNeedsQuotes
// scanning them again.
func appendLongCSVText(b []byte, s string) []byte {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	p := unsafe.Pointer(unsafe.StringData(s))
	n := len(s)
	var odd uint64
	for i := 0; ; i += 32 {
		if i+32 > n {
			if i == n {
				break
			}
			i = n - 32 // (the last 32 bytes, overlapping those before)
		}
		x0, x1 := *(*uint64)(unsafe.Add(p, i)), *(*uint64)(unsafe.Add(p, i+8))
		x2, x3 := *(*uint64)(unsafe.Add(p, i+16)), *(*uint64)(unsafe.Add(p, i+24))
		odd |= x0 | (x0 - 0x20*ones) | (x0 + ones) | x1 | (x1 - 0x20*ones) | (x1 + ones) |
			x2 | (x2 - 0x20*ones) | (x2 + ones) | x3 | (x3 - 0x20*ones) | (x3 + ones)
		if i+32 == n {
			break
		}
	}
	if odd&highs != 0 {
		return appendCSVField(b, csvText(s))
	}
	formula := startsFormula(s[0])
	q := strings.IndexByte(s, '"')
	if q < 0 && (formula || s[0] != ' ') && strings.IndexByte(s, ',') < 0 {
		if formula {
			b = append(b, '\'')
		}
		return append(b, s...)
	}
	b = append(b, '"')
	if formula {
		b = append(b, '\'')
	}
	return append(appendQuotesDoubled(b, s), '"')
}

// plainCSVText reports whether appendCSVText writes s as it is (see
// there); false for some it writes so too (text that is not ASCII).
func plainCSVText(s string) bool {
	switch {
	case s == "":
		return true
	case len(s) >= 32:
		return false // (a warning's reason or advice: most hold a comma, which IndexByte finds sooner)
	}
	switch s[0] {
	case ' ', '=', '+', '-', '@':
		return false
	}
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f || c == ',' || c == '"' {
				return false
			}
		}
		return s != `\.`
	}
	for i := 0; ; i += 8 {
		if i+8 > len(s) {
			i = len(s) - 8 // (the last eight, overlapping)
		}
		x := printable.Load8(s, i)
		if !printable.Printable8(x) || printable.Has8(x, ',')|printable.Has8(x, '"') != 0 {
			return false
		}
		if i+8 == len(s) {
			return true
		}
	}
}

// appendCSVRow appends the line encoding/csv's Writer writes of the
// fields csvFields makes of the row r (a newline at its end), without
// making them: numbers are appended as Machine prints them. A Human
// column has no field, as in forMachines' table: the streamed rows of a
// table are made with all its columns.
func appendCSVRow(b []byte, cols []Column, r []Cell) []byte {
	first := true
	for j := range cols {
		if cols[j].Human {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		if j < len(r) {
			b = appendCSVCell(b, &r[j])
		}
	}
	return append(b, '\n')
}

// appendCSVCell appends one field of appendCSVRow.
func appendCSVCell(b []byte, c *Cell) []byte {
	switch {
	case c.Null:
	case c.Kind == TextKind:
		b = appendCSVText(b, c.Text)
	case c.Kind == CountKind, c.Kind == BytesKind:
		b = numfmt.AppendInt(b, c.Int)
	case c.Kind == TimeKind:
		b = appendCSVField(b, c.Machine())
	case bad(c.Num):
	default:
		b = appendPlain(b, c.Num)
	}
	return b
}

// appendCSVField appends a field as encoding/csv's Writer writes it with
// a comma between fields and a newline at the end of a line: quoted, its
// quotes doubled, when it holds a comma, quote, carriage return or
// newline, is \. or starts with a space.
func appendCSVField(b []byte, field string) []byte {
	if !csvNeedsQuotes(field) {
		return append(b, field...)
	}
	return append(appendQuotesDoubled(append(b, '"'), field), '"')
}

// startsFormula reports whether a printable field starting with c is
// written after an apostrophe (csvText): a spreadsheet would run it.
func startsFormula(c byte) bool {
	return c == '=' || c == '+' || c == '-' || c == '@'
}

// appendQuotesDoubled appends s with each quote doubled, as a quoted CSV
// field holds it.
func appendQuotesDoubled(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
}

// quoted8 reports whether one of the eight bytes of x is a newline,
// carriage return, double quote or comma: a byte of x XOR that byte
// repeated is zero.
func quoted8(x uint64) bool {
	return printable.Has8(x, '\n')|printable.Has8(x, '\r')|printable.Has8(x, '"')|printable.Has8(x, ',') != 0
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes with a comma.
func csvNeedsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` {
		return true
	}
	if len(field) < 8 {
		for i := 0; i < len(field); i++ {
			if c := field[i]; c == '\n' || c == '\r' || c == '"' || c == ',' {
				return true
			}
		}
	} else if len(field) < 32 {
		// Eight bytes at a time (the names of a big run's indices table,
		// two a row), the last eight overlapping those before.
		for i := 0; i < len(field)-8; i += 8 {
			if quoted8(printable.Load8(field, i)) {
				return true
			}
		}
		if quoted8(printable.Load8(field, len(field)-8)) {
			return true
		}
	} else if strings.IndexByte(field, ',') >= 0 || strings.IndexByte(field, '"') >= 0 ||
		strings.IndexByte(field, '\n') >= 0 || strings.IndexByte(field, '\r') >= 0 {
		// (A long field, a reason or an advice, is scanned faster once a
		// byte: the warnings table of a big run holds a hundred megabytes
		// of them, most with a comma.)
		return true
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}
