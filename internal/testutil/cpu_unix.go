//go:build unix

package testutil

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user+system) the process used so far: on a
// shared machine a benchmark's wall time depends on the neighbours, its
// CPU time does not (much).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
