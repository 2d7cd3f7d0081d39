package collect

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameExclusive is renameat2(RENAME_NOREPLACE); errTargetExists when
// new exists, another error when the filesystem does not support it.
func renameExclusive(old, new string) error {
	err := unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, new, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EEXIST) {
		return errTargetExists
	}
	return err
}

// writable reports whether this user may create and rename files in dir.
func writable(dir string) error {
	return unix.Access(dir, unix.W_OK|unix.X_OK)
}
