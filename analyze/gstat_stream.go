package analyze

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fbdiag/fbdiag/parse"
)

// GstatStream receives a gstat output's analysis as it is read (see
// StreamGstat). Every func may be nil. Table, Run, Sink and Parsed are
// called one at a time, in the order of the input, but not from the
// caller's goroutine; Prepare and EncodeWarning at once on the workers,
// Runs on the parsing goroutine.
type GstatStream struct {
	// Table gets each table once analysed, with its indices; a is its run
	// so far (File, Report, Header, Encryption; the totals and warnings
	// grow as tables come). t is valid until the call returns, its
	// Indices too: the stream fills them again for a later table, so a
	// receiver that keeps t keeps a copy of them (slices.Clone).
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
	// CountWarnings, instead of a Sink, only counts each run's warnings
	// by severity (WarningsOmitted, one per rule and object as ever), for
	// an output that shows none: the workers leave out their reason and
	// advice.
	CountWarnings bool
	// IndexWarningsOnly, with CountWarnings, runs the rules of the
	// indices and of the run but not the tables': for an output that
	// ranks the indices by their warnings and neither shows nor counts
	// any other (csv --table indices without --fail-on). The run's counts
	// (WarningsOmitted, WarningsAtLeast) then leave the tables' out.
	IndexWarningsOnly bool
	// Prepare, when set, runs on the worker that evaluated a table, right
	// after it, so that per-table work (encoding it, say) shares the
	// cores; Table finds its result in GstatAnalysis.Prepared.
	Prepare func(t *TableStats) any
	// EncodeTable, when set, appends to b the bytes of a table (its JSON,
	// say), on the worker that evaluated it, as Prepare would make them.
	// The tables a worker evaluates together are appended one after the
	// other to a buffer the stream keeps, so that Table finds in
	// GstatAnalysis.EncodedTable the bytes of its table and of the tables
	// after it in that buffer, for one write, and nothing for those:
	// copying each table's bytes to the output's buffer, and a pool of
	// buffers, cost 1.5 % of JSON's instructions. b's spare room past
	// what EncodeTable appends may be written (it is the next table's).
	EncodeTable func(b []byte, t *TableStats) ([]byte, error)
	// EncodeWarning, when set with a Sink (and not CountWarnings),
	// appends to b the bytes of a warning a table fired, on the worker
	// that evaluated the table, so that encoding a run's warnings shares
	// the cores too: a sink that is an EncodedWarningSink gets them in
	// PutEncoded, another ignores them. The workers call it at once: it
	// must be safe for concurrent use.
	EncodeWarning func(b []byte, w *Warning) []byte
	// Runs, when set, says which runs (by their 0-based place in the
	// input) are analysed and passed on; the others are read and left
	// out: a reader that keeps a few runs of a file of many (the report)
	// analyses only those.
	Runs func(index int) bool
	// Parsed, when set, gets each table block as parsed (with its
	// indices), or an index block that follows no table, just before
	// Table; the block is valid until it returns (a diff lists the fields
	// a run prints).
	Parsed func(t *parse.GstatTable, ix *parse.GstatIndex)
}

// EncodedWarningSink is a WarningSink that takes, with each warning a
// table fired, what GstatStream.EncodeWarning made of it; enc is valid
// until PutEncoded returns. The warnings that fire elsewhere (header,
// unattached indices, end of the run) come to Put.
type EncodedWarningSink interface {
	WarningSink
	PutEncoded(id int, w Warning, enc []byte) error
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
	// scan is the run's scan and proto what evaluating its tables needs,
	// both made by the parsing goroutine when the run's first block came.
	scan  *GstatScan
	proto *tableEval
	// ts and fired are the table's evaluation, done by a worker, and
	// prepared what GstatStream.Prepare made of it.
	ts       TableStats
	fired    []Warning
	prepared any
	// encTable and encTableErr are what GstatStream.EncodeTable made of
	// the table: in its batch's tables, or (a block read in order, with
	// no batch) in room of its own, kept for the next table's.
	encTable    []byte
	encTableErr error
	// encBase is the first byte of the batch's buffer that encTable is
	// in, nil when it is in room of its own: tables whose bytes follow
	// one another are joined only within one buffer (joinTables).
	encBase *byte
	// enc holds EncodeWarning's bytes of fired, each ending at its
	// encEnds entry.
	enc     []byte
	encEnds []int
	// spent is, in a batch back from the worker that handed it on, the table
	// its event held, for the parser's pool: nothing points into it any
	// more (TableStats copies what it needs). indices is the slice of
	// IndexStats the event's table had, for the next table's (Table's
	// receiver is done with them).
	spent   *parse.GstatTable
	indices []IndexStats
}

