package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

func gstatTrendCommand() *cli.Command {
	return &cli.Command{
		Name:      "trend",
		Usage:     "growth per table over a series of gstat snapshots, with forecasts",
		UsageText: "fbdiag gstat trend [--format F] [--until SIZE] [--top N] [--all] [--png DIR] SNAPSHOT|DIR ...",
		Description: `Orders gstat snapshots (files, or folders of them) by their "Gstat execution
time" and shows the size of the database (tables plus indices) and of each
table over time, fastest growing first. Each series gets a linear and an
exponential least-squares fit; the one with the higher R² is named. A rate a
day is shown only from sizes an hour or more apart (history-rate.min_span;
the JSON has it always). Snapshots whose size adds up other things (gstat -d
has no indices, -s adds the system tables, -h has no size; another database)
are left out of the sizes and listed with the reason; a Firebird 6 upgrade is
marked as a break.

With --until SIZE (100GB, 512MiB, 2T: GB means GiB, as gstat and Firebird
count, and sizes are shown in the same binary units) each forecasts when the
database and the tables reach SIZE, with the 95% interval of the fit: from 3
comparable snapshots or more (else "refused"), no further past the last one
than the snapshots span (else "unreliable", the date in the JSON with the
reason).

Text shows the 20 fastest growing tables (--top N, --all: every one). CSV is
one table: --table snapshots (the default), tables, left_out, summary or
warnings. --format openmetrics writes the latest snapshot's counters and
time (a gstat -h run's too), the sizes of the latest with sizes (fbdiag_
names as fbdiag gstat writes them, labels database and table) and the rates
a day, for a Prometheus textfile collector.

--png DIR writes the charts history-size.png, history-versions.png and, with
a forecast date, history-forecast.png; a file of those names that fbdiag did
not write is never replaced. A snapshot without an execution time (gstat
before 2.5, cut excerpts) is dated by its file's modification time, said on
stderr; in a folder, files that are not gstat output (a README, the charts),
folders and symbolic links are skipped with a line on stderr.`,
		Flags: append([]cli.Flag{
			metricsFormatFlag(),
			&cli.StringFlag{Name: "until", Usage: "forecast when the database and each table reach `SIZE` (GB means GiB)"},
			&cli.IntFlag{Name: "top", Value: view.HistoryTop, Usage: "show the N fastest growing tables (0 = all)"},
			&cli.BoolFlag{Name: "all", Usage: "show every table (as --top 0)"},
			tableFlag("snapshots (default), tables, left_out, summary or warnings"),
		}, chartFlags()...),
		Action: func(c *cli.Context) error {
			json, f, err := viewFormat(c, true)
			if err != nil {
				return err
			}
			table, err := csvTable(c, f)
			if err != nil {
				return err
			}
			o := gstatTrendOptions{Inputs: c.Args().Slice(), JSON: json, Format: f, Top: c.Int("top"), All: c.Bool("all"), Table: table}
			if o.Top < 0 {
				return usagef("gstat trend: --top must be 0 or more")
			}
			if s := c.String("until"); s != "" {
				if o.Until, err = parseSize(s); err != nil {
					return usagef("gstat trend: --until: %v", err)
				}
			}
			if o.PNG, err = pngOptions(c); err != nil {
				return err
			}
			e := getEnv(c)
			return runGstatTrend(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// gstatTrendOptions are what the command line of gstat trend asks.
type gstatTrendOptions struct {
	// Inputs are gstat files and folders of them.
	Inputs []string
	// JSON writes the analysis (docs/gstat-history-json.md); else Format.
	JSON   bool
	Format view.Format
	// Until is the forecast target in bytes (0: none).
	Until int64
	// Top bounds the tables shown (0: all); All shows every one.
	Top int
	All bool
	// Table is the CSV table ("" the snapshots).
	Table string
	PNG   pngRequest
}

// runGstatTrend reads the snapshots, fits their growth and writes the
// trend, then the charts: a refused chart folder never loses the
// analysis.
func runGstatTrend(o gstatTrendOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(o.Inputs) == 0 {
		return usagef("gstat trend: no snapshots (give gstat files or folders of them)")
	}
	if err := stdinOnce("gstat trend", o.Inputs); err != nil {
		return err
	}
	var snaps []*analyze.HistorySnapshot
	samples := new(analyze.TrendSamples)
	var read seenFiles
	for _, name := range o.Inputs {
		files, folder := []string{name}, false
		if name != "-" {
			if st, err := os.Stat(name); err == nil && st.IsDir() {
				var err error
				var subdirs, others []string
				if files, subdirs, others, err = snapshotFiles(name); err != nil {
					return err
				}
				for _, d := range subdirs {
					fmt.Fprintf(stderr, "skipped: %s: a folder (a folder's snapshots are its files; give this one as an input too)\n", d)
				}
				for _, o := range others {
					fmt.Fprintf(stderr, "skipped: %s\n", o)
				}
				folder = true
			}
		}
		for _, f := range files {
			// A file named twice, or a folder and a file in it, is read
			// once: read twice, it was "skipped: x.txt: the same gstat
			// run as x.txt", a run compared with itself.
			if first, again := read.again(f); again {
				fmt.Fprintf(stderr, "skipped: %s: the same file as %s, read once\n", f, first)
				continue
			}
			s, _, err := readSnapshots(f, stdin, stderr, snapshotRead{samples: samples})
			var ng *notGstatError
			var se *parse.SyntaxError
			if folder && (errors.As(err, &ng) || errors.As(err, &se)) {
				// A folder of snapshots may hold notes, scripts and
				// the charts --png wrote there.
				fmt.Fprintf(stderr, "skipped: %v\n", err)
				continue
			}
			if err != nil {
				return err
			}
			snaps = append(snaps, s...)
		}
	}
	if len(snaps) == 0 {
		return errors.New("gstat trend: no gstat output in the inputs")
	}
	tr := analyze.TrendOf(snaps, o.Until)
	for _, s := range tr.Skipped {
		fmt.Fprintln(stderr, "skipped:", s)
	}
	if o.JSON || o.Format == view.CSV || o.Format == view.OpenMetrics {
		// The human formats print them with the figures.
		for _, w := range tr.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	if o.PNG.dir != "" && len(tr.Snapshots) == 0 {
		return errors.New("gstat trend: no dated snapshot to chart")
	}
	top := o.Top
	if o.All {
		top = 0
	}
	if o.JSON {
		if err := report.WriteJSON(stdout, tr); err != nil {
			return err
		}
	} else {
		doc := view.HistoryTrend(tr, view.HistoryOptions{Top: top})
		hint := " (--all shows them)"
		if err := view.Write(stdout, o.Format, view.Options{All: o.All, MoreHint: hint, Table: o.Table}, doc); err != nil {
			return viewErr(err)
		}
	}
	return o.PNG.writeTo(stderr, func() ([]*plot.Chart, error) { return view.HistoryTrendCharts(tr, top) })
}
