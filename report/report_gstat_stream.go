package report

import (
	"cmp"
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
	// slim: the report shows this run through its database's findings,
	// notices and history only, and let go of its tables, indices and
	// warnings (runKeeper): Analysis holds its name, header, totals and
	// notices, Report is nil, and trend is the run as the history's
	// trend reads it.
	slim  bool
	trend *analyze.HistorySnapshot
	// streamed: the run was read as a stream (a file, which can be read
	// again), not whole: Analysis has no tables (and, once the fleet has
	// judged it, no warnings), Report is nil, and streamed holds what the
	// section shows of it.
	streamed *streamedRun
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
			kept, stride = thin(kept, func(r *parse.GstatReport) int { return r.Index }, stride, max)
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

// thin keeps of kept, every stride-th run so far, every other one, then
// every fourth..., until fewer than max remain (room for the last run),
// and returns them with the stride.
func thin[T any](kept []T, index func(T) int, stride, max int) ([]T, int) {
	if max < 2 {
		max = 2 // (the first and the last)
	}
	for len(kept) >= max {
		stride *= 2
		j := 0
		for _, k := range kept {
			if index(k)%stride == 0 {
				kept[j] = k
				j++
			}
		}
		clear(kept[j:])
		kept = kept[:j]
	}
	return kept, stride
}

// keptRunSet are the runs KeepGstatRuns keeps of an input of n runs.
func keptRunSet(n, max int) map[int]bool {
	var kept []int
	stride := 1
	for i := range n {
		if i%stride == 0 {
			kept, stride = thin(append(kept, i), func(i int) int { return i }, stride, max)
		}
	}
	out := map[int]bool{n - 1: true}
	for _, i := range kept {
		out[i] = true
	}
	return out
}

// eachKeptGstatRun passes fn, in file order, the runs KeepGstatRuns keeps
// of in, analysed, and returns how many runs in holds. A file is read as
// streams, never held: a first read analyses its first run (always
// kept) table by table and counts the others, and a second read, for a
// file of several runs, the kept ones as it comes to them (streamGstatRuns).
// A pipe, which is read once, is held as KeepGstatRuns holds it (the
// report copies it to a file first, spoolPipe, where it can); so is a
// file the first read fails on, to say what it read. samples keeps the
// streamed runs' trend samples.
func eachKeptGstatRun(in Input, max int, samples *analyze.TrendSamples, fn func(GstatRun)) (int, error) {
	if in.closer == nil { // (a file, or a part of one)
		last := -1
		var first *GstatRun
		err := streamGstatRuns(in, samples, func(i int) bool { last = i; return i == 0 }, func(r GstatRun) { first = &r })
		if err == nil && first != nil {
			fn(*first)
			n := last + 1
			if n == 1 {
				return 1, nil
			}
			kept := keptRunSet(n, max)
			return n, streamGstatRuns(in, samples, func(i int) bool { return i > 0 && kept[i] }, fn)
		}
	}
	runs, err := KeepGstatRuns(in, max)
	if runs == nil {
		return 0, err
	}
	for _, r := range runs.Kept {
		fn(r)
	}
	return runs.Total, err
}

// streamGstatSections reads every gstat input in memory bounded by
// GstatRunsKept runs a file and makes one section per database (its
// snapshots gathered, worst first); an input that could not be read gets
// a section saying so.
func streamGstatSections(ins []Input) []*Section {
	g := readGstatRuns(ins)
	defer func() {
		for _, done := range g.done {
			done()
		}
	}()
	out := databaseSections(g.all, g.fleet)
	for _, s := range out {
		for _, src := range s.Sources {
			if n, ok := g.stopped[src]; ok {
				s.Notices = append(s.Notices, filepath.Base(src)+": "+n)
			}
			for _, n := range g.notes {
				if strings.HasPrefix(n, filepath.Base(src)+":") {
					s.Text = append(s.Text, n)
				}
			}
		}
	}
	return append(out, g.failed...)
}

// gstatRuns are the kept runs of the gstat inputs, judged by database.
type gstatRuns struct {
	all     []GstatRun
	fleet   []analyze.Database
	failed  []*Section        // the inputs that could not be read
	notes   []string          // the files of more runs than kept
	stopped map[string]string // the inputs whose read stopped, why
	done    []func()          // remove the pipes' spools, once the sections are made
}

// slimRuns lets the report slim the runs no section shows whole (off in
// the test that holds it to keeping them all).
var slimRuns = true

// spoolPipes lets the report copy a pipe to a temporary file and read it
// as a file (off in the test that holds it whole).
var spoolPipes = true

// readGstatRuns reads the gstat inputs. Each run is judged as it comes
// (the fleet keeps one copy of each finding) and, unless a section shows
// it whole (runKeeper), slimmed before the next: a folder of a year of
// daily snapshots, or a file of a cron job's runs, holds their findings,
// headers and trend samples, not a year of runs.
func readGstatRuns(ins []Input) gstatRuns {
	g := gstatRuns{stopped: map[string]string{}}
	var fleet analyze.FleetBuilder
	var samples analyze.TrendSamples
	var keep runKeeper
	for _, in := range ins {
		var spoolErr error
		if in.closer != nil && spoolPipes {
			var done func()
			in, done, spoolErr = spoolPipe(in)
			g.done = append(g.done, done)
		}
		kept := 0
		total, err := eachKeptGstatRun(in, GstatRunsKept, &samples, func(r GstatRun) {
			fleet.Add(r.Analysis)
			if r.streamed != nil {
				r.Analysis = r.Analysis.Slim() // (judged: its warnings can go)
			} else {
				r.trend = samples.Sample(historySnapshot(r.Analysis, r.Report))
			}
			keep.note(g.all, r)
			g.all = append(g.all, r)
			if slimRuns {
				keep.slim(g.all)
			}
			kept++
		})
		err = cmp.Or(spoolErr, err)
		if err != nil && kept == 0 {
			g.failed = append(g.failed, &Section{ID: filepath.Base(in.Name), Title: "Database statistics: " + filepath.Base(in.Name),
				Kind: string(parse.InputGstat), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		if total > kept {
			g.notes = append(g.notes, snapshotLabel(in, total, kept))
		}
		if err != nil {
			g.stopped[in.Name] = "read stopped: " + err.Error()
		}
	}
	g.fleet = fleet.Databases()
	return g
}

func init() { Register(parse.InputGstat, streamGstatSections) }