// reset empties ev for the next table, keeping the room of its slices
// (the IndexStats the evaluation filled, when it was not handed on);
// spent is the table it held, for the pool of the parser's goroutine.
// ts is left as it is: tableStats writes the whole of it before anything
// reads it, and clearing its 350 bytes a table cost 0.6 % of a text run.
func (ev *streamEvent) reset(spent *parse.GstatTable) {
	if ev.ts.Indices != nil {
		ev.indices = ev.ts.Indices
	}
	ev.rep, ev.header, ev.table, ev.index, ev.scan, ev.proto, ev.prepared = nil, nil, nil, nil, nil, nil, nil
	ev.encTable, ev.encTableErr, ev.encBase = ev.encTable[:0], nil, nil
	ev.fired, ev.enc, ev.encEnds, ev.spent = ev.fired[:0], ev.enc[:0], ev.encEnds[:0], spent
}

// eventBatch is a batch of events on its way from the parser to a worker,
// which evaluates its tables and then, in its turn, hands them on.
type eventBatch struct {
	evs []streamEvent
	// tables holds the bytes GstatStream.EncodeTable made of the tables
	// of evs, one after the other.
	tables []byte
	// turn is closed once the batch before this one is handed on (nil for
	// the first); handled once this one is.
	turn, handled chan struct{}
}

// StreamGstat reads a gstat output and analyses it table by table: one
// goroutine parses, workers (one per core) evaluate the tables of a
// batch each and then, in the order of the input, one batch at a time,
// add them to the run and hand them to the receivers, so every core
// shares the work and memory holds a few batches of table blocks, not
// the run. The receivers are called one at a time, in the order of the
// input, from the workers' goroutines: a receiver needs no lock, but
// must not expect the caller's goroutine. The analyses are those of
// GstatWith: the same figures and the same warnings. Errors are those of
// parse.EachGstat, or the first one a receiver returns.
//
// A batch is handed on by the worker that evaluated it, not by one
// goroutine for all: a table's figures, fired warnings and encoded bytes
// are then read on the core that wrote them, which takes 3 to 8 % less
// CPU on two cores than reading them on the other one (README,
// Performance). Memory holds at most twice as many batches as workers,
// and one more.
//
// On more than one core, UTF-8 text is read on the workers too (the
// lanes, gstat_lanes.go): cut into pieces of about a hundred table
// blocks, each read on its own and evaluated on one worker, then taken
// in its turn, or read in order there when it cannot be; the reader's
// goroutine, which bound text and markdown, only cuts. A piece and its
// tables a worker: the same memory.
func StreamGstat(rd io.Reader, name string, th Thresholds, opt GstatOptions, s GstatStream) error {
	workers := max(1, runtime.GOMAXPROCS(0))
	work := make(chan *eventBatch, workers)
	// free holds the batches the workers are done with, for the parser
	// to fill again: their events and warning slices are reused. Room for
	// every batch in flight: those in work, one a worker, the parser's.
	free := make(chan *eventBatch, 2*workers+1)
	h := &streamHandler{s: s, stop: make(chan struct{})}
	encode := s.EncodeWarning
	if s.Sink == nil || s.CountWarnings {
		encode = nil
	}
	if workers > 1 && !noLanes {
		plain, r := plainHead(rd)
		if plain {
			return streamLanes(r, name, th, opt, h, workers, encode)
		}
		rd = r
	}
	type parsed struct {
		err  error
		last chan struct{} // the handled of the last batch sent, or nil
	}
	perr := make(chan parsed, 1)
	for range workers {
		go h.work(work, free, encode)
	}
	go func() {
		defer close(work)
		var last chan struct{}
		defer func() {
			if r := recover(); r != nil { // (raised again on the caller's goroutine)
				h.recovered(r)
				perr <- parsed{errStopped, last}
			}
		}()
		pool := new(parse.GstatPool)
		newBatch := func() *eventBatch {
			select {
			case b := <-free:
				evs := b.evs[:cap(b.evs)] // (emptied: the events are past its length)
				for i := range evs {
					if t := evs[i].spent; t != nil {
						pool.Put(t)
						evs[i].spent = nil
					}
				}
				return b
			default:
				return &eventBatch{evs: make([]streamEvent, 0, streamBatch)}
			}
		}
		batch := newBatch()
		var scan *GstatScan
		var proto *tableEval
		var scanRep *parse.GstatReport
		flush := func() error {
			batch.turn, batch.handled = last, make(chan struct{})
			select {
			case work <- batch:
			case <-h.stop:
				return errStopped
			}
			last = batch.handled
			batch = newBatch()
			return nil
		}
		// send fills the batch's next event in place: an event is some 500
		// bytes (its TableStats), which a literal passed by value and
		// appended took two copies of, a table.
		send := func(rep *parse.GstatReport, t *parse.GstatTable, ix *parse.GstatIndex, end bool) error {
			if scan == nil || scanRep != rep {
				scan, proto = s.newScan(rep, rep.Header, th, opt)
				scanRep = rep
			}
			n := len(batch.evs)
			if n < cap(batch.evs) {
				// (reset, or never used: the slices a worker filled before)
				batch.evs = batch.evs[:n+1]
			} else {
				batch.evs = append(batch.evs, streamEvent{})
			}
			ev := &batch.evs[n]
			ev.rep, ev.header, ev.table, ev.index, ev.scan, ev.proto = rep, rep.Header, t, ix, scan, proto
			if end {
				scan = nil
			}
			if !end && len(batch.evs) < streamBatch {
				return nil
			}
			return flush()
		}
		skip := func(rep *parse.GstatReport) bool { return s.Runs != nil && !s.Runs(rep.Index) }
		err := parse.EachGstatBlock(rd, name, parse.GstatBlocks{
			Table: func(rep *parse.GstatReport, t *parse.GstatTable) error {
				if skip(rep) {
					pool.Put(t)
					return nil
				}
				return send(rep, t, nil, false)
			},
			Unattached: func(rep *parse.GstatReport, ix *parse.GstatIndex) error {
				if skip(rep) {
					return nil
				}
				return send(rep, nil, ix, false)
			},
			Report: func(rep *parse.GstatReport) error {
				if skip(rep) {
					return nil
				}
				return send(rep, nil, nil, true)
			},
			Pool: pool,
		})
		if err == nil && len(batch.evs) > 0 {
			err = flush()
		}
		perr <- parsed{err, last}
	}()

	p := <-perr
	if p.last != nil {
		<-p.last // (every batch sent is handed on, or skipped after an error)
	}
	return h.result(p.err)
}

