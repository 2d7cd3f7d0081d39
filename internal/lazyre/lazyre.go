// Package lazyre holds regular expressions compiled on their first use
// rather than when the program starts: fbdiag links every reader, and
// compiling the benchmark tools' and the detector's expressions took
// 2-3 ms of the 24 ms every command spent starting, gstat's included,
// which uses one or two of them (the detector's header line, the
// password redactor of a notice).
package lazyre

import (
	"regexp"
	"sync"
)

// exprs are the expressions of every New, for Check.
var (
	mu    sync.Mutex
	exprs []string
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp every time.
func New(expr string) func() *regexp.Regexp {
	mu.Lock()
	exprs = append(exprs, expr)
	mu.Unlock()
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Check compiles every expression New was given, so that a test finds
// one that would not compile without having to use it.
func Check() error {
	mu.Lock()
	defer mu.Unlock()
	for _, e := range exprs {
		if _, err := regexp.Compile(e); err != nil {
			return err
		}
	}
	return nil
}

// Count is how many expressions New was given.
func Count() int {
	mu.Lock()
	defer mu.Unlock()
	return len(exprs)
}
