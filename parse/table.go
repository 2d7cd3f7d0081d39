package parse

import (
	"cmp"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
)

// Table is one table of results as a DBA keeps them: a CSV or TSV file, a
// markdown table (alone or inside an article), or whitespace-aligned text.
// Cells are kept as written; Columns holds what the cells mean.
type Table struct {
	File   string `json:"file"`
	Line   int    `json:"line"`   // line of the header (or of the first row)
	Format string `json:"format"` // csv, tsv, semicolon, markdown, text
	// Header is false when the first row was data: columns are then named
	// by their 1-based index.
	Header  bool     `json:"header"`
	Columns []Column `json:"columns"`
	Rows    []Row    `json:"-"`
	// DecimalComma is true when the numbers are written "9,04".
	DecimalComma bool `json:"decimal_comma"`
}

// Column is one column: its name, the unit found in its header or cells,
// and the values of its cells in that unit (NaN where a cell is empty or
// not a number).
type Column struct {
	Name    string    `json:"name"`
	Unit    Unit      `json:"-"`
	Numeric bool      `json:"numeric"`
	Values  []float64 `json:"-"`
}

// Row is one data row and the line it came from.
type Row struct {
	Line  int
	Cells []string
}

// Text is the cell of row i in column c ("" when the row is short).
func (t *Table) Text(i, c int) string {
	if c < len(t.Rows[i].Cells) {
		return t.Rows[i].Cells[c]
	}
	return ""
}

