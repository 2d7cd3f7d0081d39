package main

import (
	"io"

	"github.com/fbdiag/fbdiag/internal/heapgoal"
)

// hugeHeapInput is the input from which a command backs the heap it is
// about to grow with huge pages (heapgoal.HugePages): a gstat stream
// fills its 20 MB goal on a 20 MB file already (6,700 page faults of
// 10 µs each on the test machine); a smaller input would only hold 2 MiB
// pages it half uses.
const hugeHeapInput = 16 << 20

// hugeHeap backs with huge pages the heap a command grows while it reads
// the named inputs (files; standard input when it is one), heap(n) bytes
// for n bytes of them, when they are hugeHeapInput or more. It must run
// before the inputs are read.
func hugeHeap(stdin io.Reader, args []string, heap func(input int64) int64) {
	if n := fileBytes(stdin, args); n >= hugeHeapInput {
		heapgoal.HugePages(int(heap(n)))
	}
}

// keptHeap is the heap of a command that keeps what it reads (the
// report, gstat diff, gbak compare, a gstat view of every table): four
// times its input, up to 1 GiB. The report of a 100 MiB gstat output
// grows some 300 MB: with 384 MB advised it took 1.08–1.10 s instead of
// 1.79–1.90 s (70,000 page faults → 3,000), 128 MB 1.39–1.56 s.
func keptHeap(input int64) int64 { return min(max(4*input, 32<<20), 1<<30) }