// result ends a stream whose last batch is handled, with perr the
// reading's error: the first panic raised again, else the first
// receiver's error, else the run held back handed on and perr.
func (h *streamHandler) result(perr error) error {
	if h.scan != nil {
		h.scan.c.closeSunk() // (a run cut by an error: its temporary files go)
	}
	if p := h.panicked.Load(); p != nil {
		panic(p)
	}
	if h.err != nil {
		return h.err
	}
	if h.held != nil && !errors.Is(perr, parse.ErrNoGstat) {
		h.handle(h.held)
		if h.err != nil {
			return h.err
		}
	}
	return perr
}

// streamHandler hands a stream's evaluated events on to its receivers,
// in the order of the input: the worker whose batch's turn it is holds
// it, the one after waits for the batch's handled.
type streamHandler struct {
	s    GstatStream
	scan *GstatScan // the run being handed on
	err  error      // the first error: the batches after it are skipped
	// held is a run that ended with nothing in it but notices, held back
	// until the parser says whether anything follows: an input with no
	// gstat output at all (parse.ErrNoGstat) is an error, and no receiver
	// sees its empty run; a run like it among others is passed on in its
	// place.
	held *streamEvent
	// stop is closed at the first error, for the parser to end; stopped
	// says so to the workers, which then leave the tables unevaluated.
	stop     chan struct{}
	stopped  atomic.Bool
	stopOnce sync.Once
	panicked atomic.Pointer[streamPanic]
}

// newScan is the scan of run rep (its header h) for this stream, and the
// evaluator prototype its workers copy: an output that shows no warning
// has them counted without their texts, and one that ranks indices alone
// has no table rules run (CountWarnings, IndexWarningsOnly).
func (s *GstatStream) newScan(rep *parse.GstatReport, h *parse.GstatHeader, th Thresholds, opt GstatOptions) (*GstatScan, *tableEval) {
	scan := NewGstatScan(rep.File, rep.Index, h, th, opt)
	scan.c.textless = s.CountWarnings
	scan.c.noTables = s.CountWarnings && s.IndexWarningsOnly
	return scan, scan.newEval()
}

// evaluator is the evaluator of this stream's workers; encode encodes
// the warnings they fire (nil: none).
func (s *GstatStream) evaluator(encode func([]byte, *Warning) []byte) evaluator {
	return evaluator{prepare: s.Prepare, encodeTable: s.EncodeTable, encode: encode}
}

