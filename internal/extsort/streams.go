package extsort

import (
	"fmt"
	"os"
	"sort"
)

// Streams holds numbered streams of bytes, each appended to in pieces
// and read back a range at a time, in bounded memory: each stream keeps
// its last bytes in a buffer of its share of the budget, the rest in
// chunks of one temporary file (removed as it is created, as a Sorter's).
// A piece is never split between chunks, so a range that starts and ends
// between pieces is read back in slices of whole pieces. Where records
// come in the order they are to be read within each stream (the samples
// of each metric family, say), this replaces a sort by a concatenation.
type Streams struct {
	per    int      // the buffer of each stream
	bufs   [][]byte // the bytes of each stream not in the file
	chunks [][]chunk
	done   []int64 // the bytes of each stream in the file

	file  *os.File
	named bool
	end   int64
	rbuf  []byte

	held, maxHeld int
}

// chunk is a part of a stream in the file: where it starts in the stream,
// its offset in the file and its length.
type chunk struct{ at, off, n int64 }

// NewStreams makes n streams that hold about budget bytes in memory.
func NewStreams(n, budget int) *Streams {
	return &Streams{per: max(budget/n, 1), bufs: make([][]byte, n), chunks: make([][]chunk, n), done: make([]int64, n)}
}

// Append adds the piece b to the end of stream i.
func (s *Streams) Append(i int, b []byte) error {
	buf := s.bufs[i]
	if len(buf)+len(b) > s.per {
		if err := s.flush(i, buf); err != nil {
			return err
		}
		s.held -= len(buf)
		buf = buf[:0]
		if len(b) > s.per {
			s.bufs[i] = buf
			return s.flush(i, b)
		}
	}
	if n := len(buf) + len(b); n > cap(buf) {
		// Grown by doubling up to the budget, from 256 bytes: a stream of
		// a few records (a run of a few warnings) holds a few hundred
		// bytes, not the budget (from 4 KiB, 36,315 runs of one warning
		// allocated 145 MB).
		grown := make([]byte, len(buf), min(s.per, max(n, 2*cap(buf), 256)))
		copy(grown, buf)
		buf = grown
	}
	s.bufs[i] = append(buf, b...)
	s.held += len(b)
	s.maxHeld = max(s.maxHeld, s.held)
	return nil
}

// flush writes b at the end of the file as stream i's next chunk.
func (s *Streams) flush(i int, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if s.file == nil {
		f, named, err := createTemp()
		if err != nil {
			return fmt.Errorf("spooling: %w", err)
		}
		s.file, s.named = f, named
	}
	if _, err := s.file.WriteAt(b, s.end); err != nil {
		return fmt.Errorf("spooling: %w", err)
	}
	s.chunks[i] = append(s.chunks[i], chunk{at: s.done[i], off: s.end, n: int64(len(b))})
	s.end += int64(len(b))
	s.done[i] += int64(len(b))
	return nil
}

// Len is the length of stream i: where the next piece will start.
func (s *Streams) Len(i int) int64 { return s.done[i] + int64(len(s.bufs[i])) }

// MaxHeld is the most bytes the streams held in memory at once.
func (s *Streams) MaxHeld() int { return s.maxHeld }

// Read passes fn the bytes of stream i from from to to, in order, in
// slices that hold whole pieces when from and to are between pieces (two
// values of Len). A slice is valid until fn returns. The first error
// stops it.
func (s *Streams) Read(i int, from, to int64, fn func(b []byte) error) error {
	if from >= to {
		return nil
	}
	cs := s.chunks[i]
	// The first chunk that ends after from.
	k := sort.Search(len(cs), func(k int) bool { return cs[k].at+cs[k].n > from })
	for ; k < len(cs) && cs[k].at < to; k++ {
		c := cs[k]
		lo, hi := max(from, c.at)-c.at, min(to, c.at+c.n)-c.at
		if int64(cap(s.rbuf)) < hi-lo {
			s.rbuf = make([]byte, hi-lo)
		}
		b := s.rbuf[:hi-lo]
		if _, err := s.file.ReadAt(b, c.off+lo); err != nil {
			return fmt.Errorf("spooling: reading back: %w", err)
		}
		if err := fn(b); err != nil {
			return err
		}
	}
	if to > s.done[i] {
		if err := fn(s.bufs[i][max(from, s.done[i])-s.done[i] : to-s.done[i]]); err != nil {
			return err
		}
	}
	return nil
}

// Close drops the streams and removes their temporary file.
func (s *Streams) Close() {
	if s.file != nil {
		removeTemp(s.file, s.named)
		s.file = nil
	}
	clear(s.bufs)
	clear(s.chunks)
	clear(s.done)
	s.end, s.held, s.rbuf = 0, 0, nil
}
