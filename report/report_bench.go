package report

import (
	"fmt"
	"path/filepath"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

func init() { Register(parse.InputBenchRun, benchRunSections) }

// benchRunSections builds a section per fbdiag bench run result and, with
// several, one more that reads them as fbdiag throughput does: tpmC
// against the database size (or A/B when the sizes are the same).
func benchRunSections(ins []Input) []*Section {
	var out []*Section
	var all analyze.Input
	var names []string
	axes := map[string]bool{}
	for _, in := range ins {
		name := filepath.Base(in.Name)
		res, err := readBenchRun(in)
		if err != nil {
			out = append(out, &Section{ID: name, Title: "Bench run: " + name, Kind: string(in.Kind), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		out = append(out, BenchRunSection(name, in.Name, res))
		axis := ""
		if res.Run.Sweep != nil {
			axis = res.Run.Sweep.Axis
		}
		axes[axis] = true
		_, runs, notices, err := readThroughput(in)
		if err == nil {
			all.Runs = append(all.Runs, runs...)
			all.Notices = append(all.Notices, notices...)
			names = append(names, in.Name)
		}
	}
	if len(all.Runs) > 1 {
		// The runs of one page-buffers or terminals sweep are a sweep of
		// that setting; others (a warehouses sweep, single runs) are
		// read by size.
		var opt analyze.Options
		if len(axes) == 1 && (axes["page_buffers"] || axes["terminals"]) {
			for a := range axes {
				opt.X = a
			}
		}
		out = append(out, throughputSection("bench runs "+runsIn(filepath.Dir(names[0]), names), names, all, opt))
	}
	return out
}

func readBenchRun(in Input) (*parse.BenchResult, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return parse.ReadBenchResult(rc, in.Source())
}

// BenchRunSection is one bench run: its figures, its verdicts and its
// charts.
func BenchRunSection(name, source string, res *parse.BenchResult) *Section {
	s := &Section{ID: name, Title: "Bench run: " + name, Kind: string(parse.InputBenchRun), Sources: []string{source}}
	sum := analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
	if sum.TpmC != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "tpmC", Value: fmt.Sprintf("%.1f", *sum.TpmC)},
			Headline{Label: "tpmTotal", Value: fmt.Sprintf("%.1f", *sum.TpmTotal)})
		s.Text = append(s.Text, fmt.Sprintf("%s on %s (%s mode): tpmC %.1f and tpmTotal %.1f over a window of %d s after a %d s warm-up.",
			units.Count(sum.Terminals, "terminal"), units.Count(sum.Warehouses, "warehouse"), sum.Mode, *sum.TpmC, *sum.TpmTotal, sum.WindowSeconds, sum.WarmupSeconds))
	} else {
		s.Text = append(s.Text, "No measured window: the run stopped in its warm-up.")
	}
	steady := "steady state: " + sum.Steady.Verdict
	s.Text = append(s.Text, steady+".")
	if !sum.SteadyState {
		s.Findings = append(s.Findings, Finding{Severity: "info", Text: name + ": " + steady})
	}
	if w := MixShortWords(sum); w != "" {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: name + ": mix off the spec: " + w})
	}
	if w := TerminalsOverWords(sum); w != "" {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: name + ": terminals off the spec: " + w})
	}
	if sum.Partial {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: name + ": partial run (" + sum.Stopped + ")"})
	}
	var failed, gaveUp int64
	for _, t := range sum.Transactions {
		failed += t.Errors
		gaveUp += t.GaveUp
	}
	if failed > 0 {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: fmt.Sprintf("%s: %s failed with errors in the window", name, units.Count(failed, "transaction"))})
	}
	if gaveUp > 0 {
		// An operation is given up at its conflict after the last retry:
		// --retries 10 is 11 conflicts (it read "after 10 conflicts each",
		// and --retries 0 "after 0 conflicts").
		retries := "no retry"
		if sum.Retries > 0 {
			retries = "the first attempt and " + units.Count(sum.Retries, "retry")
		}
		s.Findings = append(s.Findings, Finding{Severity: "info", Text: fmt.Sprintf("%s: %s given up, each after %s (%s)",
			name, units.Count(gaveUp, "transaction"), units.Count(sum.Retries+1, "conflict"), retries)})
	}
	cs, err := BenchCharts(sum, res.Seconds, name)
	s.AddCharts(cs, err)
	s.Tables = append(s.Tables, BenchTables(sum)...)
	return s
}
