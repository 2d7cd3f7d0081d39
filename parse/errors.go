package parse

import "fmt"

// SyntaxError is a line the reader could not use. It carries the file
// name and the 1-based line number so that every message reads
// "file:line: what is wrong", the form editors and CI logs understand.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
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

func (n Notice) String() string {
	if n.Line <= 0 {
		return fmt.Sprintf("%s: %s", n.File, n.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", n.File, n.Line, n.Msg)
}

// Error lets a Notice be returned where an error is expected.
func (n Notice) Error() string { return n.String() }
