package extsort

import (
	"math"
	"slices"
)

// KeySort sorts a sorter's batches (Sorter.SortWith) by a number that
// orders the records as their comparison does as far as it goes, then by
// the comparison: most pairs are told apart by comparing two integers,
// and the records, a hundred bytes each, move once rather than at every
// swap and are compared in place. BenchmarkSortBatch, 3,300 warnings that
// tie by the dozen as the benchmark gstat output's do: 0.50 ms against
// slices.SortFunc's 0.72.
//
// Key must agree with Cmp: Key(a) < Key(b) only when Cmp(a, b) < 0.
// Records that Cmp cannot tell apart may be ordered differently than a
// stable sort would, as with slices.SortFunc. A KeySort sorts one batch
// at a time, as a Sorter calls it.
type KeySort[T any] struct {
	Key  func(*T) uint64
	Cmp  func(a, b *T) int
	keys []keyed
	tmp  []T
}

type keyed struct {
	k uint64
	i int
}

// Sort sorts rs.
func (s *KeySort[T]) Sort(rs []T) {
	keys := s.keys[:0]
	for i := range rs {
		keys = append(keys, keyed{s.Key(&rs[i]), i})
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return s.Cmp(&rs[a.i], &rs[b.i])
	})
	tmp := s.tmp[:0]
	for _, x := range keys {
		tmp = append(tmp, rs[x.i])
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
