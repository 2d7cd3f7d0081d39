package analyze

import (
	"io"

	"github.com/fbdiag/fbdiag/parse"
)

// GstatStream receives a gstat output's analysis as it is read (see
// StreamGstat). Every func may be nil.
type GstatStream struct {
	// Table gets each table once analysed, with its indices; a is its run
	// so far (File, Report, Header, Encryption; the totals and warnings
	// grow as tables come). t is valid until the call returns.
	Table func(a *GstatAnalysis, t *TableStats) error
	// Run gets each run's analysis when the run ends: header, totals,
	// warnings, findings, notices and unattached indices, but no tables.
	// rep is the parsed run without its tables (sections, completion).
	Run func(a *GstatAnalysis, rep *parse.GstatReport) error
	// WarningLimit, above 0, keeps only that many warnings, the worst,
	// and counts the rest (GstatScan.LimitWarnings).
	WarningLimit int
	// Sink, when set, is asked for each run's WarningSink when the run
	// starts (a: its file, report and header): the warnings go there as
	// they fire and the run's analysis only counts them.
	Sink func(a *GstatAnalysis) WarningSink
}

// streamBatch is how many tables the parsing goroutine hands over at a
// time: few enough to keep memory flat, enough that the hand-over costs
// nothing next to the parsing.
const streamBatch = 64

type streamEvent struct {
	rep    *parse.GstatReport
	header *parse.GstatHeader // rep.Header when the event was sent
	table  *parse.GstatTable  // a table block, or
	index  *parse.GstatIndex  // an unattached index, or neither: the run ended
}

// StreamGstat reads a gstat output and analyses it table by table: one
// goroutine parses while the caller's analyses and writes, so two cores
// share the work, and memory holds a few dozen table blocks, not the
// run. The analyses are those of GstatWith: the same figures and the
// same warnings. Errors are those of parse.EachGstat, or the first one a
// receiver returns.
func StreamGstat(rd io.Reader, name string, th Thresholds, opt GstatOptions, s GstatStream) error {
	batches := make(chan []streamEvent, 4)
	stop := make(chan struct{})
	perr := make(chan error, 1)
	go func() {
		defer close(batches)
		var batch []streamEvent
		flush := func() error {
			select {
			case batches <- batch:
				batch = make([]streamEvent, 0, streamBatch)
				return nil
			case <-stop:
				return errStopped
			}
		}
		send := func(ev streamEvent, end bool) error {
			batch = append(batch, ev)
			if !end && len(batch) < streamBatch {
				return nil
			}
			return flush()
		}
		err := parse.EachGstatBlock(rd, name, parse.GstatBlocks{
			Table: func(rep *parse.GstatReport, t *parse.GstatTable) error {
				return send(streamEvent{rep: rep, header: rep.Header, table: t}, false)
			},
			Unattached: func(rep *parse.GstatReport, ix *parse.GstatIndex) error {
				return send(streamEvent{rep: rep, header: rep.Header, index: ix}, false)
			},
			Report: func(rep *parse.GstatReport) error {
				return send(streamEvent{rep: rep, header: rep.Header}, true)
			},
		})
		if err == nil && len(batch) > 0 {
			err = flush()
		}
		perr <- err
	}()

	var scan *GstatScan
	var scanRep *parse.GstatReport
	var err error
	for batch := range batches {
		for _, ev := range batch {
			if err != nil || ev.rep == nil {
				continue
			}
			if scan == nil || scanRep != ev.rep {
				scan, scanRep = NewGstatScan(ev.rep.File, ev.rep.Index, ev.header, th, opt), ev.rep
				if s.WarningLimit > 0 {
					scan.LimitWarnings(s.WarningLimit)
				}
				if s.Sink != nil {
					scan.SinkWarnings(s.Sink(scan.a))
				}
			}
			switch {
			case ev.table != nil:
				t := scan.Table(ev.table)
				if err = scan.Err(); err == nil && s.Table != nil {
					err = s.Table(scan.a, t)
				}
			case ev.index != nil:
				scan.Unattached(ev.index)
			default:
				if scan.a.Header == nil && ev.header != nil && ev.header.HeaderPage {
					scan.setHeader(ev.header) // printed after tables (an edited file): those tables had no page size
				}
				a := scan.Finish(ev.rep.Findings, ev.rep.Notices)
				if err = scan.Err(); err == nil && s.Run != nil {
					err = s.Run(a, ev.rep)
				}
				scan = nil
			}
		}
		if err != nil {
			close(stop)
			for range batches { // let the parser see the stop and end
			}
			<-perr
			return err
		}
	}
	return <-perr
}

type stoppedError struct{}

func (stoppedError) Error() string { return "stopped" }

var errStopped error = stoppedError{}
