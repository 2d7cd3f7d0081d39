package extsort

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// warningLike is a record shaped as the gstat warnings the sorter spools
// (report's spooled): a severity's rank, a magnitude, names, an id.
type warningLike struct {
	rank         int
	mag          float64
	rule, object string
	table        string
	id           int64
	reason       string
}

var warningLikeCodec = Codec[warningLike]{
	Append: func(b []byte, r warningLike) []byte {
		b = AppendInt(b, r.id)
		b = AppendInt(b, int64(r.rank))
		b = AppendFloat(b, r.mag)
		b = AppendString(b, r.rule)
		b = AppendString(b, r.object)
		b = AppendString(b, r.table)
		return AppendString(b, r.reason)
	},
	Decode: func(b []byte) (warningLike, error) {
		f := NewFields(b)
		r := warningLike{id: f.Int()}
		r.rank, r.mag = int(f.Int()), f.Float()
		r.rule, r.object, r.table = f.Ref(), f.Ref(), f.Ref()
		return r, f.ErrSoFar()
	},
	Size: func(r warningLike) int { return 272 + len(r.rule) + len(r.object) + len(r.table) + len(r.reason) },
}

func compareWarningLike(a, b warningLike) int { return cmpWarningLike(&a, &b) }

func cmpWarningLike(a, b *warningLike) int {
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := cmp.Compare(b.mag, a.mag); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rule, b.rule); c != 0 {
		return c
	}
	if c := cmp.Compare(a.object, b.object); c != 0 {
		return c
	}
	if c := cmp.Compare(a.table, b.table); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// BenchmarkMerge reads back, with EachRaw, 360,000 warning-like records
// that a 2 MiB budget wrote as some 120 runs (csv --table warnings and
// JSON of a 300 MiB gstat output spool 353,000 in 118): the merge the
// output waits for once the input is read.
func BenchmarkMerge(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	rules := []string{"index-low-selectivity", "table-version-length", "index-depth", "table-fragments"}
	recs := make([]warningLike, 360000)
	for i := range recs {
		t := rng.IntN(75000)
		recs[i] = warningLike{rank: rng.IntN(3), mag: float64(rng.IntN(2000)) / 7, rule: rules[rng.IntN(len(rules))],
			object: fmt.Sprintf("index ORDERS_CARRIER_%05d on ORDERS_%05d", t, t), table: fmt.Sprintf("ORDERS_%05d", t),
			id: int64(i), reason: "11 distinct values in 100000 keys: a lookup on one value returns 9090 rows on average"}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s := New(compareWarningLike, warningLikeCodec, 2<<20).CompareWith(cmpWarningLike)
		for _, r := range recs {
			if err := s.Add(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.wait(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		n := 0
		if err := s.EachRaw(func(warningLike, []byte) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != len(recs) {
			b.Fatalf("%d records read back, want %d", n, len(recs))
		}
	}
}

// sortBatch is 3,300 warning-like records as a batch of the spool holds
// them, in the order they fire: as in the benchmark gstat output, whose
// tables are copies of a few, most share their severity and magnitude
// with many others (4 of each, 12 pairs), told apart by names.
func sortBatch() []warningLike {
	rng := rand.New(rand.NewPCG(3, 4))
	rules := []string{"index-low-selectivity", "table-version-length", "index-sparse", "table-fragments"}
	mags := []float64{1.0135135135135136, 1.0416666666666667, 1.6666666666666665, 9.1}
	rs := make([]warningLike, 3300)
	for i := range rs {
		t := i / 4
		rs[i] = warningLike{rank: 1 + rng.IntN(3), mag: mags[i%4], rule: rules[i%4],
			object: fmt.Sprintf("ORDERS_CARRIER_%05d", t), table: fmt.Sprintf("ORDERS_%05d", t), id: int64(i)}
	}
	return rs
}

// BenchmarkSortBatch compares the sort of a batch by its comparison
// (slices.SortFunc, what the spools did) and by KeySort.
func BenchmarkSortBatch(b *testing.B) {
	src := sortBatch()
	rs := make([]warningLike, len(src))
	b.Run("SortFunc", func(b *testing.B) {
		for b.Loop() {
			copy(rs, src)
			slices.SortFunc(rs, compareWarningLike)
		}
	})
	b.Run("KeySort", func(b *testing.B) {
		ks := &KeySort[warningLike]{Key: func(r *warningLike) uint64 { return RankKey(int64(r.rank), DescFloat(r.mag)) }, Cmp: cmpWarningLike}
		for b.Loop() {
			copy(rs, src)
			ks.Sort(rs)
		}
	})
}
