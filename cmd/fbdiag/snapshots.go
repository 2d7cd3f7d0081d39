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
// snapshot. With sampled, each run is read as a stream and keeps only
// what a trend plots (analyze.TrendSamples, shared by the inputs of one
// trend); else it is kept whole, as a diff compares it.
func readSnapshots(name string, stdin io.Reader, stderr io.Writer, sampled *analyze.TrendSamples) ([]*analyze.HistorySnapshot, error) {
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
	var opt analyze.SnapshotOptions
	if f, ok := rc.(interface{ Stat() (os.FileInfo, error) }); ok {
		// A pipe's time is when it was made, not when gstat ran.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			opt.FileTime = st.ModTime()
		}
	}
	var out []*analyze.HistorySnapshot
	// The runs' notices and dating go to stderr once the input is read
	// without error, as they did when it was read whole.
	var said []string
	place := func(s *analyze.HistorySnapshot, rep *parse.GstatReport) {
		for _, n := range rep.Notices {
			said = append(said, n.String())
		}
		if s.DatedByFile() {
			said = append(said, fmt.Sprintf("%s: run %d has no execution time; dated by the file's modification time %s",
				shown, rep.Index+1, s.Time.Format(time.DateTime)))
		}
		out = append(out, s)
	}
	if sampled != nil {
		err = analyze.StreamGstat(rc, shown, analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
			CountWarnings: true, // (a trend shows none)
			Table: func(_ *analyze.GstatAnalysis, t *analyze.TableStats) error {
				sampled.Add(t)
				return nil
			},
			Run: func(a *analyze.GstatAnalysis, rep *parse.GstatReport) error {
				place(sampled.Snapshot(a, rep, opt), rep)
				return nil
			},
		})
	} else {
		var reps []*parse.GstatReport
		reps, err = parse.ReadGstat(rc, shown)
		for _, rep := range reps {
			place(analyze.NewHistorySnapshot(rep, opt), rep)
		}
	}
	if err != nil {
		return nil, err
	}
	for _, l := range said {
		fmt.Fprintln(stderr, l)
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
