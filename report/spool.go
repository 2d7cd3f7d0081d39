package report

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// spoolMem is how many bytes a spool keeps in memory before it moves to
// a temporary file (a variable for the tests).
var spoolMem = 1 << 20

// spool keeps records (encoded JSON elements) until they can be written,
// in order: in memory up to spoolMem bytes, then in a temporary file, so
// that a log of half a million tables holds none of them in memory. Each
// record is its length (a uvarint) and its bytes.
type spool struct {
	mem []byte
	f   *os.File
	w   *bufio.Writer
	n   int // records
	err error
}

// add appends a record; the first error is kept for each.
func (s *spool) add(b []byte) {
	if s.err != nil {
		return
	}
	s.n++
	if s.f == nil && len(s.mem)+len(b)+binary.MaxVarintLen64 <= spoolMem {
		s.mem = binary.AppendUvarint(s.mem, uint64(len(b)))
		s.mem = append(s.mem, b...)
		return
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "fbdiag-spool-*")
		if err != nil {
			s.err = fmt.Errorf("spooling: %w", err)
			return
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
		_, s.err = s.w.Write(s.mem)
		s.mem = nil
	}
	var head [binary.MaxVarintLen64]byte
	if _, err := s.w.Write(binary.AppendUvarint(head[:0], uint64(len(b)))); err != nil && s.err == nil {
		s.err = fmt.Errorf("spooling: %w", err)
	}
	if _, err := s.w.Write(b); err != nil && s.err == nil {
		s.err = fmt.Errorf("spooling: %w", err)
	}
}

// each calls fn with every record in order; b is valid until fn returns.
func (s *spool) each(fn func(i int, b []byte) error) error {
	if s.err != nil {
		return s.err
	}
	var r *bufio.Reader
	if s.f != nil {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("spooling: %w", err)
		}
		r = bufio.NewReaderSize(io.NewSectionReader(s.f, 0, 1<<62), 64<<10)
	}
	var buf []byte
	rest := s.mem
	for i := range s.n {
		var b []byte
		if r == nil {
			n, k := binary.Uvarint(rest)
			b, rest = rest[k:k+int(n)], rest[k+int(n):]
		} else {
			n, err := binary.ReadUvarint(r)
			if err == nil {
				if uint64(cap(buf)) < n {
					buf = make([]byte, n)
				}
				buf = buf[:n]
				_, err = io.ReadFull(r, buf)
			}
			if err != nil {
				return fmt.Errorf("reading the spool: %w", err)
			}
			b = buf
		}
		if err := fn(i, b); err != nil {
			return err
		}
	}
	return nil
}

// close removes the temporary file, if any.
func (s *spool) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f, s.w = nil, nil
	}
	s.mem, s.n = nil, 0
}
