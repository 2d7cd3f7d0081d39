package report

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
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
			skipped = append(skipped, parse.Notice{File: in.Name, Msg: fmt.Sprintf("no benchmark summary (%d tables): not analysed", len(tables))})
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
		out = append(out, ThroughputSection(g.tool+" runs in "+folderName(g.dir, g.names), g.names, g.in))
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

// folderName names the folder of a group of runs for a title: the
// current folder by its real name, not "." (one file there, or standard
// input, by its file name).
func folderName(dir string, names []string) string {
	if dir != "." {
		return filepath.Base(dir)
	}
	if len(names) == 1 {
		return filepath.Base(names[0])
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return filepath.Base(abs)
	}
	return "this folder"
}

func readThroughput(in Input) ([]*parse.Table, []*parse.Run, []parse.Notice, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, nil, nil, err
	}
	defer rc.Close()
	return parse.ReadThroughput(rc, in.Name)
}

// ThroughputSection analyses one experiment with the mode the input calls
// for and draws its chart. A degradation gets the prediction and the
// cliff test analyze puts where none is asked for (DefaultPredictAt,
// DefaultKnee), as fbdiag throughput does.
func ThroughputSection(name string, sources []string, in analyze.Input) *Section {
	s := &Section{ID: name, Short: name, Title: "Throughput: " + name, Kind: string(parse.InputThroughput), Sources: sources}
	res, err := analyze.Throughput(in, analyze.Options{})
	if err != nil {
		s.Err = err.Error()
		for _, n := range in.Notices {
			s.Notices = append(s.Notices, n.String())
		}
		return s
	}
	s.Title = fmt.Sprintf("Throughput (%s): %s", res.Mode, name)
	cs, err := ThroughputCharts(res, name)
	s.AddCharts(cs, err)
	for _, sr := range res.Series {
		s.Text = append(s.Text, seriesVerdicts(res, sr, name, &s.Headlines)...)
	}
	s.Text = append(s.Text, res.Warnings...)
	s.Tables = append(s.Tables, pointsTable(res))
	for _, n := range res.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}

// seriesVerdicts are the analysis's sentences for one series; the first
// figure of each becomes a headline.
func seriesVerdicts(res *analyze.Result, sr *analyze.Series, name string, hl *[]Headline) []string {
	var out []string
	// Several series: the figure says whose.
	label := ""
	if len(res.Series) > 1 {
		label = sr.Name + ": "
	}
	if sr.Sweep != nil {
		out = append(out, sr.Sweep.Verdict)
		*hl = append(*hl, Headline{Label: label + "best setting", Value: plot.FormatValue(sr.Sweep.Best.X)})
	}
	if sr.Load != nil {
		out = append(out, sr.Load.Verdict)
		*hl = append(*hl, Headline{Label: label + "median load speed", Value: fmt.Sprintf("%.2f MB/s", sr.Load.Summary.Median)})
	}
	for _, e := range sr.AB {
		out = append(out, e.Verdict)
		*hl = append(*hl, Headline{Label: label + e.Label + " vs " + e.Baseline, Value: fmt.Sprintf("%+.1f %%", e.Change*100)})
	}
	if b := analyze.BestModel(sr.Models); b != nil {
		if b.LossPerDoubling != nil && !math.IsNaN(*b.LossPerDoubling) {
			out = append(out, fmt.Sprintf("%s: best fit %s (R² %.3f) loses %.1f %% per doubling of the size.", sr.Name, b.Name, b.R2, *b.LossPerDoubling*100))
			*hl = append(*hl, Headline{Label: label + "throughput lost per size doubling", Value: fmt.Sprintf("%.1f %%", *b.LossPerDoubling*100)})
		}
	}
	if sr.Knee != nil {
		out = append(out, sr.Knee.Verdict)
	}
	out = append(out, sr.Warnings...)
	return out
}

// pointsTable lists the measured points of every series.
func pointsTable(res *analyze.Result) *Table {
	t := &Table{Name: "points", Title: "Measurements", Columns: Cols("series", ">"+axisLabel(res.X, res.XUnit), ">"+axisLabel(res.Y, res.YUnit), "source")}
	for _, sr := range res.Series {
		for _, p := range sr.Points {
			x := p.Label
			if p.X != nil {
				x = strconv.FormatFloat(*p.X, 'g', 6, 64)
			}
			t.Add(sr.Name, x, strconv.FormatFloat(p.Y, 'g', 6, 64), p.Source)
		}
	}
	return t
}
