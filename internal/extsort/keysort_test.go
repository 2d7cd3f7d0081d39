package extsort

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func sign(c int) int { return cmp.Compare(c, 0) }

// DescFloat orders as cmp.Compare(b, a): NaN last and equal to
// NaN, -0 equal to 0, infinities at the ends.
func TestDescKeys(t *testing.T) {
	fs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.5, -0.5,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e-300, 7.25, 7.250000000000001}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		fs = append(fs, math.Float64frombits(rng.Uint64()), rng.NormFloat64()*1e6)
	}
	for _, a := range fs {
		for _, b := range fs {
			if got, want := sign(cmp.Compare(DescFloat(a), DescFloat(b))), cmp.Compare(b, a); got != want {
				t.Fatalf("DescFloat(%v) vs DescFloat(%v): %d, want %d", a, b, got, want)
			}
		}
	}
}

// KeySort gives slices.SortFunc's order: ranks out of 0 to 3, magnitudes
// that tie, differ in their last bits (which RankKey drops) or are NaN.
func TestKeySort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mags := []float64{math.NaN(), 0, math.Copysign(0, -1), 1, 1 + 1e-15, math.Nextafter(1, 2), -3, math.Inf(1), 2.5}
	rules := []string{"A", "B", "C"}
	s := &KeySort[warningLike]{Key: func(r *warningLike) uint64 { return RankKey(int64(r.rank), DescFloat(r.mag)) }, Cmp: cmpWarningLike}
	// Up to 5,000 records: the records' places take the key's last 13
	// bits, where 1 and its next float differ.
	sizes := []int{1000, 4096, 5000}
	for n := range 300 {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		rs := make([]warningLike, n)
		for i := range rs {
			rs[i] = warningLike{rank: rng.IntN(7) - 1, mag: mags[rng.IntN(len(mags))], rule: rules[rng.IntN(len(rules))], id: int64(i)}
			if i%3 == 0 {
				rs[i].mag = rng.NormFloat64() // (keys that differ in every bit)
			}
		}
		want := slices.Clone(rs)
		slices.SortFunc(want, compareWarningLike)
		s.Sort(rs)
		for i := range rs {
			if compareWarningLike(rs[i], want[i]) != 0 {
				t.Fatalf("%d records: at %d got %+v, want %+v", n, i, rs[i], want[i])
			}
		}
	}
}

// KeySort's runs of a key that came in order are kept, and those that
// did not are sorted: names in order within each key (the benchmark
// batch), reversed, and in order but for one record moved to the end.
func TestKeySortRuns(t *testing.T) {
	s := &KeySort[warningLike]{Key: func(r *warningLike) uint64 { return RankKey(int64(r.rank), DescFloat(r.mag)) }, Cmp: cmpWarningLike}
	inOrder := sortBatch()
	reversed := slices.Clone(inOrder)
	slices.Reverse(reversed)
	oneOut := append(slices.Clone(inOrder[1:]), inOrder[0])
	for name, rs := range map[string][]warningLike{"in order": inOrder, "reversed": reversed, "one out of place": oneOut} {
		want := slices.Clone(rs)
		slices.SortFunc(want, compareWarningLike)
		s.Sort(rs)
		if !slices.EqualFunc(rs, want, func(a, b warningLike) bool { return compareWarningLike(a, b) == 0 }) {
			t.Errorf("%s: KeySort's order differs from slices.SortFunc's", name)
		}
	}
}

