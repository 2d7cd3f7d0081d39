package collect

import (
	"errors"
	"os"
	"syscall"

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

// exchange swaps the names of a and b in one step (renameat2
// RENAME_EXCHANGE): each name always names a file. errors.ErrUnsupported
// when the filesystem cannot (EINVAL), so that the caller renames in two.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errors.ErrUnsupported
	}
	return err
}

// writable reports whether this user may create and rename files in dir.
func writable(dir string) error {
	return unix.Access(dir, unix.W_OK|unix.X_OK)
}

// sameOwner gives the file at path the owner and group of the file fi
// describes, where this user may (root, or the owner for a group it is
// in); otherwise it leaves them.
func sameOwner(path string, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		_ = os.Chown(path, int(st.Uid), int(st.Gid))
	}
}
