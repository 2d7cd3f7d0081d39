package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/heapgoal"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
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

Output (--format text, json, csv, markdown or openmetrics): the header figures
(ODS and Firebird version, page size, buffers, forced writes, sweep interval,
OIT, OAT, OST, Next and their gaps) and totals, the tables biggest first
(--sort), the indices with warnings first then biggest first, and the
warnings, critical first, each with its value, threshold, reason, advice and
source. Text and markdown show the first 20 tables, indices and warnings
(--top N) and count the rest; --all shows everything. Names tied on the sort
key are in natural order (RDB$PRIMARY2 before RDB$PRIMARY10). Sizes are
binary, with IEC units (KiB, MiB, GiB). Lines gstat printed that fbdiag
skipped or guessed are reported on standard error as file:line notices.

CSV is one table (RFC 4180), every row, numbers plain with the unit in the
column name (size_bytes, fill_share), words as JSON's (kind primary_key, not
pk): --table tables (the default), indices, warnings, summary (the header
figures and totals as field,value), encryption or problems (docs/gstat-json.md).
With several snapshots a first column, snapshot, names each row's. CSV and JSON
are written as the input is read; the rows a run sorts (tables, indices,
warnings) wait in temporary files in TMPDIR past a few megabytes, deleted as
they are made: a 300 MiB gstat output needs about 180 MB of disk for JSON.

--format openmetrics writes the Prometheus text exposition format (OpenMetrics
1.0, "# EOF" last) for node_exporter's textfile collector: fbdiag_ metrics with
the labels database, table and index (and schema, in Firebird 6): transaction
counters and gaps, page size, sizes, warnings by severity, per table records,
versions, data pages and size, per index depth, leaf pages, nodes and max dup.
Of several snapshots of one database the last is written, and --fail-on
judges that one. A table block printed twice in a snapshot gives its first
block's samples (one per series), with a notice at the line of the second on
stderr.

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
		UsageText:   "fbdiag gstat [--format F] [--top N|--all] [--sort K] [--table T] [--fail-on SEV] [PNG] FILE|-...",
		Description: gstatDescription,
		Flags: append([]cli.Flag{
			metricsFormatFlag(),
			&cli.IntFlag{Name: "top", Value: view.GstatTop, Usage: "show the first N tables, indices and warnings (0 = all)"},
			&cli.BoolFlag{Name: "all", Usage: "show every table, index and warning (as --top 0)"},
			&cli.StringFlag{Name: "sort", Value: "size", Usage: "order tables by `KEY`: size, records, versions or depth"},
			tableFlag("tables, indices, warnings, summary..."),
			&cli.StringFlag{Name: "fail-on", Usage: "exit 3 when a warning of this `LEVEL` or worse exists: warning or critical"},
			rulesFlag(),
		}, append(serverSetupFlags(), chartFlags()...)...),
		Subcommands: gstatHistoryCommands(),
		Action: func(c *cli.Context) error {
			o, err := gstatFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runGstat(o, e.stdin, e.stdout, e.stderr)
		},
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
		if err == nil && !units.HasUnit(r) {
			err = fmt.Errorf("give the unit, such as 16GB or 64GiB")
		}
		if err != nil {
			return srv, usagef("%s: --ram %q: %v", cmd, r, err)
		}
		srv.RAM = b
	}
	return srv, nil
}

// gstatOptions is what fbdiag gstat was asked for.
type gstatOptions struct {
	files  []string
	out    gstatOutOptions
	failOn analyze.Severity
	th     analyze.Thresholds
	server analyze.ServerSetup
	png    pngRequest
}

// gstatFlags reads and checks the command line of fbdiag gstat.
func gstatFlags(c *cli.Context) (gstatOptions, error) {
	var o gstatOptions
	if _, _, err := viewFormat(c, true); err != nil {
		return o, err
	}
	if c.NArg() == 0 {
		return o, usagef("gstat: no input file (give a file name, or - for standard input)")
	}
	o.files = c.Args().Slice()
	if err := stdinOnce("gstat", o.files); err != nil {
		return o, err
	}
	sortBy := c.String("sort")
	if !slices.Contains(analyze.TableSorts, sortBy) {
		return o, usagef("gstat: --sort %q: want size, records, versions or depth", sortBy)
	}
	if s := c.String("fail-on"); s != "" {
		sev, ok := analyze.ParseSeverity(s)
		if !ok || sev == analyze.Info {
			return o, usagef("gstat: --fail-on %q: want warning or critical", s)
		}
		o.failOn = sev
	}
	var err error
	if o.th, err = loadRules(c); err != nil {
		return o, err
	}
	if o.server, err = serverSetup(c, "gstat"); err != nil {
		return o, err
	}
	if o.png, err = pngOptions(c); err != nil {
		return o, err
	}
	o.out, err = gstatOutFlags(c, sortBy)
	return o, err
}

