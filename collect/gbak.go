package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	fb "github.com/nakagami/firebirdsql"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// GbakStats is the -st letters fbdiag always asks for: time from start,
// delta, page reads, page writes — what the gbak timeline is built from.
const GbakStats = "TDRW"

// GbakRun describes one backup or restore run through the Services API.
type GbakRun struct {
	Server     string    `json:"server"`
	Action     string    `json:"action"` // "backup" or "restore"
	Database   string    `json:"database"`
	BackupFile string    `json:"backup_file"`
	Switches   string    `json:"switches"` // the gbak command line it amounts to, e.g. "-b -v -st tdrw -g"
	Started    time.Time `json:"started"`
	Lines      int       `json:"lines"`
	Completed  bool      `json:"completed"` // gbak printed its final "finishing" line
	LastStep   string    `json:"last_step"` // the last verbose message that is a step (not an error or warning), without the statistics columns
	// Replaced says that an existing file (backup --force, restore
	// --replace) was replaced by the new one once it was complete.
	Replaced bool `json:"replaced"`
	// KeptAs is where the database of a restore gbak finished with
	// errors is kept when that is not Database: restore --replace leaves
	// the original as it was and keeps the new one beside it. The log
	// ends with a line that says so (parse.GbakKeptAs), so that its
	// advice names this file, not the original.
	KeptAs string `json:"kept_as,omitempty"`
	// Untouched says that a restore --replace that failed left the
	// database it was to replace as it was (gbak wrote a file of its
	// own): the log ends with a line that says so (parse.GbakUntouched),
	// so that its advice restores again the way that keeps it so.
	Untouched bool `json:"-"`
	// Removed says that fbdiag deleted the database a failed restore had
	// begun: the log ends with a line that says so (parse.GbakRemoved).
	Removed bool `json:"-"`
	// created says that gbak got as far as creating its output ("created
	// database", "creating file"): before that a failed run left nothing.
	created bool
	// lostAfterStep says that output gbak printed after LastStep was
	// lost with its error (runService's gap) before any line saying what
	// failed: gbak may have gone further. failedAfterStep says that such
	// a line came after LastStep: a loss after it is of the failure's
	// words, not of steps.
	lostAfterStep, failedAfterStep bool
	// Failure is what gbak reported failing in a run that went on to
	// its final line (an index it could not build, "Database is not
	// online"): the first such message and its ERROR line; "" when
	// nothing failed.
	Failure    string `json:"failure"`
	failureWhy bool   // Failure has its ERROR line
	// offline says that gbak left the database in single-user
	// maintenance.
	offline bool
	// tmpName is the temporary name the server writes under, and
	// finalName the name the user gave: the log, the durable record of
	// the run, names the final file, as gbak's own log would.
	tmpName, finalName string
	// onCreated, when set, is called once gbak says it created its
	// output, before progress hears of it.
	onCreated func()
}

// named sets the temporary name the server writes the output under and
// the final name that the log gives it.
func (run *GbakRun) named(tmp, final string) {
	if tmp != final {
		run.tmpName, run.finalName = tmp, final
	}
}

// finalNames writes the final name in place of the temporary one.
func (run *GbakRun) finalNames(l []byte) []byte {
	if run.tmpName == "" {
		return l
	}
	return bytes.ReplaceAll(l, []byte(run.tmpName), []byte(run.finalName))
}

// Progress is what a terminal shows while gbak runs: the state after the
// last line, not an event, so that showing only the latest loses nothing.
type Progress struct {
	Elapsed time.Duration // gbak's own T column (time from start) of the last line
	At      time.Time     // when the last line arrived
	Lines   int
	Phase   string // "metadata", "data", "indices" (restore) or "finishing"
	Step    string // the last verbose message, e.g. "restoring data for table ORDERS"
	Kind    parse.GbakKind
	Table   string // data phase: the table being written or restored
	Records int64  // its records so far
	Index   string // index phase: the index being built
	// Occurrence counts the lines with this Step before it, for matching
	// it with an earlier log of the same database.
	Occurrence int
}

// The phases of Progress.
const (
	PhaseMetadata  = "metadata"
	PhaseData      = "data"
	PhaseIndices   = "indices"
	PhaseFinishing = "finishing"
)

