package analyze

import (
	"math/rand/v2"
	"testing"
)

// hashIndex gives back what was set for 100,000 random hashes, 0 and
// 1 among them, and nothing for the hashes never set; it grows to the
// smallest power of two at most three quarters full.
func TestHashIndex(t *testing.T) {
	var x hashIndex
	rng := rand.New(rand.NewPCG(3, 4))
	want := map[uint64]int32{0: -1, 1: 7}
	x.set(0, -1)
	x.set(1, 7)
	for i := range 100000 {
		h := rng.Uint64()
		want[h] = int32(i)
		x.set(h, int32(i))
	}
	x.set(1, 8) // (replaced)
	want[1] = 8
	for h, v := range want {
		if got, ok := x.get(h); !ok || got != v {
			t.Fatalf("get(%d) = %d, %v; want %d", h, got, ok, v)
		}
	}
	for range 1000 {
		h := rng.Uint64()
		if _, ok := want[h]; ok {
			continue
		}
		if v, ok := x.get(h); ok {
			t.Fatalf("get(%d) = %d for a hash never set", h, v)
		}
	}
	if x.n != 100001 || len(x.keys) != 1<<18 {
		t.Errorf("%d keys in %d slots, want 100001 in %d", x.n, len(x.keys), 1<<18)
	}
}
