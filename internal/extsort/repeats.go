package extsort

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Repeats finds, among many 64-bit hashes, those that come more than
// once, in bounded memory and without sorting them all: a repeat is rare
// (a table printed twice), a sort of every hash is not cheap. Each hash
// is appended, with a payload of fixed length, to a log (one Streams).
// At the end the log is read once and a bit of each hash, its top bits,
// marked in a bitset; a hash whose bit is marked already marks that bit
// in a second bitset. A hash that came twice has its bit in the second
// set, so without a bit there (Marked false) no hash came twice; else
// Suspects reads the log again for the records whose bit is there: every
// copy of every repeated hash, and the hashes that only share a bit with
// another (about n/2^bits of n hashes); Repeated sorts these few to pass
// on the hashes that came twice. (Marking as the hashes come costs a cache miss
// each: between two hashes the run streams megabytes through the cache.)
type Repeats struct {
	bits   int // the most bits of a hash marked
	use    int // the bits marked: fewer for a short log (mark)
	size   int // a record: the hash, then the payload
	log    *Streams
	rec    []byte
	n      int64
	marked int8 // 0: the log not read yet, 1: no bit twice, 2: some
	// marks holds the two bitsets word by word, a word of the first
	// then its word of the second: a hash reads one cache line.
	marks []uint64
	// early: the log's bytes are marked as they go to its file
	// (MarkEarly), from the first on all bits; upto of them are marked,
	// twice says a bit was met twice among them.
	early, marking bool
	upto           int64
	twice          uint64
}

// MarkEarly has r mark the hashes of its log's buffer each time the
// buffer goes to the file, on Add's goroutine, rather than all of them
// when the log is read: a log of many hashes is then marked while its
// owner still works on two cores, not at the end on one (the index names
// of csv --table indices, 420,000 at 300 MiB). It returns r.
func (r *Repeats) MarkEarly() *Repeats {
	r.early = true
	return r
}

// markBuffer marks the hashes of the log's buffer when a record of n
// bytes would send it to the file (MarkEarly), while the bytes marked
// are the log's first.
func (r *Repeats) markBuffer(n int) {
	buf := r.log.bufs[0]
	if len(buf) == 0 || len(buf)+n <= r.log.per || r.upto != r.log.done[0] || len(buf)%r.size != 0 {
		return
	}
	if !r.marking {
		r.marking, r.use = true, r.bits
		r.sizeMarks()
	}
	r.markBytes(buf)
	r.upto += int64(len(buf))
}

// sizeMarks makes the bitsets' words for r.use bits.
func (r *Repeats) sizeMarks() {
	if words := 2 << (r.use - 6); cap(r.marks) < words {
		r.marks = make([]uint64, words)
	} else {
		r.marks = r.marks[:words]
	}
}

// markBytes marks the hashes of the whole records b.
func (r *Repeats) markBytes(b []byte) {
	twice := r.twice
	for ; len(b) >= r.size; b = b[r.size:] {
		w, m := r.bit(binary.LittleEndian.Uint64(b))
		seen := r.marks[w] & m
		r.marks[w+1] |= seen
		r.marks[w] |= m
		twice |= seen
	}
	r.twice = twice
}

// NewRepeats makes a Repeats of two bitsets of up to 2^bits bits (bits
// from 6 to 32; 32 to 64 bits a hash logged below that) whose records carry
// payload bytes besides the hash, and whose log holds budget bytes in
// memory.
func NewRepeats(bits, payload, budget int) *Repeats {
	return &Repeats{bits: min(max(bits, 6), 32), size: 8 + payload, log: NewStreams(1, budget), rec: make([]byte, 0, 8+payload)}
}

// bit is where hash h is in the bitsets: its word of the first (the
// next is the second's) and its bit in that word.
func (r *Repeats) bit(h uint64) (word int, mask uint64) {
	b := h >> (64 - r.use)
	return int(b>>6) * 2, 1 << (b & 63)
}

// Add logs hash h with its payload (of the length NewRepeats was given).
func (r *Repeats) Add(h uint64, payload []byte) error {
	if len(payload) != r.size-8 {
		return fmt.Errorf("repeats: a payload of %d bytes, want %d", len(payload), r.size-8)
	}
	if r.marked != 0 {
		return fmt.Errorf("repeats: a hash added after the log was read")
	}
	r.rec = append(binary.LittleEndian.AppendUint64(r.rec[:0], h), payload...)
	r.n++
	if r.early {
		r.markBuffer(len(r.rec))
	}
	return r.log.Append(0, r.rec)
}

// AddRecord is Add of a record made by the caller: the hash's 8 bytes,
// little-endian, then the payload; it saves a copy of each.
func (r *Repeats) AddRecord(rec []byte) error {
	if len(rec) != r.size {
		return fmt.Errorf("repeats: a record of %d bytes, want %d", len(rec), r.size)
	}
	if r.marked != 0 {
		return fmt.Errorf("repeats: a hash added after the log was read")
	}
	r.n++
	if r.early {
		r.markBuffer(len(rec))
	}
	return r.log.Append(0, rec)
}

// Len is how many hashes were added.
func (r *Repeats) Len() int64 { return r.n }

// Marked is false when no hash came twice; true when one may have. It
// reads the log (once): no hash can be added after.
func (r *Repeats) Marked() (bool, error) {
	if r.marked == 0 {
		if err := r.mark(); err != nil {
			return false, err
		}
	}
	return r.marked == 2, nil
}

