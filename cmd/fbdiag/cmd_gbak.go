package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/labels"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

const gbakHowTo = `Produce the log with verbose output and statistics (Firebird 2.5.5 and later):

  gbak -c -v -st tdrw -y restore.log backup.fbk /data/db.fdb        (restore)
  gbak -b -v -st tdrw -y backup.log /data/db.fdb backup.fbk         (backup)
  fbsvcmgr host:service_mgr action_restore bkp_file backup.fbk \
      dbname /data/db.fdb res_stat tdrw verbose > restore.log
  fbsvcmgr host:service_mgr action_backup dbname /data/db.fdb \
      bkp_file backup.fbk bkp_stat tdrw verbose > backup.log

Put user and password in ISC_USER / ISC_PASSWORD, not on the command line.
Logs without -st, excerpts without the header line, UTF-16 files written
by PowerShell and 3.0.11/4.0.4/5.0.0 logs with wrapped counters (#8027) are
read too; what was guessed or repaired is reported on stderr as file:line.
When several runs were appended to one file, the first is analysed and a
notice says where the next starts.

gbak prints a step's message before doing the work, so the time and page
I/O on a line belong to the step on the line before: fbdiag charges each
step with the interval from its own line to the next. Four messages come
after the work and their own line is their cost: "created database" (the
creation), "started transaction" (restore), the backup's "readied
database" (the attachment) and its "closing file, committing, and
finishing" (the flush and close of the .fbk, then the commit); so does
a restore's "N records ignored", a table skipped (-skip_data, -m) that
gbak names only since 6.0. The last step's cost is unknown unless a line
follows it.`

func gbakCommand() *cli.Command {
	return &cli.Command{
		Name:  "gbak",
		Usage: "where a gbak backup or restore spends its time",
		UsageText: "fbdiag gbak [--format text|json|csv|markdown] [--top N] [--all] [--table NAME]\n" +
			"       [--fail-on failed] [--png DIR] LOG|-",
		Description: "Reads a gbak verbose log and reports the outcome, the phases, each table's\n" +
			"data (records, time, records/s, page I/O), each index build and every step,\n" +
			"the slowest first (--top of them in text and markdown, --all for all), and\n" +
			"gbak's errors and warnings (the first 100 in text and markdown).\n" +
			"Durations read 12.345 s under a minute, h:mm:ss above. CSV is one table:\n" +
			"--table steps (the default), phases, tables, indices, summary or findings.\n\n" +
			"--fail-on failed exits with status 3 when the outcome is failed (an error,\n" +
			"an index that could not be activated, a database left offline) or incomplete\n" +
			"(the log ends before gbak's closing line: a killed server, a cut log), after\n" +
			"printing the analysis: for a nightly restore check.\n" +
			"  fbdiag gbak --fail-on failed restore.log || mail -s 'restore failed' dba\n\n" + gbakHowTo,
		Flags: append([]cli.Flag{formatFlag(), topFlag(), allFlag(), tableFlag("steps, phases, tables, indices, summary, findings"),
			&cli.StringFlag{
				Name:  "fail-on",
				Usage: "exit 3 when the outcome is `failed` or incomplete (the only value)",
			}}, chartFlags()...),
		Action: func(c *cli.Context) error {
			o, err := gbakFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runGbak(o, e.stdin, e.stdout, e.stderr)
		},
		Subcommands: []*cli.Command{{
			Name:  "compare",
			Usage: "compare gbak runs step by step",
			UsageText: "fbdiag gbak compare [--format …] [--top N] [--all] [--table NAME] [--base LABEL]\n" +
				"       [--png DIR] [--label NAME=FILE …] A.log B.log [more…]",
			Description: "Matches the steps of two or more logs by kind and object name (a step that\n" +
				"names a file or a database, such as \"created database\", matches whatever\n" +
				"the path) and sets their times side by side. The first log (or the side\n" +
				"--base names) is the baseline: ratio = other / baseline, change =\n" +
				"(other − baseline) / baseline, and each step says slower or faster. Each\n" +
				"positional file is one run labelled by the part of its name that differs\n" +
				"from the others' (deep-A.log and deep-B.log: A and B); numbered runs\n" +
				"(remote-run1.log … remote-run5.log, service-run1.log …) are the repeats of\n" +
				"their side (remote, service). --label NAME=FILE (repeated) groups runs\n" +
				"under one label as well: each side is then\n" +
				"summarised by its median and compared with a Mann-Whitney U test\n" +
				"(alpha 0.05; with fewer than 4 runs per side no difference can be shown,\n" +
				"and the output says so); ~ marks a difference the test does not find\n" +
				"significant. The p of the steps are adjusted for their number\n" +
				"(Benjamini-Hochberg: p_adj); the totals are not. A side of several runs\n" +
				"shows its range (fastest-slowest run) and, from 6 runs, the 95% interval\n" +
				"of its median. An incomplete log (an excerpt) has no total: its last\n" +
				"timestamp is shown as such. CSV is one table: --table steps (the\n" +
				"default), totals, runs, ranges, only, summary or findings.\n\n" + gbakHowTo,
			Flags: append([]cli.Flag{formatFlag(), topFlag(), allFlag(), tableFlag("steps, totals, runs, ranges, only, summary, findings"),
				&cli.GenericFlag{
					Name:  "label",
					Usage: "NAME=FILE: a run of the side NAME (repeat for more runs and sides)",
					Value: &labelList{},
				},
				&cli.StringFlag{Name: "base", Usage: "`LABEL` of the side the others are compared with (default: the first)"},
			}, chartFlags()...),
			Action: func(c *cli.Context) error {
				o, err := gbakCompareFlags(c)
				if err != nil {
					return err
				}
				e := getEnv(c)
				return runGbakCompare(o, e.stdin, e.stdout, e.stderr)
			},
		}},
	}
}

