package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	fbdiag "github.com/fbdiag/fbdiag"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

// defaultReportDir is where `fbdiag report` writes without --out.
const defaultReportDir = "fbdiag-report"

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write one self-contained HTML report with charts for all inputs",
		ArgsUsage: "[INPUT|FOLDER|-]...",
		Description: `Each input's kind (gstat, gbak log, throughput table, benchmark output,
fbdiag bench run result) is recognised from its content, not its name; folders are
walked. The report is DIR/index.html plus one PNG per chart. An index.html that
fbdiag did not write is never overwritten.

With no input, the report is made from the embedded sample (Firebird 3.0.11
gstat and gbak outputs, the seed articles' tables and a fbdiag bench run).`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: defaultReportDir, Usage: "report folder"},
			&cli.StringFlag{Name: "title", Usage: "report title"},
		}, pngFlags()...),
		Action: reportAction,
	}
}

// pngFlags size the charts; every command that writes PNGs shares them.
func pngFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "width", Value: plot.DefaultWidth, Usage: "chart width in pixels"},
		&cli.IntFlag{Name: "height", Value: plot.DefaultHeight, Usage: "chart height in pixels"},
		&cli.IntFlag{Name: "dpi", Value: plot.DefaultDPI, Usage: "chart resolution (scales text and lines)"},
	}
}

// chartOptions reads the --width, --height and --dpi flags.
func chartOptions(c *cli.Context) (plot.Options, error) {
	o := plot.Options{Width: c.Int("width"), Height: c.Int("height"), DPI: c.Int("dpi")}
	if o.Width < 200 || o.Height < 150 || o.Width > 8000 || o.Height > 8000 {
		return o, usagef("chart size %dx%d: want 200x150 to 8000x8000 pixels", o.Width, o.Height)
	}
	if o.DPI < 50 || o.DPI > 600 {
		return o, usagef("--dpi %d: want 50 to 600", o.DPI)
	}
	return o, nil
}

func reportAction(c *cli.Context) error {
	o, err := chartOptions(c)
	if err != nil {
		return err
	}
	if err := checkOutDir("--out", c.String("out")); err != nil {
		return err
	}
	return runReport(c, c.Args().Slice(), c.String("title"), c.String("out"), o)
}

// runReport reads the inputs named in args (the embedded sample when
// none) and writes the report to dir.
func runReport(c *cli.Context, args []string, title, dir string, o plot.Options) error {
	e := getEnv(c)
	var ins []report.Input
	var err error
	unreadable := 0
	if len(args) == 0 {
		ins, err = report.FSInputs(fbdiag.Samples, "testdata")
		if err != nil {
			return err
		}
		if title == "" {
			title = "fbdiag report: embedded sample"
		}
	} else {
		var errs []error
		var remove func()
		if err := stdinOnce("report", args); err != nil {
			return err
		}
		ins, _, errs, remove, err = namedInputs(e.stdin, args)
		if err != nil {
			return err
		}
		defer remove()
		for _, err := range errs {
			fmt.Fprintln(e.stderr, "fbdiag: report:", err)
		}
		unreadable = len(errs)
		if len(ins) == 0 {
			return cli.Exit("report: no readable input in "+strings.Join(args, ", "), exitError)
		}
		if skip := report.Unanalysable(ins); len(skip) == len(ins) {
			// A report saying only "not analysed" is no report.
			return cli.Exit("report: nothing to analyse: "+joinSkipped(skip), exitError)
		}
	}
	if title == "" {
		title = "fbdiag report"
	}
	if err := writeReport(c, ins, title, dir, o); err != nil {
		return err
	}
	if unreadable > 0 {
		// The report is written without them; the exit status says so.
		return cli.Exit("", exitError)
	}
	return nil
}

// writeReport builds, renders and writes the report, then prints where it
// is and what it found.
func writeReport(c *cli.Context, ins []report.Input, title, dir string, o plot.Options) error {
	e := getEnv(c)
	r := report.Build(title, "fbdiag "+version, ins)
	skipped := map[string]bool{}
	for _, s := range r.Skipped {
		skipped[s.Name] = true
	}
	if len(skipped) == len(ins) {
		// Every reader failed (a table without an x column, …).
		return cli.Exit("report: nothing to analyse: "+joinSkipped(r.Skipped), exitError)
	}
	stop := removeTempOnSignal()
	index, err := report.WriteDir(dir, r, o)
	stop()
	if err != nil {
		if errors.Is(err, report.ErrNotOurs) {
			return cli.Exit("report: "+err.Error(), exitError)
		}
		return err
	}
	crit, warn := 0, 0
	for _, f := range r.Summary {
		switch f.Severity {
		case "critical":
			crit++
		case "warning":
			warn++
		}
	}
	abs, err := filepath.Abs(index)
	if err != nil {
		abs = index
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", abs)
	fmt.Fprintf(e.stdout, "%s, %s, %s; %d critical, %s\n",
		plural(len(ins), "input"), plural(len(r.Sections), "section"), plural(len(r.Figures()), "chart"),
		crit, plural(warn, "warning"))
	for _, s := range r.Skipped {
		fmt.Fprintf(e.stderr, "fbdiag: report: %s: not analysed: %s\n", s.Name, s.Why)
	}
	for i, f := range r.Summary {
		if i == 5 {
			fmt.Fprintf(e.stdout, "  … %d more in the report\n", len(r.Summary)-5)
			break
		}
		// One line each, within a 100-column terminal.
		fmt.Fprintf(e.stdout, "  %-8s %s\n", f.Severity, plot.Ellipsis(f.Text, 88))
	}
	return nil
}

// namedInputs reads the inputs a command line names, in its order: "-"
// is standard input and a pipe or FIFO (<(cmd), mkfifo) is streamed,
// each read once (report.StreamInput); files and folders as
// report.Inputs reads them, which keeps the readable ones and returns
// the others in errs. remove closes the streams.
func namedInputs(stdin io.Reader, args []string) (ins []report.Input, files []string, errs []error, remove func(), err error) {
	remove = func() { report.CloseInputs(ins) }
	for _, a := range args {
		if a != "-" {
			files = append(files, a)
			found, errs2 := report.Inputs([]string{a})
			ins = append(ins, found...)
			errs = append(errs, errs2...)
			continue
		}
		in, err := report.StreamInput("<stdin>", io.NopCloser(stdin))
		if err != nil {
			remove()
			return nil, nil, nil, nil, err
		}
		ins = append(ins, in)
	}
	return ins, files, errs, remove, nil
}

// plural is "1 input", "2 inputs".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// joinSkipped names each skipped input and why, on one line.
func joinSkipped(skip []report.Skip) string {
	var parts []string
	for _, s := range skip {
		parts = append(parts, s.Name+" ("+s.Why+")")
	}
	return strings.Join(parts, ", ")
}
