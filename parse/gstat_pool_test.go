package parse

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Table blocks given back to a GstatPool are filled again, and read
// exactly as new ones: every table of a 2 MiB report, marshalled when
// it comes, is the same with a pool whose receiver gives each table
// back at once as without one, and a handful of records did it all.
func TestGstatPoolReuses(t *testing.T) {
	_, big := testutil.BigGstat(t, 2<<20)
	read := func(pool *GstatPool) (tables []string, records map[any]bool) {
		records = map[any]bool{}
		err := EachGstatBlock(bytes.NewReader(big), "big.txt", GstatBlocks{
			Table: func(_ *GstatReport, tb *GstatTable) error {
				b, err := json.Marshal(tb)
				if err != nil {
					return err
				}
				tables = append(tables, string(b))
				records[tb] = true
				for _, ix := range tb.Indices {
					records[ix] = true
				}
				if pool != nil {
					pool.Put(tb)
				}
				return nil
			},
			Pool: pool,
		})
		if err != nil {
			t.Fatal(err)
		}
		return tables, records
	}
	want, fresh := read(nil)
	got, reused := read(new(GstatPool))
	if len(want) < 1000 {
		t.Fatalf("%d tables read", len(want))
	}
	if len(got) != len(want) {
		t.Fatalf("%d tables with a pool, %d without", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("table %d differs with a pool:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
	// Each table block is read into the records of the one before.
	if len(fresh) < 2*len(want) || len(reused) > 20 {
		t.Errorf("%d records for %d tables with a pool, %d without", len(reused), len(want), len(fresh))
	}
}

// What the pool hands out again is zero, whatever it held.
func TestGstatPoolZeroes(t *testing.T) {
	var p GstatPool
	reps, err := ReadGstat(bytes.NewReader(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")), "a-r.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tb := range reps[0].Tables {
		n += len(tb.Indices)
		p.Put(tb)
	}
	if n == 0 {
		t.Fatal("no index in the sample")
	}
	for range len(reps[0].Tables) {
		if tb := p.table(); tb == nil || !reflect.ValueOf(*tb).IsZero() {
			t.Fatalf("table from the pool: %+v", tb)
		}
	}
	for range n {
		if x := p.index(); x == nil || !reflect.ValueOf(*x).IsZero() {
			t.Fatalf("index from the pool: %+v", x)
		}
	}
	if p.table() != nil || p.index() != nil {
		t.Error("the pool gave more than it was given")
	}
	if l := p.list(1); len(l) != 0 || cap(l) < 1 || slices.ContainsFunc(l[:cap(l)], func(x *GstatIndex) bool { return x != nil }) {
		t.Errorf("list from the pool: %d of %d, holding indices", len(l), cap(l))
	}
}