func topFlag() *cli.IntFlag {
	return &cli.IntFlag{Name: "top", Value: view.GbakTop, Usage: "number of slowest steps to show (text, markdown)"}
}

func allFlag() *cli.BoolFlag {
	return &cli.BoolFlag{Name: "all", Usage: "show every row of every table (text, markdown)"}
}

// labelList collects repeated --label NAME=FILE values; file names may
// contain commas, so the flag is not a comma-split string slice.
type labelList struct{ runs [][2]string }

func (l *labelList) Set(v string) error {
	name, file, ok := strings.Cut(v, "=")
	if !ok || name == "" || file == "" {
		return fmt.Errorf("--label wants NAME=FILE, got %q", v)
	}
	l.runs = append(l.runs, [2]string{name, file})
	return nil
}

func (l *labelList) String() string {
	var s []string
	for _, r := range l.runs {
		s = append(s, r[0]+"="+r[1])
	}
	return strings.Join(s, " ")
}

func gbakTop(c *cli.Context) (int, error) {
	n := c.Int("top")
	if n < 1 {
		// backup and restore have no --all: their hint named a flag
		// they refuse.
		all := ""
		if slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "all") }) {
			all = " (--all shows every step)"
		}
		return 0, usagef("--top must be 1 or more%s, got %d", all, n)
	}
	return n, nil
}

// gbakOutput is how a gbak analysis is written: JSON (the analysis, the
// contract of docs/gbak-json.md) or a view format with its options.
type gbakOutput struct {
	json   bool
	format view.Format
	opt    view.Options
	top    int
}

// gbakOutputFlags reads --format, --top, --all and --table.
func gbakOutputFlags(c *cli.Context) (gbakOutput, error) {
	var o gbakOutput
	var err error
	if o.json, o.format, err = viewFormat(c, false); err != nil {
		return o, err
	}
	top, err := gbakTop(c)
	if err != nil {
		return o, err
	}
	o.top = top
	o.opt = view.Options{All: c.Bool("all"), Table: c.String("table"), MoreHint: " (--all shows them)"}
	if o.opt.Table != "" && o.format != view.CSV {
		return o, usagef("--table chooses the table of --format csv")
	}
	return o, nil
}

// write writes the analysis v as JSON, or its document d in the format;
// an unknown --table is a usage error that lists the valid names.
func (o gbakOutput) write(w io.Writer, v any, d func() *view.Doc) error {
	if o.json {
		return report.WriteJSON(w, v)
	}
	return viewErr(view.Write(w, o.format, o.opt, d()))
}

// gbakOpts are the choices of `fbdiag gbak`.
type gbakOpts struct {
	out    gbakOutput
	file   string
	failOn bool
	png    pngRequest
}

func gbakFlags(c *cli.Context) (gbakOpts, error) {
	out, err := gbakOutputFlags(c)
	if err != nil {
		return gbakOpts{}, err
	}
	if c.Args().Len() != 1 {
		return gbakOpts{}, usagef("gbak wants one log file (or - for standard input), got %d", c.Args().Len())
	}
	if f := c.String("fail-on"); f != "" && f != "failed" {
		return gbakOpts{}, usagef("gbak: --fail-on %q: want failed (a failed or incomplete run)", f)
	}
	png, err := pngOptions(c)
	if err != nil {
		return gbakOpts{}, err
	}
	return gbakOpts{out: out, file: c.Args().First(), failOn: c.String("fail-on") != "", png: png}, nil
}

