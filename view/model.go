package view

import (
	"cmp"
	"iter"

	"github.com/fbdiag/fbdiag/plot"
)

// Doc is one analysis laid out for reading: see the package manual.
type Doc struct {
	// Title is the first line of text and markdown output, after Lead.
	// Text keeps it to the line width by clipping its start (a long path
	// keeps its file name), never Lead's.
	Lead, Title string
	// Source names the input in a CSV source column and in messages
	// ("shop.txt", "shop.txt#2" for a second snapshot).
	Source   string
	Headline []Field
	// MachineFields are figures the CSV summary appends after the
	// Headline's rows, for a script: what text, markdown and HTML say in
	// a Detail (the ODS transaction-id limit, the page counts) or leave
	// out. Human formats do not print them.
	MachineFields []Field
	Tables        []*Table
	// Empty are the tables this kind of document holds when there is
	// something to list, empty in this one: CSV writes their header row
	// when one is asked for by name, so that a scheduled export of gstat's
	// problems does not fail on the healthy database. Text, markdown and
	// HTML leave them out.
	Empty []*Table
	// Findings are the verdicts, worst first; FindingsTitle heads them in
	// text ("Warnings"; "Findings" when empty) and FindingsName is their
	// CSV table name ("warnings"; "findings" when empty).
	Findings      []Finding
	FindingsTitle string
	FindingsName  string
	// FindingsLimit bounds the findings text, markdown and HTML show
	// (0: all) unless Options.All, as Table.Limit does rows.
	FindingsLimit int
	// FindingsOmitted counts by severity, worst first, the findings the
	// analysis did not keep (it kept the worst FindingsLimit): the
	// writers add them to those left out.
	FindingsOmitted []SeverityCount
	// Main is the table CSV writes when no --table is given.
	Main    string
	Notes   []string
	Metrics []MetricFamily
	Charts  []*plot.Chart
}

// Field is one headline figure.
type Field struct {
	// Key is the snake_case name, in the CSV summary table.
	Key string
	// Label names the figure for people.
	Label string
	Value Cell
	// Detail follows the value in human formats.
	Detail string
	// Caveat is what the figure rests on when it is weak ("its
	// leave-last-out check missed by +14.2 %, …"), "" when nothing: in
	// Detail for people, its own row (Key + "_caveat") in the CSV summary,
	// and a report's summary repeats the figure whatever its place.
	Caveat string
	// Unknown stands for a null value in human formats ("?" when empty).
	Unknown string
	// Human, when set, is the value as human formats print it, in place
	// of Value's: the words for people ("on", "OFF") of what the CSV
	// summary writes as JSON has it (true, false). Text reads it.
	Human string
	// Group names what the figure is of when the headline holds several
	// (a series of several: "SuperClassic, points de test"), "" else: a
	// report's summary that repeats a figure for its Caveat repeats its
	// group's first figure (the best) before it.
	Group string
}

// Text is the field's value as human formats print it: its Human when
// set, else its Value's ("" for a null value: see Unknown).
func (f Field) Text() string { return cmp.Or(f.Human, f.Value.Human()) }

// Finding is one verdict of an analysis.
type Finding struct {
	// Severity is "critical", "warning" or "info".
	Severity string
	Rule     string
	// Object names what the finding is about ("index IX on T", "table T",
	// "database").
	Object string
	// Value is the figure judged and Threshold the limit it passed; both
	// null for a finding without a figure (a flag).
	Value, Threshold Cell
	// Unit follows the figures in human formats.
	Unit string
	// MachineUnit, when set, is the unit CSV writes instead of Unit:
	// the JSON's ("share of RAM", "flag"), where Unit is the words after
	// a human figure ("of RAM").
	MachineUnit string
	// Flag says Value and Threshold are a flag's 1 or 0 (set, or not, as
	// JSON has them): CSV writes them, human formats leave them out (the
	// message says it).
	Flag bool
	// Message says what the value means; Advice what to run or change.
	Message string
	Advice  string
	// Source cites where the threshold comes from.
	Source string
}

