package report

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// streamedRun is what the report keeps of a run it read as a stream, for
// the latest snapshot's part of its database section: the gstat view's
// tables, indices and warnings (view.GstatKeeper), the charts' data
// (GstatChartKeeper) and how many tables hold back versions. A history
// that diffs the run reads it again as a stream (historySnapshots):
// memory holds what the section shows, not the run.
type streamedRun struct {
	view         *analyze.GstatAnalysis
	viewOpt      view.GstatOptions
	charts       GstatChartData
	withVersions int
	in           Input
}

// streamGstatRuns reads file input in as a stream and passes fn each run
// runs says (analyze.GstatStream.Runs), analysed table by table; samples
// keeps their trend samples. The run's Analysis has no tables but every
// warning (the fleet judges it).
func streamGstatRuns(in Input, samples *analyze.TrendSamples, runs func(int) bool, fn func(GstatRun)) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	vopt := view.GstatOptions{Top: view.GstatTop}
	keep := view.NewGstatKeeper(vopt)
	charts := NewGstatChartKeeper(TopObjects)
	withVersions := 0
	return analyze.StreamGstat(rc, in.Source(), analyze.NewThresholds(), analyze.GstatOptions{}, analyze.GstatStream{
		Runs: runs,
		Table: func(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
			keep.Table(a, t)
			charts.Table(t, a.TableWarnings())
			samples.Add(t)
			if t.Versions != nil && *t.Versions > 0 {
				withVersions++
			}
			return nil
		},
		Run: func(a *analyze.GstatAnalysis, rep *parse.GstatReport) error {
			// Messages name the file; the analysis the part.
			a.File, rep.File = in.Name, in.Name
			st := &streamedRun{charts: charts.End(a), withVersions: withVersions, in: in}
			withVersions = 0
			st.view, st.viewOpt = keep.Kept(a, vopt)
			st.view.Warnings, st.view.WarningsOmitted = worstWarnings(a, view.GstatTop)
			fn(GstatRun{Analysis: a, streamed: st, trend: samples.Snapshot(a, rep, analyze.SnapshotOptions{})})
			return nil
		},
	})
}

// worstWarnings are the n worst warnings of a (a copy: the others can
// go), and the count by severity of the others, as a run whose warnings
// were limited to n (GstatScan.LimitWarnings) has them.
func worstWarnings(a *analyze.GstatAnalysis, n int) ([]analyze.Warning, map[analyze.Severity]int) {
	if len(a.Warnings) <= n {
		return slices.Clone(a.Warnings), a.WarningsOmitted
	}
	omitted := map[analyze.Severity]int{}
	for s, k := range a.WarningsOmitted {
		omitted[s] = k
	}
	for _, w := range a.Warnings[n:] {
		omitted[w.Severity]++
	}
	return slices.Clone(a.Warnings[:n]), omitted
}

// historySnapshots are the snapshots of runs (of one database) for its
// history: a run read as a stream is read again as one, and keeps what
// the history's diff compares (analyze.DiffSamples, as gstat diff reads
// a run), not the run; a run slimmed (never one the diff compares:
// runKeeper) is its trend sample; another is made of its analysis. Two
// 100 MiB snapshots of one database made a report of 1.16 GB when their
// runs were read again whole. A file that cannot be read again, or no
// longer holds a run (it changed since), is an error: the history would
// compare samples.
func historySnapshots(runs []GstatRun) ([]*analyze.HistorySnapshot, error) {
	snaps := make([]*analyze.HistorySnapshot, len(runs))
	byInput := map[string][]int{} // places in runs, by input name
	var names []string
	for i, r := range runs {
		switch {
		case r.slim:
			snaps[i] = r.trend
		case r.streamed == nil:
			snaps[i] = historySnapshot(r.Analysis, r.Report)
		default:
			n := r.streamed.in.Name
			if byInput[n] == nil {
				names = append(names, n)
			}
			byInput[n] = append(byInput[n], i)
		}
	}
	th := analyze.NewThresholds()
	for _, n := range names {
		at := byInput[n]
		in := runs[at[0]].streamed.in
		// run index → places in runs: one input named twice ("report dir
		// dir/a.txt", or the same file twice) has each run in two places,
		// and the second was the only one filled (a nil snapshot, a
		// panic in the history).
		want := map[int][]int{}
		for _, i := range at {
			want[runs[i].Analysis.Report] = append(want[runs[i].Analysis.Report], i)
		}
		rc, err := in.Open()
		if err != nil {
			return nil, err
		}
		var ds analyze.DiffSamples
		read := 0
		s := ds.Stream(analyze.SnapshotOptions{}, func(sn *analyze.HistorySnapshot, rep *parse.GstatReport) error {
			// Messages name the file; the analysis the part.
			if places := want[rep.Index]; len(places) > 0 {
				sn.Analysis.File, sn.Parsed.File = in.Name, in.Name
				for _, i := range places {
					snaps[i] = sn
				}
				read += len(places)
			}
			return nil
		})
		// (Runs is asked on the parsing goroutine: want is only read.)
		s.Runs = func(index int) bool { _, ok := want[index]; return ok }
		err = analyze.StreamGstat(rc, in.Source(), th, analyze.GstatOptions{}, s)
		rc.Close()
		if err == nil && read < len(at) {
			err = fmt.Errorf("%s: %s no longer in the file", filepath.Base(n), units.Count(len(at)-read, "run"))
		}
		if err != nil {
			return nil, err
		}
	}
	return snaps, nil
}
