// Package extsort sorts more records than memory should hold. A Sorter
// keeps records until they take a byte budget, sorts them and writes them
// to a temporary file as one sorted run, and merges the runs when the
// records are read back. Memory then holds the budget and a small read
// buffer per run, whatever the number of records: a gstat run of 250,000
// tables is written in the order of its sort key in a few megabytes.
//
// The sort is stable: records that compare equal come out in the order
// they were added.
package extsort

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"unsafe"
)

// Codec turns a record into bytes and back.
type Codec[T any] struct {
	// Append appends the record's bytes to b.
	Append func(b []byte, t T) []byte
	// Decode reads a record from the bytes Append wrote. The record may
	// keep b (Fields.Ref, Fields.Bytes): b stays as it is until Each's fn
	// returns for that record, then is reused; fn copies what it keeps.
	// Decode may read only what cmp needs when the records are read with
	// EachRaw: the sorter never encodes a record it decoded (compaction
	// copies the bytes it read).
	Decode func(b []byte) (T, error)
	// DecodeTo, when set, is Decode into *t, every field of which it
	// sets: the merge reads every record of its runs so, and a record of
	// a hundred bytes returned, then copied into place, cost as many
	// instructions as reading it.
	DecodeTo func(b []byte, t *T) error
	// Size is about how many bytes of memory the record takes.
	Size func(t T) int
}

// FanIn is how many runs are merged at once: when a sorter has written
// that many runs of one level, it merges them into one run of the next,
// so that reading back needs fewer than FanIn read buffers a level (of
// minReadBuffer bytes or more: 8 MiB for 1024). At 128, the rows of csv
// --table warnings of a 300 MiB gstat output (147 runs) were merged once
// more before being read: 1.99 s against 1.46 s at 256. At 256, those of
// a 1 GiB output (some 440 runs, 880 MB) were: 5.74 s (2.45 s of system
// time) against 4.19 s (0.79 s) at 1024, its JSON 4.14 s against
// 4.01 s, in the same peak RSS (41 MB).
var FanIn = 1024

// minReadBuffer and maxReadBuffer bound the read buffer of each run
// while merging: the sorter's budget shared by its runs (its batch is
// empty by then), so that a few runs are read in few system calls.
const (
	minReadBuffer = 8 << 10
	maxReadBuffer = 1 << 20
)

// Sorter sorts records by cmp in a bounded memory (see the package
// comment). Add the records, then read them in order with Each; Close
// removes the temporary files.
type Sorter[T any] struct {
	cmp    func(a, b T) int
	cmpP   func(a, b *T) int // cmp on pointers, for the merge (CompareWith)
	sort   func([]T)         // sorts a batch; nil: a stable sort by cmp
	codec  Codec[T]
	budget int

	batch []T
	held  int // bytes of batch, by codec.Size

	// levels[0] holds the runs of batches, levels[l+1] the runs merged
	// from FanIn runs of levels[l]: each level in a file of its own,
	// emptied when its runs are merged.
	levels []*level
	buf    []byte
	// w writes a run: one buffer for every run (writes are one at a
	// time), not 64 KiB more each, which a small budget's many runs
	// made the collector's work.
	w *bufio.Writer

	n       int
	maxHeld int
	spilled int

	// pending, when not nil, is closed once the batch handed to a
	// goroutine of its own (spill) is sorted and written, with its error
	// in spillErr; spare is the slice that batch goes back as.
	pending  chan struct{}
	spillErr error
	spare    []T
	spilling int // records of the batch being spilled

	// text holds the bytes Hold copied for the batch, spareText those of
	// the batch being spilled, which the next batch reuses.
	text, spareText []byte
}

// level is a temporary file of sorted runs.
type level struct {
	file *os.File
	runs []run
	end  int64
	// named: the file could not be removed while open (Windows); reset
	// removes it.
	named bool
}

// run is a sorted run in a level's file: its offset and length.
type run struct{ off, n int64 }

// New sorts records by cmp, keeping about budget bytes in memory.
func New[T any](cmp func(a, b T) int, c Codec[T], budget int) *Sorter[T] {
	return &Sorter[T]{cmp: cmp, codec: c, budget: budget}
}

// SortWith has the sorter sort its batches with sort (slices.Sort of
// numbers, say), which must order them as cmp does, and returns it. Any
// sort will do where records that compare equal cannot be told apart (a
// number compared as a whole): the order is still that of a stable sort.
func (s *Sorter[T]) SortWith(sort func([]T)) *Sorter[T] {
	s.sort = sort
	return s
}

