package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
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
step with the interval from its own line to the next. The last step's cost
is unknown unless a line follows it.`

func gbakCommand() *cli.Command {
	return &cli.Command{
		Name:      "gbak",
		Usage:     "where a gbak backup or restore spends its time",
		UsageText: "fbdiag gbak [--format text|json|csv|markdown] [--top N] [--fail-on failed] [--png DIR] LOG|-",
		Description: "Reads a gbak verbose log and reports the outcome, the phases, each table's\n" +
			"data (records, seconds, records/s, page I/O), each index build and the\n" +
			"slowest steps.\n\n" +
			"--fail-on failed exits with status 3 when the outcome is failed (an error,\n" +
			"an index that could not be activated, a database left offline) or incomplete\n" +
			"(the log ends before gbak's closing line: a killed server, a cut log), after\n" +
			"printing the analysis: for a nightly restore check.\n" +
			"  fbdiag gbak --fail-on failed restore.log || mail -s 'restore failed' dba\n\n" + gbakHowTo,
		Flags: append([]cli.Flag{formatFlag(), topFlag(), &cli.StringFlag{
			Name:  "fail-on",
			Usage: "exit 3 when the outcome is `failed` or incomplete (the only value)",
		}}, chartFlags()...),
		Action: gbakAction,
		Subcommands: []*cli.Command{{
			Name:      "compare",
			Usage:     "compare gbak runs step by step",
			UsageText: "fbdiag gbak compare [--format …] [--top N] [--png DIR] [--label NAME=FILE …] A.log B.log [more…]",
			Description: "Matches the steps of two or more logs by kind and object name and sets\n" +
				"their costs side by side, with ratio (first/second) and difference.\n" +
				"Each positional file is one run labelled by its name; --label NAME=FILE\n" +
				"(repeated) groups repeated runs under one label: each side is then\n" +
				"summarised by its median, and compared with a Mann-Whitney U test\n" +
				"(alpha 0.05; with fewer than 4 runs per side no difference can be shown,\n" +
				"and the output says so). The p of the steps are adjusted for their number\n" +
				"(Benjamini-Hochberg: p_adj); the totals are not. A side of 2 to 5 runs\n" +
				"shows its range (fastest-slowest run), 6 or more the 95% interval of its\n" +
				"median as benchstat's ± x%. An incomplete log (an excerpt) has no total:\n" +
				"its last timestamp is shown as such.\n\n" + gbakHowTo,
			Flags: append([]cli.Flag{formatFlag(), topFlag(), &cli.GenericFlag{
				Name:  "label",
				Usage: "NAME=FILE: a run of the side NAME (repeat for more runs and sides)",
				Value: &labelList{},
			}}, chartFlags()...),
			Action: gbakCompareAction,
		}},
	}
}

func topFlag() *cli.IntFlag {
	return &cli.IntFlag{Name: "top", Value: 10, Usage: "number of slowest steps to list"}
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
	if n < 0 {
		return 0, usagef("--top must be 0 or more, got %d", n)
	}
	return n, nil
}

// gbakOptions reads the flags gbak and gbak compare share.
func gbakOptions(c *cli.Context) (report.Format, int, error) {
	format, err := outputFormat(c)
	if err != nil {
		return "", 0, err
	}
	top, err := gbakTop(c)
	return format, top, err
}

func gbakAction(c *cli.Context) error {
	format, top, err := gbakOptions(c)
	if err != nil {
		return err
	}
	if c.Args().Len() != 1 {
		return usagef("gbak wants one log file (or - for standard input), got %d", c.Args().Len())
	}
	if f := c.String("fail-on"); f != "" && f != "failed" {
		return usagef("gbak: --fail-on %q: want failed (a failed or incomplete run)", f)
	}
	png, err := pngOptions(c)
	if err != nil {
		return err
	}
	tl, err := readTimeline(c, c.Args().First())
	if err != nil {
		return err
	}
	if err := report.Write(getEnv(c).stdout, format, tl, func() []*report.Table { return timelineTables(tl, top, format) }); err != nil {
		return err
	}
	if err := png.write(c, func() ([]*plot.Chart, error) { return report.GbakCharts(tl) }); err != nil {
		return err
	}
	if c.String("fail-on") != "" && tl.Outcome != analyze.GbakCompleted {
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

// readTimeline streams one log into a timeline and prints the reader's
// notices on stderr.
func readTimeline(c *cli.Context, name string) (*analyze.Timeline, error) {
	in, shown, err := openInput(c, name)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	tl, err := analyze.ReadGbakTimeline(in, shown)
	if tl != nil {
		report.WriteNotices(getEnv(c).stderr, "", tl.Notices)
	}
	return tl, err
}

func gbakCompareAction(c *cli.Context) error {
	format, top, err := gbakOptions(c)
	if err != nil {
		return err
	}
	var files [][2]string
	if l, ok := c.Generic("label").(*labelList); ok && l != nil {
		files = append(files, l.runs...)
	}
	used := map[string]bool{}
	for _, f := range files {
		used[f[0]] = true
	}
	for _, f := range c.Args().Slice() {
		// each positional file is a run of its own: a label of its own
		l := runLabel(f)
		for i := 2; used[l]; i++ {
			l = runLabel(f) + "#" + strconv.Itoa(i)
		}
		used[l] = true
		files = append(files, [2]string{l, f})
	}
	if len(files) < 2 {
		return usagef("gbak compare wants at least two logs, got %d", len(files))
	}
	labels := map[string]bool{}
	stdin := 0
	for _, f := range files {
		labels[f[0]] = true
		if f[1] == "-" {
			if stdin++; stdin > 1 {
				return usagef("standard input (-) can be read only once")
			}
		}
	}
	if len(labels) < 2 {
		return usagef("gbak compare wants at least two labels (sides); all runs are %q", files[0][0])
	}
	png, err := pngOptions(c)
	if err != nil {
		return err
	}
	var runs []analyze.GbakRun
	for _, f := range files {
		tl, err := readTimeline(c, f[1])
		if err != nil {
			return err
		}
		runs = append(runs, analyze.GbakRun{Label: f[0], Timeline: tl})
	}
	cmp := analyze.CompareTimelines(runs...)
	if err := report.Write(getEnv(c).stdout, format, cmp, func() []*report.Table { return comparisonTables(cmp, top, format) }); err != nil {
		return err
	}
	return png.write(c, func() ([]*plot.Chart, error) { return report.GbakComparisonCharts(cmp) })
}

// runLabel names a positional run after its file.
func runLabel(f string) string {
	if f == "-" {
		return "stdin"
	}
	return strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
}

// timelineTables lays out one log; the layout is report.GbakTables's.
func timelineTables(tl *analyze.Timeline, top int, f report.Format) []*report.Table {
	return report.GbakTables(tl, f, top)
}

// comparisonTables lays out a comparison; the layout is
// report.GbakComparisonTables's.
func comparisonTables(cmp *analyze.GbakComparison, top int, f report.Format) []*report.Table {
	return report.GbakComparisonTables(cmp, f, top)
}
