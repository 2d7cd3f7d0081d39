//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package bench

func cpuTimes() (user, system float64, ok bool) { return 0, 0, false }

func loadAverage() (float64, bool) { return 0, false }
