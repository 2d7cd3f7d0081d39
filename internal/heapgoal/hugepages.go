package heapgoal

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

var hugeOnce sync.Once

// HugePages asks Linux to back the first n bytes of heap the process
// grows into with transparent huge pages, where the system leaves that
// choice to each program (THP mode "madvise"). The first touch of each
// 4 KiB page of a new heap is a page fault, "a single page fault for each
// 2M virtual region" with huge pages (the kernel's
// Documentation/admin-guide/mm/transhuge.rst): a gstat stream grows its
// heap to 26 MB within its first 20 MB of input and took 6,700 faults,
// 10 µs each on the 2-core test machine, a virtual machine (68 ms to
// touch 26 MB, 2 to 25 ms with huge pages): 9 to 12 % of its wall time on
// 100 MiB.
//
// The Go runtime stopped advising its heap in Go 1.21.1: a fault in an
// advised region that finds no free huge page makes the kernel reclaim
// and compact memory there and then (defrag "madvise", the kernel's
// default), stalls of 100 ms and more (go.dev/issue/61718), and on a
// database server the memory reclaimed is the database's cache. So the
// heap is advised only while the kernel has twice the free huge pages
// it needs (/proc/buddyinfo): the faults take them from the free lists.
// And only where a huge page costs less to fault than the small pages it
// stands for: a probe faults one of each kind first (hugePagesPay), since
// on a virtual machine whose host takes back free memory a huge page
// from the free lists can cost five times its small pages.
//
// HugePages does nothing where the kernel gives huge pages to every
// mapping already ("always") or to none ("never"), off Linux, when
// GODEBUG has disablethp=1 (Go's switch to keep them off the heap), and
// after its first call: it must run while the heap is small.
func HugePages(n int) {
	hugeOnce.Do(func() {
		if n <= 0 || godebugOff(os.Getenv("GODEBUG")) || thpMode(readSmall(thpEnabled)) != "madvise" {
			return
		}
		huge, err := strconv.Atoi(strings.TrimSpace(readSmall(thpSize)))
		page := os.Getpagesize()
		if err != nil || page <= 0 || huge <= page || huge&(huge-1) != 0 {
			return
		}
		order := 0
		for page<<order < huge {
			order++
		}
		if freeBlocks(readSmall(buddyInfo), order) < 2*(n/huge+1) || !hugePagesPay(uintptr(huge), uintptr(page)) {
			return
		}
		adviseHeap(n, uintptr(huge))
	})
}

// thpEnabled says the system's THP mode, thpSize the size of a huge
// page in bytes.
const (
	thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"
	thpSize    = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
)

// buddyInfo counts the free blocks of each order of each memory zone.
const buddyInfo = "/proc/buddyinfo"

// readSmall is a small system file's text, "" if it cannot be read.
func readSmall(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// thpMode is the mode the kernel's setting selects, the word in
// brackets of "always [madvise] never"; "" if there is none.
func thpMode(s string) string {
	for _, f := range strings.Fields(s) {
		if len(f) > 2 && f[0] == '[' && f[len(f)-1] == ']' {
			return f[1 : len(f)-1]
		}
	}
	return ""
}

// godebugOff reports whether a GODEBUG value sets disablethp=1 (the
// last setting of a key wins, as in the runtime).
func godebugOff(s string) bool {
	off := false
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == "disablethp" {
			off = v == "1"
		}
	}
	return off
}

// freeBlocks counts the free blocks of the given order (2^order pages)
// that a /proc/buddyinfo text lists, a bigger block as the blocks of the
// order it holds. A line is "Node 0, zone Normal" then the count of free
// blocks of each order from 0 up.
func freeBlocks(s string, order int) int {
	n := 0
	for line := range strings.Lines(s) {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "Node" || f[2] != "zone" {
			continue
		}
		for o, c := range f[4:] {
			k, err := strconv.Atoi(c)
			if err != nil || k < 0 {
				break
			}
			if o >= order {
				n += k << (o - order)
			}
		}
	}
	return n
}

// smallProbe is how many 4 KiB pages the probe of small pages faults:
// their time, scaled to a huge page's bytes, stands for the faults a
// huge page saves (64 pages: some 0.1 ms here, 0.6 ms on a machine whose
// faults take 10 µs).
const smallProbe = 64

// faultProbe is what one probe of the machine's page faults measured:
// the time and faults of touching one advised huge page of fresh memory,
// and of touching smallProbe pages that may not be huge.
type faultProbe struct {
	huge, small             time.Duration
	hugeFaults, smallFaults int64
}

// pays says whether the probe found huge pages worth having: the kernel
// gave one (a single fault for the huge page's bytes) and faulting it took
// less time than the small pages of the same bytes would. Not on a
// virtual machine whose host takes back the guest's free memory (free
// page reporting, the kernel's Documentation/mm/free_page_reporting.rst:
// blocks of 2 MiB and more, the huge pages' own free lists): the first
// write to each of the host's pages of a huge page is a fault on the
// host. On the 2-core test machine such a huge page took 2-3 ms to fault
// (32 MB in 60-95 ms), a small page 2 µs (32 MB in 13-17 ms), a huge page
// freed a moment before 0.1 ms.
func (p faultProbe) pays(huge, page uintptr) bool {
	return p.hugeFaults == 1 && p.huge*time.Duration(smallProbe*page) < p.small*time.Duration(huge)
}