// handleBatch hands on the events of b, in its turn.
func (h *streamHandler) handleBatch(b *eventBatch) {
	spanEnd := 0 // the events before it have their tables' bytes handed on
	for i := range b.evs {
		ev := &b.evs[i]
		if h.err != nil {
			return
		}
		if ev.table != nil && h.s.EncodeTable != nil {
			if i >= spanEnd {
				spanEnd = joinTables(b.evs, i)
			} else {
				ev.encTable = ev.encTable[:0] // (handed on with an earlier table's)
			}
		}
		if h.held != nil {
			h.handle(h.held)
			h.held = nil
			if h.err != nil {
				return
			}
		}
		if h.scan != ev.scan && ev.table == nil && ev.index == nil && emptyRun(ev.rep) {
			h.held = new(streamEvent)
			*h.held = *ev
			continue
		}
		h.handle(ev)
	}
}

// joinTables makes the bytes of evs[i]'s table those of the tables of
// its run from it on that lie one after the other in one buffer, and
// returns the index of the first event past them.
func joinTables(evs []streamEvent, i int) int {
	first := &evs[i]
	if first.encTableErr != nil {
		return i + 1
	}
	n, j := len(first.encTable), i+1
	for ; j < len(evs); j++ {
		ev, prev := &evs[j], &evs[j-1]
		// The addresses compared as numbers: a pointer made to the end of
		// prev's bytes would point past its buffer when they end it (Go's
		// unsafe rules forbid that; the race detector's checkptr stopped
		// the tests on it), and only tables of one buffer may be joined.
		if ev.table == nil || ev.encTableErr != nil || ev.scan != first.scan || first.encBase == nil || ev.encBase != first.encBase ||
			uintptr(unsafe.Pointer(unsafe.SliceData(ev.encTable))) != uintptr(unsafe.Pointer(unsafe.SliceData(prev.encTable)))+uintptr(len(prev.encTable)) {
			break
		}
		n += len(ev.encTable)
	}
	if j > i+1 {
		first.encTable = unsafe.Slice(unsafe.SliceData(first.encTable), n)
	}
	return j
}

// handle adds ev to its run and passes it to the receivers; an error
// goes to h.err, and stops the parser.
func (h *streamHandler) handle(ev *streamEvent) {
	s := &h.s
	if h.scan != ev.scan {
		h.scan = ev.scan
		if s.WarningLimit > 0 {
			h.scan.LimitWarnings(s.WarningLimit)
		}
		switch {
		case s.CountWarnings:
			h.scan.SinkWarnings(counted{})
		case s.Sink != nil:
			h.scan.SinkWarnings(s.Sink(h.scan.a))
		}
	}
	scan := h.scan
	var err error
	switch {
	case ev.table != nil:
		if s.Parsed != nil {
			s.Parsed(ev.table, nil)
		}
		t := scan.addEncoded(&ev.ts, ev.fired, ev.enc, ev.encEnds)
		scan.a.prepared = ev.prepared
		scan.a.encTable, scan.a.encTableErr = ev.encTable, ev.encTableErr
		ev.indices = ev.ts.Indices
		if err = scan.Err(); err == nil && s.Table != nil {
			err = s.Table(scan.a, t)
		}
		scan.a.tableWarnings = nil // ev.fired is filled again
		scan.a.encTable, scan.a.encTableErr = nil, nil
	case ev.index != nil:
		if s.Parsed != nil {
			s.Parsed(nil, ev.index)
		}
		scan.Unattached(ev.index)
	default:
		if scan.a.Header == nil && ev.header != nil && ev.header.HeaderPage {
			scan.setHeader(ev.header) // printed after tables (an edited file): those tables had no page size
		}
		a := scan.Finish(ev.rep.Findings, ev.rep.Notices)
		if err = scan.Err(); err == nil && s.Run != nil {
			err = s.Run(a, ev.rep)
		}
		h.scan = nil
	}
	if err != nil {
		h.err = err
		h.halt()
	}
}

// halt tells the parser and the workers to stop.
func (h *streamHandler) halt() {
	h.stopped.Store(true)
	h.stopOnce.Do(func() { close(h.stop) })
}

// recovered keeps the first panic of the stream's goroutines, for the
// caller's goroutine to raise again, and stops the stream.
func (h *streamHandler) recovered(r any) {
	h.panicked.CompareAndSwap(nil, &streamPanic{Value: r, Stack: debug.Stack()})
	h.halt()
}

