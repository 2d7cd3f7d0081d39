package parse

import (
	"errors"
	"fmt"

	"github.com/fbdiag/fbdiag/internal/printable"
)

// SyntaxError is a line the reader could not use. It carries the file
// name and the 1-based line number so that every message reads
// "file:line: what is wrong", the form editors and CI logs understand.
type SyntaxError struct {
	File string
	Line int
	Msg  string
	// Err is the sentinel the error is a case of (ErrNoGstat), for
	// errors.Is; nil for a plain syntax error.
	Err error
}

// ErrNoGstat is an input with no gstat output in it: a SyntaxError whose
// Err it is, so errors.Is(err, ErrNoGstat) tells it from a bad line.
var ErrNoGstat = errors.New("no gstat output found")

// Unwrap gives the sentinel, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Error is "file:line: message", with the control characters of names
// quoted from the input escaped (see printable.String): it is printed on
// a terminal.
func (e *SyntaxError) Error() string { return position(e.File, e.Line, e.Msg) }

func position(file string, line int, msg string) string {
	if line <= 0 {
		return printable.String(fmt.Sprintf("%s: %s", file, msg))
	}
	return printable.String(fmt.Sprintf("%s:%d: %s", file, line, msg))
}

// Notice is something a reader skipped, repaired or guessed. Notices never
// stop a read: a DBA's file often has a preamble, a second run appended or
// a line from a newer version, and the rest of the report is still worth
// reading.
type Notice struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Msg  string `json:"message"`
}

// String is "file:line: message", escaped as SyntaxError's; the JSON
// fields keep the exact text.
func (n Notice) String() string { return position(n.File, n.Line, n.Msg) }

// Error lets a Notice be returned where an error is expected.
func (n Notice) Error() string { return n.String() }

// leftOut counts the lines of a kind (unknown lines of a gstat block,
// -e lines, the notices of a gstat run, of a gbak log or of a table
// file) not kept once their reader's bound is reached, from line first.
type leftOut struct {
	n, first int
	what     string // "unknown lines in table T"
}

// add counts one more line left out, at line (notices held to the end
// of a block can come after later ones: first is the least).
func (o *leftOut) add(line int, what string) {
	if o.n == 0 {
		o.first, o.what = line, what
	}
	o.first = min(o.first, line)
	o.n++
}

// notice is the notice that counts the notices of file left out past a
// reader's bound, at the line of the first: "300 more notices not
// printed, from this line on".
func (o *leftOut) notice(file string) Notice {
	return Notice{File: file, Line: o.first, Msg: sprintf("%d more %s not printed, from this line on", o.n, o.what)}
}