// gbak runs one backup/restore service on sm and streams its log to w.
// A log that cannot be written does not stop the service: gbak goes on
// (it could not be stopped anyway), and the caller finishes the files and
// then reports logErr.
func (s Server) gbak(ctx context.Context, sm *fb.ServiceManager, run *GbakRun, spb []byte, w io.Writer, progress func(Progress)) (err, logErr error) {
	run.Started = time.Now().UTC().Truncate(time.Second)
	tr := progressTracker{seen: map[string]int{}}
	err = runService(ctx, sm, spb, func(l []byte) error {
		if len(l) == 0 {
			return nil
		}
		l = run.finalNames(gbakLine(l))
		run.Lines++
		if isFinalLine(l) {
			run.Completed = true
		}
		run.noteFailure(l)
		if p, ok := tr.update(l, time.Now()); ok {
			if !failureWords(p) {
				run.LastStep, run.lostAfterStep, run.failedAfterStep = p.Step, false, false
			} else {
				run.failedAfterStep = true
			}
			if p.Kind == parse.GbakCreateDatabase || (run.Action == "backup" && p.Kind == parse.GbakOpenFile) {
				if !run.created && run.onCreated != nil {
					run.onCreated()
				}
				run.created = true
			}
			if progress != nil {
				progress(p)
			}
		}
		if logErr == nil {
			logErr = writeLine(w, l)
		}
		return nil
	}, func(before, after []byte) error {
		run.lostAfterStep = run.LastStep != "" && !run.failedAfterStep
		if len(before) > 0 && logErr == nil {
			logErr = writeLine(w, []byte(parse.GbakCut+strconv.Quote(string(run.finalNames(gbakLine(before))))))
		}
		if len(after) > 0 && logErr == nil {
			logErr = writeLine(w, []byte(parse.GbakCutAfter+strconv.Quote(string(run.finalNames(after)))))
		}
		return nil
	})
	var fe *fb.FbError
	if errors.As(err, &fe) && ctx.Err() == nil && logErr == nil {
		logErr = writeStatus(w, run, fe.Message)
	}
	return gbakEnd(run, err), logErr
}

// gbakExiting is gbak's last word on a run it abandons (burp msg 83), the
// last message of its status vector.
const gbakExiting = "Exiting before completion due to errors"

// writeStatus writes gbak's error, which the Services API gives as the
// service's status vector and not as output, to the log as the gbak
// command prints it (burp.cpp BURP_print_status, BURP_abort): the first
// message after "gbak: ERROR:", the others indented, then
// "gbak:Exiting before completion due to errors". The log then says why
// the run failed, as gbak's own does, and fbdiag gbak advises on it.
func writeStatus(w io.Writer, run *GbakRun, msg string) error {
	for i, m := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		m = strings.TrimRight(m, " \t\r")
		var l string
		switch {
		case m == gbakExiting:
			l = "gbak:" + m
		case i == 0:
			l = "gbak: ERROR:" + m
		default:
			l = "gbak: ERROR:    " + m
		}
		if err := writeLine(w, run.finalNames([]byte(l))); err != nil {
			return err
		}
	}
	return nil
}

// failureWords reports whether gbak's line p says what failed, not what
// it was doing: the error's "gbak's last step" is the step before it
// ("activating and creating deferred index RDB$PRIMARY1", not
// "ERROR:violation of PRIMARY or UNIQUE KEY constraint …"). The ERROR:
// and WARNING: prefixes are the reader's to tell, not the classifier's.
func failureWords(p Progress) bool {
	switch p.Kind {
	case parse.GbakIndexFailed, parse.GbakNotOnline, parse.GbakExiting:
		return true
	}
	return strings.HasPrefix(p.Step, "ERROR:") || strings.HasPrefix(p.Step, "WARNING:")
}

// gbakEnd is the error of a gbak service that ended with err after run's
// lines: err, or why gbak's log stopped before its final line.
func gbakEnd(run *GbakRun, err error) error {
	var garbled *fb.ErrOpResponse
	switch {
	case err == nil && !run.Completed:
		why := ""
		if run.Action == "restore" {
			// A backup file that ends early (a copy cut short, a disk
			// that filled during the backup): gbak -c asks for the next
			// volume ("Done with volume #1 … Press return to reopen that
			// file", then "Backup incomplete"); through the Services API
			// the service just ends, with no error (Firebird 3.0.11).
			why = ": the server ended the restore without an error, as it does when the backup file ends early " +
				"(a copy cut short, a disk that filled during the backup; gbak -c asks for the next volume there)"
		}
		return fmt.Errorf("gbak stopped before its final line (%s)%s", units.Count(run.Lines, "line"), why)
	case errors.As(err, &garbled) && !run.Completed && run.Action == "restore":
		// The same cut backup, restored again, sometimes ends in a reply
		// the driver cannot read ("Error op_response:291362718", a CI
		// run on 3.0.11) instead: the error alone named no cause.
		return fmt.Errorf("gbak stopped before its final line (%s): the server's reply could not be read (the driver: %v); "+
			"a backup file that ends early (a copy cut short, a disk that filled during the backup) ends a restore so, "+
			"or without an error", units.Count(run.Lines, "line"), err)
	}
	return err
}

var errorPrefix = []byte("ERROR:")