// gstatHeapGoal is the heap a gstat run lets the collector wait for
// while what it keeps is small (internal/heapgoal).
const gstatHeapGoal = 20 << 20

// runGstat analyses and prints every run of every input.
func runGstat(o gstatOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	th, srv, png, failOn := o.th, o.server, o.png, o.failOn
	// A gstat stream keeps a few megabytes alive while it allocates three
	// times its input: collecting at 20 MB rather than every 8 saves 15 to
	// 20 % of its CPU for 10 MB of RSS. (gbak's stream allocates little
	// and ran 10 % slower so: it keeps the default.)
	heapgoal.Set(gstatHeapGoal)

	// Each run is analysed table by table as it is read: memory holds a
	// few table blocks and what the output shows, whatever the size of
	// the database; --png keeps what its charts show (gstatCharts).
	out := newGstatOut(o.out, e.stdout)
	// The heap that goal lets grow is backed by huge pages when the input
	// is big enough to fill it (26 MB of 4 KiB pages took 6,700 faults, 9
	// to 12 % of the wall time of 100 MiB); a view of every table keeps
	// what it reads.
	hugeHeap(stdin, o.files, func(n int64) int64 {
		if out.keepsAll() {
			return keptHeap(n)
		}
		return gstatHeapGoal + 8<<20
	})
	st := &gstatStream{e: e, out: out, failOn: failOn}
	if png.dir != "" {
		st.charts = newGstatCharts(e.stderr)
	}
	opt := analyze.GstatOptions{Server: srv}
	switch {
	case out.json:
		// JSON is written table by table as the input is read.
		for _, name := range o.files {
			if err := streamGstatJSON(stdin, st, name, th, opt); err != nil {
				return err
			}
		}
	case out.format == view.CSV:
		// CSV is written row by row as the tables are analysed; the rows
		// of a table that is sorted wait in a temporary file.
		g := view.NewGstatCSV(e.stdout, o.out.opt, o.out.vopt)
		g.Written = st.count
		g.CountsNone = failOn == "" // (charts, which show every warning, run them all: gstatCharts.stream)
		if err := streamGstatView(stdin, st, o.files, th, opt, g); err != nil {
			return err
		}
	case out.format == view.OpenMetrics:
		// The exposition is written at the end (a database's last run),
		// its samples waiting in a temporary file.
		g := view.NewGstatMetrics(e.stdout, o.out.vopt)
		// Of several runs of a database only the last is written, and
		// --fail-on judges what is written: a file of runs appended
		// daily exited 3 for a warning its latest run no longer has,
		// fbdiag_warnings reading 0.
		last := map[string]int{}
		g.Written = func(a *analyze.GstatAnalysis) {
			report.WriteNotices(e.stderr, "", a.Notices)
			if failOn != "" {
				last[view.GstatDatabase(a)] = a.WarningsAtLeast(failOn)
			}
		}
		if err := streamGstatView(stdin, st, o.files, th, opt, g); err != nil {
			return err
		}
		for _, n := range last {
			st.failed += n
		}
	default:
		// The bounded formats keep only what they show, the others the
		// analysis without the parsed text.
		for _, name := range o.files {
			err := streamGstatKept(stdin, st, name, th, opt, out.bounded(), out.warningLimit(), out.vopt, func(a *analyze.GstatAnalysis, kept *view.GstatKept) error {
				return st.addKept(a, kept)
			})
			if err != nil {
				return err
			}
		}
		if err := st.flush(false); err != nil {
			return err
		}
		if err := out.close(); err != nil {
			return err
		}
	}
	if st.charts != nil {
		if err := png.writeTo(e.stderr, st.charts.draw); err != nil {
			return err
		}
	}
	return st.failure()
}

