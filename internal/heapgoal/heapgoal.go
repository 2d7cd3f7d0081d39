// Package heapgoal lets a process whose live heap stays small collect
// garbage less often.
//
// fbdiag's streams keep a few megabytes alive while they allocate
// hundreds of megabytes on a big input: with Go's default GOGC=100 the
// collector runs each time the heap doubles a live heap of 4 MB, some fifty
// times on 100 MiB of gstat, and returns pages to the system that the next
// batch faults in again. That cost 15 % of the CPU of a gstat run. Set
// raises GOGC after each collection so that the next one comes when the
// heap reaches a goal of a few tens of megabytes, and gives GOGC back its
// value once the live heap is half the goal: a run that holds more (all
// the tables of a big file, for text --all) collects as it always did.
// The Go compiler does the same for its own heap
// (cmd/compile/internal/base.AdjustStartingHeap). HugePages backs that
// heap with 2 MiB pages where Linux leaves the choice to the program:
// each 4 KiB page it first touches is a page fault otherwise.
package heapgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// maxPercent bounds the GOGC Set asks for: past it, a heap of a few
// hundred kilobytes would be let grow a thousandfold.
const maxPercent = 2000

var once sync.Once

// Set makes the collector aim at a heap of about goal bytes while the
// live heap is under half of it. It does nothing when GOGC or GOMEMLIMIT
// is set in the environment: the user's word wins.
func Set(goal uint64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	once.Do(func() {
		base := debug.SetGCPercent(100)
		if base < 0 {
			return // (collection off)
		}
		t := &tuner{goal: goal, base: base, samples: []metrics.Sample{
			{Name: "/gc/heap/live:bytes"},
			{Name: "/gc/scan/stack:bytes"},
			{Name: "/gc/scan/globals:bytes"},
		}}
		t.adjust()
		t.arm()
	})
}

type tuner struct {
	goal    uint64
	base    int
	samples []metrics.Sample
}

// sentinel is allocated for its finalizer, which runs after the
// collection that found it unreachable. It is bigger than the tiny
// allocator's blocks, whose objects may never be finalized.
type sentinel struct {
	t *tuner
	_ [24]byte
}

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, func(s *sentinel) {
		s.t.adjust()
		s.t.arm()
	})
}

// adjust sets GOGC for the next collection: the heap goal is
// live + (live + stacks + globals) × GOGC/100 (the Go GC guide).
func (t *tuner) adjust() {
	metrics.Read(t.samples)
	var v [3]uint64
	for i, s := range t.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	live, roots := v[0], v[0]+v[1]+v[2]
	p := t.base
	if live < t.goal {
		// Before the first collection live is 0: the runtime's 4 MB
		// minimum heap stands for it. From half the goal on, p is
		// under 100: the base wins.
		roots = max(roots, 4<<20)
		p = max(p, min(maxPercent, int((t.goal-live)*100/roots)))
	}
	debug.SetGCPercent(p)
}
