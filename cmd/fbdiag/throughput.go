package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
)

func throughputCommand() *cli.Command {
	return &cli.Command{
		Name:      "throughput",
		Usage:     "throughput vs size, settings or configurations (tables, benchmark output)",
		ArgsUsage: "FILE...",
		Description: `Reads result tables (CSV, TSV, semicolon, markdown, aligned text, or the markdown and
tab-separated tables inside an article) or benchmark output (pgbench, sysbench, HammerDB,
go test -bench), and answers one of four questions, chosen from the input or with --mode:

  degradation  throughput against database size (x has a size unit: size_gb, db_bytes,
               "10 GB"; or is named size/scale/warehouses): linear, log-linear and power
               fits with R², loss per doubling, a leave-last-out check on the largest
               size, --predict SIZE and the cliff test --knee SIZE (e.g. the RAM)
  sweep        throughput against a setting (page buffers, clients): best setting per
               series, spread, settings within noise of the best
  ab           throughput of named configurations (the x column holds names, or runs
               without a size): ratio and change against the first; with repeated runs,
               medians and a Mann-Whitney test
  load         load speed (MB/s, 1024 MB per GB) from a size and a load time column,
               and whether it changes with size

Columns are chosen by name or 1-based index (--x size_gb --y ops_per_s); by default x is
the first size column (else the first column of names, else the first number that is not
a row counter) and y every throughput column (tps, ops/s, points, NOPM, score...), each a
series. --series names more y columns, or a column whose values split rows into series.
Benchmark runs become one point each: x from a key=value line in the file (db_bytes=,
scale=), a Go "key: value" line or sub-benchmark, or the file name (pgbench-scale10.txt).

Examples:
  fbdiag throughput --knee 16GB --predict 2TB degradation-throughput-sata.csv
  fbdiag throughput --table 1 article.txt
  fbdiag throughput --format json pgbench-scales/*.txt`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "x column (name or 1-based index); for runs, a config key"},
			&cli.StringFlag{Name: "y", Usage: "y column(s), comma-separated; for runs, a metric"},
			&cli.StringSliceFlag{Name: "series", Usage: "more y columns, or a column naming the series of each row"},
			&cli.StringFlag{Name: "mode", Usage: "degradation, sweep, ab or load (default: from the input)"},
			&cli.IntFlag{Name: "table", Usage: "table number when a file has several"},
			&cli.StringFlag{Name: "predict", Usage: "predict the throughput at this size (2TB)"},
			&cli.StringFlag{Name: "knee", Usage: "test for a cliff at this size (16GB: the RAM)"},
			&cli.StringFlag{Name: "noise", Usage: "sweep noise for single runs, e.g. 2% (default 2%)"},
			formatFlag(),
		},
		Action: throughputAction,
	}
}

func throughputAction(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("throughput: give one file or more (- for standard input)")
	}
	opt := analyze.Options{
		Mode: c.String("mode"), X: c.String("x"), Y: c.String("y"), Series: c.StringSlice("series"),
		Table: c.Int("table"), Predict: c.String("predict"), Knee: c.String("knee"),
	}
	switch opt.Mode {
	case "", analyze.ModeDegradation, analyze.ModeSweep, analyze.ModeAB, analyze.ModeLoad:
	default:
		return usagef("--mode %q: want degradation, sweep, ab or load", opt.Mode)
	}
	if opt.Table < 0 {
		return usagef("--table %d: tables are counted from 1", opt.Table)
	}
	if s := c.String("noise"); s != "" {
		v, ok := parse.ParseNumber(s, false)
		if !ok || v <= 0 {
			return usagef("--noise %q: want a percentage such as 2%%", s)
		}
		if strings.HasSuffix(strings.TrimSpace(s), "%") || v >= 1 {
			v /= 100
		}
		opt.Noise = v
	}
	for _, f := range []struct{ name, v string }{{"--predict", opt.Predict}, {"--knee", opt.Knee}} {
		if f.v == "" {
			continue
		}
		if v, _, ok := parse.ParseQuantity(f.v, false); !ok || v <= 0 {
			return usagef("%s %q: want a positive size such as 16GB or 2TB", f.name, f.v)
		}
	}
	var in analyze.Input
	for _, name := range c.Args().Slice() {
		rc, shown, err := openInput(c, name)
		if err != nil {
			return err
		}
		tables, runs, notes, err := parse.ReadThroughput(rc, shown)
		rc.Close()
		if err != nil {
			return err
		}
		if len(tables) == 0 && len(runs) == 0 {
			return fmt.Errorf("%s: no table and no benchmark result found", shown)
		}
		in.Tables = append(in.Tables, tables...)
		in.Runs = append(in.Runs, runs...)
		in.Notices = append(in.Notices, notes...)
	}
	res, err := analyze.Throughput(in, opt)
	if err != nil {
		if strings.HasPrefix(err.Error(), "--") {
			return usagef("%v", err)
		}
		return err
	}
	if format == report.JSON {
		return report.WriteJSON(e.stdout, res)
	}
	for _, n := range res.Notices {
		fmt.Fprintln(e.stderr, "fbdiag: notice:", n)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(e.stderr, "fbdiag: warning:", w)
	}
	return writeThroughput(e.stdout, format, res)
}

