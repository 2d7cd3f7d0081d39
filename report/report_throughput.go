package report

import (
	"fmt"
	"html/template"
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

func init() {
	Register(parse.InputThroughput, throughputSections)
	Register(parse.InputBenchmark, benchmarkSections)
}

// throughputSections analyses each result table file on its own: each
// table is its own experiment (a degradation, a sweep, an A/B).
func throughputSections(ins []Input) []*Section {
	var out []*Section
	for _, in := range ins {
		tables, runs, notices, err := readThroughput(in)
		name := filepath.Base(in.Name)
		if err != nil {
			out = append(out, &Section{ID: name, Title: "Throughput: " + name, Kind: string(in.Kind), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		out = append(out, ThroughputSection(name, []string{in.Name}, analyze.Input{Tables: tables, Runs: runs, Notices: notices}))
	}
	return out
}

// benchmarkSections analyses benchmark outputs per folder and tool: the
// runs of one tool in one folder (pgbench at scales 1 to 100) make one
// curve or comparison; runs of different tools are never mixed. Files
// without a run (logs of single transactions) are listed in the notices.
func benchmarkSections(ins []Input) []*Section {
	type group struct {
		dir, tool string
		in        analyze.Input
		names     []string
	}
	var groups []*group
	byKey := map[[2]string]*group{}
	var skipped []parse.Notice
	for _, in := range ins {
		tables, runs, notices, err := readThroughput(in)
		if err != nil {
			skipped = append(skipped, parse.Notice{File: in.Name, Msg: err.Error()})
			continue
		}
		if len(runs) == 0 {
			skipped = append(skipped, parse.Notice{File: in.Name, Msg: fmt.Sprintf("no benchmark summary (%s): not analysed", units.Count(len(tables), "table"))})
			continue
		}
		for _, r := range runs {
			k := [2]string{filepath.Dir(in.Name), r.Tool}
			g := byKey[k]
			if g == nil {
				g = &group{dir: k[0], tool: k[1]}
				byKey[k] = g
				groups = append(groups, g)
			}
			g.in.Runs = append(g.in.Runs, r)
			if len(g.names) == 0 || g.names[len(g.names)-1] != in.Name {
				g.names = append(g.names, in.Name)
				g.in.Notices = append(g.in.Notices, notices...)
			}
		}
	}
	var out []*Section
	for _, g := range groups {
		out = append(out, ThroughputSection(g.tool+" runs "+runsIn(g.dir, g.names), g.names, g.in))
	}
	if len(skipped) > 0 {
		s := &Section{ID: "benchmarks-skipped", Title: "Benchmark files without a result", Kind: string(parse.InputBenchmark)}
		for _, n := range skipped {
			s.Sources = append(s.Sources, n.File)
			s.Notices = append(s.Notices, n.String())
		}
		out = append(out, s)
	}
	return out
}

// runsIn says where a group of runs is, for a title ("pgbench runs
// in folder bench"): the folder by its name, the current one by its real
// name, not "." (one file there, or standard input, by its file name).
// The words "folder" and "file" keep a folder named "in" from reading
// "pgbench runs in in".
func runsIn(dir string, names []string) string {
	if dir != "." {
		return "in folder " + filepath.Base(dir)
	}
	if len(names) == 1 {
		return "in file " + filepath.Base(names[0])
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return "in folder " + filepath.Base(abs)
	}
	return "in this folder"
}

func readThroughput(in Input) ([]*parse.Table, []*parse.Run, []parse.Notice, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, nil, nil, err
	}
	defer rc.Close()
	return parse.ReadThroughput(rc, in.Source())
}

// ThroughputSection analyses one experiment with the mode the input calls
// for, as fbdiag throughput does with no option (a degradation gets the
// prediction and the cliff test analyze puts where none is asked for),
// and lays it out with the same view: its headline, its charts and its
// HTML fragment.
func ThroughputSection(name string, sources []string, in analyze.Input) *Section {
	return throughputSection(name, sources, in, analyze.Options{})
}

// throughputSection is ThroughputSection with the options of the first
// analysis (the x of runs).
func throughputSection(name string, sources []string, in analyze.Input, base analyze.Options) *Section {
	s := &Section{ID: name, Title: "Throughput: " + name, Kind: string(parse.InputThroughput), Sources: sources}
	res, err := analyze.Throughput(in, base)
	if err != nil {
		s.Err = err.Error()
		for _, n := range in.Notices {
			s.Notices = append(s.Notices, n.String())
		}
		return s
	}
	s.Title = fmt.Sprintf("Throughput (%s): %s", res.Mode, name)
	s.Mode = string(res.Mode)
	doc := view.Throughput(res, name)
	s.AddCharts(doc.Charts, nil)
	if err := embedView(s, doc); err != nil {
		s.Err = err.Error()
	}
	for _, n := range res.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}

// embedView puts a view's document into a section: its HTML fragment
// (headline, tables, notes; every row shown up to HTMLRows), and its headline as the
// section's figures for the summary, which repeats the first ones.
func embedView(s *Section, doc *view.Doc) error {
	for _, f := range doc.Headline {
		label := f.Label
		if f.Detail != "" {
			label += " " + f.Detail
		}
		s.Headlines = append(s.Headlines, Headline{Label: label, Value: f.Text(), Caveat: f.Caveat != "", Group: f.Group})
	}
	var b strings.Builder
	if err := view.Write(&b, view.HTML, view.Options{All: true, MaxRows: HTMLRows, MoreHint: " in this page"}, doc); err != nil {
		return err
	}
	// The view escapes every text it writes (view/html.go).
	s.Fragment = template.HTML(b.String())
	return nil
}
