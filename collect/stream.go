package collect

import (
	"bytes"
	"context"
	"errors"
	"io"

	fb "github.com/nakagami/firebirdsql"
)

// SPB items and actions (ibase.h / consts_pub.h); the driver keeps its
// copies unexported.
const (
	actionBackup   = 1   // isc_action_svc_backup
	actionRestore  = 2   // isc_action_svc_restore
	actionDbStats  = 11  // isc_action_svc_db_stats
	spbBkpFile     = 5   // isc_spb_bkp_file
	spbBkpStat     = 15  // isc_spb_bkp_stat = isc_spb_res_stat ("TDRW")
	spbCommandLine = 105 // isc_spb_command_line
	spbDbName      = 106 // isc_spb_dbname
	spbVerbose     = 107 // isc_spb_verbose
	spbOptions     = 108 // isc_spb_options
	resCreate      = 0x2000
	spbResPageSize = 10 // isc_spb_res_page_size
)

// lineSplitter turns the service's output chunks into lines, calling
// line for each complete one (without the newline, trailing blanks
// removed). Memory is one line.
type lineSplitter struct {
	partial []byte
	line    func([]byte) error
	// next, when set, takes the next line instead of line, once: the
	// first after output was lost (runService).
	next func([]byte) error
}

// emit hands l on: to next once when set, else to line.
func (ls *lineSplitter) emit(l []byte) error {
	if next := ls.next; next != nil {
		ls.next = nil
		return next(l)
	}
	return ls.line(l)
}

func (ls *lineSplitter) write(chunk []byte) error {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			ls.partial = append(ls.partial, chunk...)
			return nil
		}
		var l []byte
		if len(ls.partial) > 0 {
			ls.partial = append(ls.partial, chunk[:i]...)
			l = ls.partial
		} else {
			l = chunk[:i]
		}
		if err := ls.emit(bytes.TrimRight(l, " \t\r")); err != nil {
			return err
		}
		ls.partial = ls.partial[:0]
		chunk = chunk[i+1:]
	}
	return nil
}

func (ls *lineSplitter) flush() error {
	if len(ls.partial) == 0 {
		return nil
	}
	l := bytes.TrimRight(ls.partial, " \t\r")
	ls.partial = ls.partial[:0]
	if len(l) == 0 {
		return nil
	}
	return ls.emit(l)
}

// runService starts a service with spb and streams its whole output
// (isc_info_svc_to_eof, in large chunks) to line. It returns when the
// service has finished; a dropped connection or a failure the server
// reports is an error.
//
// Firebird sends a service's error in the reply that carries the output
// it has not yet sent (JService::query copies the service's status after
// query2 filled the buffer), and reports it once; the driver
// (nakagami/firebirdsql v0.9.23, getServiceInfo) returns the error and
// drops that reply's output: the last lines gbak printed before failing,
// up to a kilobyte. A restore stopped at a duplicate primary key lost its
// "Problematic key value is (…)" line so, every time (Firebird 3.0.11). So
// after such an error the rest of the output, if there is more, is read
// too (a CI run under load got the end of that line so), and gap, when not
// nil, is told where the loss is, where the lines go: before, the line the
// lost part cut short (nil when the output ended at a line's end), and
// after, the first line read after it (nil when none came), which may be
// the end of a line whose start was lost. It is not called when both are
// nil: a loss between whole lines leaves no trace.
func runService(ctx context.Context, sm *fb.ServiceManager, spb []byte, line func([]byte) error, gap func(before, after []byte) error) error {
	if err := sm.ServiceStartContext(ctx, spb); err != nil {
		return err
	}
	ls := &lineSplitter{line: line}
	err := streamService(ctx, sm, ls)
	var fe *fb.FbError
	if gap != nil && errors.As(err, &fe) && ctx.Err() == nil {
		before := bytes.TrimRight(ls.partial, " \t\r")
		ls.partial = nil
		told := false
		ls.next = func(after []byte) error {
			told = true
			return gap(before, after)
		}
		// (An error of its own here, the connection lost, leaves the
		// server's first.)
		if streamService(ctx, sm, ls) == nil {
			if werr := ls.flush(); werr != nil {
				return werr
			}
		}
		if !told && len(before) > 0 {
			if werr := gap(before, nil); werr != nil {
				return werr
			}
		}
		return err
	}
	if err != nil {
		return err
	}
	return ls.flush()
}

// streamService hands the service's output to ls until its end or an
// error; a line ls could not take is the error.
func streamService(ctx context.Context, sm *fb.ServiceManager, ls *lineSplitter) error {
	chunks := make(chan []byte, 16)
	done := make(chan error, 1)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		done <- sm.WaitBufferContext(sctx, chunks)
		close(chunks)
	}()
	var werr error
	for c := range chunks {
		if werr == nil {
			if werr = ls.write(c); werr != nil {
				cancel() // stop reading; the connection is abandoned
			}
		}
	}
	err := <-done
	if werr != nil {
		return werr
	}
	return err
}

// writeLine writes l and a newline.
func writeLine(w io.Writer, l []byte) error {
	if _, err := w.Write(l); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}