// writeThroughput prints the result as tables (text, CSV, markdown).
func writeThroughput(w io.Writer, format report.Format, r *analyze.Result) error {
	xu, yu := deref(r.XUnit), deref(r.YUnit)
	var tables []*report.Table
	head := &report.Table{Name: "summary", Title: fmt.Sprintf("%s: %s against %s", r.Mode, paren(deref(r.Y), yu), paren(deref(r.X), xu)),
		Columns: report.Cols("series", ">points", ">first→last", "last step", "best")}
	for _, s := range r.Series {
		row := []string{s.Name, strconv.Itoa(len(s.Points)), pct(s.FirstToLastChange), "", ""}
		if st := s.LastStep; st != nil {
			row[3] = fmt.Sprintf("%s → %s: ×%.3g", num(st.FromX), num(st.ToX), st.Ratio)
		}
		if b := s.Best; b != nil {
			row[4] = fmt.Sprintf("%s at %s", num(b.Y), xOf(b, xu))
		}
		head.Add(row...)
	}
	if r.Mode != analyze.ModeAB {
		tables = append(tables, head)
	}
	for _, s := range r.Series {
		switch {
		case s.Load != nil:
			tables = append(tables, loadTable(s, xu))
		case s.Sweep != nil:
			tables = append(tables, sweepTable(s, xu, yu))
		case len(s.AB) > 0:
			tables = append(tables, abTable(s, yu))
		case r.Mode == analyze.ModeAB:
			tables = append(tables, runsTable(s, yu))
		case len(s.Models) > 0:
			tables = append(tables, modelTable(s, r, xu)...)
			if k := s.Knee; k != nil {
				tables = append(tables, kneeTable(s, xu))
			}
		}
		for _, wn := range s.Warnings {
			head.Notes = append(head.Notes, s.Name+": "+wn)
		}
	}
	return report.WriteTables(w, format, tables...)
}

func modelTable(s *analyze.Series, r *analyze.Result, xu string) []*report.Table {
	t := &report.Table{Name: "models", Title: "Models: " + s.Name,
		Columns: report.Cols("model", "parameters ± stderr", ">R²", ">slope p", ">loss/doubling")}
	cols := []string{"model", ">fitted without the largest", ">actual", ">error"}
	if r.PredictAt != nil {
		cols = append(cols, ">at "+withUnit(num(*r.PredictAt), xu)+" [95% interval]")
	}
	checks := &report.Table{Name: "checks", Columns: report.Cols(cols...)}
	for _, m := range s.Models {
		var ps []string
		for _, p := range m.Params {
			ps = append(ps, fmt.Sprintf("%s=%s±%s", p.Name, num(p.Value), num(p.StdErr)))
		}
		t.Add(m.Name, strings.Join(ps, " "), fmt.Sprintf("%.4f", m.R2), fmt.Sprintf("%.3f", m.SlopeP), pct(m.LossPerDoubling))
		row := []string{m.Name, "–", "–", pct(m.LeaveLastOutError)}
		if h := m.LeaveLastOut; h != nil {
			row[1] = fmt.Sprintf("%s [%s, %s]", num(h.Y), num(h.Lo), num(h.Hi))
			row[2] = num(h.Actual)
		}
		if p := m.Prediction; p != nil {
			row = append(row, fmt.Sprintf("%s [%s, %s]", num(p.Y), num(p.Lo), num(p.Hi)))
		}
		checks.Add(row...)
	}
	if b := analyze.BestModel(s.Models); b != nil {
		t.Notes = append(t.Notes, fmt.Sprintf("best fit: %s (%s); loss/doubling: fraction lost each time the size doubles.", b.Name, b.Formula))
		if b.SlopeP > analyze.Alpha {
			t.Notes = append(t.Notes, fmt.Sprintf("the slope is not significant (p=%.3f): no degradation the noise could not explain.", b.SlopeP))
		}
	}
	if len(s.Models) > 0 && s.Models[0].LeaveLastOut != nil {
		checks.Title = fmt.Sprintf("Leave-last-out at %s, fitted on the other sizes", withUnit(num(s.Models[0].LeaveLastOut.X), xu))
	}
	return []*report.Table{t, checks}
}