// Col finds a column by name (case and punctuation ignored) or by 1-based
// index, the way --x and --y name them.
func (t *Table) Col(spec string) (int, bool) {
	want := normName(spec)
	for i, c := range t.Columns {
		if normName(c.Name) == want {
			return i, true
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(spec)); err == nil && n >= 1 && n <= len(t.Columns) {
		return n - 1, true
	}
	for i, c := range t.Columns {
		if want != "" && strings.HasPrefix(normName(c.Name), want) {
			return i, true
		}
	}
	return -1, false
}

// ColumnNames lists the column names, for messages.
func (t *Table) ColumnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

func normName(s string) string {
	return strings.Join(headerWords(s), "_")
}

// SameKey says whether a and b name the same column or setting, as
// Run.Key and the column lookup match names: "page-buffers", "Page
// Buffers" and "page_buffers" are one.
func SameKey(a, b string) bool { return normName(a) == normName(b) }

// TableReader reads the tables of a text file one at a time. A file that
// starts like a table (CSV, TSV, markdown, aligned columns) is read as
// tables separated by blank lines; any other file is read as prose in
// which markdown and tab-separated tables are looked for, so that an
// article's own tables can be read straight from its text.
type TableReader struct {
	lr      *LineReader
	table   *Table
	notices []Notice
	kept    int     // notices counted against maxTableNotices
	more    leftOut // notices past maxTableNotices, not kept
	prose   bool
	started bool
	// held is a line read ahead and not used yet.
	held     string
	heldLine int
	hasHeld  bool
	cur      string
	curLine  int
	// dropped counts the rows of the current table past MaxTableRows.
	dropped int
}

// MaxTableRows bounds the rows kept of one table. Result tables have tens
// of rows; a table of millions is a data dump, and reading it whole would
// make memory grow with the file. The rows past it are counted, not kept.
const MaxTableRows = 100_000

// addRow keeps a data row while the table has fewer than MaxTableRows.
func (tr *TableReader) addRow(t *Table, r Row) {
	if len(t.Rows) >= MaxTableRows {
		tr.dropped++
		return
	}
	t.Rows = append(t.Rows, r)
}

// NewTableReader returns a reader over r; name is used in messages.
func NewTableReader(r io.Reader, name string) *TableReader {
	lr := NewLineReader(r, name)
	lr.KeepTabs()
	return &TableReader{lr: lr}
}

// Table is the table read by the last successful call to Next.
func (tr *TableReader) Table() *Table { return tr.table }

// maxTableNotices bounds the notices kept, as maxGbakNotices does: a
// big file of wrong rows cannot grow memory, and the count of the rest
// is reported.
const maxTableNotices = 200

// Notices lists what was skipped so far (at most maxTableNotices, and the
// tables cut at MaxTableRows; the last one says how many more there
// were).
func (tr *TableReader) Notices() []Notice {
	if tr.more.n > 0 {
		return append(tr.notices[:len(tr.notices):len(tr.notices)], tr.more.notice(tr.lr.Name()))
	}
	return tr.notices
}

// add keeps notices up to maxTableNotices and counts the others.
func (tr *TableReader) add(ns ...Notice) {
	for _, n := range ns {
		if tr.kept >= maxTableNotices {
			tr.more.add(n.Line, "notices")
			continue
		}
		tr.kept++
		tr.notices = append(tr.notices, n)
	}
}

// Err is the first read error.
func (tr *TableReader) Err() error { return tr.lr.Err() }

func (tr *TableReader) next() bool {
	if tr.hasHeld {
		tr.cur, tr.curLine, tr.hasHeld = tr.held, tr.heldLine, false
		return true
	}
	if !tr.lr.Next() {
		return false
	}
	tr.cur, tr.curLine = tr.lr.Text(), tr.lr.Line()
	return true
}

func (tr *TableReader) hold() {
	tr.held, tr.heldLine, tr.hasHeld = tr.cur, tr.curLine, true
}

func (tr *TableReader) notice(line int, format string, args ...any) {
	tr.add(Notice{File: tr.lr.Name(), Line: line, Msg: sprintf(format, args...)})
}

// Next reads the next table and reports whether there is one.
func (tr *TableReader) Next() bool {
	tr.table = nil
	for tr.next() {
		line := tr.cur
		if strings.TrimSpace(line) == "" {
			continue
		}
		first := !tr.started
		tr.started = true
		if isMarkdownRow(line) {
			if t := tr.readMarkdown(); t != nil {
				tr.table = t
				return true
			}
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") && !tr.prose {
			continue // a comment in a data file
		}
		if tr.prose {
			if t := tr.readDelimited(true); t != nil {
				tr.table = t
				return true
			}
			continue
		}
		if t := tr.readDelimited(false); t != nil {
			tr.table = t
			return true
		}
		if first {
			// Not a table at the top: read the file as an article.
			tr.prose = true
			continue
		}
		tr.notice(tr.curLine, "skipped line: not part of a table")
	}
	return false
}

func isMarkdownRow(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "|")
}

func isMarkdownSep(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if c == "" || strings.Trim(c, "-:") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}

