//go:build unix

package parse_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user+system) the test process used so far. On
// a shared machine wall-clock MB/s depends on the neighbours; MB per
// CPU-second does not (much).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
