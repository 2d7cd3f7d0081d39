//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package bench

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// cpuTimes is this process's user and system CPU seconds (getrusage
// RUSAGE_SELF: every thread, the terminals and the driver's included).
func cpuTimes() (user, system float64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime), tv(ru.Stime), true
}

// loadAverage is the one-minute load average of the host (Linux's
// /proc/loadavg; false elsewhere).
func loadAverage() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}
