package analyze

import (
	"slices"
	"testing"
)

// A table's blob levels past 2 must not write into the next table's, which
// the slab hands out right after them; nor may two blocks share a figure.
func TestSlabBlocksApart(t *testing.T) {
	sl := newSlab()
	a := sl.levels()
	b := sl.levels()
	a[2] = 5
	a = append(a, 7) // a level 3: copied out of the chunk
	if !slices.Equal(b, []int64{0, 0, 0}) || !slices.Equal(a, []int64{0, 0, 5, 7}) {
		t.Fatalf("levels: a %v, b %v", a, b)
	}
	seen := map[*int64]bool{}
	for range 3 * slabBlocks {
		f := sl.index()
		if *f != (indexFigures{}) || seen[&f.sizeBytes] {
			t.Fatalf("index block reused or not zero: %+v", *f)
		}
		seen[&f.sizeBytes] = true
		f.sizeBytes = 1
		g := sl.table()
		if *g != (tableFigures{}) {
			t.Fatalf("table block not zero: %+v", *g)
		}
		g.indexBytes = 1
	}
	for range 2 * slabBlocks {
		l := sl.levels()
		if !slices.Equal(l, []int64{0, 0, 0}) || cap(l) != 3 {
			t.Fatalf("levels %v, cap %d", l, cap(l))
		}
		l[0], l[1], l[2] = 1, 2, 3
	}
}
