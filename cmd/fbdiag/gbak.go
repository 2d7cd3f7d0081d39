package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
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

gbak prints a step's message before doing the work, so the time and page
I/O on a line belong to the step on the line before: fbdiag charges each
step with the interval from its own line to the next. The last step's cost
is unknown unless a line follows it.`

func gbakCommand() *cli.Command {
	return &cli.Command{
		Name:      "gbak",
		Usage:     "where a gbak backup or restore spends its time",
		UsageText: "fbdiag gbak [--format text|json|csv|markdown] [--top N] LOG|-",
		Description: "Reads a gbak verbose log and reports the outcome, the phases, each table's\n" +
			"data (records, seconds, records/s, page I/O), each index build and the\n" +
			"slowest steps.\n\n" + gbakHowTo,
		Flags:  []cli.Flag{formatFlag(), topFlag()},
		Action: gbakAction,
		Subcommands: []*cli.Command{{
			Name:      "compare",
			Usage:     "compare gbak runs step by step",
			UsageText: "fbdiag gbak compare [--format …] [--top N] [--label NAME=FILE …] A.log B.log [more…]",
			Description: "Matches the steps of two or more logs by kind and object name and sets\n" +
				"their costs side by side, with ratio (first/second) and difference.\n" +
				"Each positional file is one run labelled by its name; --label NAME=FILE\n" +
				"(repeated) groups repeated runs under one label: each side is then\n" +
				"summarised by its median, and compared with a Mann-Whitney U test\n" +
				"(alpha 0.05; with fewer than 4 runs per side no difference can be shown,\n" +
				"and the output says so).\n\n" + gbakHowTo,
			Flags: []cli.Flag{formatFlag(), topFlag(), &cli.GenericFlag{
				Name:  "label",
				Usage: "NAME=FILE: a run of the side NAME (repeat for more runs and sides)",
				Value: &labelList{},
			}},
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

func gbakAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	top, err := gbakTop(c)
	if err != nil {
		return err
	}
	if c.Args().Len() != 1 {
		return usagef("gbak wants one log file (or - for standard input), got %d", c.Args().Len())
	}
	tl, err := readTimeline(c, c.Args().First())
	if err != nil {
		return err
	}
	out := getEnv(c).stdout
	if format == report.JSON {
		return report.WriteJSON(out, tl)
	}
	return report.WriteTables(out, format, timelineTables(tl, top, format)...)
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
		for _, n := range tl.Notices {
			fmt.Fprintln(getEnv(c).stderr, n)
		}
	}
	return tl, err
}

func gbakCompareAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	top, err := gbakTop(c)
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
	var runs []analyze.GbakRun
	for _, f := range files {
		tl, err := readTimeline(c, f[1])
		if err != nil {
			return err
		}
		runs = append(runs, analyze.GbakRun{Label: f[0], Timeline: tl})
	}
	cmp := analyze.CompareTimelines(runs...)
	out := getEnv(c).stdout
	if format == report.JSON {
		return report.WriteJSON(out, cmp)
	}
	return report.WriteTables(out, format, comparisonTables(cmp, top, format)...)
}

// runLabel names a positional run after its file.
func runLabel(f string) string {
	if f == "-" {
		return "stdin"
	}
	return strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
}

// cells formats values for a format: unknown is "?" in text and markdown,
// empty in CSV.
type cells struct{ unknown string }

func newCells(f report.Format) cells {
	if f == report.CSV {
		return cells{""}
	}
	return cells{"?"}
}

func (c cells) sec(v *float64) string {
	if v == nil {
		return c.unknown
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

func (c cells) num(v *int64) string {
	if v == nil {
		return c.unknown
	}
	return strconv.FormatInt(*v, 10)
}

func (c cells) rate(v *float64) string {
	if v == nil {
		return c.unknown
	}
	return strconv.FormatFloat(*v, 'f', 0, 64)
}

// addLong adds gbak's messages; in text and markdown a status vector
// ("a; b; c") takes one row per part so that it fits the terminal.
func addLong(t *report.Table, item string, msgs []string, f report.Format) {
	for _, m := range msgs {
		if f == report.CSV {
			t.Add(item, m)
			continue
		}
		if strings.HasPrefix(m, "cannot commit index ") {
			m = strings.Replace(m, ": ", "; ", 1) // the index, then why
		}
		for i, part := range strings.Split(m, "; ") {
			if i == 0 {
				t.Add(item, clip(part, 84))
			} else {
				t.Add("", clip("  "+part, 84))
			}
		}
	}
}

const costNote = "A step's cost is the interval from its line to the next: gbak prints a step, then does it."

func timelineTables(tl *analyze.Timeline, top int, f report.Format) []*report.Table {
	c := newCells(f)
	kind := "gbak log"
	if tl.Kind != nil {
		kind = "gbak " + *tl.Kind
	}
	sum := &report.Table{Name: "summary", Title: kind + ": " + clipLeft(tl.File, 80), Columns: report.Cols("item", "value")}
	sum.Add("outcome", tl.Outcome)
	addLong(sum, "error", tl.Errors, f)
	addLong(sum, "warning", tl.Warnings, f)
	cols := tl.Columns
	if cols == "" {
		cols = "none"
	}
	sum.Add("statistics", cols)
	sum.Add("total seconds", c.sec(tl.TotalSeconds))
	sum.Add("page reads", c.num(tl.TotalReads))
	sum.Add("page writes", c.num(tl.TotalWrites))
	sum.Notes = tl.Notes

	phases := &report.Table{Name: "phases", Title: "Phases", Columns: report.Cols("phase", ">steps", ">unknown", ">seconds", ">share", ">reads", ">writes")}
	for _, p := range tl.Phases {
		share := c.unknown
		if tl.TotalSeconds != nil && *tl.TotalSeconds > 0 && tl.Columns != "" {
			share = fmt.Sprintf("%.1f%%", 100*p.Seconds / *tl.TotalSeconds)
		}
		sec, reads, writes := strconv.FormatFloat(p.Seconds, 'f', 3, 64), strconv.FormatInt(p.Reads, 10), strconv.FormatInt(p.Writes, 10)
		if p.Unknown == p.Steps {
			sec, share, reads, writes = c.unknown, c.unknown, c.unknown, c.unknown
		}
		phases.Add(p.Name, strconv.Itoa(p.Steps), strconv.Itoa(p.Unknown), sec, share, reads, writes)
	}
	out := []*report.Table{sum}
	if len(phases.Rows) > 0 {
		out = append(out, phases)
	}
	if len(tl.Tables) > 0 {
		tables := &report.Table{Name: "tables", Title: "Table data", Columns: report.Cols("table", ">records", ">ignored", ">seconds", ">records/s", ">reads", ">writes")}
		for _, t := range tl.Tables {
			ign := ""
			if t.Ignored != nil {
				ign = strconv.FormatInt(*t.Ignored, 10)
			}
			tables.Add(clip(t.Name, 40), c.num(t.Records), ign, c.sec(t.Seconds), c.rate(t.RecordsPerSecond), c.num(t.Reads), c.num(t.Writes))
		}
		out = append(out, tables)
	}
	if len(tl.Indices) > 0 {
		idx := &report.Table{Name: "indices", Title: "Index builds", Columns: report.Cols("index", ">seconds", ">reads", ">writes", "state")}
		for _, ix := range tl.Indices {
			state := "ok"
			if ix.Failed {
				state = "failed"
			}
			idx.Add(clip(ix.Name, 48), c.sec(ix.Seconds), c.num(ix.Reads), c.num(ix.Writes), state)
		}
		out = append(out, idx)
	}
	if slow := tl.Slowest(top); len(slow) > 0 {
		st := &report.Table{Name: "slowest", Title: fmt.Sprintf("Slowest %d steps", len(slow)),
			Columns: report.Cols(">line", "step", "phase", ">start", ">seconds", ">reads", ">writes")}
		for _, s := range slow {
			st.Add(strconv.Itoa(s.Line), clip(s.Label(), 44), s.Phase, c.sec(s.Start), c.sec(s.Seconds), c.num(s.Reads), c.num(s.Writes))
		}
		st.Notes = []string{costNote}
		out = append(out, st)
	}
	return out
}

func comparisonTables(cmp *analyze.GbakComparison, top int, f report.Format) []*report.Table {
	c := newCells(f)
	runs := &report.Table{Name: "runs", Title: "Runs", Columns: report.Cols("label", "file", "outcome", ">total s", ">span s", ">matched", ">unmatched")}
	for _, r := range cmp.Runs {
		runs.Add(clip(r.Label, 18), clip(filepath.Base(r.File), 26), r.Outcome, c.sec(r.TotalSeconds), c.sec(r.SpanSeconds),
			strconv.Itoa(r.Matched), strconv.Itoa(r.Unmatched))
	}
	runs.Notes = append(runs.Notes, "span: from the first to the end of the last step found in every run")
	runs.Notes = append(runs.Notes, cmp.Warnings...)
	a, b := cmp.Sides[0].Label, cmp.Sides[1].Label
	head := []string{"step", ">" + clip(a, 14), ">" + clip(b, 14), ">ratio", ">diff s", "verdict"}
	totals := &report.Table{Name: "totals", Title: fmt.Sprintf("Totals (ratio = %s / %s)", clip(a, 20), clip(b, 20)), Columns: report.Cols(head...)}
	for _, row := range cmp.Totals {
		totals.Add(compareRow(c, row)...)
	}
	out := []*report.Table{runs, totals}
	if slow := cmp.Slowest(top); len(slow) > 0 {
		st := &report.Table{Name: "steps", Title: fmt.Sprintf("Slowest %d steps (median seconds per side)", len(slow)), Columns: report.Cols(head...)}
		for _, row := range slow {
			st.Add(compareRow(c, row)...)
		}
		st.Notes = append(st.Notes, costNote)
		st.Notes = append(st.Notes, stepWarnings(slow)...)
		out = append(out, st)
	}
	var unknown []string
	for _, row := range cmp.Steps {
		if row.Only == nil && len(row.Median) > 1 && (row.Median[0] == nil || row.Median[1] == nil) && len(unknown) < 5 {
			unknown = append(unknown, row.Name)
		}
	}
	if len(unknown) > 0 {
		totals.Notes = append(totals.Notes, clip("cost unknown (last line, or lines missing): "+strings.Join(unknown, ", "), 99))
	}
	only := &report.Table{Name: "only", Title: "Steps found on one side only", Columns: report.Cols("side", "step")}
	for _, row := range cmp.Steps {
		if row.Only != nil && len(only.Rows) < top {
			only.Add(clip(*row.Only, 20), clip(row.Name, 70))
		}
	}
	if len(only.Rows) > 0 {
		out = append(out, only)
	}
	return out
}

func compareRow(c cells, row analyze.GbakStepComparison) []string {
	med := func(i int) string {
		if i >= len(row.Median) {
			return c.unknown
		}
		s := c.sec(row.Median[i])
		if i < len(row.Spread) && row.Spread[i] != nil {
			s += fmt.Sprintf(" ±%.0f%%", 100**row.Spread[i])
		}
		return s
	}
	verdict := row.Verdict
	if row.P == nil && row.Ratio != nil {
		verdict = fmt.Sprintf("%+.2f%%", 100*(*row.Ratio-1)) // no test: the note says so
	}
	return []string{clip(row.Name, 36), med(0), med(1), c.sec(row.Ratio), c.sec(row.Difference), clip(verdict, 24)}
}

// stepWarnings lists the distinct warnings of the rows shown.
func stepWarnings(rows []analyze.GbakStepComparison) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		for _, w := range r.Warnings {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}
