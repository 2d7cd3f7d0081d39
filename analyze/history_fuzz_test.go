package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func readTestdata(t testing.TB, rel ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(testutil.Testdata(t, rel...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzDiff feeds two gstat texts to Diff and TrendOf: whatever the reader
// makes of them, the comparison must not panic, its JSON must encode (no
// NaN or infinity reaches a figure), and statuses must agree with the
// values.
func FuzzDiff(f *testing.F) {
	ar := readTestdata(f, "fb30", "shop-gstat-a-r.txt")
	later := readTestdata(f, "fb30", "shop-gstat-r-later.txt")
	f.Add(ar, later)
	f.Add(readTestdata(f, "fb30", "shop-gstat-h.txt"), later)
	f.Add(readTestdata(f, "fb30", "shop-gstat-i.txt"), readTestdata(f, "fb30", "shop-gstat-d.txt"))
	f.Add(readTestdata(f, "fb30", "shop-gstat-s-r.txt"), ar)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, errA := parse.ReadGstat(bytes.NewReader(a), "a")
		rb, errB := parse.ReadGstat(bytes.NewReader(b), "b")
		if errA != nil || errB != nil || len(ra) == 0 || len(rb) == 0 {
			return
		}
		sa, sb := NewHistorySnapshot(ra[len(ra)-1]), NewHistorySnapshot(rb[len(rb)-1])
		d := Diff(sa, sb)
		if _, err := json.Marshal(d); err != nil {
			t.Fatalf("diff JSON: %v", err)
		}
		for _, td := range d.Tables {
			switch td.Status {
			case StatusAdded:
				if td.Records[0] != nil || td.DataPages[0] != nil {
					t.Fatalf("added table %s has before values", td.Name)
				}
			case StatusUnchanged:
				if td.Records.Differs() || td.DataPages.Differs() {
					t.Fatalf("unchanged table %s differs", td.Name)
				}
			}
		}
		var snaps []*HistorySnapshot
		for _, r := range append(ra, rb...) {
			snaps = append(snaps, NewHistorySnapshot(r))
		}
		if _, err := json.Marshal(TrendOf(snaps, 1<<30)); err != nil {
			t.Fatalf("trend JSON: %v", err)
		}
	})
}

// BenchmarkDiff measures reading the real pair and comparing it, per
// input byte.
func BenchmarkDiff(b *testing.B) {
	a := readTestdata(b, "fb30", "shop-gstat-a-r.txt")
	c := readTestdata(b, "fb30", "shop-gstat-r-later.txt")
	b.SetBytes(int64(len(a) + len(c)))
	for b.Loop() {
		ra, err := parse.ReadGstat(bytes.NewReader(a), "a")
		if err != nil {
			b.Fatal(err)
		}
		rc, err := parse.ReadGstat(bytes.NewReader(c), "c")
		if err != nil {
			b.Fatal(err)
		}
		Diff(NewHistorySnapshot(ra[0]), NewHistorySnapshot(rc[0]))
	}
}

// BenchmarkTrend measures a month of daily snapshots (the real -a -r
// output with ORDERS growing), read and fitted, per input byte.
func BenchmarkTrend(b *testing.B) {
	var texts [][]byte
	n := 0
	for day := range 30 {
		s := []byte(growingShop(b, day, int64(808+100*day)))
		texts = append(texts, s)
		n += len(s)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		snaps := make([]*HistorySnapshot, 0, len(texts))
		for _, s := range texts {
			r, err := parse.ReadGstat(bytes.NewReader(s), "s")
			if err != nil {
				b.Fatal(err)
			}
			snaps = append(snaps, NewHistorySnapshot(r[0]))
		}
		TrendOf(snaps, 1<<30)
	}
}
