package report

import (
	"fmt"
	"io"

	"github.com/fbdiag/fbdiag/parse"
)

// Write is the --format switch every command shares: v as JSON (its
// documented contract), else the tables built from it, which are built
// only when needed.
func Write(w io.Writer, f Format, v any, tables func() []*Table) error {
	if f == JSON {
		return WriteJSON(w, v)
	}
	return WriteTables(w, f, tables()...)
}

// WriteNotices prints what a reader skipped, repaired or guessed, one
// "file:line: message" a line, each after prefix (which may be empty), so
// that editors and CI logs can jump to the line.
func WriteNotices(w io.Writer, prefix string, notices []parse.Notice) {
	for _, n := range notices {
		fmt.Fprintln(w, prefix+n.String())
	}
}