// noteFailure notes the lines by which gbak says that part of the run
// failed although it goes on: "cannot commit index X" and its ERROR
// lines, then "Database is not online due to failure to activate one or
// more indices" (Firebird 3.0.11; testdata/gbak).
func (run *GbakRun) noteFailure(l []byte) {
	rest := bytes.TrimLeft(l[len(gbakPrefix):], " ")
	if m, ok := bytes.CutPrefix(rest, errorPrefix); ok {
		msg := string(bytes.TrimSpace(m))
		switch {
		case run.Failure == "":
			run.Failure, run.failureWhy = msg, true
		case !run.failureWhy:
			// The first ERROR line says why the index failed.
			run.Failure, run.failureWhy = run.Failure+": "+msg, true
		}
		return
	}
	switch parse.ClassifyGbakMessage(string(rest)).Kind {
	case parse.GbakIndexFailed:
		if run.Failure == "" {
			run.Failure = string(rest)
		}
	case parse.GbakNotOnline:
		run.offline = true
		if run.Failure == "" {
			run.Failure, run.failureWhy = string(rest), true
		}
	}
}

// gbakService connects to the service manager for a backup or restore
// and checks that the server understands the options: fail builds the
// error of a refusal.
func (s Server) gbakService(ctx context.Context, parallel int, fail func(Kind, string) error) (*fb.ServiceManager, error) {
	sm, err := s.service(ctx)
	if err != nil {
		return nil, s.fail("connect to", "", err)
	}
	version, err := sm.GetServerVersionString()
	if err == nil {
		if perr := needsServer(parallel, version); perr != nil {
			sm.Close()
			return nil, fail(KindServer, perr.Error())
		}
		return sm, nil
	}
	sm.Close()
	return nil, s.fail("read the version of", "", err)
}

var gbakPrefix = []byte("gbak:")

// gbakLine makes sure a line carries gbak's own "gbak:" prefix, as a
// command-line gbak log does, so the gbak reader reads service logs and
// saved logs alike.
func gbakLine(l []byte) []byte {
	if bytes.HasPrefix(l, gbakPrefix) {
		return l
	}
	return append(append([]byte(nil), gbakPrefix...), l...)
}

// isFinalLine recognises the lines gbak prints when a backup or restore
// completes (msg 176 and 88).
func isFinalLine(l []byte) bool {
	return bytes.Contains(l, []byte("closing file, committing, and finishing")) ||
		bytes.Contains(l, []byte("finishing, closing, and going home"))
}

// progressTracker follows the log for the progress display; each message
// is classified as the gbak reader classifies it.
type progressTracker struct {
	columns int // stats columns announced by the header line
	cur     Progress
	seen    map[string]int // lines per message so far
}

func (t *progressTracker) update(l []byte, now time.Time) (Progress, bool) {
	f := strings.Fields(string(l[len(gbakPrefix):]))
	if len(f) == 0 {
		return t.cur, false
	}
	if f[0] == "time" && t.columns == 0 {
		t.columns = len(f)
		return t.cur, false
	}
	if t.columns > 0 && len(f) > t.columns {
		if sec, err := strconv.ParseFloat(f[0], 64); err == nil {
			t.cur.Elapsed = time.Duration(sec * float64(time.Second))
			f = f[t.columns:]
		}
	}
	msg := strings.Join(f, " ")
	c := parse.ClassifyGbakMessage(msg)
	p := &t.cur
	p.At, p.Step, p.Kind = now, msg, c.Kind
	p.Lines++
	key := msg
	if c.Kind == parse.GbakRecords {
		// "10000 records restored" recurs for every table.
		key = p.Table + "\x00" + msg
	}
	p.Occurrence = t.seen[key]
	if t.seen != nil {
		t.seen[key]++
	}
	switch c.Kind {
	case parse.GbakData:
		p.Phase, p.Table, p.Records, p.Index = PhaseData, c.Name, 0, ""
	case parse.GbakRecords:
		p.Phase, p.Records = PhaseData, c.Count
	case parse.GbakCreateIndexes:
		p.Phase, p.Table, p.Records, p.Index = PhaseIndices, "", 0, ""
	case parse.GbakActivateIndex:
		p.Phase, p.Table, p.Records, p.Index = PhaseIndices, "", 0, c.Name
	case parse.GbakFinishStep, parse.GbakFinish, parse.GbakTotal, parse.GbakOnlineFlags:
		p.Phase, p.Table, p.Records, p.Index = PhaseFinishing, "", 0, ""
	default:
		// The commit after "creating indexes" builds them: still indices.
		if p.Phase != PhaseIndices {
			p.Phase, p.Table, p.Records = PhaseMetadata, "", 0
		}
	}
	return t.cur, true
}
