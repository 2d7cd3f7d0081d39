package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// Inputs turns the command line's paths into Inputs: files as given,
// folders walked (hidden entries skipped, files in natural name order), each
// file's kind detected from its first parse.DetectSize bytes. A file
// holding several kinds (an article with its tables and a gbak excerpt)
// is one Input per part (parse.SplitInput), in file order. A path that
// cannot be read is returned in errs and the others are kept. A symbolic
// link in a folder is read as the file it points to (FolderLinks); the
// entries of a folder left out on purpose (a link to a folder or to a
// file read already, a pipe) are named in notes, "path: why".
func Inputs(paths []string) (ins []Input, notes []string, errs []error) {
	return new(InputWalker).Inputs(paths)
}

// InputWalker reads paths as Inputs does over several calls (a command
// line read an argument at a time, standard input among them), so that a
// file two inputs bring is read once: a link in one folder to a file of
// another ('fbdiag report logs latest', latest/shop.txt linking to a
// snapshot of logs) counted that snapshot twice in the history, and its
// diff compared it with itself. The zero value is ready.
type InputWalker struct {
	files  []string   // regular files read, not yet looked at (stat'd when a link comes)
	seen   []seenFile // those looked at, and the links followed
	linked []seenFile // the links followed
	// Again counts the files left out as read already (a file named
	// twice, or a folder and a file in it), each named in notes.
	Again int
}

// readBefore is the name a file st was read by already, or "".
func (w *InputWalker) readBefore(st fs.FileInfo) string {
	for _, f := range w.files {
		if fst, err := os.Stat(f); err == nil {
			w.seen = append(w.seen, seenFile{f, fst})
		}
	}
	w.files = nil
	for _, r := range w.seen {
		if os.SameFile(r.info, st) {
			return r.name
		}
	}
	return ""
}

// seenFile is a file read, by the name it was read by.
type seenFile struct {
	name string
	info fs.FileInfo
}

// Inputs is Inputs of paths, a file read by an earlier call (or an
// earlier path) left out and named in notes.
func (w *InputWalker) Inputs(paths []string) (ins []Input, notes []string, errs []error) {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			// A file named twice, or a folder and a file in it ('fbdiag
			// report logs logs/latest.log'): the log was shown twice and
			// compared with itself, its run twice in report.json.
			if st.Mode().IsRegular() {
				if name := w.readBefore(st); name != "" {
					notes = append(notes, p+": the same file as "+name+", read once")
					w.Again++
					continue
				}
			}
			open := fileInput
			if !st.Mode().IsRegular() {
				// A pipe or FIFO (<(cmd), mkfifo) can be read only
				// once: reopened, it is empty or waits forever.
				open = pipeInput
			}
			parts, err := open(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if st.Mode().IsRegular() {
				w.seen = append(w.seen, seenFile{p, st})
			}
			ins = append(ins, parts...)
			continue
		}
		start := len(ins)
		var files, links []string
		root := p
		if lst, err := os.Lstat(p); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			// A folder named by a link (/backup/logs to a disk of its
			// own): WalkDir walks a root link only as the folder,
			// "logs/", and then names its files logs/…
			root = p + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if q != root && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			switch {
			case d.IsDir():
			case d.Type().IsRegular():
				files = append(files, q)
			case d.Type()&fs.ModeSymlink != 0:
				links = append(links, q)
			default:
				notes = append(notes, q+": not a regular file (a pipe or device in a folder is not read; give it as an input)")
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		if len(w.linked) > 0 || len(w.seen) > 0 || len(w.files) > 0 {
			// (the file of a link an earlier input followed, or a file an
			// earlier input read)
			files = slices.DeleteFunc(files, func(q string) bool {
				st, err := os.Stat(q)
				if err != nil {
					return false
				}
				for _, l := range w.linked {
					if os.SameFile(l.info, st) {
						notes = append(notes, q+": the file "+l.name+" links to, read once")
						w.Again++
						return true
					}
				}
				if name := w.readBefore(st); name != "" {
					notes = append(notes, q+": the same file as "+name+", read once")
					w.Again++
					return true
				}
				return false
			})
		}
		w.files = append(w.files, files...)
		follow, linkNotes, linkErrs := w.follow(links)
		notes = append(notes, linkNotes...)
		errs = append(errs, linkErrs...)
		for _, q := range append(files, follow...) {
			parts, err := fileInput(q)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ins = append(ins, parts...)
		}
		// Natural order, as every list fbdiag prints: run2 before run10,
		// so the first of a folder of runs (the baseline) is run1. The
		// parts of a file stay in file order.
		slices.SortStableFunc(ins[start:], func(a, b Input) int { return units.Compare(a.Source(), b.Source()) })
	}
	return ins, notes, errs
}