// runGbak analyses one log and writes it, its charts with --png, and
// fails with --fail-on when the run did not complete.
func runGbak(o gbakOpts, stdin io.Reader, stdout, stderr io.Writer) error {
	// The log is streamed: JSON is written as it is read, the other
	// formats keep the rows they show (text and markdown the slowest
	// steps and the first tables and indices, CSV every row of its one
	// table) and --png the chart's bars.
	var k *view.GbakKeeper
	if o.out.json {
		k = view.NewGbakKeeper(0, 0).WithMessages(0)
	} else {
		k = o.out.keeper()
	}
	if o.png.dir != "" {
		k.WithChart()
	}
	var tl *analyze.Timeline
	var err error
	switch {
	case o.out.json && o.png.dir == "":
		tl, err = streamGbakJSON(stdin, stdout, stderr, o.file, analyze.GbakStream{})
	case o.out.json:
		tl, err = streamGbakJSON(stdin, stdout, stderr, o.file, k.Stream())
	default:
		tl, err = streamGbakTimeline(stdin, stderr, o.file, k.Stream())
	}
	if err != nil {
		return err
	}
	var d *view.Doc
	kept := k.Kept()
	if !o.out.json || o.png.dir != "" {
		d = view.Gbak(tl, view.GbakOptions{Top: o.out.top, Kept: kept})
	}
	if !o.out.json {
		if err := viewErr(view.Write(stdout, o.out.format, o.out.opt, d)); err != nil {
			return err
		}
		if err := kept.Err(); err != nil {
			return fmt.Errorf("sorting the steps: %w", err)
		}
	}
	if o.png.dir != "" {
		if err := o.png.emit(stderr, d.Charts, nil); err != nil {
			return err
		}
	}
	if o.failOn && tl.Outcome != analyze.GbakCompleted {
		kind := "run"
		if tl.Kind != nil {
			kind = *tl.Kind
		}
		if tl.Outcome == analyze.GbakFailed {
			return &failOnError{msg: fmt.Sprintf("gbak: the %s failed", kind)}
		}
		return &failOnError{msg: fmt.Sprintf("gbak: the %s is incomplete: the log ends before gbak's closing line", kind)}
	}
	return nil
}

// keeper keeps what the view of the output shows (keepLimits); CSV's
// steps wait on disk (it reads them once).
func (o gbakOutput) keeper() *view.GbakKeeper {
	steps, list, messages := o.keepLimits()
	k := view.NewGbakKeeper(steps, list).WithMessages(messages)
	if o.format == view.CSV {
		k.StepsOnDisk()
	}
	return k
}

// keepLimits are the steps, the tables and indices, and the errors and
// warnings (-1: all) the view of the output shows (view.NewGbakKeeper,
// GbakKeeper.WithMessages). CSV has every row of its one table, --all
// or not.
func (o gbakOutput) keepLimits() (steps, list, messages int) {
	if o.format != view.CSV {
		if o.opt.All {
			return -1, -1, -1
		}
		return o.top, view.GbakListTop, view.GbakFindingsTop
	}
	switch o.opt.Table {
	case "", "steps":
		return -1, 0, 0
	case "tables", "indices":
		return 0, -1, 0
	case "findings":
		return 0, 0, -1
	}
	return 0, 0, 0 // phases, summary
}

// readGbakLog opens one log, reads it with read (a reader of the
// analyze or report package) and prints the reader's notices on stderr.
func readGbakLog(stdin io.Reader, stderr io.Writer, name string, read func(io.Reader, string) (*analyze.Timeline, error)) (*analyze.Timeline, error) {
	in, shown, err := openArg(stdin, name)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	tl, err := read(in, shown)
	var se *parse.SyntaxError
	if errors.As(err, &se) && strings.HasPrefix(se.Msg, "no gbak output found") {
		// A gstat output or a result table: which command reads it,
		// without a notice of its lines skipped.
		if other := otherKind(in, shown, "gbak"); other != nil {
			return nil, other
		}
	}
	if tl != nil {
		report.WriteNotices(stderr, "", tl.Notices)
	}
	return tl, err
}

