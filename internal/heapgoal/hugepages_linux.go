package heapgoal

import (
	"runtime"
	"syscall"
	"unsafe"
)

// adviseHeap makes the heap grow by n bytes in one mapping, with a
// block that spans it, advises that mapping MADV_HUGEPAGE and frees the
// block: the runtime takes the next pages of small objects from the
// lowest free addresses, these. The block is fresh memory, which the
// runtime does not clear: nothing is touched.
func adviseHeap(n int, huge uintptr) {
	b := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (start + huge - 1) &^ (huge - 1)
	end := (start + uintptr(n)) &^ (huge - 1)
	if beg < end {
		// (A failure leaves the heap as it would have been.)
		_ = syscall.Madvise(b[beg-start:end-start], syscall.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
	runtime.GC() // (the block's pages are free from now on)
}