// CompareWith gives the sorter cmp on pointers, which the merge calls
// rather than cmp: a record of a hundred bytes is not copied twice a
// comparison. It must order as cmp does.
func (s *Sorter[T]) CompareWith(cmp func(a, b *T) int) *Sorter[T] {
	s.cmpP = cmp
	return s
}

// sortBatch sorts a batch.
func (s *Sorter[T]) sortBatch(batch []T) {
	if s.sort != nil {
		s.sort(batch)
		return
	}
	slices.SortStableFunc(batch, s.cmp)
}

// Add adds a record. A record bigger than the budget is written alone.
// A full batch is sorted and written on a goroutine of its own while the
// next one fills (memory holds two), so the codec's Append and the sort
// may run on another goroutine than Add's, one batch at a time.
func (s *Sorter[T]) Add(t T) error {
	s.batch = append(s.batch, t)
	s.held += s.codec.Size(t)
	s.n++
	s.maxHeld = max(s.maxHeld, len(s.batch)+s.spilling)
	if s.held >= s.budget {
		return s.spillAsync()
	}
	return nil
}

// Hold copies b into bytes the sorter keeps with the batch being filled
// and returns them as a string, for a record to Add: the bytes of a
// batch are reused once it is written, rather than a string allocated
// for each record (the rows of csv --table warnings were 80 MB of the
// 210 MB a 100 MiB run allocated: 17 collections, 13 without them).
// The string is valid while the sorter holds the record: until its batch
// is written, or until Each's fn returns for it.
func (s *Sorter[T]) Hold(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(s.text)+len(b) > cap(s.text) {
		// A bigger block; the strings in the old one keep it until their
		// batch is written. A batch's bytes soon fit one block.
		s.text = make([]byte, 0, max(min(2*cap(s.text), s.budget), len(b), 16<<10))
	}
	n := len(s.text)
	s.text = append(s.text, b...)
	return unsafe.String(&s.text[n], len(b))
}

// spillAsync hands the batch to a goroutine that spills it, once the
// previous one is written.
func (s *Sorter[T]) spillAsync() error {
	if err := s.wait(); err != nil {
		return err
	}
	full, text := s.batch, s.text
	s.batch, s.held, s.spare, s.spilling = s.spare[:0], 0, nil, len(full)
	s.text, s.spareText = s.spareText[:0], nil
	done := make(chan struct{})
	s.pending = done
	go func() {
		defer close(done)
		s.spillErr = s.spillBatch(full)
		clear(full) // (their strings can go)
		s.spare, s.spareText = full[:0], text[:0]
	}()
	return nil
}

// Flush hands the batch being filled to the goroutine that spills
// batches, when the sorter spills (a batch is being spilled or was), so
// that it is sorted and written while the caller does something else
// before Each; else it leaves it, for Each to sort in memory. It waits
// for the batch being spilled, as Add does when a batch is full.
func (s *Sorter[T]) Flush() error {
	if len(s.batch) == 0 || s.pending == nil && len(s.levels) == 0 { // (levels: no spill running)
		return nil
	}
	return s.spillAsync()
}

// wait waits for the batch being spilled, if any, and returns its error.
func (s *Sorter[T]) wait() error {
	if s.pending != nil {
		<-s.pending
		s.pending, s.spilling = nil, 0
	}
	return s.spillErr
}

// Len is how many records were added since the last Each.
func (s *Sorter[T]) Len() int { return s.n }

// MaxHeld is the most records the sorter held in memory at once: up to
// two budgets' worth, one batch filling while the last one is written.
func (s *Sorter[T]) MaxHeld() int { return s.maxHeld }

// Spilled is how many batches the sorter wrote to its temporary files.
func (s *Sorter[T]) Spilled() int {
	s.wait() // (an error stays for the next call)
	return s.spilled
}

