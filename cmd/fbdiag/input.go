package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fbdiag/fbdiag/internal/shellarg"
	"github.com/fbdiag/fbdiag/parse"
)

// headReader is an input with its first bytes buffered, so that they can
// be looked at (binary data, the kind of file) before a reader parses it.
type headReader struct {
	*bufio.Reader
	io.Closer
	// kind is what parse.Detect took the head for, why its reason.
	kind parse.InputKind
	why  string
}

// openFile opens a named file for reading, refusing what no fbdiag reader
// can use: a directory (os.Open succeeds on one, the read fails later with
// a message about line 1) and binary data, which the text readers would
// otherwise turn into hundreds of "skipped" notices or, worse, an analysis.
func openFile(name string) (*headReader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory, not a file", name)
	}
	h, err := sniff(f, f, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return h, nil
}

// openArg opens an input named on the command line; "-" is stdin. The
// returned name is what messages show. Directories and binary data are
// refused here.
func openArg(stdin io.Reader, name string) (io.ReadCloser, string, error) {
	if name == "-" {
		h, err := sniff(stdin, io.NopCloser(nil), "<stdin>")
		return h, "<stdin>", err
	}
	f, err := openFile(name)
	if err != nil {
		return nil, name, err
	}
	return f, name, nil
}

// sniff buffers the head of r and fails on binary data.
func sniff(r io.Reader, c io.Closer, shown string) (*headReader, error) {
	h := &headReader{Reader: bufio.NewReaderSize(r, parse.DetectSize), Closer: c}
	head, _ := h.Peek(parse.DetectSize)
	kind, why := parse.Detect(head)
	h.kind, h.why = kind, why
	if kind == parse.InputUnknown && strings.HasPrefix(why, "binary") {
		// A SyntaxError, as "no gstat output found" is: gstat trend skips
		// it in a folder (the charts --png wrote there, say).
		msg := why
		switch {
		case strings.HasSuffix(why, "(NUL bytes outside UTF-16 text)"):
			msg += ": not the text output of a Firebird tool or benchmark"
		case shown != "<stdin>":
			// Text kept compressed (stats.txt.gz): how to read it.
			msg = strings.Replace(why, "FILE", shellarg.Local(shown), 1)
		}
		return nil, &parse.SyntaxError{File: shown, Msg: msg}
	}
	return h, nil
}

// refuseKind fails when the input is recognised as the kind another command
// reads: 'fbdiag throughput' finds "tables" in the statistics columns of a
// gbak log or a gstat header and would analyse them.
func refuseKind(r io.Reader, shown, command string, others ...parse.InputKind) error {
	h, ok := r.(*headReader)
	if !ok {
		return nil
	}
	head, _ := h.Peek(parse.DetectSize)
	kind, why := parse.Detect(head)
	for _, k := range others {
		if kind == k {
			return fmt.Errorf("%s: %s output (%s), not for 'fbdiag %s': use 'fbdiag %s'",
				shown, k, why, command, k)
		}
	}
	return nil
}

// otherKind is the error for an input in which the reader of command
// found nothing of its kind and which parse.Detect takes for the input of
// another command (a gbak log given to 'fbdiag gstat'): it names that
// command rather than "no gstat output found". It is nil when the input
// is of no kind Detect knows.
func otherKind(r io.Reader, shown, command string) error {
	h, ok := r.(*headReader)
	if !ok || h.kind == parse.InputUnknown || string(h.kind) == command {
		return nil
	}
	what, use := string(h.kind)+" output", "throughput"
	switch h.kind {
	case parse.InputGstat, parse.InputGbak:
		use = string(h.kind)
	case parse.InputThroughput:
		what = "a result table"
	case parse.InputBenchRun:
		what = "a fbdiag bench run result"
	}
	return fmt.Errorf("%s: %s (%s), not for 'fbdiag %s': use 'fbdiag %s'", shown, what, h.why, command, use)
}

// tablesBeside says whether the file name, which Detect takes for another
// command's output, also holds result tables or benchmark output (an
// article with its tables and a gbak excerpt, parse.SplitInput), and
// gives the parts of the other kinds. Standard input, which cannot be
// read twice, holds none.
func tablesBeside(name string) (others []parse.Part, ok bool) {
	if name == "-" {
		return nil, false
	}
	sp, err := parse.SplitInput(func() (io.ReadCloser, error) { return openFile(name) }, name)
	if err != nil || !sp.Mixed() {
		return nil, false
	}
	for _, p := range sp.Parts {
		if p.Kind == parse.InputThroughput || p.Kind == parse.InputBenchmark {
			ok = true
		} else {
			others = append(others, p)
		}
	}
	return others, ok
}

// Stat is the file's, for the modification time that dates a gstat run
// printed without one; standard input has none.
func (h *headReader) Stat() (os.FileInfo, error) {
	if f, ok := h.Closer.(*os.File); ok {
		return f.Stat()
	}
	return nil, os.ErrInvalid
}

// stdinOnce is the usage error for "-" named twice: the second read finds
// standard input empty and failed as "<stdin>: no gstat output found".
func stdinOnce(command string, args []string) error {
	n := 0
	for _, a := range args {
		if a == "-" {
			n++
		}
	}
	if n > 1 {
		return usagef("%s: standard input (-) can be read only once", command)
	}
	return nil
}

// fileBytes is the size of the named inputs that are regular files,
// standard input's when it is one (a redirection); a pipe counts 0.
func fileBytes(stdin io.Reader, args []string) int64 {
	var n int64
	for _, a := range args {
		var fi os.FileInfo
		var err error
		if a == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				continue
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(a)
		}
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}
