package heapgoal

import (
	"cmp"
	"runtime"
	"slices"
	"syscall"
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
