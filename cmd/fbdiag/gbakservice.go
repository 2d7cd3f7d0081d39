package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/internal/shellarg"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

// gbakServiceOptions are what backup and restore share: the log, the
// output and the connection.
type gbakServiceOptions struct {
	ctx     context.Context
	name    string // the command: backup or restore
	format  report.Format
	logFile string
	logOpt  atomicfile.Options
	// flagErr is a bad command line, reported after the log check (an
	// existing log is refused first, as before any other check).
	flagErr error
	conn    liveConn
	// own are the files the command reads or replaces, which its log
	// must not be.
	own []ownFile
	// top is --top.
	top int
}

// gbakServiceFlags reads --log (or def), --force, --format, --top and
// the connection.
func gbakServiceFlags(c *cli.Context, def string) gbakServiceOptions {
	o := gbakServiceOptions{ctx: c.Context, name: c.Command.Name}
	o.logFile, o.logOpt = liveOutPath(c.String("log"), def, c.Bool("force"))
	// A bad --top is a bad command line like the others: it was reported
	// after the password was asked and the server attached ("no
	// password", exit 1, without ISC_PASSWORD).
	var err error
	o.top, err = gbakTop(c)
	o.fail(err)
	return o
}

// setup reads the format and the connection; the first bad flag is kept.
func (o *gbakServiceOptions) setup(c *cli.Context, nargs int) {
	var err error
	o.format, o.conn, err = liveConnSetup(c, nargs)
	o.fail(err)
}

// fail keeps the first command-line error.
func (o *gbakServiceOptions) fail(err error) {
	if o.flagErr == nil {
		o.flagErr = err
	}
}

// start refuses an existing log, reports a bad flag and reads the
// credentials: what comes before the server is asked anything.
func (o *gbakServiceOptions) start(stdin io.Reader, stderr io.Writer) (collect.Server, error) {
	if err := refuseOwnFile(o.name, o.conn.addr, "--log", o.logFile, o.own...); err != nil {
		return collect.Server{}, err
	}
	if err := refuseExisting(o.name, o.logOpt, o.logFile); err != nil {
		return collect.Server{}, err
	}
	// A log that cannot be written is refused before the run: a folder
	// given for it ended a complete backup with "rename …/..tmp-… …/:
	// file exists".
	if err := checkOutFolder(o.name, "--log", o.logFile); err != nil {
		return collect.Server{}, err
	}
	if o.flagErr != nil {
		return collect.Server{}, o.flagErr
	}
	return o.conn.server(stdin, stderr)
}

// partialSuffix marks a log kept from a run that did not complete.
const partialSuffix = ".partial"

// runGbakService streams a gbak log to a temporary file while the service
// runs, showing progress on a terminal. A complete log gets its name and
// its timeline is printed exactly as `fbdiag gbak LOG` prints it; a run
// that failed keeps what was logged as LOG.partial and says so.
func runGbakService(o gbakServiceOptions, e *env, est *analyze.Estimate,
	gbak func(io.Writer, func(collect.Progress)) (*collect.GbakRun, error)) error {
	logFile := o.logFile
	f, err := atomicfile.Create(logFile, o.logOpt)
	if err != nil {
		return err
	}
	prog := newProgressLine(e.stderr, o.name, est)
	lw := &logWriter{w: f}
	run, err := gbak(lw, prog.show)
	prog.done()
	if err != nil {
		if run == nil || run.Lines == 0 {
			f.Abort()
			return err
		}
		// The log gives the database the name asked for, the
		// original's: its last lines say where the new one is and that
		// the original is as it was, so that the advice on the log names
		// the one to fix and restores again without replacing the
		// original before the new one is complete. (An error writing
		// them is lw.err, seen below.)
		if lw.err == nil {
			io.WriteString(lw, parse.GbakRestored{KeptAs: run.KeptAs, Untouched: run.Untouched, Removed: run.Removed}.Lines())
		}
		if run.Completed && lw.err == nil {
			// gbak finished, with errors it went on past (an index it
			// could not build) or before what failed after it (naming
			// the file, the swap): the log is whole, and its timeline
			// says what failed and what to do.
			if cerr := f.Commit(); cerr != nil {
				return fmt.Errorf("%w; the log could not be written: %v", err, cerr)
			}
			if perr := writeGbakRun(o, e, run); perr != nil {
				return fmt.Errorf("%w; the log is %s (%v)", err, logFile, perr)
			}
			return fmt.Errorf("%w; the log is %s", err, logFile)
		}
		kept, kerr := f.KeepAs(partialSuffix)
		if kerr != nil {
			return fmt.Errorf("%w; the log so far could not be kept: %v", err, kerr)
		}
		if lw.err != nil {
			// The run went on; its log stopped (a full disk).
			return fmt.Errorf("%w; the log so far (%d of %d lines) is %s", err, lw.lines, run.Lines, kept)
		}
		hint := ""
		if ce := (*collect.Error)(nil); !errors.As(err, &ce) || ce.Kind != collect.KindInterrupted {
			// (Ctrl-C ends at once: a log read again could take a second.)
			hint = advisedBy(kept)
		}
		return fmt.Errorf("%w; the log so far (%s) is %s%s", err, units.Count(lw.lines, "line"), kept, hint)
	}
	if err := f.Commit(); err != nil {
		return err
	}
	return writeGbakRun(o, e, run)
}

