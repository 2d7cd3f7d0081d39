package extsort

import (
	"math"
	"math/bits"
	"slices"
)

// KeySort sorts a sorter's batches (Sorter.SortWith) by a number that
// orders the records as their comparison does as far as it goes, then by
// the comparison: most pairs are told apart by comparing two integers,
// and the records, a hundred bytes each, move once rather than at every
// swap and are compared in place. The records of a key that came in
// order take one comparison each. BenchmarkSortBatch, 3,300 warnings
// that tie by the dozen as the benchmark gstat output's do: 0.20–0.21 ms
// against slices.SortFunc's 1.01–1.11 on 2026-12-07 (0.23–0.25 ms with
// the keys sorted by slices.Sort rather than sortAbove; on an earlier
// day 0.32 ms against 0.80, and 0.55 ms before the runs in order were
// kept).
//
// Key must agree with Cmp: Key(a) < Key(b) only when Cmp(a, b) < 0.
// Records that Cmp cannot tell apart may be ordered differently than a
// stable sort would, as with slices.SortFunc (unless their key's records
// came in order). A KeySort sorts one batch
// at a time, as a Sorter calls it.
//
// Tie, when set, is a second number for the records of a key that did
// not come in order (the index rows of the benchmark gstat output tie by
// the thousand on their rank and size, told apart by their names'
// classes and numbers): among the records of one key that it takes (ok),
// Tie(a) < Tie(b) only when Cmp(a, b) < 0; a key's run with a record it
// does not take is sorted by Cmp. For that, Key must hold whole, for
// every record Tie takes, the fields Cmp reads before those Tie orders,
// above its Free low bits: two such records whose keys are equal above
// those bits tie on those fields. Tie is used on a batch of fewer than
// 2^Free records, whose places (each key carries its record's in its
// low bits) fit in those bits. Tie's own low bits may give way to a
// place, as Key's do.
type KeySort[T any] struct {
	Key  func(*T) uint64
	Tie  func(*T) (uint64, bool)
	Free int
	Cmp  func(a, b *T) int
	keys []uint64
	ties []uint64
	run  []uint64
	swap []uint64 // (sortAbove's)
	tmp  []T
}

// Sort sorts rs.
func (s *KeySort[T]) Sort(rs []T) {
	// Each key with the record's place in its low bits, for a sort of
	// integers alone with no function to call (slices.SortFunc on pairs
	// of key and place took 5.6 M instructions of the 8 MiB benchmark
	// file's JSON, this 1.5 M): by key, then in the order the records
	// came in. The key's bits it replaces only make more records tie on
	// it, which Cmp then orders (as Key must, a key of fewer bits still
	// orders as Cmp does where it orders at all).
	shift := bits.Len(uint(len(rs)))
	place := uint64(1)<<shift - 1 // (shift 64: every bit, and every record ties)
	keys := s.keys[:0]
	for i := range rs {
		keys = append(keys, s.Key(&rs[i])&^place|uint64(i))
	}
	s.sortAbove(keys, shift)
	// The records of a key most often came in the order Cmp gives them
	// (a gstat output's tables come by name, and the warnings of its
	// tables' copies tie by the hundred on their key): that takes one
	// comparison a record; a run of a key that did not is sorted by Tie
	// and Cmp, or Cmp.
	s.runs(keys, shift, func(x uint64) *T { return &rs[x&place] }, func(run []uint64) {
		if s.Tie == nil || shift > s.Free || !s.tie(rs, run, place) {
			slices.SortFunc(run, func(a, b uint64) int { return s.Cmp(&rs[a&place], &rs[b&place]) })
		}
	})
	tmp := s.tmp[:0]
	for _, x := range keys {
		tmp = append(tmp, rs[x&place])
	}
	copy(rs, tmp)
	clear(tmp) // (the records' strings can go with their batch)
	s.keys, s.tmp = keys, tmp[:0]
}

