//go:build !linux

package collect

import (
	"os"

	"golang.org/x/term"
)

// readPassword reads a line from the terminal f without echo.
func readPassword(f *os.File) ([]byte, error) {
	return term.ReadPassword(int(f.Fd()))
}
