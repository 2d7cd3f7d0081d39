//go:build !unix

package main

import (
	"errors"
	"os"
)

// interruptSelf cannot send this process Ctrl-C here: the test that
// needs it skips.
func interruptSelf() error { return errors.ErrUnsupported }

// mkfifo: no named pipes here; the tests of them skip.
func mkfifo(string) error { return errors.ErrUnsupported }

// openNonblock: no such flag here.
const openNonblock = 0

// maxRSS is unknown here (the rusage has no peak size).
func maxRSS(*os.ProcessState) int64 { return 0 }
