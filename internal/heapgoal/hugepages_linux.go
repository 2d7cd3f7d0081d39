package heapgoal

import (
	"cmp"
	"os"
	"runtime"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

// block is how much of the heap to come adviseHeap takes at a time.
const block = 4 << 20

// adviseHeap makes the heap grow by about n bytes, in blocks of a few
// megabytes that it holds, advises MADV_HUGEPAGE the huge pages inside
// each run of adjacent blocks and frees them: the runtime takes the next
// pages of small objects from the lowest free addresses, these. Fresh
// memory the runtime does not clear, so nothing is touched; a block it
// takes from pages used before (a heap that held more and let it go) it
// clears whole. Taken at once, the block was cleared entire on such a
// heap, 256 MB in 65,500 page faults; a block at a time, only the blocks
// over used pages are.
func adviseHeap(n int, huge uintptr) {
	blocks := make([][]byte, 0, n/block+1)
	for range max(n/block, 1) {
		blocks = append(blocks, make([]byte, block))
	}
	at := func(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
	slices.SortFunc(blocks, func(a, b []byte) int { return cmp.Compare(at(a), at(b)) })
	for i := 0; i < len(blocks); {
		// blocks[i:j] lie end to end.
		j := i + 1
		for j < len(blocks) && at(blocks[j]) == at(blocks[j-1])+block {
			j++
		}
		start, end := at(blocks[i]), at(blocks[j-1])+block
		if beg, fin := (start+huge-1)&^(huge-1), end&^(huge-1); beg < fin {
			// The run spans several objects: madvise by address (blocks
			// keeps them alive). A failure leaves the heap as it was.
			syscall.Syscall(syscall.SYS_MADVISE, beg, fin-beg, syscall.MADV_HUGEPAGE)
		}
		i = j
	}
	runtime.KeepAlive(blocks)
	runtime.GC() // (the blocks' pages are free from now on)
}

// hugePagesPay probes the machine's page faults (probeFaults) and says
// whether a huge page is worth advising; true when the probe cannot run,
// as before there was one. (A variable: tests of the advice itself set
// it.)
var hugePagesPay = func(huge, page uintptr) bool {
	p, ok := probeFaults(huge)
	return !ok || p.pays(huge, page)
}

// probeFaults faults one huge page and smallProbe small ones of a fresh
// mapping of its own, unmapped after, and times each.
func probeFaults(huge uintptr) (faultProbe, bool) {
	runtime.LockOSThread() // (the faults counted are the thread's)
	defer runtime.UnlockOSThread()
	page := uintptr(os.Getpagesize())
	m, err := syscall.Mmap(-1, 0, int(2*huge), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return faultProbe{}, false
	}
	defer syscall.Munmap(m)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	off := (base+huge-1)&^(huge-1) - base // the huge page inside m
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, base+off, huge, syscall.MADV_HUGEPAGE); e != 0 {
		return faultProbe{}, false
	}
	// The small pages lie in the part of m before or after the huge
	// page, advised not to be huge (a mapping of its own would do as
	// well; this one is already there).
	small := off + huge
	if off >= smallProbe*page {
		small = 0
	}
	if small+smallProbe*page > uintptr(len(m)) {
		return faultProbe{}, false
	}
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, base+small, smallProbe*page, syscall.MADV_NOHUGEPAGE); e != 0 {
		return faultProbe{}, false
	}
	var p faultProbe
	p.small, p.smallFaults = touch(m[small:small+smallProbe*page], page)
	p.huge, p.hugeFaults = touch(m[off:off+huge], page)
	return p, true
}

// touch writes a byte to each page of b and returns the time and the
// minor page faults that took.
func touch(b []byte, page uintptr) (time.Duration, int64) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &before)
	start := time.Now()
	for i := uintptr(0); i < uintptr(len(b)); i += page {
		b[i] = 1
	}
	d := time.Since(start)
	syscall.Getrusage(syscall.RUSAGE_THREAD, &after)
	return d, after.Minflt - before.Minflt
}
