//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// The calls the tests make that only Unix has, so that the tests build
// (GOOS=windows go vet) everywhere; os_other_test.go has the others.

// interruptSelf sends this process SIGINT, as Ctrl-C does.
func interruptSelf() error { return syscall.Kill(os.Getpid(), syscall.SIGINT) }

// mkfifo makes a named pipe.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

// openNonblock is the flag that opens a pipe's reading end without
// waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

// maxRSS is a finished process's peak resident size in bytes from its
// rusage, 0 when unknown.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes on macOS
	}
	return int64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
}