// runs calls sort on each run of keys, sorted, that are equal above
// their shift low bits and whose records (rec) are not in Cmp's order.
func (s *KeySort[T]) runs(keys []uint64, shift int, rec func(uint64) *T, sort func([]uint64)) {
	for lo := 0; lo < len(keys); {
		hi, sorted := lo+1, true
		for ; hi < len(keys) && keys[hi]>>shift == keys[lo]>>shift; hi++ {
			if sorted && s.Cmp(rec(keys[hi-1]), rec(keys[hi])) > 0 {
				sorted = false
			}
		}
		if !sorted {
			sort(keys[lo:hi])
		}
		lo = hi
	}
}

// tie sorts run, the keys of one Key (each with its record's place in
// rs in its bits of place), by Tie and then Cmp, or says it cannot.
func (s *KeySort[T]) tie(rs []T, run []uint64, place uint64) bool {
	shift := bits.Len(uint(len(run)))
	at := uint64(1)<<shift - 1 // (each tie with its key's place in run)
	ties := s.ties[:0]
	defer func() { s.ties = ties[:0] }()
	for j, x := range run {
		k, ok := s.Tie(&rs[x&place])
		if !ok {
			return false
		}
		ties = append(ties, k&^at|uint64(j))
	}
	s.sortAbove(ties, shift)
	old := append(s.run[:0], run...)
	s.run = old[:0]
	rec := func(t uint64) *T { return &rs[old[t&at]&place] }
	s.runs(ties, shift, rec, func(tr []uint64) {
		slices.SortFunc(tr, func(a, b uint64) int { return s.Cmp(rec(a), rec(b)) })
	})
	for j, t := range ties {
		run[j] = old[t&at]
	}
	return true
}

// sortAbove sorts keys by their bits above the low ones, keeping the
// order of keys whose bits above are equal: keys that carry in their low
// bits their places in the order they came, as Sort and tie make them,
// come out as slices.Sort would sort them. A byte at a time from the
// lowest (a radix sort), but for the bytes that are the same in every
// key: the 5,500 index rows of a batch of the benchmark output tie on
// all but one or two of them.
func (s *KeySort[T]) sortAbove(keys []uint64, low int) {
	if len(keys) < 256 {
		slices.Sort(keys)
		return
	}
	var count [8][256]int32
	for _, k := range keys {
		k >>= low
		count[0][byte(k)]++
		count[1][byte(k>>8)]++
		count[2][byte(k>>16)]++
		count[3][byte(k>>24)]++
		count[4][byte(k>>32)]++
		count[5][byte(k>>40)]++
		count[6][byte(k>>48)]++
		count[7][byte(k>>56)]++
	}
	src, dst := keys, slices.Grow(s.swap[:0], len(keys))[:len(keys)]
	for d := range 8 {
		c, by := &count[d], low+8*d
		if by >= 64 || int(c[byte(src[0]>>by)]) == len(src) {
			continue // (a byte the same in every key)
		}
		at := int32(0)
		for i, n := range c {
			c[i], at = at, at+n
		}
		for _, k := range src {
			b := byte(k >> by)
			dst[c[b]] = k
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		dst = src
	}
	s.swap = dst[:0]
}

// RankKey is a key that orders by rank from the highest (a severity's,
// 0 to 3) and then by low, a key of the next field (DescFloat) of which
// it keeps the 62 high bits. A rank out of 0 to 3 keeps no more than its
// place before (above 3) or after (below 0) those: Cmp orders it among
// its like.
func RankKey(rank int64, low uint64) uint64 {
	switch {
	case rank > 3:
		return 0
	case rank < 0:
		return math.MaxUint64
	}
	return uint64(3-rank)<<62 | low>>2
}

// DescFloat orders floats from the biggest down as cmp.Compare(b, a)
// does: NaN last, -0 with 0.
func DescFloat(f float64) uint64 {
	switch {
	case f != f:
		return math.MaxUint64
	case f == 0:
		f = 0
	}
	u := math.Float64bits(f)
	if u>>63 != 0 {
		u = ^u // (negative: the bigger the magnitude, the smaller)
	} else {
		u |= 1 << 63
	}
	return ^u // (ascending turned descending)
}
