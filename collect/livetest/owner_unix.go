//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package livetest

import (
	"errors"
	"os"
	"syscall"
)

// sameOwner gives f the owner and group of the file fi describes.
func sameOwner(f *os.File, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return errors.New("no owner")
	}
	return f.Chown(int(st.Uid), int(st.Gid))
}
