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
// ends the watch; a signal that came before it still ends the program
// (it is not lost because the watch was ending at that moment). The live
// commands cancel their server jobs on their own and do not use it.
func removeTempOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		var sig os.Signal
		select {
		case sig = <-ch:
		case <-done:
			select {
			case sig = <-ch: // (it came as the watch was ending)
			default:
				return
			}
		}
		atomicfile.AbortAll()
		endBy(sig)
	}()
	return func() {
		signal.Stop(ch)
		close(done)
		<-ended
	}
}
