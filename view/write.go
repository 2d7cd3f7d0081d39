package view

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Format is an output format of a Doc. JSON is not one: it is the
// analysis struct itself, written by the caller.
type Format string

// The formats of a Doc.
const (
	Text        Format = "text"
	Markdown    Format = "markdown"
	CSV         Format = "csv"
	OpenMetrics Format = "openmetrics"
	HTML        Format = "html"
)

// Formats lists the formats Write accepts.
var Formats = []Format{Text, Markdown, CSV, OpenMetrics, HTML}

// The errors of the writers, checked with errors.Is.
var (
	// ErrFormat is a format the writers do not know.
	ErrFormat = errors.New("unknown format")
	// ErrNoTable is a CSV table name the document does not have; the
	// error is a *NoTableError naming the valid ones.
	ErrNoTable = errors.New("no such table")
	// ErrNoMetrics is OpenMetrics asked of documents without metrics.
	ErrNoMetrics = errors.New("no metrics for this output")
	// ErrNotRectangular is a CSV stream whose documents' tables have
	// different columns.
	ErrNotRectangular = errors.New("the tables have different columns")
	// ErrDuplicateSample is two samples of one metric with the same
	// labels (the same database twice).
	ErrDuplicateSample = errors.New("two samples with the same labels")
)

// NoTableError is a CSV table name a document does not have.
type NoTableError struct {
	Name  string
	Valid []string
}

func (e *NoTableError) Error() string {
	return fmt.Sprintf("no table %q (want one of %s)", e.Name, strings.Join(e.Valid, ", "))
}

// Unwrap makes errors.Is(err, ErrNoTable) true.
func (e *NoTableError) Unwrap() error { return ErrNoTable }

// ParseFormat reads a format name; "md" is markdown, "txt" text and
// "prometheus" OpenMetrics (Prometheus reads it). Anything else is an
// error wrapping ErrFormat.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "text", "txt", "":
		return Text, nil
	case "markdown", "md":
		return Markdown, nil
	case "csv":
		return CSV, nil
	case "openmetrics", "prometheus":
		return OpenMetrics, nil
	case "html":
		return HTML, nil
	}
	return "", fmt.Errorf("%w %q (want text, markdown, csv, openmetrics or html)", ErrFormat, s)
}

// Options are the reader's choices that every view shares.
type Options struct {
	// All shows every row of a bounded table in text, markdown and HTML.
	All bool
	// MaxRows bounds the rows of every table, and the findings, text,
	// markdown and HTML show, All or not (0: no bound): the report's page
	// shows at most report.HTMLRows of a table of 100,000.
	MaxRows int
	// MoreHint follows the note on the rows left out of a bounded table
	// ("20 of 1500 tables shown" + " (--all shows them)").
	MoreHint string
	// Table is the CSV table to write; "" is the document's Main.
	Table string
	// Source adds a first CSV column, "snapshot", naming each row's
	// document, for a table of several inputs or snapshots.
	Source bool
}

// Writer writes a stream of documents in one format: text and markdown
// a blank line apart, CSV as one table with one header, OpenMetrics as
// one exposition when it is closed.
type Writer struct {
	w    io.Writer
	f    Format
	opt  Options
	n    int
	csv  *csvWriter
	docs []*Doc // held for OpenMetrics, whose families span documents
	buf  *bufio.Writer
}

// NewWriter starts a stream of documents; an unknown format is ErrFormat.
func NewWriter(w io.Writer, f Format, opt Options) (*Writer, error) {
	switch f {
	case Text, Markdown, CSV, OpenMetrics, HTML:
	default:
		return nil, fmt.Errorf("%w %q", ErrFormat, f)
	}
	x := &Writer{w: w, f: f, opt: opt}
	if f == CSV {
		x.csv = &csvWriter{w: csv.NewWriter(w), opt: opt}
	}
	return x, nil
}

// Write writes one document (OpenMetrics: holds it for Close).
func (x *Writer) Write(d *Doc) error {
	defer func() { x.n++ }()
	switch x.f {
	case CSV:
		return x.csv.write(d)
	case OpenMetrics:
		x.docs = append(x.docs, d)
		return nil
	case HTML:
		return writeHTML(x.buffered(), d, x.opt)
	}
	if x.n > 0 {
		if _, err := fmt.Fprintln(x.w); err != nil {
			return err
		}
	}
	if x.f == Markdown {
		return writeMarkdown(x.buffered(), d, x.opt)
	}
	return writeText(x.buffered(), d, x.opt)
}

// buffered is the stream's one buffer, emptied for the next document
// (as a new one would be), which the text, markdown and HTML writers
// write through and flush: a buffer a document was 4 KiB allocated a
// run, 140 MB for a file of 36,315 small runs.
func (x *Writer) buffered() *bufio.Writer {
	if x.buf == nil {
		x.buf = bufio.NewWriter(x.w)
	} else {
		x.buf.Reset(x.w)
	}
	return x.buf
}

// Close ends the stream: OpenMetrics writes its exposition, which is
// ErrNoMetrics when no document had metrics.
func (x *Writer) Close() error {
	if x.f == OpenMetrics {
		return writeMetrics(x.w, x.docs)
	}
	return nil
}

// Write writes documents in a format, as a Writer does.
func Write(w io.Writer, f Format, opt Options, docs ...*Doc) error {
	x, err := NewWriter(w, f, opt)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if err := x.Write(d); err != nil {
			return err
		}
	}
	return x.Close()
}
