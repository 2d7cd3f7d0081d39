//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package livetest

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// sameOwnerAs reports a file whose owner or group differs from want's.
func sameOwnerAs(fi, want os.FileInfo) error {
	a, ok1 := fi.Sys().(*syscall.Stat_t)
	b, ok2 := want.Sys().(*syscall.Stat_t)
	if !ok1 || !ok2 {
		return errors.New("no owner")
	}
	if a.Uid != b.Uid || a.Gid != b.Gid {
		return fmt.Errorf("owner %d:%d, want %d:%d", a.Uid, a.Gid, b.Uid, b.Gid)
	}
	return nil
}
