//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSMB is the process's peak resident set in MB (ru_maxrss: KiB on
// Linux, bytes on macOS).
func maxRSSMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / (1 << 10)
}
