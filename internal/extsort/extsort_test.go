package extsort

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

type rec struct {
	key  int64
	name string
	seq  int64
}

var recCodec = Codec[rec]{
	Append: func(b []byte, r rec) []byte {
		return AppendInt(AppendString(AppendInt(b, r.key), r.name), r.seq)
	},
	Decode: func(b []byte) (rec, error) {
		f := NewFields(b)
		r := rec{key: f.Int(), name: f.String(), seq: f.Int()}
		return r, f.Err()
	},
	Size: func(r rec) int { return 32 + len(r.name) },
}

// byKey orders by key only: the names of one key keep their order.
func byKey(a, b rec) int { return cmp.Compare(a.key, b.key) }

func temps(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "fbdiag-sort-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSorterSpillsAndMerges sorts 20,000 records in a budget of about 100
// of them, with runs merged 8 at a time: the records come out in the
// order of a stable sort in memory, the sorter never held more than two
// budgets (one batch filling, one being written), and its temporary files
// are gone.
func TestSorterSpillsAndMerges(t *testing.T) {
	defer func(n int) { FanIn = n }(FanIn)
	FanIn = 8
	before := len(temps(t))
	rng := rand.New(rand.NewPCG(1, 2))
	var want []rec
	s := New(byKey, recCodec, 100*40)
	for i := range 20000 {
		r := rec{key: rng.Int64N(500), name: fmt.Sprintf("T%d", rng.IntN(1000)), seq: int64(i)}
		want = append(want, r)
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortStableFunc(want, byKey)
	// Runs of 8 batches were merged into level 1, runs of 8 of those
	// into level 2: 3 files, fewer than 8 runs in each.
	if len(s.levels) != 3 {
		t.Errorf("%d levels of runs, want 3", len(s.levels))
	}
	for l, v := range s.levels {
		if len(v.runs) >= FanIn {
			t.Errorf("level %d holds %d runs, want fewer than %d", l, len(v.runs), FanIn)
		}
	}
	if s.Len() != 20000 {
		t.Errorf("Len = %d, want 20000", s.Len())
	}
	var got []rec
	if err := s.Each(func(r rec) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("records out of order: first %v, want %v", got[:3], want[:3])
	}
	// 40 bytes a record (32 + "T" and up to 3 digits) fill 4,000 bytes
	// at the 100th or 112th; a batch fills while the last one is written.
	if s.MaxHeld() > 2*112 || s.MaxHeld() < 2*100 {
		t.Errorf("held %d records at once, want 200 to 224 (two budgets)", s.MaxHeld())
	}
	if s.Spilled() < 178 {
		t.Errorf("wrote %d runs, want at least 178 (20,000 records of at most 112)", s.Spilled())
	}
	if n := len(temps(t)); n != before {
		t.Errorf("%d temporary files left, had %d before", n, before)
	}
	if s.Len() != 0 {
		t.Errorf("Len after Each = %d, want 0", s.Len())
	}
}

// TestSorterInMemory sorts what fits in the budget without a file.
func TestSorterInMemory(t *testing.T) {
	s := New(byKey, recCodec, 1<<20)
	for i, k := range []int64{3, 1, 2, 1} {
		if err := s.Add(rec{key: k, name: "x", seq: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []int64
	if err := s.Each(func(r rec) error { seqs = append(seqs, r.seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []int64{1, 3, 2, 0}; !slices.Equal(seqs, want) {
		t.Errorf("order %v, want %v", seqs, want)
	}
	if s.Spilled() != 0 {
		t.Errorf("wrote %d runs for 4 records", s.Spilled())
	}
}

// TestSorterStops returns fn's error and removes the file.
func TestSorterStops(t *testing.T) {
	before := len(temps(t))
	s := New(byKey, recCodec, 100)
	for i := range 50 {
		if err := s.Add(rec{key: int64(50 - i), seq: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	stop := fmt.Errorf("enough")
	n := 0
	err := s.Each(func(r rec) error {
		n++
		if n == 10 {
			return stop
		}
		return nil
	})
	if err != stop || n != 10 {
		t.Errorf("Each = %v after %d records, want %v after 10", err, n, stop)
	}
	if n := len(temps(t)); n != before {
		t.Errorf("%d temporary files left, had %d before", n, before)
	}
}

// TestSorterSpillError: a batch that cannot be written (no temporary
// directory) fails the Add or the Each after it, whichever comes first,
// and every one after, until the sorter is emptied.
func TestSorterSpillError(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	s := New(byKey, recCodec, 100)
	var addErr error
	added := 0
	for i := range 50 {
		if addErr = s.Add(rec{key: int64(i)}); addErr != nil {
			break
		}
		added++
	}
	err := s.Each(func(rec) error { return nil })
	if err == nil || addErr != nil && addErr.Error() != err.Error() {
		t.Fatalf("Add: %v (after %d records), Each: %v; want the temporary file's error from both", addErr, added, err)
	}
	if !strings.Contains(err.Error(), "sorting: ") || !strings.Contains(err.Error(), "gone") {
		t.Errorf("error %q, want the temporary directory's", err)
	}
	// Emptied by Each: the next records start again.
	t.Setenv("TMPDIR", t.TempDir())
	for i := range 10 {
		if err := s.Add(rec{key: int64(10 - i)}); err != nil {
			t.Fatal(err)
		}
	}
	var got []int64
	if err := s.Each(func(r rec) error { got = append(got, r.key); return nil }); err != nil || len(got) != 10 || got[0] != 1 {
		t.Errorf("after the error: %v, %v; want 1…10", got, err)
	}
}

// TestFieldsCut reports a record cut short.
func TestFieldsCut(t *testing.T) {
	b := AppendString(nil, "RDB$PAGES")
	f := NewFields(b[:4])
	if s := f.String(); s != "" || f.Err() == nil {
		t.Errorf("String of a cut record = %q, %v; want an error", s, f.Err())
	}
	f = NewFields(AppendString(AppendInt(nil, 3), "x"))
	if n := f.Count(); n != -1 || f.Err() == nil {
		t.Errorf("Count of 3 strings in 2 bytes = %d, %v; want -1 and an error", n, f.Err())
	}
	f = NewFields(AppendString(AppendString(AppendInt(nil, 2), "x"), "y"))
	if n, x, y := f.Count(), f.String(), f.String(); n != 2 || x != "x" || y != "y" || f.Err() != nil {
		t.Errorf("read %d, %q, %q, %v; want 2, x, y", n, x, y, f.Err())
	}
	rec := AppendString(AppendString(nil, "RDB$PAGES"), "")
	f = NewFields(rec)
	if a, b := f.Ref(), f.Bytes(); a != "RDB$PAGES" || len(b) != 0 || f.Err() != nil {
		t.Errorf("Ref, Bytes = %q, %q, %v; want RDB$PAGES and nothing", a, b, f.Err())
	}
	f = NewFields(AppendFloat(AppendInt(nil, -7), 0.1))
	if i, x := f.Int(), f.Float(); i != -7 || x != 0.1 || f.Err() != nil {
		t.Errorf("read %d, %v, %v; want -7, 0.1", i, x, f.Err())
	}
}

// TestSorterSortWith sorts 10,000 numbers (many repeated) with
// slices.Sort in batches of 100, merged 4 at a time: they come out in
// order.
func TestSorterSortWith(t *testing.T) {
	defer func(n int) { FanIn = n }(FanIn)
	FanIn = 4
	codec := Codec[uint64]{
		Append: func(b []byte, v uint64) []byte { return AppendInt(b, int64(v)) },
		Decode: func(b []byte) (uint64, error) { f := NewFields(b); v := uint64(f.Int()); return v, f.Err() },
		Size:   func(uint64) int { return 8 },
	}
	s := New(cmp.Compare[uint64], codec, 800).SortWith(slices.Sort[[]uint64])
	rng := rand.New(rand.NewPCG(11, 12))
	var want []uint64
	for range 10000 {
		v := rng.Uint64N(3000)
		want = append(want, v)
		if err := s.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(want)
	var got []uint64
	if err := s.Each(func(v uint64) error { got = append(got, v); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d numbers out of order", len(got))
	}
	if s.Spilled() != 100 {
		t.Errorf("wrote %d runs, want 100 of 100 numbers", s.Spilled())
	}
}

// EachRaw passes each record read back with the bytes Codec.Append made
// of it, records longer than a run's read buffer included (those are
// copied, the others read in place), and nil bytes for records that
// never left memory.
func TestEachRaw(t *testing.T) {
	defer func(n int) { FanIn = n }(FanIn)
	FanIn = 4
	for _, budget := range []int{64 << 10, 1 << 30} {
		s := New(byKey, recCodec, budget)
		rng := rand.New(rand.NewPCG(3, 4))
		var want []rec
		for i := range 3000 {
			n := 1 + rng.IntN(40)
			if i%500 == 7 {
				n = maxReadBuffer + 1 + rng.IntN(1000) // past any run's buffer
			}
			r := rec{key: rng.Int64N(100), name: strings.Repeat(string(rune('a'+i%26)), n), seq: int64(i)}
			want = append(want, r)
			if err := s.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		slices.SortStableFunc(want, byKey)
		var got []rec
		raws, nils, longRaws := 0, 0, 0
		err := s.EachRaw(func(r rec, raw []byte) error {
			got = append(got, r)
			if len(r.name) > maxReadBuffer && raw != nil {
				longRaws++
			}
			if raw == nil {
				nils++
				return nil
			}
			raws++
			if enc := recCodec.Append(nil, r); string(enc) != string(raw) {
				t.Fatalf("record %d (%d bytes of name): raw bytes differ from its encoding", r.seq, len(r.name))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("budget %d: records out of order", budget)
		}
		spilled := budget < 1<<20
		if spilled && (raws != len(want) || nils != 0) || !spilled && (nils != len(want) || raws != 0) {
			t.Errorf("budget %d: %d records with their bytes, %d without; want all %s", budget, raws, nils, map[bool]string{true: "with", false: "without"}[spilled])
		}
		// The six records longer than any read buffer came through the
		// copy, with their bytes, when the sorter wrote its runs.
		if wantLong := map[bool]int{true: 6}[spilled]; longRaws != wantLong {
			t.Errorf("budget %d: %d long records with their bytes, want %d", budget, longRaws, wantLong)
		}
	}
}

// A codec whose Decode reads only the front of a record, as a sort key
// (the name by reference), still gets every record's whole bytes from
// EachRaw: compaction copies the bytes it read instead of encoding the
// record it decoded, and a record read in place keeps its name while the
// other runs are read.
func TestEachRawKeyOnlyCompacted(t *testing.T) {
	defer func(n int) { FanIn = n }(FanIn)
	FanIn = 4
	keyOnly := recCodec
	keyOnly.Decode = func(b []byte) (rec, error) {
		var f Fields
		f.Reset(b)
		r := rec{key: f.Int(), name: f.Ref()}
		return r, f.ErrSoFar()
	}
	s := New(byKey, keyOnly, 50*40)
	rng := rand.New(rand.NewPCG(7, 8))
	var want []rec
	for i := range 5000 {
		r := rec{key: rng.Int64N(300), name: fmt.Sprintf("T%d", rng.IntN(1000)), seq: int64(i)}
		want = append(want, r)
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if s.Spilled() < 16 || len(s.levels) < 2 {
		t.Fatalf("%d batches in %d levels: no compaction to test", s.Spilled(), len(s.levels))
	}
	slices.SortStableFunc(want, byKey)
	i := 0
	err := s.EachRaw(func(r rec, raw []byte) error {
		whole, err := recCodec.Decode(raw)
		if err != nil {
			return err
		}
		if whole != want[i] || r.key != want[i].key || r.name != want[i].name {
			t.Fatalf("record %d: %+v read as %+v (key %+v), want %+v", i, raw, whole, r, want[i])
		}
		i++
		return nil
	})
	if err != nil || i != len(want) {
		t.Fatalf("EachRaw: %v after %d records, want %d", err, i, len(want))
	}
}

// TestMergeRunCounts reads back 1 to 17 runs (the merge's tree of losers
// is complete for none but 1, 2, 4, 8 and 16), with ties between runs
// and within them: the order is a stable sort's, a tie going to the
// record added first.
func TestMergeRunCounts(t *testing.T) {
	for runs := 1; runs <= 17; runs++ {
		const perRun = 10 // (40 bytes a record, "T" and one digit: 33)
		rng := rand.New(rand.NewPCG(uint64(runs), 7))
		s := New(byKey, recCodec, perRun*33)
		var want []rec
		for i := range runs * perRun {
			r := rec{key: rng.Int64N(4), name: fmt.Sprintf("T%d", rng.IntN(10)), seq: int64(i)}
			want = append(want, r)
			if err := s.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		slices.SortStableFunc(want, byKey)
		var got []rec
		if err := s.Each(func(r rec) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if runs > 1 && s.spilled != runs {
			t.Errorf("%d runs: wrote %d", runs, s.spilled)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d runs: records out of order:\n got %v\nwant %v", runs, got, want)
		}
	}
}

// TestHold sorts records whose names the sorter holds (Hold) through
// spills and, then, in memory only: every name reads back as it was
// added, though the bytes of a written batch go to the next one's names.
func TestHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var want []rec
	s := New(byKey, recCodec, 100*40)
	var b []byte
	for i := range 5000 {
		b = fmt.Appendf(b[:0], "T%d-%s", rng.IntN(1000), strings.Repeat("x", rng.IntN(40)))
		r := rec{key: rng.Int64N(50), name: s.Hold(b), seq: int64(i)}
		want = append(want, rec{key: r.key, name: string(b), seq: r.seq})
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if s.Spilled() < 40 {
		t.Fatalf("wrote %d runs, want 40 or more", s.Spilled())
	}
	if s.Hold(nil) != "" {
		t.Error("Hold(nil) is not empty")
	}
	slices.SortStableFunc(want, byKey)
	var got []rec
	if err := s.Each(func(r rec) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("records read back differ: first %v, want %v", got[:3], want[:3])
	}
	// In memory: the held names are the batch's.
	m := New(byKey, recCodec, 1<<20)
	for i, name := range []string{"b", "a", "c"} {
		if err := m.Add(rec{key: int64(2 - i), name: m.Hold([]byte(name)), seq: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	if err := m.Each(func(r rec) error { names = append(names, r.name); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"c", "a", "b"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}

// TestMergeStreaks merges runs that give the output in long stretches
// (records added nearly in order, as a gstat output's warnings come),
// stretches cut short by a record out of place, and ties that go to the
// earlier run: the order is a stable sort's.
func TestMergeStreaks(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var want []rec
	s := New(byKey, recCodec, 100*40).CompareWith(func(a, b *rec) int { return byKey(*a, *b) })
	for i := range 20000 {
		k := int64(i / 3)
		switch rng.IntN(50) {
		case 0:
			k = rng.Int64N(7000) // out of place
		case 1:
			k = 100 // a tie across runs
		}
		r := rec{key: k, name: fmt.Sprint(i), seq: int64(i)}
		want = append(want, r)
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if s.Spilled() < 150 {
		t.Fatalf("wrote %d runs, want 150 or more", s.Spilled())
	}
	slices.SortStableFunc(want, byKey)
	var got []rec
	if err := s.Each(func(r rec) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("record %d: %v, want %v", i, got[i], want[i])
			}
		}
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
}

// Runs that each give the output whole, the first run's last (the
// earlier run finishing after the others, which a streak must not pass
// once finished), and runs that take turns, tying across runs: the order
// is a stable sort's, and a run's streak costs about a comparison a
// record, not log2 of the runs.
func TestMergeStreakToTheEnd(t *testing.T) {
	for name, key := range map[string]func(i int) int64{
		"runs in reverse": func(i int) int64 { return int64(1000*(15-i/100) + i%100) },
		"ties by turns":   func(i int) int64 { return int64(i % 100 / 10) },
	} {
		calls := 0
		s := New(byKey, recCodec, 100*40).CompareWith(func(a, b *rec) int { calls++; return byKey(*a, *b) })
		var want []rec
		for i := range 1600 {
			r := rec{key: key(i), name: fmt.Sprint(i), seq: int64(i)}
			want = append(want, r)
			if err := s.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		if s.Spilled() < 12 {
			t.Fatalf("%s: wrote %d runs, want 12 or more", name, s.Spilled())
		}
		slices.SortStableFunc(want, byKey)
		calls = 0
		var got []rec
		err := s.Each(func(r rec) error {
			if got = append(got, r); len(got) > len(want) {
				return errors.New("more records than were added")
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d records, not in a stable sort's order", name, len(got))
		}
		if name == "runs in reverse" && calls > 2*len(want) {
			t.Errorf("%s: %d comparisons for %d records", name, calls, len(want))
		}
	}
}

// A run read back ends where its records end, and a record cut short,
// a length that overflows or a failing read is an error, the read's own
// when there is one.
func TestCursorNext(t *testing.T) {
	b := AppendInt(AppendString(AppendInt(nil, 7), "x"), 1)
	whole := append([]byte{byte(len(b))}, b...)
	failing := errors.New("disk gone")
	lb := AppendInt(AppendString(AppendInt(nil, 8), strings.Repeat("y", 40)), 2) // (longer than the buffer)
	long := append([]byte{byte(len(lb))}, lb...)
	several := slices.Concat(whole, long, whole, whole, long)
	for _, c := range []struct {
		name string
		r    io.Reader
		recs int
		err  error // nil: the run ends cleanly
	}{
		{"empty", bytes.NewReader(nil), 0, nil},
		{"one record", bytes.NewReader(whole), 1, nil},
		{"length cut short", bytes.NewReader(append(slices.Clone(whole), 0x80)), 1, io.ErrUnexpectedEOF},
		{"record cut short", bytes.NewReader(whole[:len(whole)-1]), 0, io.ErrUnexpectedEOF},
		{"length overflows", bytes.NewReader(bytes.Repeat([]byte{0xff}, 11)), 0, errors.New("overflows")},
		{"read fails", io.MultiReader(bytes.NewReader([]byte{0x80}), iotest.ErrReader(failing)), 0, failing},
		{"records of both sizes", bytes.NewReader(several), 5, nil},
		{"a byte a read", iotest.OneByteReader(bytes.NewReader(several)), 5, nil},
		{"a long record cut short", bytes.NewReader(slices.Concat(whole, long[:30])), 1, io.ErrUnexpectedEOF},
		{"a long record's read fails", io.MultiReader(bytes.NewReader(slices.Concat(whole, long[:30])), iotest.ErrReader(failing)), 1, failing},
	} {
		cur := &cursor[rec]{src: c.r, b: make([]byte, 16)}
		n := 0
		var err error
		for {
			var ok bool
			if ok, err = cur.next(recCodec); !ok {
				break
			}
			n++
		}
		switch {
		case n != c.recs:
			t.Errorf("%s: %d records, want %d", c.name, n, c.recs)
		case c.err == nil && err != nil:
			t.Errorf("%s: %v, want the run's end", c.name, err)
		case c.err != nil && (err == nil || !errors.Is(err, c.err) && !strings.Contains(err.Error(), c.err.Error())):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
}

// TestFieldsOneByte reads back integers and strings on both sides of a
// one-byte varint (read without binary.Varint), and a string whose
// one-byte length the record cannot hold.
func TestFieldsOneByte(t *testing.T) {
	var b []byte
	ints := []int64{0, 1, -1, 63, -64, 64, -65, 127, 128, 300, -300, math.MaxInt64, math.MinInt64}
	strs := []string{"", "a", strings.Repeat("x", 127), strings.Repeat("y", 128), strings.Repeat("z", 300)}
	for _, v := range ints {
		b = AppendInt(b, v)
	}
	for _, s := range strs {
		b = AppendString(b, s)
	}
	f := NewFields(b)
	for _, v := range ints {
		if got := f.Int(); got != v {
			t.Errorf("Int() = %d, want %d", got, v)
		}
	}
	for _, s := range strs {
		if got := f.String(); got != s {
			t.Errorf("String() = %.10q (%d bytes), want %d bytes", got, len(got), len(s))
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	f = NewFields([]byte{5, 'a', 'b'})
	if got := f.Bytes(); got != nil || f.Err() == nil {
		t.Errorf("a length past the record: Bytes() = %q, error %v", got, f.Err())
	}
}

// Fixed reads as many bytes as asked, none past the record.
func TestFieldsFixed(t *testing.T) {
	f := NewFields([]byte("abcdef"))
	if a, b, c := f.Fixed(2), f.Fixed(0), f.Fixed(3); a != "ab" || b != "" || c != "cde" || f.ErrSoFar() != nil {
		t.Fatalf("%q %q %q, %v", a, b, c, f.ErrSoFar())
	}
	if s := f.Fixed(2); s != "" || f.Err() == nil {
		t.Fatalf("past the end: %q, %v", s, f.Err())
	}
	if s := NewFields([]byte("ab")).Fixed(-1); s != "" {
		t.Fatalf("a negative length: %q", s)
	}
}

// Flush spills the batch being filled when the sorter spills already,
// and leaves it to Each when it does not: the records come out in the
// order of a stable sort either way, and Flush twice or after the last
// Add changes nothing.
func TestSorterFlush(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 6))
	for _, n := range []int{0, 3, 99, 100, 250, 1000} {
		s := New(byKey, recCodec, 100*40)
		var want []rec
		for i := range n {
			r := rec{key: rng.Int64N(20), name: fmt.Sprintf("T%d", rng.IntN(1000)), seq: int64(i)}
			want = append(want, r)
			if err := s.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		spilled, held := s.Spilled(), len(s.batch)
		for range 2 {
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		switch got := s.Spilled(); {
		case spilled == 0 && got != 0:
			t.Errorf("%d records: Flush spilled a sorter that held them all", n)
		case spilled > 0 && held > 0 && got != spilled+1:
			t.Errorf("%d records: %d runs after Flush, want %d", n, got, spilled+1)
		}
		slices.SortStableFunc(want, byKey)
		var got []rec
		if err := s.Each(func(r rec) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d records out of order after Flush", n)
		}
	}
}
