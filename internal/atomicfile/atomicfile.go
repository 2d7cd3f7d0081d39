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
	"strings"
	"sync"
)

// ErrExists is returned by Write with NoReplace when the target exists.
var ErrExists = errors.New("file exists")

// ErrAborted is returned by Create after AbortAll.
var ErrAborted = errors.New("not written: the program is stopping")

// Options tune Write.
type Options struct {
	// NoReplace refuses to overwrite an existing file (or link, which
	// is not followed).
	NoReplace bool
	// Perm is the mode of the new file (when zero, that of the file
	// replaced, else 0644).
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
	path     string
	opt      Options
	finished bool // synced and closed by Finish
}

// Create starts writing path. With NoReplace an existing path is refused
// now, and again at Commit. Without it, a path that is a symbolic link
// has the file it names replaced (or created, when the link dangles),
// the link kept: the temporary file is written beside that file.
func Create(path string, opt Options) (*File, error) {
	if opt.NoReplace {
		if _, err := os.Lstat(path); err == nil {
			return nil, fmt.Errorf("%s: %w (refusing to overwrite)", path, ErrExists)
		}
	} else {
		target, err := followLinks(path)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(target); err == nil {
			if !st.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: not a regular file (not replaced)", path)
			}
			if opt.Perm == 0 {
				opt.Perm = st.Mode().Perm()
			}
		}
		path = target
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	open.mu.Lock()
	defer open.mu.Unlock()
	if open.aborted {
		return nil, fmt.Errorf("%s: %w", path, ErrAborted)
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	open.names[f.Name()] = true
	return &File{File: f, path: path, opt: opt}, nil
}

// Target is the file a write to path without NoReplace replaces or
// creates: path with its symbolic links followed. Its folder is where
// the temporary file goes.
func Target(path string) (string, error) {
	return followLinks(path)
}

// maxLinks bounds the links followed from one name (Linux's own limit
// is 40): a loop of links ends in an error, not a hang.
const maxLinks = 40

// followLinks is the file path names once every symbolic link is
// followed, whether or not that file exists (a dangling link names the
// file a write creates). Replacing that file, not the link, keeps the
// user's link and leaves no stale file behind it.
func followLinks(name string) (string, error) {
	path := name
	for range maxLinks {
		// Not there, or not reachable: no link to follow (writing
		// there says why it fails).
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links (not written)", name)
}

// Abort closes and removes the temporary file.
func (f *File) Abort() {
	f.File.Close()
	os.Remove(f.Name())
	open.done(f.Name())
}

// open lists the temporary files being written, for AbortAll.
var open = &tempFiles{names: map[string]bool{}}

type tempFiles struct {
	mu      sync.Mutex
	names   map[string]bool
	aborted bool // AbortAll was called: no new file
}

func (t *tempFiles) done(name string) {
	t.mu.Lock()
	delete(t.names, name)
	t.mu.Unlock()
}

// together is held while files that belong together are committed
// (Together), and by AbortAll.
var together sync.Mutex

// Together runs commit, which commits files that belong together (a
// report's page, its report.json and its charts), so that AbortAll, which
// a signal calls, comes wholly before or after it: an interrupted run
// leaves the earlier files or all the new ones, not report.json new
// beside the earlier page (once seen under load). Renames take
// milliseconds; the signal waits for them.
func Together(commit func() error) error {
	together.Lock()
	defer together.Unlock()
	return commit()
}

// AbortAll removes every temporary file being written (not yet
// committed, kept or aborted) and returns their names: what a program
// stopped by a signal calls before it ends, so that an interrupted run
// leaves nothing behind. The writers' later calls fail or do nothing,
// and Create fails from then on with ErrAborted.
func AbortAll() []string {
	together.Lock()
	defer together.Unlock()
	open.mu.Lock()
	defer open.mu.Unlock()
	open.aborted = true
	var out []string
	for name := range open.names {
		if os.Remove(name) == nil {
			out = append(out, name)
		}
		delete(open.names, name)
	}
	return out
}

// RemoveStale removes from dir the temporary files an earlier run left
// when it was killed before it could clean up (".NAME.tmp-DIGITS", the
// names Create gives), for the final NAMEs keep accepts, and returns the
// names removed. The files this process is writing are left alone.
func RemoveStale(dir string, keep func(name string) bool) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		name, ok := tempOf(e.Name())
		if !ok || !e.Type().IsRegular() || !keep(name) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		open.mu.Lock()
		ours := open.names[p]
		open.mu.Unlock()
		if ours {
			continue
		}
		if err := os.Remove(p); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

// tempOf is the final name of a temporary file Create named
// (".NAME.tmp-DIGITS").
func tempOf(file string) (string, bool) {
	rest, ok := strings.CutPrefix(file, ".")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(rest, ".tmp-")
	if i <= 0 {
		return "", false
	}
	digits := rest[i+len(".tmp-"):]
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	return rest[:i], true
}

// Finish syncs and closes the complete file still under its temporary
// name, for a writer of several files that renames them all only once
// every one is written (Commit then only renames): none is held open
// meanwhile.
func (f *File) Finish() error {
	return f.finish()
}

// finish syncs, sets the mode and closes the temporary file, once.
func (f *File) finish() error {
	if f.finished {
		return nil
	}
	f.finished = true
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
	defer open.done(tmp)
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
	defer open.done(tmp)
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
