package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

const gstatDescription = `Reads the statistics gstat prints and says which tables, indices and transaction
counters need attention, and why.

Input: the text output of gstat from Firebird 1.5 to 6.0 (and RedDatabase), any
switches, as a file or on standard input (-). Produce it with one of:

  gstat -a -r DB > stats.txt            data, indices and record versions (best)
  fbstat -a -r DB > stats.txt           the same on Debian/Ubuntu packages
  gstat -h DB > header.txt              header page only (transaction gaps)
  fbsvcmgr host:service_mgr action_db_stats dbname DB \
      sts_data_pages sts_idx_pages sts_record_versions > stats.txt

Put ISC_USER and ISC_PASSWORD in the environment rather than -user/-password on
the command line. UTF-16 files (PowerShell's >), CRLF endings and text copied
from mail or web pages are accepted; two runs appended in one file are two
snapshots and both are analysed.

Output (--format text, json, csv or markdown): the header health block (ODS and
Firebird version, page size, buffers, forced writes, sweep interval, OIT, OAT,
OST, Next and their gaps), the biggest tables (--top, --sort), every index with
its depth and selectivity, and the warnings, critical first, each with its
value, threshold, reason and source. Lines gstat printed that fbdiag skipped
or guessed are reported on standard error as file:line notices.

The JSON form is a documented contract (docs/gstat-json.md): one object per
snapshot. Thresholds are listed by 'fbdiag rules' and can be changed with
--rules FILE ("index-deep.min_depth = 4" lines, or a JSON object).

gstat does not show the server: --architecture (superserver, superclassic or
classic), --connections N and --ram SIZE describe it, and the page-buffers rule
then judges the page caches' memory: one cache with SuperServer, one per
connection with Classic and SuperClassic (200 x 2048 buffers x 16 KB = 6.25 GiB).

Exit status: 0 ok, 1 unreadable input, 2 bad command line, 3 when --fail-on
matched (the analysis is still printed).`

func gstatCommand() *cli.Command {
	return &cli.Command{
		Name:        "gstat",
		Usage:       "analyse gstat statistics: sick tables, indices and transaction counters",
		UsageText:   "fbdiag gstat [--format F] [--top N] [--sort KEY] [--fail-on LEVEL] [--png DIR] FILE|-...",
		Description: gstatDescription,
		Flags: append([]cli.Flag{
			formatFlag(),
			&cli.IntFlag{Name: "top", Value: 20, Usage: "show the N biggest tables, 0 = all (if given, N indices too)"},
			&cli.StringFlag{Name: "sort", Value: "size", Usage: "order tables by `KEY`: size, records, versions or depth"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 3 when a warning of this `LEVEL` or worse exists: warning or critical"},
			rulesFlag(),
		}, append(serverSetupFlags(), chartFlags()...)...),
		Subcommands: gstatHistoryCommands(),
		Action:      runGstat,
	}
}

// serverSetupFlags describe the server, which gstat does not show: with
// them the page-buffers rule judges the memory of the page caches.
func serverSetupFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "architecture", Usage: "server `ARCH`: superserver, superclassic or classic"},
		&cli.IntFlag{Name: "connections", Usage: "`N` connections at peak (a page cache each with Classic)"},
		&cli.StringFlag{Name: "ram", Usage: "server memory `SIZE` (16GB): judge the page caches"},
	}
}

// serverSetup reads --architecture, --connections and --ram.
func serverSetup(c *cli.Context, cmd string) (analyze.ServerSetup, error) {
	var srv analyze.ServerSetup
	if a := c.String("architecture"); a != "" {
		arch, err := analyze.ParseArchitecture(a)
		if err != nil {
			return srv, usagef("%s: --architecture: %v", cmd, err)
		}
		srv.Architecture = arch
	}
	n := c.Int("connections")
	if n < 0 {
		return srv, usagef("%s: --connections must be 0 or more", cmd)
	}
	srv.Connections = int64(n)
	if r := c.String("ram"); r != "" {
		b, err := parseSize(r)
		if err == nil && !strings.ContainsAny(strings.ToUpper(r), "KMGTP") {
			err = fmt.Errorf("give the unit, such as 16GB or 64GiB")
		}
		if err != nil {
			return srv, usagef("%s: --ram %q: %v", cmd, r, err)
		}
		srv.RAM = b
	}
	return srv, nil
}

func rulesFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "rules", Usage: "override thresholds from `FILE` (rule.key = value lines, or JSON)"}
}

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the gstat health rules and their thresholds, with sources",
		UsageText: "fbdiag rules [--rules FILE] [--format F]",
		Description: `Lists every health rule 'fbdiag gstat' applies: its id, what it flags, the
severities it can raise, and each threshold with its unit and the source it comes
from ("[U]" marks a fbdiag default no public source fixes). With --rules FILE the
overridden values are shown. A rules file holds "rule.key = value" lines (# starts
a comment) or one JSON object {"rule.key": value}; unknown keys, negative values,
values out of their unit's range and a critical limit below its warning are errors.`,
		Flags:  []cli.Flag{formatFlag(), rulesFlag()},
		Action: runRules,
	}
}

// loadRules reads --rules, or returns the defaults.
func loadRules(c *cli.Context) (analyze.Thresholds, error) {
	th := analyze.NewThresholds()
	name := c.String("rules")
	if name == "" {
		return th, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return th, err
	}
	defer f.Close()
	return analyze.LoadThresholds(f, name, th)
}

