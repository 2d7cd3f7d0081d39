//go:build !linux

package collect

import (
	"errors"
	"os"
)

// renameExclusive is not available: renameNoReplace links instead.
func renameExclusive(old, new string) error { return errors.ErrUnsupported }

// exchange is not available: swap renames in two steps.
func exchange(a, b string) error { return errors.ErrUnsupported }

// writable cannot be told without trying; the rename will say.
func writable(dir string) error { return nil }

// sameOwner leaves the owner: fbdiag does not set it on this system.
func sameOwner(path string, fi os.FileInfo) {}