// mark reads the log and marks the bitsets (the bytes not marked yet:
// MarkEarly).
func (r *Repeats) mark() error {
	r.marked = 1
	if r.n == 0 {
		return nil
	}
	if !r.marking {
		// 32 to 64 bits a hash, up to 2^bits: a run of a few warnings
		// marks a few words, not a megabyte.
		r.use = min(r.bits, max(6, bits.Len64(uint64(r.n))+5))
		r.sizeMarks()
	}
	err := r.log.Read(0, r.upto, r.log.Len(0), func(b []byte) error {
		if len(b)%r.size != 0 {
			return fmt.Errorf("repeats: a log of %d bytes holds no whole records of %d", len(b), r.size)
		}
		r.markBytes(b)
		return nil
	})
	if r.twice != 0 {
		r.marked = 2
	}
	return err
}

// Repeat says whether a hash came more than once: Repeated's question
// when its answer alone is wanted. The suspects' hashes are sorted in
// memory while there are at most maxSuspects of them, else by Repeated.
func (r *Repeats) Repeat() (bool, error) {
	if marked, err := r.Marked(); !marked || err != nil {
		return false, err
	}
	var hs []uint64
	err := r.Suspects(func(h uint64, _ []byte) error {
		if len(hs) == maxSuspects {
			return errTooMany
		}
		hs = append(hs, h)
		return nil
	})
	if err == nil {
		slices.Sort(hs)
		for i := 1; i < len(hs); i++ {
			if hs[i] == hs[i-1] {
				return true, nil
			}
		}
		return false, nil
	}
	if err != errTooMany {
		return false, err
	}
	repeat := false
	err = r.Repeated(func(uint64, [][]byte) error {
		repeat = true
		return errTooMany // (stops it)
	})
	if repeat {
		return true, nil
	}
	return false, err
}

// maxSuspects is the most suspects' hashes Repeat sorts in memory (a
// megabyte): with bitsets of 2^22 bits, those of some 700,000 hashes.
var maxSuspects = 1 << 17

var errTooMany = errors.New("repeats: too many suspects")

// Suspects passes fn, in the order they were added, the hashes whose bit
// is marked twice, with their payloads (valid until fn returns): every
// copy of a hash that came more than once is among them.
func (r *Repeats) Suspects(fn func(h uint64, payload []byte) error) error {
	if marked, err := r.Marked(); !marked || err != nil {
		return err
	}
	return r.log.Read(0, 0, r.log.Len(0), func(b []byte) error {
		for ; len(b) >= r.size; b = b[r.size:] {
			h := binary.LittleEndian.Uint64(b)
			if w, m := r.bit(h); r.marks[w+1]&m != 0 {
				if err := fn(h, b[8:r.size]); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Repeated passes fn, in the order of the hashes, each hash that came
// more than once with the payloads of its copies in the order they were
// added (valid until fn returns). It sorts the suspects by hash, in a
// Sorter that holds the log's budget in memory: the repeats, and the few
// hashes that only share a bit with another.
func (r *Repeats) Repeated(fn func(h uint64, payloads [][]byte) error) error {
	if marked, err := r.Marked(); !marked || err != nil {
		return err
	}
	s := New(compareSuspects, suspectCodec, r.log.per).
		SortWith(func(ss []suspect) { slices.SortFunc(ss, compareSuspects) })
	defer s.Close()
	seq := int64(0)
	err := r.Suspects(func(h uint64, p []byte) error {
		seq++
		return s.Add(suspect{h: h, seq: seq, payload: string(p)})
	})
	if err != nil {
		return err
	}
	// A group of equal hashes, its payloads copied (a record read back
	// is valid only until the next) and put back in the order they came:
	// the sort compares the hashes alone.
	var h uint64
	var group []suspect
	var payloads [][]byte
	flush := func() error {
		if len(group) < 2 {
			return nil
		}
		slices.SortFunc(group, func(a, b suspect) int { return cmp.Compare(a.seq, b.seq) })
		payloads = payloads[:0]
		for _, x := range group {
			payloads = append(payloads, []byte(x.payload))
		}
		return fn(h, payloads)
	}
	err = s.Each(func(x suspect) error {
		if len(group) > 0 && x.h != h {
			if err := flush(); err != nil {
				return err
			}
			group = group[:0]
		}
		h = x.h
		x.payload = strings.Clone(x.payload)
		group = append(group, x)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// suspect is a record of Suspects in the order it came (seq).
type suspect struct {
	h       uint64
	seq     int64
	payload string
}

func compareSuspects(a, b suspect) int { return cmp.Compare(a.h, b.h) }

var suspectCodec = Codec[suspect]{
	Append: func(b []byte, x suspect) []byte {
		b = binary.LittleEndian.AppendUint64(b, x.h)
		return AppendString(AppendInt(b, x.seq), x.payload)
	},
	Decode: func(b []byte) (suspect, error) {
		if len(b) < 8 {
			return suspect{}, errShort
		}
		var f Fields
		f.Reset(b[8:])
		x := suspect{h: binary.LittleEndian.Uint64(b), seq: f.Int(), payload: f.Ref()}
		return x, f.Err()
	},
	Size: func(x suspect) int { return 32 + len(x.payload) }, // (the struct and its payload)
}

// MaxHeld is the most bytes of records the log held in memory at once
// (the bitsets, up to 2^bits/4 bytes, besides, while Marked and Suspects
// read).
func (r *Repeats) MaxHeld() int { return r.log.MaxHeld() }

// Reset drops the hashes and removes the log's temporary file: r is as
// new, its bitsets kept.
func (r *Repeats) Reset() {
	r.log.Close()
	clear(r.marks[:cap(r.marks)])
	r.n, r.marked = 0, 0
	r.marking, r.upto, r.twice = false, 0, 0
}

// Close drops the hashes and the bitsets and removes the log's
// temporary file.
func (r *Repeats) Close() {
	r.log.Close()
	r.marks, r.n, r.marked = nil, 0, 0
	r.marking, r.upto, r.twice = false, 0, 0
}
