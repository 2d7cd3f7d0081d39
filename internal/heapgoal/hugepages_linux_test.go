package heapgoal

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestHugePagesFaults measures, in a fresh process each, the page faults
// of filling 24 MB of heap with small objects, with and without
// HugePages: its point is that the runtime puts them in the advised
// pages, which fault once per 2 MiB.
func TestHugePagesFaults(t *testing.T) {
	if v := os.Getenv("HEAPGOAL_CHILD"); v != "" {
		// The advice itself, whatever the machine's faults cost
		// (TestProbeFaults has the probe).
		hugePagesPay = func(uintptr, uintptr) bool { return true }
		switch v {
		case "huge":
			HugePages(32 << 20)
		case "dirty":
			// A heap that held 16 MB and let it go (a command that read
			// the heads of its inputs first): the freed pages are dirty,
			// and a block the runtime takes from them it clears whole.
			dirty()
			var before, after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			HugePages(256 << 20)
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			fmt.Printf("advise %d\n", after.Minflt-before.Minflt)
		}
		fmt.Printf("faults %d\n", fillFaults(24<<20))
		return
	}
	if testutil.Race {
		t.Skip("the race detector's shadow memory faults too: the counts say nothing of the heap's")
	}
	if m := thpMode(readSmall(thpEnabled)); m != "madvise" {
		t.Skipf("THP mode %q: HugePages leaves the heap to the kernel", m)
	}
	if godebugOff(os.Getenv("GODEBUG")) {
		t.Skip("GODEBUG has disablethp=1")
	}
	if n := freeBlocks(readSmall(buddyInfo), 9); n < 64 {
		t.Skipf("%d free 2 MiB blocks: HugePages would not advise", n)
	}
	faults := func(mode string) (n, advise int) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugePagesFaults$")
		cmd.Env = append(os.Environ(), "HEAPGOAL_CHILD="+mode)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child %s: %v\n%s", mode, err, out)
		}
		n, advise = -1, -1
		for _, line := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(line, "faults "); ok {
				n, _ = strconv.Atoi(v)
			}
			if v, ok := strings.CutPrefix(line, "advise "); ok {
				advise, _ = strconv.Atoi(v)
			}
		}
		if n < 0 {
			t.Fatalf("child %s said no faults:\n%s", mode, out)
		}
		return n, advise
	}
	small, _ := faults("small")
	huge, _ := faults("huge")
	t.Logf("page faults filling 24 MB: %d with 4 KiB pages, %d advised", small, huge)
	// 24 MB is 6,144 pages of 4 KiB, 12 of 2 MiB.
	if small < 5000 {
		t.Errorf("%d faults without advice, want about 6,144 (one a 4 KiB page)", small)
	}
	if huge > small/4 {
		t.Errorf("%d faults advised, want under a quarter of the %d without", huge, small)
	}
	// On a heap with 16 MB of dirty free pages, advising 256 MB touches
	// at most those (cleared again), not the 65,536 pages of the block.
	for range 3 {
		fill, advise := faults("dirty")
		t.Logf("dirty heap: advising 256 MB took %d faults, filling 24 MB %d", advise, fill)
		if advise > 8000 || fill > small/2 {
			t.Errorf("dirty heap: advising 256 MB took %d faults and filling 24 MB %d; want under 8,000 (16 MB and a piece cleared) and half of %d", advise, fill, small)
		}
	}
}

// dirty allocates 16 MB in objects of 64 KiB to 1 MiB, drops them and
// collects, leaving the heap's top pages free but used.
func dirty() {
	var held [][]byte
	for size := 64 << 10; size <= 1<<20; size *= 2 {
		for range (4 << 20) / size {
			b := make([]byte, size)
			b[0] = 1
			held = append(held, b)
		}
	}
	runtime.KeepAlive(held)
	held = nil
	runtime.GC()
}

// fillFaults allocates and touches n bytes of 4 KiB objects, kept alive,
// and returns the minor page faults that took.
func fillFaults(n int) int64 {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	held := make([]*[4 << 10]byte, 0, n/(4<<10))
	for range n / (4 << 10) {
		p := new([4 << 10]byte)
		p[0] = 1
		held = append(held, p)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	runtime.KeepAlive(held)
	return after.Minflt - before.Minflt
}

// TestProbeFaults checks that the probe measures what it says: one fault
// for the advised huge page, one a page for the small ones.
func TestProbeFaults(t *testing.T) {
	if testutil.Race {
		t.Skip("the race detector's shadow memory faults too: the counts say nothing of the probe's")
	}
	if m := thpMode(readSmall(thpEnabled)); m != "madvise" {
		t.Skipf("THP mode %q: no probe", m)
	}
	if n := freeBlocks(readSmall(buddyInfo), 9); n < 64 {
		t.Skipf("%d free 2 MiB blocks: the kernel may have no huge page to give", n)
	}
	huge := uintptr(2 << 20)
	p, ok := probeFaults(huge)
	if !ok {
		t.Fatal("the probe did not run")
	}
	t.Logf("a huge page: %v in %d faults; %d small pages: %v in %d faults; pays: %v", p.huge, p.hugeFaults, smallProbe, p.small, p.smallFaults, p.pays(huge, 4096))
	if p.hugeFaults != 1 || p.smallFaults != smallProbe {
		t.Errorf("faults %d for the huge page and %d for %d small ones, want 1 and %d", p.hugeFaults, p.smallFaults, smallProbe, smallProbe)
	}
	if p.huge <= 0 || p.small <= 0 {
		t.Errorf("times %v and %v, want both above zero", p.huge, p.small)
	}
}
