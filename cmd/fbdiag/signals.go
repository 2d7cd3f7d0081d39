package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/fbdiag/fbdiag/internal/atomicfile"
)

// removeTempOnSignal makes an interrupt (Ctrl-C, SIGINT) or SIGTERM
// while files are written remove the temporary files being written
// (atomicfile.AbortAll) before the program ends as the signal would end
// it: an interrupted report leaves no ".index.html.tmp-*" behind. stop
// ends the watch. The live commands cancel their server jobs on their
// own and do not use it.
func removeTempOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			atomicfile.AbortAll()
			endBy(sig)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
