package main

import (
	"bytes"
	"testing"
)

// runCLI runs the whole program as `fbdiag args...` with stdin (nil: empty)
// and returns what it wrote to standard output and standard error and its
// exit code. Every test of the commands goes through it.
func runCLI(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"fbdiag"}, args...), bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}
