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
			&cli.StringFlag{Name: "title", Usage: "report title (default: fbdiag report: and what it is about)"},
		}, pngFlags()...),
		Action: func(c *cli.Context) error {
			o, err := reportFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runReport(o, e.stdin, e.stdout, e.stderr)
		},
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

// reportOptions is what fbdiag report was asked for.
type reportOptions struct {
	args  []string // the inputs; none: the embedded sample
	title string
	dir   string
	png   plot.Options
}

// reportFlags reads the command line of fbdiag report.
func reportFlags(c *cli.Context) (reportOptions, error) {
	png, err := chartOptions(c)
	if err != nil {
		return reportOptions{}, err
	}
	if err := checkOutDir("--out", c.String("out")); err != nil {
		return reportOptions{}, err
	}
	return reportOptions{args: c.Args().Slice(), title: c.String("title"), dir: c.String("out"), png: png}, nil
}

// runReport reads the inputs (the embedded sample when none) and writes
// the report.
func runReport(o reportOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	var ins []report.Input
	var err error
	title := o.title
	unreadable := 0
	if len(o.args) == 0 {
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
		if err := stdinOnce("report", o.args); err != nil {
			return err
		}
		ins, _, errs, remove, err = namedInputs(stdin, stderr, "report", o.args)
		if err != nil {
			return err
		}
		defer remove()
		hugeHeap(nil, inputFiles(ins), keptHeap)
		for _, err := range errs {
			fmt.Fprintln(stderr, "fbdiag: report:", err)
		}
		unreadable = len(errs)
		if len(ins) == 0 {
			return cli.Exit("report: no readable input in "+strings.Join(o.args, ", "), exitError)
		}
		if skip := report.Unanalysable(ins); len(skip) == len(ins) {
			// A report saying only "not analysed" is no report.
			return cli.Exit("report: nothing to analyse: "+joinSkipped(skip), exitError)
		}
	}
	// (without --title, the report names its database: report.Build)
	if err := writeReport(stdout, stderr, ins, title, o.dir, o.png); err != nil {
		return err
	}
	if unreadable > 0 {
		// The report is written without them; the exit status says so.
		return cli.Exit("", exitError)
	}
	return nil
}

// writeReport builds and writes the report, then says where it is and
// what it found (report.WriteDone, WriteTopFindings).
func writeReport(stdout, stderr io.Writer, ins []report.Input, title, dir string, o plot.Options) error {
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
	abs, err := filepath.Abs(index)
	if err != nil {
		abs = index
	}
	report.WriteDone(stdout, abs, len(ins), r)
	for _, s := range r.Skipped {
		fmt.Fprintf(stderr, "fbdiag: report: %s: not analysed: %s\n", s.Name, s.Why)
	}
	report.WriteTopFindings(stdout, r)
	return nil
}

// namedInputs reads the inputs a command line names, in its order: "-"
// is standard input and a pipe or FIFO (<(cmd), mkfifo) is streamed,
// each read once (report.StreamInput); files and folders as
// report.Inputs reads them, which keeps the readable ones and returns
// the others in errs; the entries of a folder it leaves out on purpose
// (a link to a folder, a pipe) are named on stderr, "fbdiag: COMMAND:
// skipped …". remove closes the streams.
func namedInputs(stdin io.Reader, stderr io.Writer, command string, args []string) (ins []report.Input, files []string, errs []error, remove func(), err error) {
	remove = func() { report.CloseInputs(ins) }
	var walk report.InputWalker // (a file two arguments bring is read once)
	for _, a := range args {
		if a != "-" {
			files = append(files, a)
			found, notes, errs2 := walk.Inputs([]string{a})
			for _, n := range notes {
				fmt.Fprintf(stderr, "fbdiag: %s: skipped %s\n", command, n)
			}
			ins = append(ins, found...)
			errs = append(errs, errs2...)
			continue
		}
		parts, err := report.StreamInput("<stdin>", io.NopCloser(stdin))
		if err != nil {
			remove()
			return nil, nil, nil, nil, err
		}
		ins = append(ins, parts...)
	}
	return ins, files, errs, remove, nil
}

// inputFiles is the files ins are read from, each once (the parts of a
// file share it; a folder's files are its inputs).
func inputFiles(ins []report.Input) []string {
	var files []string
	seen := map[string]bool{}
	for _, in := range ins {
		if f := in.Source(); !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	return files
}

// joinSkipped names each skipped input and why, on one line.
func joinSkipped(skip []report.Skip) string {
	var parts []string
	for _, s := range skip {
		parts = append(parts, s.Name+" ("+s.Why+")")
	}
	return strings.Join(parts, ", ")
}
