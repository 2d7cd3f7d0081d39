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
	"strconv"
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
func Write(path string, opt Options, fill func(w io.Writer) error) error {
	f, err := Create(path, opt)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file being written under a temporary name (".NAME.tmp-*")
// in the folder of its final name. Exactly one of Commit, KeepAs and
// Abort ends it.
type File struct {
	*os.File
	path string
	opt  Options
}

// Create starts writing path. With NoReplace an existing path is refused
// now, and again at Commit.
func Create(path string, opt Options) (*File, error) {
	if opt.NoReplace {
		if _, err := os.Lstat(path); err == nil {
			return nil, fmt.Errorf("%s: %w (refusing to overwrite)", path, ErrExists)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path, opt: opt}, nil
}

// Abort closes and removes the temporary file.
func (f *File) Abort() {
	f.File.Close()
	os.Remove(f.Name())
}

// finish syncs, sets the mode and closes the temporary file.
func (f *File) finish() error {
	perm := f.opt.Perm
	if perm == 0 {
		perm = 0o644
	}
	err := f.Sync()
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// Commit gives the complete file its name.
func (f *File) Commit() error {
	tmp := f.Name()
	if err := f.finish(); err != nil {
		os.Remove(tmp)
		return err
	}
	if f.opt.NoReplace {
		// Link fails if path appeared meanwhile; fall back to rename
		// where hard links are not supported.
		if err := linkNew(tmp, f.path); err == nil {
			os.Remove(tmp)
			return nil
		} else if errors.Is(err, ErrExists) {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// KeepAs keeps an incomplete file under its name with suffix added
// (".partial"), or with "-2", "-3"… after it where that exists: never
// replacing a file, never under the name a complete one would have. It
// returns the name kept.
func (f *File) KeepAs(suffix string) (string, error) {
	tmp := f.Name()
	if err := f.finish(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	for i := 1; i <= 100; i++ {
		name := f.path + suffix
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		err := linkNew(tmp, name)
		if err == nil {
			os.Remove(tmp)
			return name, nil
		}
		if !errors.Is(err, ErrExists) {
			break
		}
	}
	// No hard links here: keep it under its temporary name.
	return tmp, nil
}

// linkNew links old to new, ErrExists when new exists.
func linkNew(old, new string) error {
	err := os.Link(old, new)
	if os.IsExist(err) {
		return fmt.Errorf("%s: %w (refusing to overwrite)", new, ErrExists)
	}
	return err
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte, opt Options) error {
	return Write(path, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