// KeySort with a Tie gives slices.SortFunc's order: a Tie that takes
// the records whose key is whole (a rank of 0 to 3, a magnitude that is
// a whole number to 1,000) and whose object is of the form Tie reads,
// over batches whose places fit in Key's free bits and batches whose
// places do not (Free 4), on records in order, reversed and shuffled.
func TestKeySortTie(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// A key whole above the free low bits where Tie takes a record: the
	// rank, then the magnitude's floor from 1,001 down to -1, NaN last.
	var free int
	key := func(r *warningLike) uint64 {
		if r.rank < 0 || r.rank > 3 {
			return RankKey(int64(r.rank), 0)
		}
		v := uint64(1003)
		if r.mag == r.mag {
			v = uint64(1001 - min(max(math.Floor(r.mag), -1), 1001))
		}
		return uint64(3-r.rank)<<62 | v<<free
	}
	ruleOrder := map[string]uint64{"A": 1, "B": 2, "C": 3}
	var taken, refused int
	tie := func(r *warningLike) (uint64, bool) {
		var n int
		if r.rank < 0 || r.rank > 3 || r.mag != math.Trunc(r.mag) || r.mag < 0 || r.mag > 1000 ||
			len(r.object) != 6 || r.object[0] != 'O' {
			refused++
			return 0, false
		}
		if _, err := fmt.Sscanf(r.object[1:], "%05d", &n); err != nil {
			refused++
			return 0, false
		}
		taken++
		return ruleOrder[r.rule]<<56 | uint64(n)<<24, true
	}
	mags := []float64{0, 1, 2, 3, 1000, 1 + 1e-15, math.Nextafter(2, 3), 0.5, 1001, math.NaN(), -1}
	rules := []string{"A", "B", "C"}
	for _, free = range []int{16, 4} {
		s := &KeySort[warningLike]{Key: key, Tie: tie, Free: free, Cmp: cmpWarningLike}
		for _, n := range []int{0, 1, 2, 3, 17, 100, 1000, 5000} {
			for _, shape := range []string{"shuffled", "in order", "reversed"} {
				rs := make([]warningLike, n)
				for i := range rs {
					o := fmt.Sprintf("O%05d", rng.IntN(400))
					if rng.IntN(2000) == 0 {
						o = "P" + o[1:] // (an object Tie does not read)
					}
					rs[i] = warningLike{rank: rng.IntN(5), mag: mags[rng.IntN(4)], rule: rules[rng.IntN(3)], object: o, table: fmt.Sprint(rng.IntN(3)), id: int64(i)}
					if rng.IntN(500) == 0 {
						rs[i].rank, rs[i].mag = rng.IntN(7)-1, mags[rng.IntN(len(mags))]
					}
				}
				want := slices.Clone(rs)
				slices.SortFunc(want, compareWarningLike)
				switch shape {
				case "in order":
					copy(rs, want)
				case "reversed":
					copy(rs, want)
					slices.Reverse(rs)
				}
				s.Sort(rs)
				for i := range rs {
					if rs[i].id != want[i].id {
						t.Fatalf("free %d, %d records %s: at %d got %+v, want %+v", free, n, shape, i, rs[i], want[i])
					}
				}
			}
		}
	}
	if taken < 5000 || refused < 5 {
		t.Errorf("Tie took %d records and refused %d", taken, refused)
	}
}

// sortAbove gives slices.Sort's order of keys that carry their places in
// their low bits: keys of random bits, of bits that differ in one byte
// or in none above the places, and keys that came in order, over sizes
// about the 256 below which it calls slices.Sort.
func TestSortAbove(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var s KeySort[warningLike]
	for _, n := range []int{1, 2, 255, 256, 257, 1000, 5500, 70000} {
		for _, shape := range []string{"random", "one byte", "none", "in order", "top bit"} {
			low := bits.Len(uint(n))
			keys := make([]uint64, n)
			for i := range keys {
				var k uint64
				switch shape {
				case "random":
					k = rng.Uint64()
				case "one byte":
					k = 0xabcdef<<40 | uint64(rng.IntN(256))<<(low+8)
				case "none":
					k = 0x1234 << 48
				case "in order":
					k = uint64(i) << 20
				case "top bit":
					k = uint64(rng.IntN(2)) << 63
				}
				keys[i] = k&^(1<<low-1) | uint64(i)
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			s.sortAbove(keys, low)
			if !slices.Equal(keys, want) {
				t.Fatalf("%d keys, %s: order differs from slices.Sort's", n, shape)
			}
		}
	}
}