// FolderLinks sorts the symbolic links found in a folder (links) beside
// its regular files (files): a link to a regular file is followed, as
// cat, gstat's own output redirected and most tools follow it (a folder
// of snapshots linked in from where a cron job keeps them was read as
// empty), and returned in follow; a link to a file of the folder, or to
// one another link already brings (latest.txt), is named in notes, so
// that no file is read twice; so is a link to a folder, which is not
// walked (a loop, or a whole tree read by surprise). A link that points
// nowhere or loops is an error naming it and what is wrong.
func FolderLinks(files, links []string) (follow, notes []string, errs []error) {
	w := InputWalker{files: files}
	return w.follow(links)
}

// follow is FolderLinks of links beside every file w has read.
func (w *InputWalker) follow(links []string) (follow, notes []string, errs []error) {
	if len(links) == 0 {
		return nil, nil, nil
	}
	for _, f := range w.files {
		if st, err := os.Stat(f); err == nil {
			w.seen = append(w.seen, seenFile{f, st})
		}
	}
	w.files = nil
	for _, l := range links {
		st, err := os.Stat(l)
		if err != nil {
			errs = append(errs, brokenLink(l, err))
			continue
		}
		if st.IsDir() {
			notes = append(notes, l+": a symbolic link to a folder (not walked; give it as an input to read it)")
			continue
		}
		if !st.Mode().IsRegular() {
			notes = append(notes, l+": a symbolic link to something not a regular file (give it as an input to read it)")
			continue
		}
		dup := ""
		for _, r := range w.seen {
			if os.SameFile(r.info, st) {
				dup = r.name
				break
			}
		}
		if dup != "" {
			notes = append(notes, l+": a symbolic link to "+dup+", read once")
			continue
		}
		w.seen = append(w.seen, seenFile{l, st})
		w.linked = append(w.linked, seenFile{l, st})
		follow = append(follow, l)
	}
	return follow, notes, errs
}

// brokenLink is the error of a symbolic link that cannot be followed
// (err from os.Stat), naming it and where it points.
func brokenLink(l string, err error) error {
	to, rerr := os.Readlink(l)
	if rerr != nil {
		to = "?"
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: a symbolic link to %s, which does not exist", l, to)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: a symbolic link to %s, in a loop of links", l, to)
	}
	return fmt.Errorf("%s: a symbolic link to %s: %w", l, to, unwrapPath(err))
}

// unwrapPath is err without the "stat PATH:" an *fs.PathError adds.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// StreamInput is an input that can be read only once (standard input, a
// pipe, a FIFO), named name in the report: its kind is recognised from
// its first parse.DetectSize bytes, which are kept, and Open hands out
// those bytes and the rest of r, once, so the input is streamed, never
// held in memory or copied. CloseInputs closes r. A stream that ends
// within those bytes and holds several kinds is one Input per part, read
// from them; a longer one is not cut (it cannot be read again).
func StreamInput(name string, r io.ReadCloser) ([]Input, error) {
	head := make([]byte, parse.DetectSize)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	head = head[:n]
	if n < parse.DetectSize {
		ins := headInputs(name, head, bytesOpen(head))
		ins[0].closer = r
		return ins, nil
	}
	k, why := parse.Detect(head)
	opened := false
	return []Input{{Name: name, Kind: k, Reason: why, closer: r, Open: func() (io.ReadCloser, error) {
		if opened {
			return nil, fmt.Errorf("%s: a pipe can be read only once", name)
		}
		opened = true
		// Closing the reader leaves r to CloseInputs.
		return io.NopCloser(io.MultiReader(bytes.NewReader(head), r)), nil
	}}}, nil
}

