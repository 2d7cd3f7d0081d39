// Package atomicfile writes files so that a reader never sees a partial
// one: the data goes to a temporary file in the same folder, is synced,
// and is renamed over the final name only when complete. A failed write
// leaves nothing behind that looks complete.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrExists is returned by Write with NoReplace when the target exists.
var ErrExists = errors.New("file exists")

// Options tune Write.
type Options struct {
	// NoReplace refuses to overwrite an existing file.
	NoReplace bool
	// Perm is the mode of the new file (0644 when zero).
	Perm os.FileMode
}

// Write calls fill with a writer on a temporary file next to path and,
// when fill succeeds, renames it to path.
func Write(path string, opt Options, fill func(w io.Writer) error) (err error) {
	if opt.NoReplace {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w (refusing to overwrite)", path, ErrExists)
		}
	}
	perm := opt.Perm
	if perm == 0 {
		perm = 0o644
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if opt.NoReplace {
		// Link fails if path appeared meanwhile; fall back to rename
		// where hard links are not supported.
		if lerr := os.Link(tmp, path); lerr == nil {
			os.Remove(tmp)
			return nil
		} else if os.IsExist(lerr) {
			err = fmt.Errorf("%s: %w (refusing to overwrite)", path, ErrExists)
			return err
		}
	}
	return os.Rename(tmp, path)
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte, opt Options) error {
	return Write(path, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
