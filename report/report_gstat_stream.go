package report

import (
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
)

// GstatRunsKept bounds the runs of one gstat file the report keeps: a
// folder may hold a file of thousands of appended runs (a cron job's),
// and the report must not grow with it. The first and the last run are
// always among them, the others evenly spaced.
const GstatRunsKept = 64

// GstatRunSections is the most runs of one file that each get a section
// of their own; a file holding more shows its last run in full.
const GstatRunSections = 4

// GstatRun is one kept run of a gstat file, analysed.
type GstatRun struct {
	Analysis *analyze.GstatAnalysis
	Report   *parse.GstatReport
}

// GstatRuns is what the report keeps of one gstat file.
type GstatRuns struct {
	// Kept are the runs in file order: the first, the last and at most
	// GstatRunsKept in all, evenly spaced.
	Kept []GstatRun
	// Total counts every run of the file.
	Total int
}

// KeepGstatRuns streams a gstat input (parse.EachGstat: one run in
// memory at a time) and keeps at most max runs, first and last included,
// evenly spaced: every stride-th run, the stride doubling whenever more
// than max would be kept. Only kept runs are analysed.
func KeepGstatRuns(in Input, max int) (*GstatRuns, error) {
	if max < 2 {
		max = 2
	}
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	th := analyze.NewThresholds()
	var kept []*parse.GstatReport // every stride-th run
	var last *parse.GstatReport   // the latest run, whether or not kept
	stride, n := 1, 0
	err = parse.EachGstat(rc, in.Source(), func(rep *parse.GstatReport) error {
		// Messages name the file; the analysis the part.
		rep.File = in.Name
		last = rep
		if n%stride == 0 {
			kept = append(kept, rep)
			// Room for the last run too: thin out to every other one.
			for len(kept) >= max {
				stride *= 2
				j := 0
				for _, k := range kept {
					if k.Index%stride == 0 {
						kept[j] = k
						j++
					}
				}
				clear(kept[j:])
				kept = kept[:j]
			}
		}
		n++
		return nil
	})
	if last == nil {
		return nil, err
	}
	if kept[len(kept)-1] != last {
		kept = append(kept, last)
	}
	runs := &GstatRuns{Total: n}
	for _, rep := range kept {
		runs.Kept = append(runs.Kept, GstatRun{Analysis: analyze.Gstat(rep, th), Report: rep})
	}
	return runs, err
}

// streamGstatSections reads every gstat input in memory bounded by
// GstatRunsKept runs a file and makes one section per database (its
// snapshots gathered, worst first); an input that could not be read gets
// a section saying so.
func streamGstatSections(ins []Input) []*Section {
	var failed []*Section
	var all []GstatRun
	var notes []string
	stopped := map[string]string{}
	for _, in := range ins {
		runs, err := KeepGstatRuns(in, GstatRunsKept)
		if err != nil && (runs == nil || len(runs.Kept) == 0) {
			failed = append(failed, &Section{ID: filepath.Base(in.Name), Title: "Database statistics: " + filepath.Base(in.Name),
				Kind: string(parse.InputGstat), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		all = append(all, runs.Kept...)
		if runs.Total > len(runs.Kept) {
			notes = append(notes, snapshotLabel(in, runs.Total, len(runs.Kept)))
		}
		if err != nil {
			stopped[in.Name] = "read stopped: " + err.Error()
		}
	}
	out := databaseSections(all)
	for _, s := range out {
		for _, src := range s.Sources {
			if n, ok := stopped[src]; ok {
				s.Notices = append(s.Notices, filepath.Base(src)+": "+n)
			}
			for _, n := range notes {
				if strings.HasPrefix(n, filepath.Base(src)+":") {
					s.Text = append(s.Text, n)
				}
			}
		}
	}
	return append(out, failed...)
}

func init() { Register(parse.InputGstat, streamGstatSections) }
