package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
)

// notGstatError is an input that holds no gstat output: parse.Detect
// does not recognise it as gstat, or the gstat reader found nothing in it.
type notGstatError struct {
	name, why string
}

func (e *notGstatError) Error() string {
	return fmt.Sprintf("%s: not gstat output (%s)", e.name, e.why)
}

// readSnapshots reads every gstat run of one input, each placed in time
// by analyze.NewHistorySnapshot (the file's modification time dates a
// run printed without an execution time, said on stderr). An input that
// parse.Detect does not take for gstat is a *notGstatError, as the
// report tells its inputs apart: a README beside the snapshots, even one
// quoting a gstat line the lenient reader would take, is not read as a
// snapshot.
func readSnapshots(name string, stdin io.Reader, stderr io.Writer) ([]*analyze.HistorySnapshot, error) {
	rc, shown, err := openArg(stdin, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if h, ok := rc.(*headReader); ok {
		head, _ := h.Peek(parse.DetectSize)
		if kind, why := parse.Detect(head); kind != parse.InputGstat {
			return nil, &notGstatError{name: shown, why: strings.TrimPrefix(string(kind)+": "+why, string(parse.InputUnknown)+": ")}
		}
	}
	var mtime time.Time
	if f, ok := rc.(interface{ Stat() (os.FileInfo, error) }); ok {
		// A pipe's time is when it was made, not when gstat ran.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			mtime = st.ModTime()
		}
	}
	reps, err := parse.ReadGstat(rc, shown)
	if err != nil {
		return nil, err
	}
	var out []*analyze.HistorySnapshot
	for _, rep := range reps {
		for _, n := range rep.Notices {
			fmt.Fprintln(stderr, n)
		}
		s := analyze.NewHistorySnapshot(rep, analyze.SnapshotOptions{FileTime: mtime})
		if s.DatedByFile() {
			fmt.Fprintf(stderr, "%s: run %d has no execution time; dated by the file's modification time %s\n",
				shown, rep.Index+1, s.Time.Format(time.DateTime))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, &notGstatError{name: shown, why: "no gstat output found"}
	}
	return out, nil
}

// snapshotFiles lists the regular files of a folder, by name; hidden
// files are left out.
func snapshotFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ent := range ents {
		if ent.Type().IsRegular() && !strings.HasPrefix(ent.Name(), ".") {
			out = append(out, filepath.Join(dir, ent.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no files", dir)
	}
	return out, nil
}