// bytesOpen opens data, as many times as asked.
func bytesOpen(data []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
}

// headInputs recognises an input from head, its first parse.DetectSize
// bytes (all of it when shorter), and returns it as one Input, or one per
// part when it holds several kinds (parse.SplitInput), each read through
// parse.PartReader. open reads the input whole. Only a head holding
// several kinds makes the whole input read to cut it, so a big gstat or
// gbak file costs no more than its head.
func headInputs(name string, head []byte, open func() (io.ReadCloser, error)) []Input {
	s, err := parse.SplitInput(bytesOpen(head), name)
	if err != nil { // bytes do not fail; be safe all the same
		k, why := parse.Detect(head)
		return []Input{{Name: name, Kind: k, Reason: why, Open: open}}
	}
	if s.Mixed() && len(head) == parse.DetectSize {
		if all, err := parse.SplitInput(open, name); err == nil {
			s = all
		}
	}
	if !s.Mixed() {
		return []Input{{Name: name, Kind: s.Parts[0].Kind, Reason: s.Parts[0].Reason, Open: open}}
	}
	out := make([]Input, len(s.Parts))
	for i := range s.Parts {
		p := &s.Parts[i]
		out[i] = Input{Name: p.Name, Kind: p.Kind, Reason: p.Reason, File: name, Part: p, Split: s,
			Open: func() (io.ReadCloser, error) {
				rc, err := open()
				if err != nil {
					return nil, err
				}
				return partReader{parse.PartReader(rc, name, *p), rc}, nil
			}}
	}
	return out
}

// partReader reads a part of a file and closes the file.
type partReader struct {
	io.Reader
	io.Closer
}

// pipeInput opens a pipe or FIFO named on the command line as a
// StreamInput.
func pipeInput(p string) ([]Input, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	ins, err := StreamInput(p, f)
	if err != nil {
		f.Close()
	}
	return ins, err
}

// CloseInputs closes what StreamInput kept open.
func CloseInputs(ins []Input) {
	for _, in := range ins {
		if in.closer != nil {
			in.closer.Close()
		}
	}
}

// fileInput is a file as one Input, or one per part when it holds
// several kinds.
func fileInput(p string) ([]Input, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, parse.DetectSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return headInputs(p, head[:n], func() (io.ReadCloser, error) { return os.Open(p) }), nil
}

// BytesInput is an input held in memory (standard input).
func BytesInput(name string, data []byte) Input {
	k, why := parse.Detect(data)
	return Input{Name: name, Kind: k, Reason: why, Open: bytesOpen(data)}
}

// FSInputs walks root in fsys (the embedded sample) like Inputs walks a
// folder.
func FSInputs(fsys fs.FS, root string) ([]Input, error) {
	var names []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(names, units.Compare)
	var ins []Input
	for _, p := range names {
		f, err := fsys.Open(p)
		if err != nil {
			return nil, err
		}
		head := make([]byte, parse.DetectSize)
		n, err := io.ReadFull(f, head)
		f.Close()
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, err
		}
		name := p
		ins = append(ins, headInputs(name, head[:n], func() (io.ReadCloser, error) { return fsys.Open(path.Clean(name)) })...)
	}
	return ins, nil
}

// SplitNotes says of each input file cut into parts how it was cut
// (view.SplitNote), in input order.
func (r *Report) SplitNotes() []string {
	var out []string
	var last *parse.Split
	for _, in := range r.Inputs {
		if in.Split == nil || in.Split == last {
			continue
		}
		last = in.Split
		kinds := map[parse.InputKind]bool{}
		for _, p := range in.Split.Parts {
			kinds[p.Kind] = true
		}
		out = append(out, view.SplitNote(in.File, len(in.Split.Parts), len(kinds), in.Split.Skipped))
	}
	return out
}
