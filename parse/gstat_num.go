package parse

import (
	"math"
	"strconv"
	"time"
	"unsafe"
)

// Number parsing for the gstat hot path: byte-level, no strconv, no
// allocation. gstat prints unsigned decimals and %.2f averages; a decimal
// comma (a server process with a changed locale) is accepted too.

// splitSign takes an optional leading '-' off a number; ok is false when
// nothing is left.
func splitSign(b []byte) (neg bool, rest []byte, ok bool) {
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	return neg, b, len(b) > 0
}

// atoi64 parses an unsigned decimal integer (an optional leading '-' is
// tolerated) that must fill b.
func atoi64(b []byte) (int64, bool) {
	neg, b, ok := splitSign(b)
	if !ok {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + uint64(d)
	}
	// 19 digits cannot wrap a uint64; more are refused.
	if len(b) > 19 || n > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// pow10 holds the exact powers of ten a float64 represents.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// atof parses "123", "12.34" or "12,34". With at most 15 significant
// digits the mantissa and the power of ten are exact, so the single
// division is correctly rounded: the result equals strconv.ParseFloat's.
func atof(b []byte) (float64, bool) {
	neg, b, ok := splitSign(b)
	if !ok {
		return 0, false
	}
	var mant uint64
	digits, frac := 0, -1
	for i, c := range b {
		if c == '.' || c == ',' {
			if frac >= 0 || i == 0 || i == len(b)-1 {
				return 0, false
			}
			frac = 0
			continue
		}
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		if mant == 0 && d == 0 && frac < 0 {
			continue // leading zeros do not count
		}
		mant = mant*10 + uint64(d)
		digits++
		if frac >= 0 {
			frac++
		}
		if digits > 15 {
			return slowAtof(b, neg)
		}
	}
	if frac < 0 {
		frac = 0
	}
	f := float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// slowAtof handles numbers with more than 15 digits (never printed by
// gstat, but fuzzers and hand-edited files have them) through strconv.
func slowAtof(b []byte, neg bool) (float64, bool) {
	s := []byte(string(b))
	for i, c := range s {
		if c == ',' {
			s[i] = '.'
		} else if c != '.' && !isDigit(c) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// slab hands out pointers to values kept by records. Values are carved
// from blocks, so a table with twenty set fields costs no twenty
// allocations; a block stays alive while any record points into it.
// The block is only replaced when full and the next free slot is an
// index: handing out a value writes no pointer (no GC write barrier).
type slab[T any] struct {
	buf []T
	n   int // buf[n:] is free
}

const slabBlock = 512

func (s *slab[T]) put(v T) *T {
	p := s.alloc(slabBlock)
	*p = v
	return p
}

// alloc returns a zero T from a block of n. It is take(1, n) written out:
// through take the gstat benchmark loses about 4 %.
func (s *slab[T]) alloc(n int) *T {
	if s.n == len(s.buf) {
		s.buf, s.n = make([]T, n), 0
	}
	s.n++
	return &s.buf[s.n-1]
}

// gstatSlab holds the slabs of the value types gstat records point to.
type gstatSlab struct {
	ints    slab[int64]
	floats  slab[float64]
	smalls  slab[int]
	fills   slab[GstatFill]
	tables  slab[GstatTable]
	indices slab[GstatIndex]
	text    slab[byte] // names, see str
	blobs   slab[GstatBlobLevel]
	pool    *GstatPool // records given back (EachGstatBlock's)
}

// recordBlock is the number of tables or indices carved from one block.
const recordBlock = 32

func (s *gstatSlab) i64(v int64) *int64     { return s.ints.put(v) }
func (s *gstatSlab) f64(v float64) *float64 { return s.floats.put(v) }
func (s *gstatSlab) int(v int) *int         { return s.smalls.put(v) }
func (s *gstatSlab) fill() *GstatFill       { return s.fills.alloc(slabBlock) }

func (s *gstatSlab) table() *GstatTable {
	if s.pool != nil {
		if t := s.pool.table(); t != nil {
			return t
		}
	}
	return s.tables.alloc(recordBlock)
}

func (s *gstatSlab) index() *GstatIndex {
	if s.pool != nil {
		if x := s.pool.index(); x != nil {
			return x
		}
	}
	return s.indices.alloc(recordBlock)
}

// indexList returns an empty slice for a table's n indices.
func (s *gstatSlab) indexList(n int) []*GstatIndex {
	if s.pool != nil {
		return s.pool.list(n)
	}
	return make([]*GstatIndex, 0, n)
}

// levels returns an empty slice with room for the three blob levels
// gstat prints (0, 1, 2), carved from a shared block.
func (s *gstatSlab) levels() []GstatBlobLevel {
	return s.blobs.take(3, 3*recordBlock)
}

// take returns an empty slice with room for k values, from a block of n.
func (s *slab[T]) take(k, n int) []T {
	if len(s.buf)-s.n < k {
		s.buf, s.n = make([]T, max(n, k)), 0
	}
	s.n += k
	return s.buf[s.n-k : s.n-k : s.n]
}

// str returns b as a string carved from a shared block: a big file's
// thousands of table and index names cost a few allocations, not one each.
// The bytes of a block are never written again once handed out.
func (s *gstatSlab) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 256 {
		return string(b)
	}
	t := s.text.take(len(b), 4096)
	t = append(t, b...)
	return unsafe.String(&t[0], len(t))
}

// collapseSpaces turns runs of blanks into one space, so that ctime's
// space-padded day ("Dec  2") and Windows' zero-padded one read alike.
func collapseSpaces(b []byte) string {
	out := make([]byte, 0, len(b))
	space := false
	for _, c := range b {
		if c == ' ' {
			if !space {
				out = append(out, c)
			}
			space = true
			continue
		}
		space = false
		out = append(out, c)
	}
	return string(out)
}

// parseCtime reads ctime() text: "Wed Dec  2 14:09:54 2026" (POSIX) or
// "Wed Apr 04 15:42:35 2018" (Windows).
func parseCtime(s string) (time.Time, bool) {
	t, err := time.Parse("Mon Jan 2 15:04:05 2006", s)
	return t, err == nil
}

// parseCreation reads the header's "Creation date": "Sep 25, 2009 12:50:24"
// (day and hour not padded).
func parseCreation(s string) (time.Time, bool) {
	t, err := time.Parse("Jan 2, 2006 15:04:05", s)
	return t, err == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimLeftBlank(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

func trimBlank(b []byte) []byte {
	b = trimLeftBlank(b)
	n := len(b)
	for n > 0 && (b[n-1] == ' ' || b[n-1] == '\t') {
		n--
	}
	return b[:n]
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}