func runGstat(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usagef("gstat: no input file (give a file name, or - for standard input)")
	}
	if err := stdinOnce("gstat", c.Args().Slice()); err != nil {
		return err
	}
	for _, a := range c.Args().Slice() {
		if len(a) > 1 && a[0] == '-' {
			return usagef("gstat: %q after a file name: put options before the files", a)
		}
	}
	sortBy := c.String("sort")
	if !slices.Contains(analyze.TableSorts, sortBy) {
		return usagef("gstat: --sort %q: want size, records, versions or depth", sortBy)
	}
	if c.Int("top") < 0 {
		return usagef("gstat: --top must be 0 or more")
	}
	var failOn analyze.Severity
	if s := c.String("fail-on"); s != "" {
		sev, ok := analyze.ParseSeverity(s)
		if !ok || sev == analyze.Info {
			return usagef("gstat: --fail-on %q: want warning or critical", s)
		}
		failOn = sev
	}
	th, err := loadRules(c)
	if err != nil {
		return err
	}
	srv, err := serverSetup(c, "gstat")
	if err != nil {
		return err
	}
	png, err := pngOptions(c)
	if err != nil {
		return err
	}

	// Each run is analysed and printed as soon as the next one starts, so
	// that memory holds two runs, not every run of a file of thousands;
	// only --png keeps the charts of every run.
	opts := gstatView{format: format, top: c.Int("top"), topSet: c.IsSet("top"), sortBy: sortBy}
	st := &gstatStream{e: e, v: opts, failOn: failOn}
	var charts []*plot.Chart
	var chartErrs []error
	for _, name := range c.Args().Slice() {
		err := streamGstatFile(c, name, th, analyze.GstatOptions{Server: srv}, func(a *analyze.GstatAnalysis, rep *parse.GstatReport) error {
			if png.dir != "" {
				cs, err := report.GstatCharts(a, rep)
				charts = append(charts, cs...)
				chartErrs = append(chartErrs, err)
			}
			return st.add(a)
		})
		if err != nil {
			return err
		}
	}
	if err := st.flush(false); err != nil {
		return err
	}
	if err := png.write(c, func() ([]*plot.Chart, error) { return charts, errors.Join(chartErrs...) }); err != nil {
		return err
	}
	if st.failed > 0 {
		return &failOnError{msg: fmt.Sprintf("gstat: %d warning(s) at %s level or above", st.failed, failOn)}
	}
	return nil
}

// analyzeGstatFile reads one input and analyses each gstat run in it
// (collect prints a fresh gstat output this way, with the catalogue).
func analyzeGstatFile(c *cli.Context, name string, th analyze.Thresholds, opt analyze.GstatOptions) ([]*analyze.GstatAnalysis, error) {
	var out []*analyze.GstatAnalysis
	err := streamGstatFile(c, name, th, opt, func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
		out = append(out, a)
		return nil
	})
	return out, err
}

// streamGstatFile reads one input and passes the analysis of each gstat
// run in it to fn as soon as the run is read.
func streamGstatFile(c *cli.Context, name string, th analyze.Thresholds, opt analyze.GstatOptions, fn func(*analyze.GstatAnalysis, *parse.GstatReport) error) error {
	rc, shown, err := openInput(c, name)
	if err != nil {
		return err
	}
	defer rc.Close()
	err = parse.EachGstat(rc, shown, func(rep *parse.GstatReport) error {
		return fn(analyze.GstatWith(rep, th, opt), rep)
	})
	var se *parse.SyntaxError
	if errors.As(err, &se) && se.Msg == "no gstat output found" {
		return fmt.Errorf("%s: no gstat output found (expected the text of gstat -a -r or gstat -h)", shown)
	}
	return err
}

// gstatStream prints analyses one behind the reading: the title of the
// first says "snapshot 1" only when a second one follows.
type gstatStream struct {
	e       *env
	v       gstatView
	failOn  analyze.Severity
	pending *analyze.GstatAnalysis
	n       int // analyses printed
	failed  int // warnings at --fail-on level or above
}

func (s *gstatStream) add(a *analyze.GstatAnalysis) error {
	err := s.flush(true)
	s.pending = a
	return err
}

// flush prints the pending analysis; more says whether another follows.
func (s *gstatStream) flush(more bool) error {
	a := s.pending
	if a == nil {
		return nil
	}
	s.pending = nil
	report.WriteNotices(s.e.stderr, "", a.Notices)
	if s.failOn != "" {
		for _, w := range a.Warnings {
			if w.Severity.Rank() >= s.failOn.Rank() {
				s.failed++
			}
		}
	}
	err := writeGstatRun(s.e.stdout, a, s.v, s.n, more || s.n > 0)
	s.n++
	return err
}

// gstatView holds the presentation choices of the command line.
type gstatView struct {
	format report.Format
	top    int
	topSet bool
	sortBy string
}

// writeGstat prints the analyses; the layout is report.WriteGstat's.
func writeGstat(w io.Writer, f report.Format, all []*analyze.GstatAnalysis, v gstatView) error {
	v.format = f
	for i, a := range all {
		if err := writeGstatRun(w, a, v, i, len(all) > 1); err != nil {
			return err
		}
	}
	return nil
}

// writeGstatRun prints one analysis; the layout is report.WriteGstat's.
func writeGstatRun(w io.Writer, a *analyze.GstatAnalysis, v gstatView, i int, several bool) error {
	opt := report.GstatOptions{Sort: v.sortBy, Top: v.top}
	if v.topSet {
		opt.TopIndices = v.top
	}
	return report.WriteGstatRun(w, v.format, a, opt, i, several)
}

func runRules(c *cli.Context) error {
	e := getEnv(c)
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usagef("rules: takes no arguments")
	}
	th, err := loadRules(c)
	if err != nil {
		return err
	}
	return report.WriteRules(e.stdout, format, th)
}