// writeGbakRun prints the run and its complete log's timeline.
func writeGbakRun(o gbakServiceOptions, e *env, run *collect.GbakRun) error {
	format, logFile, top := o.format, o.logFile, o.top
	if format == report.JSON {
		return writeGbakResult(e, run, logFile)
	}
	vf, err := view.ParseFormat(string(format))
	if err != nil {
		return err
	}
	// The log is read as `fbdiag gbak LOG` reads it: streamed, the view
	// keeping the rows it shows.
	out := gbakOutput{format: vf, top: top, opt: view.Options{MoreHint: " (fbdiag gbak --all LOG shows them)"}}
	k := out.keeper()
	tl, err := streamGbakTimeline(e.stdin, e.stderr, logFile, k.Stream())
	if err != nil {
		return err
	}
	info := view.GbakRunInfo{Action: run.Action, Server: run.Server, Database: run.Database, BackupFile: run.BackupFile,
		Switches: run.Switches, Started: run.Started, Log: logFile, Lines: run.Lines, Replaced: run.Replaced, KeptAs: run.KeptAs}
	kept := k.Kept()
	if err := view.Write(e.stdout, vf, out.opt, view.GbakLive(info, tl, view.GbakOptions{Top: top, Kept: kept})); err != nil {
		return err
	}
	if err := kept.Err(); err != nil {
		return fmt.Errorf("sorting the steps: %w", err)
	}
	return nil
}

// advisedBy is ", and fbdiag gbak LOG says what to do" when the timeline
// of the log kept has advice on what failed (a restore stopped at an
// index whose rows repeat a key); the run's error alone does not say it.
// The log is read as fbdiag gbak reads it, streamed, keeping nothing: a
// stream keeps no steps, tables or indices, and errors and warnings
// handed on are only counted.
func advisedBy(log string) string {
	drop := func(string) error { return nil }
	tl, err := streamGbakTimeline(nil, io.Discard, log, analyze.GbakStream{Error: drop, Warning: drop})
	if err != nil || len(tl.Advice) == 0 {
		return ""
	}
	return ", and fbdiag gbak " + shellarg.Local(log) + " says what to do"
}

// logWriter passes the log on to w and notes the lines that reached it
// and the first error: a log cut short (a full disk) while gbak went on
// is not given the name of a complete one.
type logWriter struct {
	w     io.Writer
	lines int
	err   error
}

func (l *logWriter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	l.lines += bytes.Count(p[:n], []byte{'\n'})
	if err != nil && l.err == nil {
		l.err = err
	}
	return n, err
}

// gbakResult is the JSON output of backup and restore (docs/live.md).
type gbakResult struct {
	Run      *collect.GbakRun  `json:"run"`
	Log      string            `json:"log"`
	Timeline *analyze.Timeline `json:"timeline"`
}

