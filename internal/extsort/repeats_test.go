package extsort

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// repeated is what Repeated passes: each hash with its payloads' numbers.
func repeated(t *testing.T, r *Repeats) []string {
	t.Helper()
	var got []string
	err := r.Repeated(func(h uint64, ps [][]byte) error {
		s := fmt.Sprintf("%x:", h>>40)
		for _, p := range ps {
			s += fmt.Sprintf(" %d", binary.LittleEndian.Uint32(p))
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// suspects is what Suspects passes: each hash with its payload's number.
func suspects(t *testing.T, r *Repeats) []string {
	t.Helper()
	var got []string
	err := r.Suspects(func(h uint64, p []byte) error {
		got = append(got, fmt.Sprintf("%x:%d", h>>40, binary.LittleEndian.Uint32(p)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func marked(t *testing.T, r *Repeats) bool {
	t.Helper()
	m, err := r.Marked()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func addNumbered(t *testing.T, r *Repeats, h uint64, n uint32) {
	t.Helper()
	if err := r.Add(h, binary.LittleEndian.AppendUint32(nil, n)); err != nil {
		t.Fatal(err)
	}
}

// Hashes that differ in their top 12 bits have bits of their own in the
// bitsets of 3,000 hashes (2^17 bits, some 44 a hash, of the 2^20 asked):
// 3,000 of them mark nothing; with one of them added again its two
// copies are the only suspects, with their payloads, in the order
// added. The log holds 64 bytes in memory: the rest is read back from
// its file.
func TestRepeatsFindsTheRepeat(t *testing.T) {
	r := NewRepeats(20, 4, 64)
	defer r.Close()
	for i := range uint64(3000) {
		addNumbered(t, r, i<<52, uint32(i))
	}
	if marked(t, r) || r.Len() != 3000 {
		t.Fatalf("distinct hashes: marked %v, %d hashes, want false, 3000", marked(t, r), r.Len())
	}
	if got := suspects(t, r); got != nil {
		t.Errorf("suspects of distinct hashes: %q", got)
	}
	if err := r.Add(1, []byte{1, 2, 3, 4}); err == nil {
		t.Error("a hash added after Marked was taken")
	}

	// Reset: as new, the bitsets cleared.
	r.Reset()
	if r.Len() != 0 {
		t.Fatalf("after Reset: %d hashes", r.Len())
	}
	for i := range uint64(3000) {
		addNumbered(t, r, i<<52, uint32(i))
	}
	addNumbered(t, r, 1234<<52, 99999)
	if !marked(t, r) {
		t.Fatal("a hash added twice marks nothing")
	}
	if got, want := suspects(t, r), []string{"4d2000:1234", "4d2000:99999"}; !slices.Equal(got, want) {
		t.Errorf("suspects %q, want %q", got, want)
	}
	if got, want := repeated(t, r), []string{"4d2000: 1234 99999"}; !slices.Equal(got, want) {
		t.Errorf("repeated %q, want %q", got, want)
	}
	if r.MaxHeld() > 64 {
		t.Errorf("the log held %d bytes in memory, want 64 at most", r.MaxHeld())
	}
	r.Reset()
	if marked(t, r) || suspects(t, r) != nil {
		t.Error("after Reset, the hashes before still mark")
	}
}

// With 64 bits, hashes that differ only below their top 6 bits share a
// bit: all are suspects, none repeated, each with its own payload.
func TestRepeatsSharedBits(t *testing.T) {
	r := NewRepeats(1, 4, 1) // (bits below 6 are 6; every record to the file)
	defer r.Close()
	var want []string
	for i := range uint64(200) {
		addNumbered(t, r, i<<40, uint32(i))
		want = append(want, fmt.Sprintf("%x:%d", i, i))
	}
	if err := r.Add(1, []byte{1, 2}); err == nil {
		t.Error("a payload of 2 bytes where 4 are due was taken")
	}
	if !marked(t, r) {
		t.Fatal("200 hashes on one bit mark nothing")
	}
	if got := suspects(t, r); !slices.Equal(got, want) {
		t.Errorf("suspects %q,\nwant %q", got, want)
	}
	if got := repeated(t, r); got != nil {
		t.Errorf("hashes that only share a bit reported repeated: %q", got)
	}
}

// Repeated groups the copies of each repeated hash, in the order they
// came, hashes in order, among suspects spilled one to a run (a budget
// of one byte) and on one bit.
func TestRepeatsRepeated(t *testing.T) {
	r := NewRepeats(6, 4, 1)
	defer r.Close()
	for i, h := range []uint64{9, 3, 9, 5, 3, 9, 7} {
		addNumbered(t, r, h<<40, uint32(i))
	}
	if got, want := repeated(t, r), []string{"3: 1 4", "9: 0 2 5"}; !slices.Equal(got, want) {
		t.Errorf("repeated %q, want %q", got, want)
	}
}

// A record made by the caller (AddRecord) is the hash and payload Add
// would have logged; one of another length is refused.
func TestRepeatsAddRecord(t *testing.T) {
	r := NewRepeats(6, 4, 1)
	defer r.Close()
	for i, h := range []uint64{9, 3, 9, 5, 3, 9, 7} {
		rec := binary.LittleEndian.AppendUint64(nil, h<<40)
		if i%2 == 0 {
			addNumbered(t, r, h<<40, uint32(i))
			continue
		}
		if err := r.AddRecord(binary.LittleEndian.AppendUint32(rec, uint32(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.AddRecord(make([]byte, 11)); err == nil {
		t.Error("a record of 11 bytes taken, want 12")
	}
	if got, want := repeated(t, r), []string{"3: 1 4", "9: 0 2 5"}; !slices.Equal(got, want) {
		t.Errorf("repeated %q, want %q", got, want)
	}
}

// Marked as the log goes to its file (MarkEarly) or when it is read,
// Repeats finds the same repeated hashes with the same payloads, and
// Repeat says whether there is one, whether the suspects are sorted in
// memory or (past maxSuspects) by Repeated: random logs of up to 2,000
// hashes, some added twice or more, with logs that go to the file a
// record at a time, a few records at a time or never, and after Reset.
func TestRepeatsMarkEarly(t *testing.T) {
	defer func(n int) { maxSuspects = n }(maxSuspects)
	rng := rand.New(rand.NewPCG(1, 44))
	for trial := range 60 {
		bits := []int{6, 10, 22}[trial%3]
		budget := []int{1, 12, 100, 1000, 1 << 20}[rng.IntN(5)]
		maxSuspects = []int{0, 1, 3, 1 << 17}[rng.IntN(4)]
		early := NewRepeats(bits, 4, budget).MarkEarly()
		late := NewRepeats(bits, 4, budget)
		for round := range 2 {
			n := 1 + rng.IntN(2000)
			seen := map[uint64]bool{}
			var hs []uint64
			want := false
			for i := range n {
				h := rng.Uint64()
				if len(hs) > 0 && rng.IntN(2000) == 0 {
					h = hs[rng.IntN(len(hs))]
				}
				want = want || seen[h]
				seen[h] = true
				hs = append(hs, h)
				addNumbered(t, early, h, uint32(i))
				addNumbered(t, late, h, uint32(i))
			}
			if got, want := repeated(t, early), repeated(t, late); !slices.Equal(got, want) {
				t.Fatalf("trial %d round %d: marked early, repeated %q; marked late %q", trial, round, got, want)
			}
			got, err := early.Repeat()
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("trial %d round %d (%d hashes, bits %d, budget %d, %d suspects in memory): Repeat %v, want %v",
					trial, round, n, bits, budget, maxSuspects, got, want)
			}
			early.Reset()
			late.Reset()
		}
		early.Close()
		late.Close()
	}
}
