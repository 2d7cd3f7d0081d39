package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

func throughputCommand() *cli.Command {
	return &cli.Command{
		Name:      "throughput",
		Usage:     "throughput vs size, settings or configurations (tables, benchmark output)",
		ArgsUsage: "FILE|FOLDER...",
		Description: `Reads result tables (CSV, TSV, semicolon, markdown, aligned text, or the markdown and
tab-separated tables inside an article) or benchmark output (pgbench, sysbench, HammerDB,
go test -bench), and answers one of four questions, chosen from the input or with --mode:

  degradation  throughput against database size (x has a size unit: size_gb, db_bytes,
               "10 GB"; or is named size/scale/warehouses): linear, log-linear and power
               fits with R², loss per doubling, a leave-last-out check on the largest
               size, --predict SIZE and the cliff test --knee SIZE (e.g. the RAM): a cliff
               is a significant step (p <= 0.05) for the worse of at least 10% of the
               trend; a size with leverage above 0.5 (one far point that fixes the
               curves) is named
  sweep        throughput against a setting (page buffers, clients): best setting per
               series, spread, settings within noise of the best
  ab           throughput of named configurations (the x column holds names, or runs
               without a size): ratio and change against the first; with repeated runs,
               medians and a Mann-Whitney test
  load         load speed (MB/s, 1024 MB per GB) from a size and a load time column,
               and whether it changes with size

Columns are chosen by name or 1-based index (--x size_gb --y ops_per_s); by default x is
the first size column (else the first column of names, else the first number that is not
a row counter; clients, threads, connections or workers at 1, 2, 3... count as a setting)
and y every throughput column (tps, ops/s, points, NOPM, score...), each a series.
--series names more y columns, or a column whose values split rows into series.
Benchmark runs become one point each: x from a key=value line in the file (db_bytes=,
scale=), a Go "key: value" line or sub-benchmark, or the file name (pgbench-scale10.txt),
when its value differs between the runs (else name the setting that does: --x clients).

Examples:
  fbdiag throughput --knee 16GB --predict 2TB degradation-throughput-sata.csv
  fbdiag throughput --table 1 article.txt
  fbdiag throughput --format json pgbench-scales/*.txt
  fbdiag throughput pgbench-scales/     (a folder: its result files, walked in name order)`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "x column (name or 1-based index); for runs, a config key"},
			&cli.StringFlag{Name: "y", Usage: "y column(s), comma-separated; for runs, a metric"},
			&cli.StringSliceFlag{Name: "series", Usage: "more y columns, or a column naming the series of each row"},
			&cli.StringFlag{Name: "mode", Usage: "degradation, sweep, ab or load (default: from the input)"},
			&cli.IntFlag{Name: "table", Usage: "table number when a file has several"},
			&cli.StringFlag{Name: "predict", Usage: "predict the throughput at this size (2TB)"},
			&cli.StringFlag{Name: "knee", Usage: "test for a cliff at this size (16GB: the RAM)"},
			&cli.StringFlag{Name: "noise", Usage: "sweep noise for single runs, e.g. 2% (default 2%)"},
			formatFlag(),
		}, chartFlags()...),
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
	if err := stdinOnce("throughput", c.Args().Slice()); err != nil {
		return err
	}
	opt := analyze.Options{
		Mode: c.String("mode"), X: c.String("x"), Y: c.String("y"), Series: c.StringSlice("series"),
		Table: c.Int("table"),
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
	for _, f := range []struct {
		name string
		at   *analyze.At
	}{{"predict", &opt.Predict}, {"knee", &opt.Knee}} {
		at, err := analyze.ParseAt(c.String(f.name))
		if err != nil {
			return usagef("--%s: %v", f.name, err)
		}
		*f.at = at
	}
	png, err := pngOptions(c)
	if err != nil {
		return err
	}
	names, err := throughputFiles(c.Args().Slice(), getEnv(c).stderr)
	if err != nil {
		return err
	}
	var in analyze.Input
	for _, name := range names {
		rc, shown, err := openInput(c, name)
		if err != nil {
			return err
		}
		if err := refuseKind(rc, shown, "throughput", parse.InputGstat, parse.InputGbak); err != nil {
			rc.Close()
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
		var oe *analyze.OptionError
		if errors.As(err, &oe) {
			flag := map[string]string{analyze.OptionPredict: "predict", analyze.OptionKnee: "knee"}[oe.Option]
			v := oe.Value
			if flag != "" {
				v = c.String(flag)
			} else {
				flag = oe.Option
			}
			return usagef("--%s %q: %s", flag, v, oe.Msg)
		}
		return err
	}
	charts := func() ([]*plot.Chart, error) { return report.ThroughputCharts(res, chartName(c.Args().Slice())) }
	if format == report.JSON {
		if err := report.WriteJSON(e.stdout, res); err != nil {
			return err
		}
		return png.write(c, charts)
	}
	// file:line: first, as gstat and gbak print them, for editors and CI logs.
	report.WriteNotices(e.stderr, "", res.Notices)
	for _, w := range res.Warnings {
		fmt.Fprintln(e.stderr, "fbdiag: warning:", w)
	}
	if err := writeThroughput(e.stdout, format, res); err != nil {
		return err
	}
	return png.write(c, charts)
}

// writeThroughput prints the result as tables (text, CSV, markdown); the
// layout is report.ThroughputTables's.
func writeThroughput(w io.Writer, format report.Format, r *analyze.Result) error {
	return report.WriteTables(w, format, report.ThroughputTables(r)...)
}

// throughputFiles expands folders into the result files they hold (walked
// as 'fbdiag report' walks them: name order, hidden entries skipped), so
// that a folder of pgbench runs is one argument. Files of other kinds in
// a folder (a gstat output, a README) are skipped with a line on stderr;
// files named one by one are left for the readers to judge.
func throughputFiles(args []string, stderr io.Writer) ([]string, error) {
	var names []string
	for _, a := range args {
		if a == "-" {
			names = append(names, a)
			continue
		}
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			names = append(names, a)
			continue
		}
		ins, errs := report.Inputs([]string{a})
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		n := len(names)
		for _, f := range ins {
			switch f.Kind {
			case parse.InputThroughput, parse.InputBenchmark:
				names = append(names, f.Name)
			case parse.InputUnknown:
				fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: not a result table or benchmark output\n", f.Name)
			default:
				fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: %s output\n", f.Name, f.Kind)
			}
		}
		if len(names) == n {
			return nil, fmt.Errorf("%s: no result table or benchmark output in this folder", a)
		}
	}
	return names, nil
}
