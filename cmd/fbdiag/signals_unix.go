//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// endBy ends the program by the signal it received, with its default
// action (the shell then sees 130 for Ctrl-C, as from any tool).
func endBy(sig os.Signal) {
	signal.Reset(sig)
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second)
	}
	os.Exit(exitError)
}
