package report

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// Inputs turns the command line's paths into Inputs: files as given,
// folders walked (hidden entries skipped, files in natural name order), each
// file's kind detected from its first parse.DetectSize bytes. A file
// holding several kinds (an article with its tables and a gbak excerpt)
// is one Input per part (parse.SplitInput), in file order. A path that
// cannot be read is returned in errs and the others are kept.
func Inputs(paths []string) (ins []Input, errs []error) {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
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
			ins = append(ins, parts...)
			continue
		}
		start := len(ins)
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if q != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			parts, err := fileInput(q)
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			ins = append(ins, parts...)
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		// Natural order, as every list fbdiag prints: run2 before run10,
		// so the first of a folder of runs (the baseline) is run1. The
		// parts of a file stay in file order.
		slices.SortStableFunc(ins[start:], func(a, b Input) int { return units.Compare(a.Source(), b.Source()) })
	}
	return ins, errs
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
