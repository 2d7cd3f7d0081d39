package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
)

// notGstatError is an input that holds no gstat output: parse.Detect
// does not recognise it as gstat, or the gstat reader found nothing in it.
type notGstatError struct {
	name, why string
}

func (e *notGstatError) Error() string {
	return fmt.Sprintf("%s: not gstat output (%s)", e.name, e.why)
}

// snapshotRead says what readSnapshots keeps of an input's runs.
type snapshotRead struct {
	// samples: each run is read as a stream and keeps only what a trend
	// plots (analyze.TrendSamples, shared by the inputs of one trend).
	// Without it each run is read as a stream too and keeps what a diff
	// compares (analyze.DiffSamples): only the last run, and with first
	// the first one too, are kept; the others are dropped as they end.
	samples *analyze.TrendSamples
	first   bool
}

// readSnapshots reads the gstat runs of one input, each placed in time by
// analyze.NewHistorySnapshot (the file's modification time dates a run
// printed without an execution time, said on stderr), and keeps them as
// how says; runs counts them all. An input that parse.Detect does not
// take for gstat is a *notGstatError, as the report tells its inputs
// apart: a README beside the snapshots, even one quoting a gstat line the
// lenient reader would take, is not read as a snapshot.
func readSnapshots(name string, stdin io.Reader, stderr io.Writer, how snapshotRead) (snaps []*analyze.HistorySnapshot, runs int, err error) {
	rc, shown, err := openArg(stdin, name)
	if err != nil {
		return nil, 0, err
	}
	defer rc.Close()
	if h, ok := rc.(*headReader); ok {
		head, _ := h.Peek(parse.DetectSize)
		if kind, why := parse.Detect(head); kind != parse.InputGstat {
			return nil, 0, &notGstatError{name: shown, why: strings.TrimPrefix(string(kind)+": "+why, string(parse.InputUnknown)+": ")}
		}
	}
	var opt analyze.SnapshotOptions
	if f, ok := rc.(interface{ Stat() (os.FileInfo, error) }); ok {
		// A pipe's time is when it was made, not when gstat ran.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			opt.FileTime = st.ModTime()
		}
	}
	// Each run's notices, and its dating by the file, go to stderr once
	// the input is read without error.
	var said []string
	tell := func(rep *parse.GstatReport) {
		runs++
		for _, n := range rep.Notices {
			said = append(said, n.String())
		}
		if t, src := analyze.SnapshotTime(rep, opt.FileTime); src == analyze.TimeFromFile {
			said = append(said, fmt.Sprintf("%s: run %d has no execution time; dated by the file's modification time %s",
				shown, rep.Index+1, t.Format(time.DateTime)))
		}
	}
	switch {
	case how.samples != nil:
		err = analyze.StreamGstat(rc, shown, analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
			CountWarnings: true, // (a trend shows none)
			Table: func(_ *analyze.GstatAnalysis, t *analyze.TableStats) error {
				how.samples.Add(t)
				return nil
			},
			Run: func(a *analyze.GstatAnalysis, rep *parse.GstatReport) error {
				tell(rep)
				snaps = append(snaps, how.samples.Snapshot(a, rep, opt))
				return nil
			},
		})
	default:
		limit := 1
		if how.first {
			limit = 2
		}
		var ds analyze.DiffSamples
		err = analyze.StreamGstat(rc, shown, analyze.NewThresholds(), analyze.GstatOptions{},
			ds.Stream(opt, func(s *analyze.HistorySnapshot, rep *parse.GstatReport) error {
				tell(rep)
				if len(snaps) < limit {
					snaps = append(snaps, s)
				} else {
					snaps[limit-1] = s // (the latest so far)
				}
				return nil
			}))
	}
	if err != nil {
		return nil, 0, err
	}
	for _, l := range said {
		fmt.Fprintln(stderr, l)
	}
	if len(snaps) == 0 {
		return nil, 0, &notGstatError{name: shown, why: "no gstat output found"}
	}
	return snaps, runs, nil
}

// snapshotFiles lists the regular files of a folder, by name; hidden
// files are left out, and so are its folders, which subdirs names: a
// trend is of one database's snapshots, and a folder of them kept by
// month says so when given whole. A symbolic link is read as the file
// it points to, as 'fbdiag report' reads it (report.FolderLinks), unless
// that file is read already (latest.txt, to a snapshot of the folder,
// would count it twice). The other entries it leaves out are named in
// others, with why: such a link, a link to a folder or to nothing, a
// pipe.
func snapshotFiles(dir string) (files, subdirs, others []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	var links []string
	for _, ent := range ents {
		p := filepath.Join(dir, ent.Name())
		switch {
		case strings.HasPrefix(ent.Name(), "."):
		case ent.Type().IsRegular():
			files = append(files, p)
		case ent.IsDir():
			subdirs = append(subdirs, p)
		case ent.Type()&fs.ModeSymlink != 0:
			links = append(links, p)
		default:
			others = append(others, p+": not a regular file")
		}
	}
	follow, notes, broken := report.FolderLinks(files, links)
	others = append(others, notes...)
	for _, err := range broken {
		others = append(others, err.Error())
	}
	files = append(files, follow...)
	slices.Sort(files) // (the folder's order, links among the files)
	if len(files) == 0 {
		if len(subdirs) > 0 {
			more := ""
			if len(subdirs) > 3 {
				more = fmt.Sprintf(" and %d more", len(subdirs)-3)
			}
			return nil, subdirs, others, fmt.Errorf("%s: no files, only folders (%s%s): give them as inputs", dir, strings.Join(subdirs[:min(3, len(subdirs))], ", "), more)
		}
		if len(others) > 0 {
			return nil, nil, others, fmt.Errorf("%s: no regular files (%s)", dir, strings.Join(others[:min(3, len(others))], "; "))
		}
		return nil, nil, nil, fmt.Errorf("%s: no files", dir)
	}
	return files, subdirs, others, nil
}
