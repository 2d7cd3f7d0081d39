package collect

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// readPassword reads a line from the terminal f with its echo off. A
// signal while it waits (Ctrl-C, kill, a closed ssh session) ends the
// wait with ErrPromptInterrupted once the terminal is as it was: ended by
// the signal, as with term.ReadPassword, the program left the shell
// without echo. The signals are caught before the echo goes off, so none
// comes between.
func readPassword(f *os.File) ([]byte, error) {
	fd := int(f.Fd())
	saved, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	quiet := *saved
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON | unix.ISIG
	quiet.Iflag |= unix.ICRNL
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &quiet); err != nil {
		return nil, err
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, saved)
	type read struct {
		line []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		// On a signal this goroutine stays blocked in the read; the
		// command ends with the error.
		line, err := readLine(f)
		done <- read{line, err}
	}()
	select {
	case r := <-done:
		return r.line, r.err
	case <-sigs:
		return nil, ErrPromptInterrupted
	}
}
