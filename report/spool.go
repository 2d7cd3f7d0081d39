package report

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/fbdiag/fbdiag/internal/extsort"
)

// spoolMem is how many bytes a spool keeps in memory before it moves to
// a temporary file (a variable for the tests).
var spoolMem = 1 << 20

// spool keeps records (encoded JSON elements) until they can be written,
// in order, in one stream of an extsort.Streams: spoolMem bytes in
// memory, the rest in a temporary file removed as it is created, so that
// a log of half a million tables holds none of them in memory. Each
// record is its length (a uvarint) and its bytes, appended as one piece.
type spool struct {
	s   *extsort.Streams
	rec []byte
	n   int // records
	err error
}

// add appends a record; the first error is kept for each.
func (s *spool) add(b []byte) {
	if s.err != nil {
		return
	}
	if s.s == nil {
		s.s = extsort.NewStreams(1, spoolMem)
	}
	s.n++
	s.rec = append(binary.AppendUvarint(s.rec[:0], uint64(len(b))), b...)
	s.err = s.s.Append(0, s.rec)
}

// errSpoolCut is a record that does not end in the bytes read back.
var errSpoolCut = errors.New("a record cut short")

// each calls fn with every record in order; b is valid until fn returns.
func (s *spool) each(fn func(i int, b []byte) error) error {
	if s.err != nil || s.s == nil {
		return s.err
	}
	i := 0
	// Read hands whole pieces, each a whole record.
	return s.s.Read(0, 0, s.s.Len(0), func(rest []byte) error {
		for len(rest) > 0 {
			n, k := binary.Uvarint(rest)
			if k <= 0 || uint64(len(rest)-k) < n {
				return fmt.Errorf("reading the spool: %w", errSpoolCut)
			}
			if err := fn(i, rest[k:k+int(n)]); err != nil {
				return err
			}
			rest = rest[k+int(n):]
			i++
		}
		return nil
	})
}

// close removes the temporary file, if any.
func (s *spool) close() {
	if s.s != nil {
		s.s.Close()
		s.s = nil
	}
	s.rec, s.n = nil, 0
}