// Table is a named grid of typed cells.
type Table struct {
	// Name is the CSV --table key.
	Name  string
	Title string
	// Columns describe the cells of every row, in order.
	Columns []Column
	// Rows holds the rows; when it is nil, Stream yields them.
	Rows   [][]Cell
	Stream iter.Seq[[]Cell]
	// Total is the number of rows the analysis had before the view chose
	// these (a view that keeps the top ones); 0 means all are here.
	Total int
	// Limit bounds the rows text, markdown and HTML show (0: all) unless
	// Options.All; CSV writes every row.
	Limit int
	// Noun names the rows in the note on those left out ("tables");
	// the Name when empty.
	Noun string
	// Notes are printed under the table in human formats.
	Notes []string
	// Blocks prints the rows in text as blocks instead of aligned
	// columns: the head cells on one line, the others under it one a
	// line, wrapped (for rows of long sentences). Other formats keep the
	// table.
	Blocks bool
}

// Column describes one column.
type Column struct {
	// Key is the CSV header: snake_case with the unit ("size_bytes").
	Key string
	// Title is the human header ("size").
	Title string
	// Kind is the kind of its cells; numbers are right-aligned.
	Kind Kind
	// Max clips a text cell to Max characters in text output (0: never),
	// so that tables fit 100 columns; other formats keep it whole.
	Max int
	// ClipLeft clips from the start ("…ORDERS_CARRIER"): the end of a
	// name tells it apart where its start is a schema every name shares.
	ClipLeft bool
	// Block is the column's part in a table of Blocks.
	Block BlockRole
	// Machine keeps the column to CSV: text, markdown and HTML leave it
	// out (a figure another column gives there, or one they have no room
	// for), so that a CSV has the same columns whatever the table's
	// shape.
	Machine bool
	// Human keeps the column to text, markdown and HTML: CSV leaves it
	// out (the words for people of a figure a Machine column gives).
	Human bool
}

// BlockRole is what a column does in the text of a table of Blocks.
type BlockRole uint8

// The roles of a column in a block.
const (
	// BlockLine prints the cell on a line of its own, "title: value",
	// wrapped and indented; an empty cell is left out.
	BlockLine BlockRole = iota
	// BlockHead puts the cell on the block's first line, after the
	// other head cells.
	BlockHead
	// BlockOmit leaves the cell out of the text (a key the head repeats).
	BlockOmit
)

// All yields the rows of the table, held or streamed.
func (t *Table) All() iter.Seq[[]Cell] {
	if t.Rows != nil || t.Stream == nil {
		return func(yield func([]Cell) bool) {
			for _, r := range t.Rows {
				if !yield(r) {
					return
				}
			}
		}
	}
	return t.Stream
}

// forPeople is the table without its Machine columns, for text, markdown
// and HTML; t itself when it has none.
func (t *Table) forPeople() *Table { return t.without(func(c Column) bool { return c.Machine }) }

// forMachines is the table without its Human columns, for CSV; t itself
// when it has none.
func (t *Table) forMachines() *Table { return t.without(func(c Column) bool { return c.Human }) }

// without is the table without the columns drop says so of; t itself
// when there are none.
func (t *Table) without(drop func(Column) bool) *Table {
	var keep []int
	for i, c := range t.Columns {
		if !drop(c) {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(t.Columns) {
		return t
	}
	h := *t
	h.Columns = make([]Column, len(keep))
	for j, i := range keep {
		h.Columns[j] = t.Columns[i]
	}
	rows := t.All()
	h.Rows = nil
	h.Stream = func(yield func([]Cell) bool) {
		for r := range rows {
			out := make([]Cell, 0, len(keep)) // (a writer may keep the rows)
			for _, i := range keep {
				if i < len(r) {
					out = append(out, r[i])
				}
			}
			if !yield(out) {
				return
			}
		}
	}
	return &h
}

// noun is what the rows are called in the note on those left out.
func (t *Table) noun() string {
	if t.Noun != "" {
		return t.Noun
	}
	return t.Name
}

// MetricType is an OpenMetrics metric type.
type MetricType string

// The metric types fbdiag writes.
const (
	Gauge   MetricType = "gauge"
	Counter MetricType = "counter"
)

// MetricFamily is one metric name with its samples. Name starts with
// "fbdiag_" and, with a Unit, ends with "_" + Unit (OpenMetrics); a
// counter's samples are written with "_total" after the name.
type MetricFamily struct {
	Name    string
	Help    string
	Type    MetricType
	Unit    string
	Samples iter.Seq[Sample]
}

// Sample is one value of a family, told apart by its labels.
type Sample struct {
	Labels []Label
	Value  float64
}

// Label is one label of a sample: database, table or index.
type Label struct{ Name, Value string }

// SeverityCount is a number of findings of one severity.
type SeverityCount struct {
	Severity string
	Count    int
}