// spillBatch sorts batch and writes it as a sorted run.
func (s *Sorter[T]) spillBatch(batch []T) error {
	if len(batch) == 0 {
		return nil
	}
	s.sortBatch(batch)
	err := s.write(0, func(put func(T, []byte) error) error {
		for _, t := range batch {
			if err := put(t, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.spilled++
	for l := 0; l < len(s.levels) && len(s.levels[l].runs) >= FanIn; l++ {
		if err := s.compact(l); err != nil {
			return err
		}
	}
	return nil
}

// write adds a run to level l: the records each passes to put, or their
// bytes (Codec.Append's) when it passes them.
func (s *Sorter[T]) write(l int, each func(put func(T, []byte) error) error) error {
	for len(s.levels) <= l {
		s.levels = append(s.levels, &level{})
	}
	v := s.levels[l]
	if v.file == nil {
		f, named, err := createTemp()
		if err != nil {
			return fmt.Errorf("sorting: %w", err)
		}
		v.file, v.named = f, named
	}
	if s.w == nil {
		s.w = bufio.NewWriterSize(nil, 64<<10)
	}
	w := s.w
	w.Reset(io.NewOffsetWriter(v.file, v.end))
	var n int64
	err := each(func(t T, raw []byte) error {
		k, err := s.put(w, t, raw)
		n += k
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("sorting: %w", err)
	}
	v.runs = append(v.runs, run{v.end, n})
	v.end += n
	return nil
}

// put writes one record: its length, then its bytes, raw when they are
// given (a record read back), else the codec's.
func (s *Sorter[T]) put(w *bufio.Writer, t T, raw []byte) (int64, error) {
	if raw == nil {
		s.buf = s.codec.Append(s.buf[:0], t)
		raw = s.buf
	}
	// The length a byte at a time: a slice of an array on the stack,
	// passed to Write, went to the heap (a bufio.Writer may hand it on),
	// one allocation a record.
	h := 1
	x := uint64(len(raw))
	for ; x >= 0x80; x >>= 7 {
		w.WriteByte(byte(x) | 0x80)
		h++
	}
	w.WriteByte(byte(x))
	_, err := w.Write(raw) // (a bufio.Writer's error sticks: one check)
	if err != nil {
		return 0, err
	}
	return int64(h + len(raw)), nil
}

// compact merges the runs of level l into one run of level l+1 and
// empties level l's file.
func (s *Sorter[T]) compact(l int) error {
	v := s.levels[l]
	err := s.write(l+1, func(put func(T, []byte) error) error {
		return s.merge([]*level{v}, put) // (their bytes: not encoded again)
	})
	if err != nil {
		return err
	}
	v.runs, v.end = nil, 0
	if err := v.file.Truncate(0); err != nil {
		return fmt.Errorf("sorting: %w", err)
	}
	return nil
}

// Each passes fn every record in order, then empties the sorter (its
// temporary files go) for the next records. The first error stops it. A
// record read back from a file is valid until fn returns (Codec.Decode).
func (s *Sorter[T]) Each(fn func(T) error) error {
	return s.EachRaw(func(t T, _ []byte) error { return fn(t) })
}

// EachRaw is Each that also passes, for a record read back from a file,
// the bytes it was read from (Codec.Append's), valid as the record is
// until fn returns: a consumer can copy them for another goroutine to
// decode. Either every record comes with its bytes or none does (raw
// nil): none when the sorter wrote no file, since once it has, the last
// batch is written too before the runs are merged.
func (s *Sorter[T]) EachRaw(fn func(t T, raw []byte) error) error {
	defer s.reset()
	if err := s.wait(); err != nil {
		return err
	}
	if len(s.levels) == 0 {
		s.sortBatch(s.batch)
		for _, t := range s.batch {
			if err := fn(t, nil); err != nil {
				return err
			}
		}
		return nil
	}
	// The last batch as a run of its own (its records can go while
	// merging; reset empties it).
	if err := s.spillBatch(s.batch); err != nil {
		return err
	}
	clear(s.batch)
	// The older runs first: those of the higher levels.
	vs := slices.Clone(s.levels)
	slices.Reverse(vs)
	return s.merge(vs, fn)
}

// merge passes fn the records of the runs of levels vs in order; a tie
// goes to the earlier run (vs oldest first), which keeps the sort stable.
func (s *Sorter[T]) merge(vs []*level, fn func(T, []byte) error) error {
	runs := 0
	for _, v := range vs {
		runs += len(v.runs)
	}
	size := min(max(s.budget/max(runs, 1), minReadBuffer), maxReadBuffer)
	cs := make([]*cursor[T], 0, runs)
	for _, v := range vs {
		for _, r := range v.runs {
			c := &cursor[T]{src: io.NewSectionReader(v.file, r.off, r.n), b: make([]byte, min(int64(size), max(r.n, 16)))}
			ok, err := c.next(s.codec)
			if err != nil {
				return err
			}
			c.done = !ok
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return nil
	}
	cmpP := s.cmpP
	if cmpP == nil {
		cmpP = func(a, b *T) int { return s.cmp(*a, *b) }
	}
	t := newLoserTree(cs, cmpP)
	pass := func(c *cursor[T]) error {
		if err := fn(c.cur, c.raw); err != nil {
			return err
		}
		ok, err := c.next(s.codec)
		c.done = !ok
		return err
	}
	wins := 0 // the times in a row the winner won
	for w := t.winner(); !cs[w].done; {
		c := cs[w]
		if err := pass(c); err != nil {
			return err
		}
		if wins >= streakMin {
			// A streak: the winner's records pass while they come before
			// the runner-up's, a comparison each, the tree left as it is.
			for r := t.runnerUp(w); !c.done && t.less(w, r); { // (less: a finished run before another finished one)
				if err := pass(c); err != nil {
					return err
				}
			}
			wins = 0
		}
		next := t.replay(w)
		if next == w {
			wins++
		} else {
			wins = 0
		}
		w = next
	}
	return nil
}

// streakMin is how many times in a row a run wins before the merge
// passes its records while they come before the runner-up's: the
// records of a gstat output's warnings come run after run where they
// tie on severity and magnitude (the runs hold consecutive tables), some
// two hundred at a time in the 100 MiB benchmark file, and a streak
// costs one comparison a record rather than log2 of the runs (the
// JSON's comparisons of warnings 89 → 28 M instructions at 100 MiB). A
// run that won few times in a row may lose at once: the runner-up costs
// as much as a replay to find.
const streakMin = 4

// reset empties the sorter and removes its temporary files.
func (s *Sorter[T]) reset() {
	s.wait()
	s.spillErr = nil
	clear(s.batch)
	s.batch, s.held, s.n = s.batch[:0], 0, 0
	s.text = s.text[:0]
	for _, v := range s.levels {
		if v.file != nil {
			removeTemp(v.file, v.named)
		}
	}
	s.levels = nil
}

// Close removes the temporary files of a sorter not read to the end.
func (s *Sorter[T]) Close() error {
	s.reset()
	return nil
}

// createTemp creates a temporary file (fbdiag-sort-* in TMPDIR) and
// removes it at once where an open file can be removed (Unix): nothing
// is left behind, even when its owner is dropped half-way or the process
// killed (an interrupt included); the space goes when the file is
// closed. named says it could not be removed (Windows): removeTemp
// removes it after closing it.
func createTemp() (f *os.File, named bool, err error) {
	f, err = os.CreateTemp("", "fbdiag-sort-*")
	if err != nil {
		return nil, false, err
	}
	return f, os.Remove(f.Name()) != nil, nil
}

// removeTemp closes a file of createTemp and removes it if named.
func removeTemp(f *os.File, named bool) {
	f.Close()
	if named {
		os.Remove(f.Name())
	}
}

// cursor reads one run through a buffer of its own: the merge reads
// every record of a run, and bufio.Reader's Peek and Discard, four calls
// a record, cost twice the reading.
type cursor[T any] struct {
	src  io.Reader
	b    []byte // read buffer: b[r:w] is not read yet
	r, w int
	err  error  // src's error once it returned one (io.EOF at its end)
	done bool   // the run is read to its end
	buf  []byte // a record longer than b
	raw  []byte // cur's bytes: in b or buf
	cur  T
}

// fill moves the bytes not read to the buffer's start and reads until it
// holds want of them, is full or src fails.
func (c *cursor[T]) fill(want int) {
	if c.r > 0 {
		c.w = copy(c.b, c.b[c.r:c.w])
		c.r = 0
	}
	for c.w < want && c.w < len(c.b) && c.err == nil {
		n, err := c.src.Read(c.b[c.w:])
		c.w += n
		c.err = err
	}
}

// unexpected is the error of a run that ends within a record.
func (c *cursor[T]) unexpected() error {
	if c.err == nil || errors.Is(c.err, io.EOF) {
		return fmt.Errorf("sorting: reading back: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("sorting: reading back: %w", c.err)
}

// next reads the run's next record into cur; false at its end. The
// record's bytes are those in the buffer when they fit (read in place:
// valid until the next read), else a copy.
func (c *cursor[T]) next(codec Codec[T]) (bool, error) {
	if c.w-c.r < binary.MaxVarintLen64 && c.err == nil {
		c.fill(binary.MaxVarintLen64)
	}
	p := c.b[c.r:c.w]
	if len(p) == 0 {
		if errors.Is(c.err, io.EOF) {
			return false, nil
		}
		return false, fmt.Errorf("sorting: reading back: %w", c.err)
	}
	n, k := binary.Uvarint(p)
	switch {
	case k < 0 || k == 0 && len(p) >= binary.MaxVarintLen64:
		return false, errors.New("sorting: reading back: a record's length overflows")
	case k == 0:
		return false, c.unexpected()
	}
	c.r += k
	switch {
	case n <= uint64(c.w-c.r):
	case n <= uint64(len(c.b)):
		if c.fill(int(n)); n > uint64(c.w) {
			return false, c.unexpected()
		}
	default:
		c.buf = slices.Grow(c.buf[:0], int(n))[:n]
		m := copy(c.buf, c.b[c.r:c.w])
		c.r, c.w = 0, 0
		if c.err == nil {
			_, c.err = io.ReadFull(c.src, c.buf[m:])
		} else {
			c.err = io.ErrUnexpectedEOF
		}
		if c.err != nil {
			if c.err == io.EOF {
				c.err = io.ErrUnexpectedEOF
			}
			return false, c.unexpected()
		}
		c.raw = c.buf
		return c.decode(codec)
	}
	c.raw = c.b[c.r : c.r+int(n) : c.r+int(n)]
	c.r += int(n)
	return c.decode(codec)
}

// decode reads cur from raw.
func (c *cursor[T]) decode(codec Codec[T]) (bool, error) {
	var err error
	if codec.DecodeTo != nil {
		err = codec.DecodeTo(c.raw, &c.cur)
	} else {
		c.cur, err = codec.Decode(c.raw)
	}
	if err != nil {
		return false, fmt.Errorf("sorting: reading back: %w", err)
	}
	return true, nil
}

// loserTree picks the cursor whose record comes first among k runs in
// log2(k) comparisons a record (a heap takes twice as many, through an
// interface): node n of nodes[1:k] holds the loser of the match between
// its children 2n and 2n+1, the leaves k to 2k-1 being the cursors, and
// nodes[0] the overall winner. Knuth, The Art of Computer Programming
// vol. 3, 5.4.1 (replacement selection's "tree of losers").
type loserTree[T any] struct {
	cs    []*cursor[T]
	cmp   func(a, b *T) int
	nodes []int
}

// newLoserTree plays the first matches of cursors cs, one or more.
func newLoserTree[T any](cs []*cursor[T], cmp func(a, b *T) int) *loserTree[T] {
	t := &loserTree[T]{cs: cs, cmp: cmp, nodes: make([]int, len(cs))}
	t.nodes[0] = t.build(1)
	return t
}

// build plays the matches under node n and returns its winner.
func (t *loserTree[T]) build(n int) int {
	k := len(t.cs)
	if n >= k {
		return n - k
	}
	a, b := t.build(2*n), t.build(2*n+1)
	if t.less(b, a) {
		a, b = b, a
	}
	t.nodes[n] = b
	return a
}

// winner is the cursor whose record comes first; done when all are.
func (t *loserTree[T]) winner() int { return t.nodes[0] }

// replay plays again the matches of cursor w, which moved to its next
// record, on its way to the root, and returns the new winner.
func (t *loserTree[T]) replay(w int) int {
	for n := (w + len(t.cs)) / 2; n > 0; n /= 2 {
		if l := t.nodes[n]; t.less(l, w) {
			t.nodes[n], w = w, l
		}
	}
	t.nodes[0] = w
	return w
}

// runnerUp is the cursor whose record comes first but for winner w's:
// the best of the losers on w's way to the root, each the winner of the
// subtree w met there.
func (t *loserTree[T]) runnerUp(w int) int {
	r := -1
	for n := (w + len(t.cs)) / 2; n > 0; n /= 2 {
		if l := t.nodes[n]; r < 0 || t.less(l, r) {
			r = l
		}
	}
	if r < 0 {
		return w // (one run: none other)
	}
	return r
}

// less reports whether cursor a's record comes before b's: a finished run
// comes after any record, a tie goes to the earlier run.
func (t *loserTree[T]) less(a, b int) bool {
	ca, cb := t.cs[a], t.cs[b]
	switch {
	case ca.done || cb.done:
		if ca.done != cb.done {
			return cb.done
		}
	default:
		if c := t.cmp(&ca.cur, &cb.cur); c != 0 {
			return c < 0
		}
	}
	return a < b
}
