package report

import (
	"fmt"
	"path/filepath"

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
	err = parse.EachGstat(rc, in.Name, func(rep *parse.GstatReport) error {
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

// gstatHistory makes the History sections (report_history.go) from the
// kept runs of all gstat inputs: a file of thousands of runs is seen
// through at most GstatRunsKept of them, first and last included.
func gstatHistory(runs []GstatRun) []*Section {
	snaps := make([]*analyze.HistorySnapshot, 0, len(runs))
	for _, r := range runs {
		snaps = append(snaps, historySnapshot(r.Analysis, r.Report))
	}
	return HistorySections(snaps)
}

// streamGstatSections makes one section per gstat run for files of a few
// runs, and for a file of many runs its last run in full with a note
// saying so, then the History sections, in memory bounded by
// GstatRunsKept.
func streamGstatSections(ins []Input) []*Section {
	var out []*Section
	var all []GstatRun
	for _, in := range ins {
		runs, err := KeepGstatRuns(in, GstatRunsKept)
		if err != nil && (runs == nil || len(runs.Kept) == 0) {
			out = append(out, &Section{ID: filepath.Base(in.Name), Title: "Database statistics: " + filepath.Base(in.Name),
				Kind: string(parse.InputGstat), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		all = append(all, runs.Kept...)
		if runs.Total <= GstatRunSections {
			for _, r := range runs.Kept {
				out = append(out, GstatSection(r.Analysis, r.Report))
			}
		} else {
			r := runs.Kept[len(runs.Kept)-1]
			s := GstatSection(r.Analysis, r.Report)
			s.Text = append([]string{fmt.Sprintf("%d runs in this file; the report shows the last (run %d) in full, "+
				"and its history reads %d of them (the first, the last, evenly spaced).",
				runs.Total, runs.Total, len(runs.Kept))}, s.Text...)
			out = append(out, s)
		}
		if err != nil {
			out[len(out)-1].Notices = append(out[len(out)-1].Notices, "read stopped: "+err.Error())
		}
	}
	return append(out, gstatHistory(all)...)
}

func init() { Register(parse.InputGstat, streamGstatSections) }