// catch, deferred on a worker, recovers its panic (recovered).
func (h *streamHandler) catch() {
	if r := recover(); r != nil {
		h.recovered(r)
	}
}

// streamPanic is a panic on one of StreamGstat's goroutines (a
// receiver's, say), raised again on the caller's once the stream has
// stopped, so that a recover there sees it as when one goroutine did all.
type streamPanic struct {
	Value any
	Stack []byte // where it was raised
}

func (p *streamPanic) Error() string {
	return fmt.Sprintf("%v\n\nraised on a goroutine of analyze.StreamGstat:\n%s", p.Value, p.Stack)
}

// Unwrap returns the panic's value when it is an error (a runtime error).
func (p *streamPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// emptyRun reports, of a run whose end is its first event (no table
// and no unattached index came before it), that nothing else was read
// in it either: notices at most.
func emptyRun(rep *parse.GstatReport) bool {
	return rep.Header == nil && len(rep.Findings) == 0 && len(rep.Sections) == 0 && rep.Completion == nil
}

// work evaluates the tables of each batch with an evaluator of its own
// per run (its own slab and fired list), encodes the warnings they fired
// when encode is set, waits for the batch's turn and hands it on, then
// gives it back to the parser.
func (h *streamHandler) work(work <-chan *eventBatch, free chan<- *eventBatch, encode func([]byte, *Warning) []byte) {
	v := h.s.evaluator(encode)
	evaluate := func(b *eventBatch) {
		defer h.catch()
		v.batch(b, &h.stopped)
	}
	handOn := func(b *eventBatch) {
		defer h.catch()
		if !h.stopped.Load() {
			h.handleBatch(b)
		}
	}
	for b := range work {
		evaluate(b)
		if b.turn != nil {
			<-b.turn
		}
		handOn(b)
		for i := range b.evs {
			b.evs[i].reset(b.evs[i].table)
		}
		b.evs = b.evs[:0]
		close(b.handled)
		select {
		case free <- b:
		default:
		}
	}
}

// evaluator evaluates a worker's tables, with an evaluator of its own
// per run (its own slab and fired list), encoding the warnings they
// fired when encode is set and preparing them when prepare is.
type evaluator struct {
	proto       *tableEval
	e           tableEval
	prepare     func(*TableStats) any
	encodeTable func([]byte, *TableStats) ([]byte, error)
	encode      func([]byte, *Warning) []byte
	// tables, while a batch is evaluated, is its buffer of the tables'
	// bytes; nil for a block read in order.
	tables *[]byte
}

// batch evaluates the table events of b, their bytes in b.tables.
func (v *evaluator) batch(b *eventBatch, stopped *atomic.Bool) {
	b.tables = b.tables[:0]
	v.tables = &b.tables
	defer func() { v.tables = nil }()
	for i := range b.evs {
		if ev := &b.evs[i]; ev.table != nil && !stopped.Load() {
			v.event(ev)
		}
	}
}

// event evaluates the table of ev for its run (ev.proto).
func (v *evaluator) event(ev *streamEvent) {
	if ev.proto != v.proto {
		v.proto, v.e = ev.proto, *ev.proto
		v.e.env.sl = newSlab()
	}
	ev.fired = v.e.table(&ev.ts, ev.table, ev.fired, ev.indices)
	if v.encode != nil {
		ev.enc, ev.encEnds = ev.enc[:0], ev.encEnds[:0]
		for j := range ev.fired {
			ev.enc = v.encode(ev.enc, &ev.fired[j])
			ev.encEnds = append(ev.encEnds, len(ev.enc))
		}
	}
	if v.prepare != nil {
		ev.prepared = v.prepare(&ev.ts)
	}
	switch {
	case v.encodeTable == nil:
	case v.tables != nil:
		at := len(*v.tables)
		b, err := v.encodeTable(*v.tables, &ev.ts)
		ev.encTable, ev.encTableErr, ev.encBase = nil, err, nil
		if err == nil {
			*v.tables = b
			ev.encTable, ev.encBase = b[at:len(b):len(b)], unsafe.SliceData(b)
		}
	default:
		ev.encTable, ev.encTableErr = v.encodeTable(ev.encTable[:0], &ev.ts)
		ev.encBase = nil
	}
}

// counted is the sink of GstatStream.CountWarnings: the checker counts
// what it is given.
type counted struct{}

func (counted) Put(int, Warning) error { return nil }
func (counted) Drop(int) error         { return nil }

type stoppedError struct{}

func (stoppedError) Error() string { return "stopped" }

var errStopped error = stoppedError{}