// streamGbakTimeline reads one log, handing its steps, tables and indices
// to s (analyze.StreamGbakTimeline), and prints the reader's notices on
// stderr.
func streamGbakTimeline(stdin io.Reader, stderr io.Writer, name string, s analyze.GbakStream) (*analyze.Timeline, error) {
	return readGbakLog(stdin, stderr, name, func(in io.Reader, shown string) (*analyze.Timeline, error) {
		return analyze.StreamGbakTimeline(in, shown, s)
	})
}

// streamGbakJSON writes the JSON of one log as it is read, handing its
// steps, tables and indices to also too, and prints the reader's notices
// on stderr.
func streamGbakJSON(stdin io.Reader, stdout, stderr io.Writer, name string, also analyze.GbakStream) (*analyze.Timeline, error) {
	return readGbakLog(stdin, stderr, name, func(in io.Reader, shown string) (*analyze.Timeline, error) {
		return report.WriteGbakJSON(stdout, in, shown, also)
	})
}

// gbakCompareOpts are the choices of `fbdiag gbak compare`.
type gbakCompareOpts struct {
	out gbakOutput
	// runs are the label and the file of each run, --label ones first.
	runs [][2]string
	base string
	png  pngRequest
}

func gbakCompareFlags(c *cli.Context) (gbakCompareOpts, error) {
	out, err := gbakOutputFlags(c)
	if err != nil {
		return gbakCompareOpts{}, err
	}
	var runs [][2]string
	if l, ok := c.Generic("label").(*labelList); ok && l != nil {
		runs = append(runs, l.runs...)
	}
	// Each positional file is a run of its own, labelled by what sets its
	// name apart from the other positional files; numbered runs
	// (remote-run1 … remote-run5, service-run1 …) are the repeats of
	// their side, as --label would make them.
	pos := c.Args().Slice()
	ls := labels.Distinct(pos)
	if len(runs) == 0 {
		ls = labels.Repeats(ls)
	}
	for i, l := range ls {
		runs = append(runs, [2]string{l, pos[i]})
	}
	if len(runs) < 2 {
		return gbakCompareOpts{}, usagef("gbak compare wants at least two logs, got %d", len(runs))
	}
	sides := map[string]bool{}
	stdin := 0
	for _, r := range runs {
		sides[r[0]] = true
		if r[1] == "-" {
			if stdin++; stdin > 1 {
				return gbakCompareOpts{}, usagef("standard input (-) can be read only once")
			}
		}
	}
	if len(sides) < 2 {
		return gbakCompareOpts{}, usagef("gbak compare wants at least two labels (sides); all runs are %q", runs[0][0])
	}
	base := c.String("base")
	if base != "" && !sides[base] {
		var names []string
		for _, r := range runs {
			if !slices.Contains(names, r[0]) {
				names = append(names, r[0])
			}
		}
		return gbakCompareOpts{}, usagef("--base %q: no run has that label (the labels are %s)", base, strings.Join(names, ", "))
	}
	png, err := pngOptions(c)
	if err != nil {
		return gbakCompareOpts{}, err
	}
	return gbakCompareOpts{out: out, runs: runs, base: base, png: png}, nil
}

// runGbakCompare reads every run, compares them and writes the
// comparison and, with --png, its chart.
func runGbakCompare(o gbakCompareOpts, stdin io.Reader, stdout, stderr io.Writer) error {
	// Each log is streamed: the comparison keeps the key, the label and
	// the cost of each step (analyze.GbakRunSteps), and makes its rows
	// as they are written.
	var logs []string
	for _, r := range o.runs {
		logs = append(logs, r[1])
	}
	hugeHeap(stdin, logs, keptHeap) // (a record per step of each log)
	var runs []analyze.GbakRun
	for _, r := range o.runs {
		steps := &analyze.GbakRunSteps{}
		tl, err := streamGbakTimeline(stdin, stderr, r[1], steps.Stream())
		if err != nil {
			return err
		}
		runs = append(runs, analyze.GbakRun{Label: r[0], Timeline: tl, Steps: steps})
	}
	cmp, err := analyze.CompareTimelinesBase(o.base, runs...)
	if err != nil {
		return err
	}
	var d *view.Doc
	doc := func() *view.Doc {
		if d == nil {
			d = view.GbakCompare(cmp, view.GbakCompareOptions{Top: o.out.top})
		}
		return d
	}
	if err := o.out.write(stdout, cmp, doc); err != nil {
		return err
	}
	if o.png.dir != "" {
		return o.png.emit(stderr, doc().Charts, nil)
	}
	return nil
}

// runLabel names a chart after its input file (throughput --png).
func runLabel(f string) string {
	if f == "-" {
		return labels.Stdin
	}
	return strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
}
