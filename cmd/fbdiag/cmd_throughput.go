package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

// throughputTables are the CSV tables of fbdiag throughput, for the help;
// which of them an input has depends on its mode.
const throughputTables = "points (default), series, models, params, holdout, prediction, knee, leverage, settings, ab, summary, findings"

func throughputCommand() *cli.Command {
	return &cli.Command{
		Name:      "throughput",
		Usage:     "throughput vs size, settings or configurations (tables, benchmark output)",
		ArgsUsage: "FILE|FOLDER...",
		Description: `Reads result tables (CSV, TSV, semicolon, markdown, aligned text, or the markdown and
tab-separated tables inside an article) or benchmark output (pgbench, sysbench, HammerDB,
go test -bench, fbdiag bench run result files), and answers one of four questions, chosen
from the input or with --mode:

  degradation  throughput against database size (x has a size unit: size_gb, db_bytes,
               "10 GB"; or is named size/scale/warehouses): linear, log-linear and power
               fits with R², loss per doubling, a leave-last-out check on the largest
               size, a prediction (--predict SIZE; by default at twice the largest size)
               and the cliff test (--knee SIZE, e.g. the RAM; by default where the sizes
               jump 4× or more with two sizes on each side): a cliff is a significant
               step (p <= 0.05) for the worse of at least 10% of the trend; a size with
               leverage above 0.5 (one far point that fixes the curves) is named
  sweep        throughput against a setting (page buffers, clients): best setting per
               series, spread, settings not told apart from the best
  ab           throughput of named configurations (the x column holds names, or runs
               without a size): each against the first, the baseline: ratio = other /
               baseline, change = (other − baseline) / baseline, faster or slower;
               with repeated runs, medians and a Mann-Whitney test
  load         load speed (MiB/s) from a size and a load time column, and whether it
               changes with size (a time named as a latency, latency_ms or p95_ms, is
               not a load time: a size with a latency is a degradation)

Sizes are binary, as Firebird counts them: GB means GiB (1024 MiB), TB TiB; fbdiag
prints them with IEC units (16.0 GiB, 2.00 TiB).

Columns are chosen by name or 1-based index (--x size_gb --y ops_per_s); by default x is
the first size column (else the first column of names, else the first number that is not
a row counter; clients, threads, connections or workers at 1, 2, 3... count as a setting)
and y every throughput column (tps, ops/s, points, NOPM, score...), each a series.
--series names more y columns, or a column whose values split rows into series.
--input-table N picks one table of a file holding several (by default the largest).
Several result tables are one experiment when their x measures the same thing (sizes in any
unit, one setting, clients or threads): each a series. A table of another experiment than
the first input's (a page-buffer sweep beside a degradation, a second load table) is left
out with a notice; fbdiag report gives each file its own section.
A y column of times (latency_ms, restore_s) is lower-is-better: its best is its lowest and
its loss per doubling is how much it rises. Series of different units (tps and qps, tps and
latency_ms) get a chart each, and series of very different scale a panel each.
Benchmark runs become one point each: x from a key=value line in the file (db_bytes=,
scale=), a Go "key: value" line or sub-benchmark, or the file name (pgbench-scale10.txt),
when its value differs between the runs (else name the setting that does: --x clients).
A fbdiag bench run result is one run of tpmC with db_bytes, warehouses, terminals and
page_buffers as its settings, compared by the one their sweep varied (the size when the
warehouses differ, else the page buffers or the terminals); the table of fbdiag bench sweep
is a result table.

Text shows the first 20 measurements (--all shows every one). CSV writes one table,
--table NAME: points (the default), series, models, params, holdout, prediction, knee,
leverage, settings, ab or summary, as the mode has them, and findings (its header row
alone: the verdicts are in the tables).

Examples:
  fbdiag throughput --knee 16GB --predict 2TB degradation-throughput-sata.csv
  fbdiag throughput --input-table 1 article.txt
  fbdiag throughput --format csv --table models degradation-throughput-sata.csv
  fbdiag throughput --format json pgbench-scales/*.txt
  fbdiag throughput pgbench-scales/     (a folder: its result files, run2 before run10)`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "x column (name or 1-based index); for runs, a config key"},
			&cli.StringFlag{Name: "y", Usage: "y column(s), comma-separated; for runs, a metric"},
			&cli.StringSliceFlag{Name: "series", Usage: "more y columns, or a column naming the series of each row"},
			&cli.StringFlag{Name: "mode", Usage: "degradation, sweep, ab or load (default: from the input)"},
			&cli.IntFlag{Name: "input-table", Usage: "table `N` (1-based) of a file of several", DefaultText: "the largest"},
			&cli.StringFlag{Name: "predict", Usage: "predict the throughput at this `SIZE` (2TB; GB means GiB)"},
			&cli.StringFlag{Name: "knee", Usage: "test for a cliff at this `SIZE` (16GB: the RAM)"},
			&cli.StringFlag{Name: "noise", Usage: "sweep noise for single runs, a percentage: 2% (the default)"},
			tableFlag("points (default), series, models, ab..."),
			&cli.BoolFlag{Name: "all", Usage: "show every measurement in text and markdown"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, csv or markdown"},
		}, chartFlags()...),
		Action: func(c *cli.Context) error {
			o, err := throughputFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runThroughput(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// throughputOptions is what fbdiag throughput was asked for.
type throughputOptions struct {
	files    []string
	analysis analyze.Options
	// json is --format json (the analysis itself); else format is the
	// view's format.
	json   bool
	format view.Format
	view   view.Options
	png    pngRequest
	// given holds --predict and --knee as typed, for the messages.
	given map[string]string
}

// throughputFlags reads the command line into options; every mistake in
// it is a usage error, found before any input is read.
func throughputFlags(c *cli.Context) (throughputOptions, error) {
	o := throughputOptions{files: c.Args().Slice(), given: map[string]string{}}
	var err error
	if o.json, o.format, err = viewFormat(c, false); err != nil {
		return o, err
	}
	if len(o.files) == 0 {
		return o, usagef("throughput: give one file or more (- for standard input)")
	}
	if err := stdinOnce("throughput", o.files); err != nil {
		return o, err
	}
	a := analyze.Options{Mode: c.String("mode"), X: c.String("x"), Y: c.String("y"), Series: c.StringSlice("series"),
		Table: c.Int("input-table")}
	switch a.Mode {
	case "", analyze.ModeDegradation, analyze.ModeSweep, analyze.ModeAB, analyze.ModeLoad:
	default:
		return o, usagef("--mode %q: want degradation, sweep, ab or load", a.Mode)
	}
	if a.Table < 0 {
		return o, usagef("--input-table %d: tables are counted from 1", a.Table)
	}
	if s := c.String("noise"); s != "" {
		v, ok := parse.ParseNumber(s, false)
		if !ok || v <= 0 {
			return o, usagef("--noise %q: want a percentage such as 2%%", s)
		}
		// A percentage: "2%", or "2" read as 2 %. A bare number under 1
		// was read as a fraction, so that --noise 1 was 1 % and --noise
		// 0.99 was 99 %, every setting then "within noise" of the best:
		// it is refused, the two readings named.
		pct := strings.HasSuffix(strings.TrimSpace(s), "%")
		if !pct && v < 1 {
			return o, usagef("--noise %q: a percentage, give its %% sign: %g%% (or %g%%, the fraction %s)", s, v, v*100, s)
		}
		if v /= 100; v >= 1 {
			return o, usagef("--noise %q: want a percentage under 100%%, such as 2%%", s)
		}
		a.Noise = v
	}
	for _, f := range []struct {
		flag string
		at   *analyze.At
	}{{"predict", &a.Predict}, {"knee", &a.Knee}} {
		s := c.String(f.flag)
		at, err := analyze.ParseAt(s)
		if err != nil {
			return o, usagef("--%s: %v", f.flag, err)
		}
		*f.at, o.given[f.flag] = at, s
	}
	o.analysis = a
	o.view = view.Options{All: c.Bool("all"), MoreHint: " (--all shows them)", Table: c.String("table")}
	if t := o.view.Table; t != "" {
		if _, err := strconv.Atoi(t); err == nil {
			return o, usagef("--table %q: --table names the CSV table to write (%s); --input-table N picks a table of the input", t, throughputTables)
		}
		if o.format != view.CSV {
			return o, usagef("--table %q: names the one table of CSV output (--format csv)", t)
		}
	}
	if o.png, err = pngOptions(c); err != nil {
		return o, err
	}
	return o, nil
}

// runThroughput reads the inputs, analyses them and writes the result.
func runThroughput(o throughputOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	names, err := throughputFiles(o.files, stderr)
	if err != nil {
		return err
	}
	var in analyze.Input
	var skipped []parse.Notice // inputs read and left out whole
	for _, name := range names {
		rc, shown, err := openArg(stdin, name)
		if err != nil {
			return err
		}
		if err := refuseKind(rc, shown, "throughput", parse.InputGstat, parse.InputGbak); err != nil {
			// An article can hold its result tables and a gbak excerpt:
			// its tables are read, and the rest left to its command.
			others, ok := tablesBeside(name)
			if !ok {
				rc.Close()
				return err
			}
			for _, p := range others {
				in.Notices = append(in.Notices, parse.Notice{File: shown, Line: p.First,
					Msg: fmt.Sprintf("%s output (lines %d–%d) left out: 'fbdiag %s' reads it", p.Kind, p.First, p.Last, p.Kind)})
			}
		}
		tables, runs, notes, err := parse.ReadThroughput(rc, shown)
		rc.Close()
		if err != nil {
			return err
		}
		if len(tables) == 0 && len(runs) == 0 {
			// A result that was read and left out says why (a bench run
			// interrupted in its warm-up has no tpmC): "no table and no
			// benchmark result found" denied it was one.
			if len(notes) == 0 {
				return fmt.Errorf("%s: no table and no benchmark result found", shown)
			}
			skipped = append(skipped, notes[0])
		}
		in.Tables = append(in.Tables, tables...)
		in.Runs = append(in.Runs, runs...)
		in.Notices = append(in.Notices, notes...)
	}
	if len(in.Tables) == 0 && len(in.Runs) == 0 && len(skipped) > 0 {
		return fmt.Errorf("%v; nothing else to analyse", skipped[0])
	}
	res, err := analyze.Throughput(in, o.analysis)
	if err != nil {
		// What the readers said (file:line) comes before why nothing is
		// analysed: the lines left out may be the reason.
		report.WriteNotices(stderr, "", in.Notices)
		return throughputError(err, o)
	}
	name := chartName(o.files)
	if len(o.files) > 1 && len(res.Inputs) > 0 && len(res.Inputs) < len(o.files) {
		name = chartName(res.Inputs) // (files of another experiment were left out)
	}
	doc := view.Throughput(res, name)
	charts := func() ([]*plot.Chart, error) { return doc.Charts, chartNotes(doc.Notes) }
	if o.json {
		if err := report.WriteJSON(stdout, res); err != nil {
			return err
		}
		return o.png.writeTo(stderr, charts)
	}
	// file:line: first, as gstat and gbak print them, for editors and CI logs.
	report.WriteNotices(stderr, "", res.Notices)
	if o.format == view.CSV {
		// The one CSV table has no room for them; text and markdown
		// print them under the tables.
		for _, n := range doc.Notes {
			fmt.Fprintln(stderr, "fbdiag: warning:", n)
		}
	}
	if err := view.Write(stdout, o.format, o.view, doc); err != nil {
		return viewErr(err)
	}
	return o.png.writeTo(stderr, charts)
}

// throughputError words an analysis error for the command line: what the
// options asked for and the input does not have is a usage error naming
// the flag.
func throughputError(err error, o throughputOptions) error {
	var oe *analyze.OptionError
	if errors.As(err, &oe) {
		flag := map[string]string{
			analyze.OptionX: "x", analyze.OptionY: "y", analyze.OptionSeries: "series",
			analyze.OptionTable: "input-table", analyze.OptionPredict: "predict", analyze.OptionKnee: "knee",
		}[oe.Option]
		if flag == "" {
			flag = oe.Option
		}
		v := oe.Value
		if s, ok := o.given[flag]; ok {
			v = s
		}
		return usagef("--%s %q: %s", flag, v, oe.Msg)
	}
	if errors.Is(err, analyze.ErrNoColumn) {
		return fmt.Errorf("%w; --x and --y name the columns", err)
	}
	return err
}

// throughputFiles expands folders into the result files they hold (walked
// as 'fbdiag report' walks them: natural order, hidden entries skipped), so
// that a folder of pgbench runs is one argument. Files of other kinds in
// a folder (a gstat output, a README) are skipped with a line on stderr;
// files named one by one are left for the readers to judge.
func throughputFiles(args []string, stderr io.Writer) ([]string, error) {
	var names []string
	var walk report.InputWalker // (a file two folders bring is read once)
	// A file named twice, or a folder and a file in it, is read once: its
	// runs counted twice (pgbench-scales and pgbench-scales/…-scale1.txt
	// read "7 runs at 6 sizes", one file alone "median of 2 runs").
	var read seenFiles
	add := func(name string) {
		if first, again := read.again(name); again {
			fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: the same file as %s, read once\n", name, first)
			return
		}
		names = append(names, name)
	}
	for _, a := range args {
		if a == "-" {
			names = append(names, a)
			continue
		}
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			add(a)
			continue
		}
		again := walk.Again
		ins, notes, errs := walk.Inputs([]string{a})
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		for _, n := range notes {
			fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s\n", n)
		}
		found := 0
		for i, f := range ins {
			if f.Part != nil {
				// A part is no file to name; the file holds other kinds.
				if i == 0 || ins[i-1].File != f.File {
					fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: holds several kinds ('fbdiag report' reads its parts)\n", f.File)
				}
				continue
			}
			switch f.Kind {
			case parse.InputThroughput, parse.InputBenchmark, parse.InputBenchRun:
				add(f.Name)
				found++
			case parse.InputUnknown:
				fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: not a result table or benchmark output\n", f.Name)
			default:
				fmt.Fprintf(stderr, "fbdiag: throughput: skipped %s: %s output\n", f.Name, f.Kind)
			}
		}
		if found == 0 && walk.Again == again {
			return nil, fmt.Errorf("%s: no result table or benchmark output in this folder", a)
		}
	}
	return names, nil
}

// seenFiles are the regular files a command read (throughput, gstat
// trend), by the names they were given: a file named twice, or a folder
// and a file in it, is read once.
type seenFiles []struct {
	name string
	info os.FileInfo
}

// again reports whether name is a file read before, under the name
// first; else it is noted as read. Standard input and what cannot be
// stated are never again (their reader says what is wrong).
func (s *seenFiles) again(name string) (first string, again bool) {
	st, err := os.Stat(name)
	if name == "-" || err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	for _, r := range *s {
		if os.SameFile(r.info, st) {
			return r.name, true
		}
	}
	*s = append(*s, struct {
		name string
		info os.FileInfo
	}{name, st})
	return "", false
}

// chartNotes is the error of the charts a view could not draw, from its
// "chart not drawn: …" notes, for --png to say why nothing was written.
func chartNotes(notes []string) error {
	var errs []error
	for _, n := range notes {
		if why, ok := strings.CutPrefix(n, "chart not drawn: "); ok {
			errs = append(errs, errors.New(why))
		}
	}
	return errors.Join(errs...)
}
