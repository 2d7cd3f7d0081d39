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
// that tie by the dozen as the benchmark gstat output's do: 0.32 ms
// against slices.SortFunc's 0.80 (0.55 ms before the runs in order were
// kept).
//
// Key must agree with Cmp: Key(a) < Key(b) only when Cmp(a, b) < 0.
// Records that Cmp cannot tell apart may be ordered differently than a
// stable sort would, as with slices.SortFunc (unless their key's records
// came in order). A KeySort sorts one batch
// at a time, as a Sorter calls it.
type KeySort[T any] struct {
	Key  func(*T) uint64
	Cmp  func(a, b *T) int
	keys []uint64
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
	slices.Sort(keys)
	// The records of a key most often came in the order Cmp gives them
	// (a gstat output's tables come by name, and the warnings of its
	// tables' copies tie by the hundred on their key): that takes one
	// comparison a record; a run of a key that did not is sorted by Cmp.
	for lo := 0; lo < len(keys); {
		hi, sorted := lo+1, true
		for ; hi < len(keys) && keys[hi]>>shift == keys[lo]>>shift; hi++ {
			if sorted && s.Cmp(&rs[keys[hi-1]&place], &rs[keys[hi]&place]) > 0 {
				sorted = false
			}
		}
		if !sorted {
			slices.SortFunc(keys[lo:hi], func(a, b uint64) int { return s.Cmp(&rs[a&place], &rs[b&place]) })
		}
		lo = hi
	}
	tmp := s.tmp[:0]
	for _, x := range keys {
		tmp = append(tmp, rs[x&place])
	}
	copy(rs, tmp)
	clear(tmp) // (the records' strings can go with their batch)
	s.keys, s.tmp = keys, tmp[:0]
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
