package heapgoal

import (
	"testing"
	"time"
)

func TestTHPMode(t *testing.T) {
	for s, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never\n": "always",
		"always madvise [never]\n": "never",
		"":                         "",
		"always madvise never\n":   "",
	} {
		if got := thpMode(s); got != want {
			t.Errorf("thpMode(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestFreeBlocks(t *testing.T) {
	// /proc/buddyinfo of the 2-core test machine, 24 GB, 22 GB free.
	const info = `Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 
Node 0, zone    DMA32      0      4      2      2      1      2      0      3      3      1    753 
Node 0, zone   Normal   1708   2473   2179   2124    910   1288    733    463    223    155    576 
`
	// Order 9 (2 MiB): DMA 1 + 3×2, DMA32 1 + 753×2, Normal 155 + 576×2.
	if got := freeBlocks(info, 9); got != 7+1507+1307 {
		t.Errorf("free 2 MiB blocks = %d, want %d", got, 7+1507+1307)
	}
	if got := freeBlocks(info, 10); got != 3+753+576 {
		t.Errorf("free 4 MiB blocks = %d, want %d", got, 3+753+576)
	}
	// A fragmented machine: blocks of 1 MiB at most.
	if got := freeBlocks("Node 0, zone   Normal   1708   2473   2179   2124    910   1288    733    463    223      0      0\n", 9); got != 0 {
		t.Errorf("free 2 MiB blocks of a fragmented zone = %d, want 0", got)
	}
	if got := freeBlocks("garbage\nNode 0, zone Normal x 1\n", 0); got != 0 {
		t.Errorf("free blocks of garbage = %d, want 0", got)
	}
}

func TestGodebugOff(t *testing.T) {
	for s, want := range map[string]bool{
		"":                             false,
		"disablethp=1":                 true,
		"madvdontneed=1, disablethp=1": true,
		"disablethp=0":                 false,
		"disablethp=1,disablethp=0":    false,
		"xdisablethp=1":                false,
	} {
		if got := godebugOff(s); got != want {
			t.Errorf("godebugOff(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPays(t *testing.T) {
	const huge, page = 2 << 20, 4096
	// 64 small pages stand for a huge page's 512: their time × 8.
	for _, c := range []struct {
		p    faultProbe
		want bool
	}{
		{faultProbe{huge: 100 * time.Microsecond, small: 130 * time.Microsecond, hugeFaults: 1, smallFaults: 64}, true},    // a huge page freed a moment before
		{faultProbe{huge: 2500 * time.Microsecond, small: 130 * time.Microsecond, hugeFaults: 1, smallFaults: 64}, false},  // one the host took back
		{faultProbe{huge: 2500 * time.Microsecond, small: 640 * time.Microsecond, hugeFaults: 1, smallFaults: 64}, true},   // small faults of 10 µs
		{faultProbe{huge: 1000 * time.Microsecond, small: 125 * time.Microsecond, hugeFaults: 1, smallFaults: 64}, false},  // a tie: no gain
		{faultProbe{huge: 900 * time.Microsecond, small: 130 * time.Microsecond, hugeFaults: 512, smallFaults: 64}, false}, // the kernel gave no huge page
	} {
		if got := c.p.pays(huge, page); got != c.want {
			t.Errorf("%+v: pays = %v, want %v", c.p, got, c.want)
		}
	}
}