func kneeTable(s *analyze.Series, xu string) *report.Table {
	k := s.Knee
	t := &report.Table{Name: "knee", Title: "Cliff test: " + s.Name,
		Columns: report.Cols(">at", ">below", ">above", ">step", ">p", "break")}
	brk := "no"
	if k.Significant {
		brk = "yes"
	}
	t.Add(withUnit(num(k.At), xu), strconv.Itoa(k.Below), strconv.Itoa(k.Above), pctv(k.StepFraction), fmt.Sprintf("%.3f", k.P), brk)
	t.Notes = append(t.Notes, k.Verdict, "test: "+k.Test)
	return t
}

func sweepTable(s *analyze.Series, xu, yu string) *report.Table {
	sw := s.Sweep
	t := &report.Table{Name: "sweep", Title: "Sweep: " + s.Name,
		Columns: report.Cols(">setting", ">n", ">median", ">vs best", "")}
	for _, st := range sw.Settings {
		mark := ""
		switch {
		case st.X == sw.Best.X:
			mark = "best"
		case contains(sw.WithinNoise, st.X):
			mark = "within noise"
		}
		t.Add(withUnit(num(st.X), xu), strconv.Itoa(st.N), withUnit(num(st.Median), yu), pctv(st.VsBest), mark)
	}
	t.Notes = append(t.Notes, sw.Verdict, "test: "+sw.Test)
	return t
}

func abTable(s *analyze.Series, yu string) *report.Table {
	t := &report.Table{Name: "ab", Title: "A/B: " + s.Name,
		Columns: report.Cols("configuration", ">n", ">median", ">change", "comparison")}
	base := s.AB[0]
	t.Add(base.Baseline+" (base)", strconv.Itoa(base.Before.N), withSpread(base.Before.Median, base.BeforeSpread, yu), "", "")
	for _, e := range s.AB {
		t.Add(e.Label, strconv.Itoa(e.After.N), withSpread(e.After.Median, e.AfterSpread, yu), pctv(e.Change), e.Comparison.String())
		t.Notes = append(t.Notes, e.Verdict)
	}
	seen := map[string]bool{}
	for _, e := range s.AB {
		for _, w := range e.Comparison.Warnings {
			if !seen[w] {
				seen[w] = true
				t.Notes = append(t.Notes, w)
			}
		}
	}
	return t
}

// runsTable lists the points of a series that has nothing to compare
// (one configuration).
func runsTable(s *analyze.Series, yu string) *report.Table {
	t := &report.Table{Name: "runs", Title: "Runs: " + s.Name, Columns: report.Cols("configuration", ">value", "source")}
	for _, p := range s.Points {
		t.Add(xOf(&p, ""), withUnit(num(p.Y), yu), p.Source)
	}
	t.Notes = append(t.Notes, "one configuration: nothing to compare (give the runs of another, or a size with --x)")
	return t
}

func loadTable(s *analyze.Series, xu string) *report.Table {
	t := &report.Table{Name: "load", Title: "Load speed", Columns: report.Cols(">size", ">MB/s")}
	for _, p := range s.Points {
		t.Add(xOf(&p, xu), fmt.Sprintf("%.3f", p.Y))
	}
	t.Notes = append(t.Notes, s.Load.Verdict, "test: "+s.Load.Test)
	return t
}

// withSpread prints a median and, for repeated runs, its spread: "1488 tps ± 9%".
func withSpread(median float64, spread *float64, unit string) string {
	s := withUnit(num(median), unit)
	if spread != nil {
		s += fmt.Sprintf(" ± %.0f%%", 100**spread)
	}
	return s
}

func contains(xs []float64, x float64) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func paren(name, unit string) string {
	if unit == "" || unit == name {
		return name
	}
	return name + " (" + unit + ")"
}

func withUnit(v, unit string) string {
	if unit == "" || v == "" {
		return v
	}
	return v + " " + unit
}

func xOf(p *analyze.Point, xu string) string {
	if p.X == nil {
		return p.Label
	}
	return withUnit(num(*p.X), xu)
}

func pct(v *float64) string {
	if v == nil {
		return "–"
	}
	return pctv(*v)
}

func pctv(v float64) string { return fmt.Sprintf("%+.1f%%", 100*v) }
