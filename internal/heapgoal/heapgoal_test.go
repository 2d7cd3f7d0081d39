package heapgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// percentAfterGC collects, lets the tuner's finalizer run and returns
// the GOGC it set.
func percentAfterGC(t *testing.T, want func(int) bool) int {
	t.Helper()
	var p int
	for range 100 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // (finalizers run on their own goroutine)
		p = debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if want(p) {
			break
		}
	}
	return p
}

func TestSet(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: Set leaves the collector alone")
	}
	const goal = 64 << 20
	Set(goal)
	// A small live heap: the next collection waits for about the goal.
	small := percentAfterGC(t, func(p int) bool { return p > 100 })
	if small <= 100 || small > maxPercent {
		t.Fatalf("GOGC with a small live heap = %d, want in (100, %d]", small, maxPercent)
	}
	// Holding more than half the goal: GOGC is the default again.
	held := make([]*[1 << 20]byte, 40)
	for i := range held {
		held[i] = new([1 << 20]byte)
	}
	if p := percentAfterGC(t, func(p int) bool { return p == 100 }); p != 100 {
		t.Errorf("GOGC with 40 MB live of a 64 MB goal = %d, want 100", p)
	}
	runtime.KeepAlive(held)
	held = nil
	// The heap is small again: the goal is back.
	if p := percentAfterGC(t, func(p int) bool { return p > 100 }); p <= 100 {
		t.Errorf("GOGC once the 40 MB went = %d, want above 100", p)
	}
}
