package testutil

import "errors"

// ErrFull is the error of a FailAfter writer.
var ErrFull = errors.New("disk full")

// FailAfter is a writer that takes N bytes, then fails every write with
// ErrFull (a disk that fills up half-way through an output); Calls
// counts the writes, OK those that succeeded.
type FailAfter struct {
	N, Calls, OK int
}

func (f *FailAfter) Write(b []byte) (int, error) {
	f.Calls++
	if len(b) > f.N {
		f.N = 0
		return 0, ErrFull
	}
	f.N -= len(b)
	f.OK++
	return len(b), nil
}