// writeGbakResult writes the gbakResult of a finished run with its
// timeline streamed from the log as `fbdiag gbak --format json LOG`
// writes it, one level deeper: the bytes of report.WriteJSON on the
// whole result, in the memory of a step.
func writeGbakResult(e *env, run *collect.GbakRun, logFile string) error {
	var head bytes.Buffer
	if err := report.WriteJSON(&head, gbakResult{Run: run, Log: logFile}); err != nil {
		return err
	}
	const end = "null\n}\n" // (the timeline's place, and the end)
	h, ok := bytes.CutSuffix(head.Bytes(), []byte(end))
	if !ok {
		return fmt.Errorf("the JSON of the run ends %q, not %q", head.Bytes()[max(0, head.Len()-20):], end)
	}
	// (indented writes a line at a time: they gather here.)
	bw := bufio.NewWriterSize(e.stdout, 64<<10)
	bw.Write(h) // (its error comes back at Flush)
	in := &indented{w: bw, indent: "  "}
	_, err := readGbakLog(e.stdin, e.stderr, logFile, func(r io.Reader, shown string) (*analyze.Timeline, error) {
		return report.WriteGbakJSON(in, r, shown, analyze.GbakStream{})
	})
	if err != nil {
		// (A log without a gbak line wrote nothing; one cut by a read
		// error leaves its document unflushed past the first 64 KiB.)
		return err
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// indented writes a JSON document to w one level deeper: indent before
// every line but the first (a JSON string holds no newline byte).
type indented struct {
	w      io.Writer
	indent string
	nl     bool // the last byte written was a newline
}

func (d *indented) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		if d.nl {
			if _, err := io.WriteString(d.w, d.indent); err != nil {
				return n, err
			}
			d.nl = false
		}
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line, d.nl = p[:i+1], true
		}
		m, err := d.w.Write(line)
		n += m
		if err != nil {
			return n, err
		}
		p = p[len(line):]
	}
	return n, nil
}

// maxEarlierLogs bounds the logs examined for an estimate.
const maxEarlierLogs = 20

// earlierRestoreLog finds the newest complete restore log of database
// among the default-named ones in the folder of logFile
// (DBNAME-restore-YYYYMMDD-HHMMSSZ.log, or without the Z before
// 2026-12-06) for the progress estimate.
func earlierRestoreLog(logFile, database string) *analyze.Estimate {
	prefix := strings.TrimSuffix(liveDefaultName(database, "restore", "", time.Time{}), time.Time{}.Format(liveNameTime))
	return earlierLog(logFile, prefix, parse.GbakRestore, func(string) bool { return true })
}

// earlierBackupLog finds the newest complete backup log of database among
// the default-named ones (*-backup-*.log) in the folder of logFile: the
// backup file's name changes from run to run, so the log's own "readied
// database X for backup" line tells the database.
func earlierBackupLog(logFile, database string) *analyze.Estimate {
	return earlierLog(logFile, "", parse.GbakBackup, func(p string) bool {
		// gbak's own logs name it as connected to: host:path.
		name := backupLogOf(p)
		return name == database || strings.HasSuffix(name, ":"+database)
	})
}

func earlierLog(logFile, prefix, op string, match func(string) bool) *analyze.Estimate {
	dir := filepath.Dir(logFile)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var cands []string
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, prefix) && strings.Contains(n, "-"+op+"-") &&
			strings.HasSuffix(n, ".log") && filepath.Join(dir, n) != filepath.Clean(logFile) {
			cands = append(cands, filepath.Join(dir, n))
		}
	}
	// Default names end in the time: newest last.
	slices.Sort(cands)
	for i := len(cands) - 1; i >= 0 && i >= len(cands)-maxEarlierLogs; i-- {
		if !match(cands[i]) {
			continue
		}
		f, err := os.Open(cands[i])
		if err != nil {
			continue
		}
		est, ok := analyze.NewEstimate(f, cands[i])
		f.Close()
		if ok && est.Op == op {
			return est
		}
	}
	return nil
}

// backupLogOf reads the head of a backup log for the database it names
// ("readied database X for backup"); "" when it names none early on.
func backupLogOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	rd := parse.NewGbakReader(f, path)
	for n := 0; n < 10 && rd.Next(); n++ {
		if l := rd.Line(); l.Kind == parse.GbakOpenDatabase {
			return l.Name
		}
	}
	return ""
}
