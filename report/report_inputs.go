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
)

// Inputs turns the command line's paths into Inputs: files as given,
// folders walked (hidden entries skipped, files in natural name order), each
// file's kind detected from its first parse.DetectSize bytes. A path that
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
			in, err := open(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ins = append(ins, in)
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
			in, err := fileInput(q)
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			ins = append(ins, in)
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		// Natural order, as every list fbdiag prints: run2 before run10,
		// so the first of a folder of runs (the baseline) is run1.
		slices.SortStableFunc(ins[start:], func(a, b Input) int { return units.Compare(a.Name, b.Name) })
	}
	return ins, errs
}

// StreamInput is an input that can be read only once (standard input, a
// pipe, a FIFO), named name in the report: its kind is recognised from
// its first parse.DetectSize bytes, which are kept, and Open hands out
// those bytes and the rest of r, once, so the input is streamed, never
// held in memory or copied. CloseInputs closes r.
func StreamInput(name string, r io.ReadCloser) (Input, error) {
	head := make([]byte, parse.DetectSize)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Input{}, fmt.Errorf("%s: %w", name, err)
	}
	head = head[:n]
	k, why := parse.Detect(head)
	opened := false
	return Input{Name: name, Kind: k, Reason: why, closer: r, Open: func() (io.ReadCloser, error) {
		if opened {
			return nil, fmt.Errorf("%s: a pipe can be read only once", name)
		}
		opened = true
		// Closing the reader leaves r to CloseInputs.
		return io.NopCloser(io.MultiReader(bytes.NewReader(head), r)), nil
	}}, nil
}

// pipeInput opens a pipe or FIFO named on the command line as a
// StreamInput.
func pipeInput(p string) (Input, error) {
	f, err := os.Open(p)
	if err != nil {
		return Input{}, err
	}
	in, err := StreamInput(p, f)
	if err != nil {
		f.Close()
	}
	return in, err
}

// CloseInputs closes what StreamInput kept open.
func CloseInputs(ins []Input) {
	for _, in := range ins {
		if in.closer != nil {
			in.closer.Close()
		}
	}
}

func fileInput(p string) (Input, error) {
	f, err := os.Open(p)
	if err != nil {
		return Input{}, err
	}
	defer f.Close()
	head := make([]byte, parse.DetectSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Input{}, err
	}
	k, why := parse.Detect(head[:n])
	return Input{Name: p, Kind: k, Reason: why, Open: func() (io.ReadCloser, error) { return os.Open(p) }}, nil
}

// BytesInput is an input held in memory (standard input).
func BytesInput(name string, data []byte) Input {
	k, why := parse.Detect(data)
	return Input{Name: name, Kind: k, Reason: why, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}}
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
		k, why := parse.Detect(head[:n])
		name := p
		ins = append(ins, Input{Name: name, Kind: k, Reason: why, Open: func() (io.ReadCloser, error) { return fsys.Open(path.Clean(name)) }})
	}
	return ins, nil
}
