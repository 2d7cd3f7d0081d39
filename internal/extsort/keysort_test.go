package extsort

import (
	"cmp"
	"math"
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