func splitMarkdown(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		s = s[:len(s)-1]
	}
	if !strings.Contains(s, `\|`) {
		cells := strings.Split(s, "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			b.WriteByte('|')
			i++
		case s[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// readMarkdown reads a markdown table whose header is the current line.
func (tr *TableReader) readMarkdown() *Table {
	head := splitMarkdown(tr.cur)
	headLine := tr.curLine
	if !tr.next() {
		return nil
	}
	if !isMarkdownRow(tr.cur) || !isMarkdownSep(splitMarkdown(tr.cur)) {
		tr.hold()
		return nil
	}
	t := &Table{File: tr.lr.Name(), Line: headLine, Format: "markdown", Header: true}
	for tr.next() {
		if !isMarkdownRow(tr.cur) {
			tr.hold()
			break
		}
		cells := splitMarkdown(tr.cur)
		if len(cells) != len(head) {
			tr.notice(tr.curLine, "skipped row: %s, the header has %d", units.Count(len(cells), "cell"), len(head))
			continue
		}
		tr.addRow(t, Row{Line: tr.curLine, Cells: cells})
	}
	tr.finish(t, head)
	return t
}

// splitter splits a line into cells for one delimiter.
type splitter struct {
	delim  byte // '\t', ',', ';' or ' ' for aligned text
	format string
}

func chooseSplitter(line string) splitter {
	switch {
	case strings.Contains(line, "\t"):
		return splitter{'\t', "tsv"}
	case strings.Count(line, ";") > 0 && strings.Count(line, ";") >= strings.Count(line, ","):
		return splitter{';', "semicolon"}
	case strings.Contains(line, ","):
		return splitter{',', "csv"}
	}
	return splitter{' ', "text"}
}

func (s splitter) split(line string, want int) []string {
	switch s.delim {
	case ' ':
		// Aligned text: columns are separated by two spaces or more when
		// the line has such gaps, else by any run of spaces.
		return splitGaps(line)
	case ',', ';':
		return splitQuoted(line, s.delim)
	}
	cells := strings.Split(line, "\t")
	for i := range cells {
		cells[i] = unquoteCell(strings.TrimSpace(cells[i]))
	}
	if want > 0 && len(cells) > want {
		// Several tabs used to align one gap.
		var c2 []string
		for _, c := range cells {
			if c != "" {
				c2 = append(c2, c)
			}
		}
		if len(c2) == want {
			return c2
		}
	}
	return cells
}

// unquoteCell takes the quotes off a tab-separated cell quoted whole, as
// a spreadsheet writes one holding a comma ("1,234"); "" inside is a
// quote. A quote within a cell (5" SATA) is text.
func unquoteCell(c string) string {
	if len(c) < 2 || c[0] != '"' || c[len(c)-1] != '"' {
		return c
	}
	return strings.TrimSpace(strings.ReplaceAll(c[1:len(c)-1], `""`, `"`))
}

func splitGaps(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.Contains(line, "  ") {
		return strings.Fields(line)
	}
	var cells []string
	for _, p := range strings.Split(line, "  ") {
		if p = strings.TrimSpace(p); p != "" {
			cells = append(cells, p)
		}
	}
	return cells
}

// splitQuoted splits a CSV line, honouring double quotes ("1,5" stays one
// cell, "" is a quote).
func splitQuoted(line string, delim byte) []string {
	if strings.IndexByte(line, '"') < 0 {
		cells := strings.Split(line, string(delim))
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells
	}
	var cells []string
	var b strings.Builder
	inQ := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQ && c == '"' && i+1 < len(line) && line[i+1] == '"':
			b.WriteByte('"')
			i++
		case c == '"':
			inQ = !inQ
		case c == delim && !inQ:
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// readDelimited tries to start a table at the current line: the line and
// the next one must split into the same number (two or more) of cells and
// the next one must hold a number. In prose, where commas and spaces are
// in every sentence, a block that is not tab-separated is taken only when
// it has two rows or more, each at least half numbers.
func (tr *TableReader) readDelimited(inProse bool) *Table {
	sp := chooseSplitter(tr.cur)
	first := sp.split(tr.cur, 0)
	firstLine, firstText := tr.curLine, tr.cur
	if len(first) < 2 {
		return nil
	}
	if !tr.next() {
		return nil
	}
	second := sp.split(tr.cur, len(first))
	if len(second) != len(first) || !anyNumber(second) {
		tr.hold()
		tr.cur, tr.curLine = firstText, firstLine
		return nil
	}
	t := &Table{File: tr.lr.Name(), Line: firstLine, Format: sp.format}
	var head []string
	if isHeader(first, second) {
		head = first
		t.Header = true
	} else {
		head = make([]string, len(first))
		for i := range head {
			head[i] = strconv.Itoa(i + 1)
		}
		t.Rows = append(t.Rows, Row{Line: firstLine, Cells: first})
	}
	t.Rows = append(t.Rows, Row{Line: tr.curLine, Cells: second})
	for tr.next() {
		if strings.TrimSpace(tr.cur) == "" {
			break
		}
		if isMarkdownRow(tr.cur) {
			tr.hold()
			break
		}
		if strings.HasPrefix(strings.TrimSpace(tr.cur), "#") {
			continue
		}
		cells := sp.split(tr.cur, len(head))
		if len(cells) != len(head) {
			if inProse {
				tr.hold()
				break
			}
			tr.notice(tr.curLine, "skipped row: %d cells, the header has %d", len(cells), len(head))
			continue
		}
		tr.addRow(t, Row{Line: tr.curLine, Cells: cells})
	}
	if inProse && sp.delim != '\t' && !mostlyNumbers(t.Rows) {
		return nil
	}
	tr.finish(t, head)
	return t
}

// mostlyNumbers: two rows or more, each at least half numbers.
func mostlyNumbers(rows []Row) bool {
	if len(rows) < 2 {
		return false
	}
	for _, r := range rows {
		n := 0
		for _, c := range r.Cells {
			if _, _, ok := ParseQuantity(c, false); ok {
				n++
			}
		}
		if 2*n < len(r.Cells) {
			return false
		}
	}
	return true
}

func anyNumber(cells []string) bool {
	for _, c := range cells {
		if _, _, ok := ParseQuantity(c, false); ok {
			return true
		}
	}
	return false
}

// isHeader: the first row names the columns when one of its cells is not
// a number where the second row has one.
func isHeader(first, second []string) bool {
	for i := range first {
		_, _, ok1 := ParseQuantity(first[i], false)
		_, _, ok2 := ParseQuantity(second[i], false)
		if !ok1 && ok2 {
			return true
		}
	}
	return false
}

// finish names the columns and reads the numbers of a complete table.
func (tr *TableReader) finish(t *Table, head []string) {
	if tr.dropped > 0 {
		// Always kept: the analysis is of part of the table.
		tr.notices = append(tr.notices, Notice{File: tr.lr.Name(), Line: t.Line, Msg: sprintf(
			"table of %d rows: read the first %d, left out %d (a throughput table has tens)",
			MaxTableRows+tr.dropped, MaxTableRows, tr.dropped)})
		tr.dropped = 0
	}
	tr.add(finishTable(t, head)...)
}

func finishTable(t *Table, head []string) []Notice {
	t.Columns = make([]Column, len(head))
	for i, h := range head {
		t.Columns[i] = Column{Name: h, Unit: HeaderUnit(h)}
	}
	t.DecimalComma = usesDecimalComma(t)
	var notes []Notice
	for c := range t.Columns {
		notes = readColumn(t, c, notes)
	}
	// In the order of the lines, not of the columns: "missing.csv:5: …
	// size_gb" came before "missing.csv:3: … tps".
	slices.SortStableFunc(notes, func(a, b Notice) int { return cmp.Compare(a.Line, b.Line) })
	return notes
}

// usesDecimalComma looks for a cell that can only be a decimal comma
// ("9,04", "1813,969025"), which settles ambiguous ones ("1,500").
func usesDecimalComma(t *Table) bool {
	if t.Format == "csv" {
		return false
	}
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			c = strings.TrimSpace(c)
			if strings.Count(c, ",") == 1 && !strings.Contains(c, ".") {
				if _, err := strconv.ParseFloat(strings.Replace(c, ",", ".", 1), 64); err == nil && !isGroupedBy(c, ',') {
					return true
				}
			}
		}
	}
	return false
}

func readColumn(t *Table, c int, notes []Notice) []Notice {
	col := &t.Columns[c]
	col.Values = make([]float64, len(t.Rows))
	numbers, texts := 0, 0
	var bad, bare []int
	headerUnit := !col.Unit.IsZero()
	for i := range t.Rows {
		s := t.Text(i, c)
		col.Values[i] = math.NaN()
		if s == "" || s == "-" || s == "—" {
			continue
		}
		v, u, ok := ParseQuantity(s, t.DecimalComma)
		if !ok {
			texts++
			bad = append(bad, i)
			continue
		}
		numbers++
		if u.IsZero() {
			bare = append(bare, i)
		} else {
			switch {
			case col.Unit.IsZero():
				col.Unit = u
			case col.Unit.Kind == u.Kind && col.Unit.Kind != KindRate:
				v = v * u.Factor / col.Unit.Factor
			}
		}
		col.Values[i] = v
	}
	col.Numeric = numbers > 0 && numbers >= texts
	if col.Numeric {
		for _, i := range bad {
			notes = append(notes, Notice{File: t.File, Line: t.Rows[i].Line,
				Msg: sprintf("column %q: %q is not a number; cell left out", col.Name, t.Text(i, c))})
		}
	}
	// A bare number where the header names no unit and other cells do
	// ("9", "30", "1.7 TB") has no unit anyone wrote: read in the cells'
	// unit it made 9 TB of 9 (GB, most likely). Left out, said.
	if !headerUnit && len(bare) > 0 && (col.Unit.Kind == KindSize || col.Unit.Kind == KindTime || col.Unit.Kind == KindSpeed) {
		for _, i := range bare {
			col.Values[i] = math.NaN()
			if col.Numeric {
				notes = append(notes, Notice{File: t.File, Line: t.Rows[i].Line,
					Msg: sprintf("column %q: %q has no unit where other cells give one (%s): cell left out", col.Name, t.Text(i, c), col.Unit.Symbol)})
			}
		}
	}
	return notes
}

// ReadTables reads every table of r.
func ReadTables(r io.Reader, name string) ([]*Table, []Notice, error) {
	tr := NewTableReader(r, name)
	var tables []*Table
	for tr.Next() {
		tables = append(tables, tr.Table())
	}
	return tables, tr.Notices(), tr.Err()
}

// MergeTables joins tables of one file that have the same columns, as an
// article prints a table in parts or prints it again with one more row.
// Rows identical to a row already kept are dropped; each merge is noted.
func MergeTables(tables []*Table) ([]*Table, []Notice) {
	var out []*Table
	var notes []Notice
	// The table kept for each file and columns, and the rows of those
	// merged into, by their cells: made once, not again for each part
	// (a file of 4,000 appended parts took 5.5 s).
	byColumns := map[string]*Table{}
	seen := map[*Table]map[string]bool{}
	for _, t := range tables {
		key := columnsKey(t)
		into := byColumns[key]
		if into == nil || key == "" {
			if key != "" {
				byColumns[key] = t
			}
			out = append(out, t)
			continue
		}
		s := seen[into]
		if s == nil {
			s = make(map[string]bool, len(into.Rows))
			for _, r := range into.Rows {
				s[strings.Join(r.Cells, "\x00")] = true
			}
			seen[into] = s
		}
		added := 0
		for _, r := range t.Rows {
			if k := strings.Join(r.Cells, "\x00"); !s[k] {
				s[k] = true
				into.Rows = append(into.Rows, r)
				added++
			}
		}
		notes = append(notes, Notice{File: t.File, Line: t.Line,
			Msg: sprintf("table continues the table of line %d: %d new rows, %d repeated", into.Line, added, len(t.Rows)-added)})
	}
	// Cells were checked when each part was read: re-read quietly, once
	// all the parts are in.
	for _, o := range out {
		if seen[o] != nil {
			finishTable(o, o.ColumnNames())
		}
	}
	return out, notes
}

// columnsKey is what tables of one file merge by: the file and their
// columns' names, as SameKey compares them; "" for a table without a
// header, which none continues.
func columnsKey(t *Table) string {
	if !t.Header {
		return ""
	}
	k := []string{t.File, strconv.Itoa(len(t.Columns))}
	for _, c := range t.Columns {
		k = append(k, normName(c.Name))
	}
	return strings.Join(k, "\x00")
}
