package extsort

import (
	"cmp"
	"fmt"
	"math/rand/v2"
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

func compareWarningLike(a, b warningLike) int {
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
		s := New(compareWarningLike, warningLikeCodec, 2<<20)
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