// analyzeGstatFile reads one input and analyses each gstat run in it
// (collect prints a fresh gstat output this way, with the catalogue).
func analyzeGstatFile(stdin io.Reader, name string, th analyze.Thresholds, opt analyze.GstatOptions) ([]*analyze.GstatAnalysis, error) {
	var out []*analyze.GstatAnalysis
	err := streamGstatFile(stdin, name, th, opt, func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
		out = append(out, a)
		return nil
	})
	return out, err
}

// streamGstatFile reads one input and passes the analysis of each gstat
// run in it to fn as soon as the run is read.
func streamGstatFile(stdin io.Reader, name string, th analyze.Thresholds, opt analyze.GstatOptions, fn func(*analyze.GstatAnalysis, *parse.GstatReport) error) error {
	rc, shown, err := openArg(stdin, name)
	if err != nil {
		return err
	}
	defer rc.Close()
	err = parse.EachGstat(rc, shown, func(rep *parse.GstatReport) error {
		return fn(analyze.GstatWith(rep, th, opt), rep)
	})
	return noGstatErr(err, rc, shown)
}

// streamGstatJSON writes the JSON of each run of one input as it is
// read (report.GstatJSON): tables as they are analysed, then totals,
// warnings and notices.
func streamGstatJSON(stdin io.Reader, st *gstatStream, name string, th analyze.Thresholds, opt analyze.GstatOptions) error {
	// The document is hundreds of megabytes for a big database: rather
	// than have the terminal's guard (main's printable.Writer) scan it on
	// this goroutine, the tables and warnings are escaped as they are
	// encoded, the tables on the workers, and written past the guard.
	w, guard := st.e.stdout, false
	if pw, ok := w.(*printable.Writer); ok {
		w, guard = pw.Unguarded(), true
	}
	// Half a megabyte a write: through a pipe, 64 KiB writes took 25 ms
	// more of 100 MiB's 0.7 s. The tables a worker encoded together
	// (150 KB and more) are written as they are (passLarge).
	bw := bufio.NewWriterSize(w, 512<<10)
	out := passLarge{bw, w}
	var g *report.GstatJSON
	defer func() {
		if g != nil {
			g.Abort() // (an error stopped the run: its spool goes)
		}
	}()
	err := streamGstat(stdin, st.charts, name, th, opt, analyze.GstatStream{
		// Each run's document starts with its scan (Sink comes before its
		// tables); the warnings, written after the tables, wait in a
		// temporary file: a run can have a hundred thousand.
		Sink: func(a *analyze.GstatAnalysis) analyze.WarningSink {
			if guard {
				g = report.NewGstatJSONGuarded(out, a)
			} else {
				g = report.NewGstatJSON(out, a)
			}
			return g
		},
		// Tables are encoded on the workers that analyse them, into
		// buffers the stream keeps, and written here in order, a
		// worker's tables at a time (GstatStream.EncodeTable).
		EncodeTable: func(b []byte, t *analyze.TableStats) ([]byte, error) {
			return report.AppendGstatTable(b, t, guard)
		},
		Table: func(a *analyze.GstatAnalysis, _ *analyze.TableStats) error {
			b, err := a.EncodedTable()
			if err == nil {
				g.TableEncoded(b)
			}
			return err
		},
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			err := g.Close(a)
			g = nil
			st.count(a)
			if err == nil {
				err = bw.Flush()
			}
			return err
		},
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// passLarge is a bufio.Writer that writes what is large enough (the
// tables a worker encoded together, some 150 KB) past its buffer, after
// what the buffer holds: the copy into the buffer was 0.7 % of JSON's
// instructions.
type passLarge struct {
	*bufio.Writer
	w io.Writer
}

// passLargeMin is the least passLarge writes past its buffer.
const passLargeMin = 32 << 10

func (p passLarge) Write(b []byte) (int, error) {
	if len(b) < passLargeMin {
		return p.Writer.Write(b)
	}
	if err := p.Flush(); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}

// gstatStreamView is a view written as the runs of the inputs are
// analysed table by table (view.GstatCSV, view.GstatMetrics).
type gstatStreamView interface {
	Stream() analyze.GstatStream
	Abort()
	Close() error
}

// streamGstatView writes view g of every input (analyze.StreamGstat with
// g's hooks), then closes it; an error reading an input aborts g. The
// errors go through viewErr (an unknown --table, which only the CSV view
// meets, is a usage error).
func streamGstatView(stdin io.Reader, st *gstatStream, files []string, th analyze.Thresholds, opt analyze.GstatOptions, g gstatStreamView) error {
	for _, name := range files {
		if err := streamGstat(stdin, st.charts, name, th, opt, g.Stream()); err != nil {
			g.Abort()
			return viewErr(err)
		}
	}
	return viewErr(g.Close())
}

// streamGstat analyses each run of one input table by table, handing it
// to s, and to charts unless nil.
func streamGstat(stdin io.Reader, charts *gstatCharts, name string, th analyze.Thresholds, opt analyze.GstatOptions, s analyze.GstatStream) error {
	rc, shown, err := openArg(stdin, name)
	if err != nil {
		return err
	}
	defer rc.Close()
	if charts != nil {
		s = charts.stream(s)
	}
	if err := analyze.StreamGstat(rc, shown, th, opt, s); err != nil {
		return noGstatErr(err, rc, shown)
	}
	if charts != nil {
		charts.endFile(shown)
	}
	return nil
}

// streamGstatKept analyses each run of one input table by table
// (analyze.StreamGstat) and passes fn the analysis of each: with bounded,
// only the tables and indices the view shows (view.GstatKeeper); else
// every table, without the parsed text.
func streamGstatKept(stdin io.Reader, st *gstatStream, name string, th analyze.Thresholds, opt analyze.GstatOptions, bounded bool, limit int, vopt view.GstatOptions, fn func(*analyze.GstatAnalysis, *view.GstatKept) error) error {
	keep := view.NewGstatKeeper(vopt)
	var tables []analyze.TableStats
	return streamGstat(stdin, st.charts, name, th, opt, analyze.GstatStream{
		WarningLimit: limit,
		Table: func(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
			if bounded {
				keep.Table(a, t)
			} else {
				cp := *t
				cp.Indices = slices.Clone(t.Indices) // (the stream fills them again)
				tables = append(tables, cp)
			}
			return nil
		},
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			if bounded {
				b, o := keep.Kept(a, vopt)
				return fn(b, o.Kept)
			}
			a.Tables = tables
			if a.Tables == nil {
				a.Tables = []analyze.TableStats{}
			}
			tables = nil
			return fn(a, nil)
		},
	})
}

// gstatStream prints analyses one behind the reading: the title of the
// first says "snapshot 1" only when a second one follows.
type gstatStream struct {
	e       *env
	out     *gstatOut
	failOn  analyze.Severity
	pending *analyze.GstatAnalysis
	kept    *view.GstatKept // what a keeper kept of pending, or nil
	charts  *gstatCharts    // with --png
	n       int             // analyses printed
	failed  int             // warnings at --fail-on level or above
}

// failure is the --fail-on error when a warning printed is at its level
// or above, else nil.
func (s *gstatStream) failure() error {
	if s.failed > 0 {
		return &failOnError{msg: fmt.Sprintf("gstat: %s at %s level or above", units.Count(s.failed, "warning"), s.failOn)}
	}
	return nil
}

func (s *gstatStream) addKept(a *analyze.GstatAnalysis, kept *view.GstatKept) error {
	err := s.flush(true)
	s.pending, s.kept = a, kept
	return err
}

// count prints a run's notices on stderr and counts its warnings at the
// --fail-on level.
func (s *gstatStream) count(a *analyze.GstatAnalysis) {
	report.WriteNotices(s.e.stderr, "", a.Notices)
	if s.failOn != "" {
		s.failed += a.WarningsAtLeast(s.failOn)
	}
}

// flush prints the pending analysis; more says whether another follows.
func (s *gstatStream) flush(more bool) error {
	a := s.pending
	if a == nil {
		return nil
	}
	s.pending = nil
	s.count(a)
	err := s.out.write(a, s.kept, more || s.n > 0)
	s.n++
	return err
}

// gstatOut writes gstat analyses in the chosen format: JSON as the
// analysis (docs/gstat-json.md), the others through view.Gstat.
type gstatOut struct {
	w      io.Writer
	json   bool
	format view.Format
	vopt   view.GstatOptions
	opt    view.Options
	x      *view.Writer
	// metrics holds the last run of each database for OpenMetrics, whose
	// families span the runs: a second run of a database replaces the
	// first (one sample per label set).
	metrics []*view.Doc
	byDB    map[string]int
}

// gstatOutOptions is how gstat analyses are printed: --format, --sort,
// --top, --all and --table.
type gstatOutOptions struct {
	json   bool
	format view.Format
	vopt   view.GstatOptions
	opt    view.Options
}

// gstatOutFlags reads --format, --top, --all and --table.
func gstatOutFlags(c *cli.Context, sortBy string) (gstatOutOptions, error) {
	json, f, err := viewFormat(c, true)
	if err != nil {
		return gstatOutOptions{}, err
	}
	if c.Int("top") < 0 {
		return gstatOutOptions{}, usagef("%s: --top must be 0 or more", c.Command.Name)
	}
	table, err := csvTable(c, f)
	if err != nil {
		return gstatOutOptions{}, err
	}
	return gstatOutOptions{json: json, format: f,
		vopt: view.GstatOptions{Sort: sortBy, Top: c.Int("top")},
		opt:  view.Options{All: c.Bool("all"), Table: table, MoreHint: " (--all shows them)"}}, nil
}

// newGstatOut starts the output of gstat analyses on w.
func newGstatOut(o gstatOutOptions, w io.Writer) *gstatOut {
	return &gstatOut{w: w, json: o.json, format: o.format, byDB: map[string]int{}, vopt: o.vopt, opt: o.opt}
}

// write prints one analysis; several says whether it is one of several
// (known from the first: the stream is one behind).
func (o *gstatOut) write(a *analyze.GstatAnalysis, kept *view.GstatKept, several bool) error {
	if o.json {
		return report.WriteJSON(o.w, a)
	}
	vopt := o.vopt
	vopt.Several = several
	vopt.Kept = kept
	d := view.Gstat(a, vopt)
	if o.format == view.OpenMetrics {
		db := view.GstatDatabase(a)
		if i, ok := o.byDB[db]; ok {
			o.metrics[i] = d
		} else {
			o.byDB[db] = len(o.metrics)
			o.metrics = append(o.metrics, d)
		}
		return nil
	}
	if o.x == nil {
		opt := o.opt
		opt.Source = several
		x, err := view.NewWriter(o.w, o.format, opt)
		if err != nil {
			return err
		}
		o.x = x
	}
	return viewErr(o.x.Write(d))
}

// bounded says whether the output shows a bounded part of each run (text,
// markdown or HTML without --all), so that a stream keeps only that part.
func (o *gstatOut) bounded() bool {
	switch o.format {
	case view.Text, view.Markdown, view.HTML:
		return !o.json && !o.opt.All && o.vopt.Top > 0
	}
	return false
}

// keepsAll reports whether the output keeps every table and index of a
// run (text, markdown or HTML with --all or --top 0): the others write
// them as they come or keep the top few.
func (o *gstatOut) keepsAll() bool {
	switch o.format {
	case view.Text, view.Markdown, view.HTML:
		return !o.json && !o.bounded()
	}
	return false
}

// warningLimit is how many warnings a run must keep for the output: the
// bounded view's top, else all (0).
func (o *gstatOut) warningLimit() int {
	if o.bounded() {
		return o.vopt.Top
	}
	return 0
}

// close ends the output: OpenMetrics is written here.
func (o *gstatOut) close() error {
	if o.format == view.OpenMetrics && !o.json {
		return viewErr(view.Write(o.w, view.OpenMetrics, o.opt, o.metrics...))
	}
	if o.x != nil {
		return viewErr(o.x.Close())
	}
	return nil
}

// noGstatErr says what a gstat input should hold when it held none, or
// which command reads it (a gbak log, a result table).
func noGstatErr(err error, rc io.Reader, shown string) error {
	if errors.Is(err, parse.ErrNoGstat) {
		if other := otherKind(rc, shown, "gstat"); other != nil {
			return other
		}
		return fmt.Errorf("%s: %w (expected the text of gstat -a -r or gstat -h)", shown, parse.ErrNoGstat)
	}
	return err
}
