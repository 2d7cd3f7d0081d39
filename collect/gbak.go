package collect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	fb "github.com/nakagami/firebirdsql"
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
	Started    time.Time `json:"started"`
	Lines      int       `json:"lines"`
	Completed  bool      `json:"completed"` // gbak printed its final "finishing" line
	LastStep   string    `json:"last_step"` // the last verbose message, without the statistics columns
}

// Progress is what a terminal shows while gbak runs.
type Progress struct {
	Elapsed time.Duration // gbak's own T column (time from start)
	Step    string        // the current verbose message, e.g. "restoring data for table ORDERS"
	Table   string        // table whose data is being written or restored
	Records int64         // records of Table so far
}

// RestoreOptions tune a restore. Replace must be set explicitly to
// overwrite an existing database; otherwise the restore runs in create
// mode and an existing database is refused before anything starts.
type RestoreOptions struct {
	Replace  bool
	PageSize int32 // 0 keeps the backup's page size
}

// Backup runs gbak -b -v -st tdrw on the server (database to backupFile,
// both server paths) and streams the verbose log to w, one gbak: line at
// a time. progress, when not nil, is called for each line.
func (s Server) Backup(ctx context.Context, database, backupFile string, w io.Writer, progress func(Progress)) (*GbakRun, error) {
	run := &GbakRun{Server: s.Addr, Action: "backup", Database: database, BackupFile: backupFile}
	spb := fb.NewXPBWriterFromTag(actionBackup).
		PutString(spbDbName, database).
		PutString(spbBkpFile, backupFile).
		PutInt32(spbOptions, defaultBkpOptions).
		PutString(spbBkpStat, GbakStats).
		PutTag(spbVerbose)
	return run, s.gbak(ctx, run, spb.Bytes(), "back up", database, w, progress)
}

// Restore runs gbak -c (or -rep with Replace) -v -st tdrw on the server
// (backupFile to database, both server paths) and streams the verbose log
// to w. Without Replace an existing database is an error of KindExists and
// the server is never asked to restore.
func (s Server) Restore(ctx context.Context, backupFile, database string, opt RestoreOptions, w io.Writer, progress func(Progress)) (*GbakRun, error) {
	run := &GbakRun{Server: s.Addr, Action: "restore", Database: database, BackupFile: backupFile}
	mode := int32(resCreate)
	if opt.Replace {
		mode = resReplace
	} else {
		exists, err := s.Exists(ctx, database)
		if err != nil {
			return run, err
		}
		if exists {
			return run, &Error{Op: "restore to", Object: database, Server: s.Addr, Kind: KindExists}
		}
	}
	spb := fb.NewXPBWriterFromTag(actionRestore).
		PutString(spbDbName, database).
		PutString(spbBkpFile, backupFile).
		PutInt32(spbOptions, mode)
	if opt.PageSize > 0 {
		spb.PutInt32(spbResPageSize, opt.PageSize)
	}
	spb.PutString(spbBkpStat, GbakStats).PutTag(spbVerbose)
	return run, s.gbak(ctx, run, spb.Bytes(), "restore", backupFile+" to "+database, w, progress)
}

// gbak runs one backup/restore service and streams its log.
func (s Server) gbak(ctx context.Context, run *GbakRun, spb []byte, op, object string, w io.Writer, progress func(Progress)) error {
	sm, err := s.service(ctx)
	if err != nil {
		return s.fail("connect to", "", err)
	}
	defer sm.Close()
	run.Started = time.Now().UTC().Truncate(time.Second)
	var tr progressTracker
	err = runService(ctx, sm, spb, func(l []byte) error {
		if len(l) == 0 {
			return nil
		}
		l = gbakLine(l)
		run.Lines++
		if isFinalLine(l) {
			run.Completed = true
		}
		if p, ok := tr.update(l); ok {
			run.LastStep = p.Step
			if progress != nil {
				progress(p)
			}
		}
		return writeLine(w, l)
	})
	if err != nil {
		err = s.fail(op, object, err)
		if ce, ok := err.(*Error); ok && run.LastStep != "" {
			// The log is not kept; say where gbak was.
			ce.After = run.LastStep
		}
		return err
	}
	if !run.Completed {
		return &Error{Op: op, Object: object, Server: s.Addr, Kind: KindServer, After: run.LastStep,
			Detail: fmt.Sprintf("gbak stopped before its final line (%d lines)", run.Lines)}
	}
	return nil
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

// progressTracker follows the log for the progress display only; the
// real analysis is the gbak reader's.
type progressTracker struct {
	columns int // stats columns announced by the header line
	cur     Progress
}

func (t *progressTracker) update(l []byte) (Progress, bool) {
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
	switch {
	case strings.HasPrefix(msg, "restoring data for table "), strings.HasPrefix(msg, "writing data for table "):
		t.cur.Table = f[len(f)-1]
		t.cur.Records = 0
	case len(f) == 3 && f[1] == "records" && (f[2] == "restored" || f[2] == "written"):
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			t.cur.Records = n
		}
	}
	t.cur.Step = msg
	return t.cur, true
}
