package extsort

import (
	"errors"
	"sync/atomic"
)

// Tail passes the bytes of records read back (EachRaw's) to a function
// on a goroutine of its own, in order, a batch at a time: while it makes
// the output of one batch, the merge fills the next, so that merging and
// writing share two cores. Three batches go round: one filling, up to two
// waiting or being written.
type Tail struct {
	size   int
	whole  bool // fn takes a batch's records at once (NewBatchTail)
	cur    *rawBatch
	full   chan *rawBatch
	free   chan *rawBatch
	done   chan error
	failed atomic.Bool
}

// rawBatch is records end to end, each ending at its ends entry.
type rawBatch struct {
	b    []byte
	ends []int
}

// ErrTailFailed is what Add returns once the tail's function failed
// (Close returns its error).
var ErrTailFailed = errors.New("writing the records failed")

// NewTail starts the goroutine that passes fn each record Add copies, in
// batches of about size bytes. The first error fn returns stops it.
func NewTail(size int, fn func(rec []byte) error) *Tail {
	return newTail(size, false, fn)
}

// NewBatchTail is NewTail for records that are their output as they are
// (a CSV's lines): fn gets each batch's records at once, end to end, in
// one call rather than one a record.
func NewBatchTail(size int, fn func(recs []byte) error) *Tail {
	return newTail(size, true, fn)
}

func newTail(size int, whole bool, fn func(rec []byte) error) *Tail {
	// free holds all three, so that the goroutine never waits to give one
	// back, not even after the last.
	t := &Tail{size: size, whole: whole, cur: new(rawBatch), full: make(chan *rawBatch, 2),
		free: make(chan *rawBatch, 3), done: make(chan error, 1)}
	t.free <- new(rawBatch)
	t.free <- new(rawBatch)
	go func() {
		var err error
		for b := range t.full {
			if whole {
				if err == nil {
					if err = fn(b.b); err != nil {
						t.failed.Store(true)
					}
				}
				b.b = b.b[:0]
				t.free <- b
				continue
			}
			start := 0
			for _, end := range b.ends {
				if err == nil {
					if err = fn(b.b[start:end]); err != nil {
						t.failed.Store(true)
					}
				}
				start = end
			}
			b.b, b.ends = b.b[:0], b.ends[:0]
			t.free <- b
		}
		t.done <- err
	}()
	return t
}

// Add copies a record into the batch that fills; a full batch goes to
// the goroutine.
func (t *Tail) Add(raw []byte) error {
	if t.failed.Load() {
		return ErrTailFailed
	}
	b := t.cur
	b.b = append(b.b, raw...)
	if !t.whole {
		b.ends = append(b.ends, len(b.b))
	}
	if len(b.b) >= t.size {
		t.full <- t.cur
		t.cur = <-t.free
	}
	return nil
}

// Close passes the last batch, waits for the goroutine and returns the
// error of its function.
func (t *Tail) Close() error {
	if len(t.cur.b) > 0 || len(t.cur.ends) > 0 {
		t.full <- t.cur
	}
	close(t.full)
	return <-t.done
}
