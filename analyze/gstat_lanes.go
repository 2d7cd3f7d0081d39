package analyze

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"sync/atomic"

	"github.com/fbdiag/fbdiag/parse"
)

// Lanes: StreamGstat's reading of plain text on every core. The input
// is cut into pieces at table blocks (parse.GstatCut); each piece is
// read on its own (parse.SpeculateGstat) and its tables evaluated and
// encoded on one worker, so that a table's text, records and figures
// stay on the core that made them. Then, in its turn, the worker takes
// the piece in the place of reading it in order (GstatChunks.Accept)
// when the reading in order reaches it in the state it was read from,
// and hands its tables on; else it reads it in order there, with the
// state of the reading (laneChain), which goes from turn to turn.

// noLanes turns the lanes off (TestStreamGstatAgrees compares both
// readings with the whole).
var noLanes = false

// lanePiece is the size of a piece, cut at the first table block past
// it: about a hundred tables. With two workers, pieces of 256 KiB and
// two spare jobs held 51–88 MB at 300 MiB (text, JSON); 128 KiB and no
// spare job, 39–48 MB, and as fast (text of the fdb-made 300 MiB file
// 0.41–0.44 s against 0.44–0.49 s; a variable for the tests, which cut
// small files).
var lanePiece = 128 << 10

// laneMaxPiece bounds a piece with no table block to cut at: the rest of
// the input is then read in order (gstat prints a table block every few
// kilobytes; lone CR line ends have no LF to cut at). A variable for
// the tests.
var laneMaxPiece = 1 << 20

// laneJob is a piece on its way: cut by the reader, read and evaluated
// on a worker, then, in its turn, handed on; then back to the reader.
type laneJob struct {
	buf  []byte // the piece
	spec parse.GstatSpec
	pool parse.GstatPool
	// batch is the piece's tables but its last, evaluated for the run of
	// proto (nil: not evaluated).
	batch eventBatch
	proto *tableEval
	// first: the input's first piece, which the reading in order cannot
	// take (it has read no run yet) and is not read on its own.
	first, last bool
	// rest, set on the last job, is the input from buf on, to be read in
	// order: a read error, or no table block to cut at.
	rest          io.Reader
	turn, handled chan struct{}
}

// lanePub is the run the reading in order is in, for the workers to
// evaluate their pieces' tables for.
type lanePub struct {
	scan  *GstatScan
	proto *tableEval
}

// laneChain is the reading in order and its run, held by the worker
// whose turn it is.
type laneChain struct {
	c       *parse.GstatChunks
	scan    *GstatScan
	proto   *tableEval
	scanRep *parse.GstatReport
	// v is the evaluator of the worker in turn; c reads with the pool of
	// its piece (SetPool).
	v   *evaluator
	one eventBatch // an event read in order, handed on at once
	err error      // the reading's, once the input is read
}

// laneSet runs the lanes of one input.
type laneSet struct {
	h    *streamHandler
	name string
	th   Thresholds
	opt  GstatOptions
	ch   laneChain
	pub  atomic.Pointer[lanePub]
	free chan *laneJob
}

// streamLanes is StreamGstat on lanes, for plain text read by more than
// one worker.
func streamLanes(rd io.Reader, name string, th Thresholds, opt GstatOptions, h *streamHandler, workers int, encode func([]byte, *Warning) []byte) error {
	// A job a worker: a spare one, read ahead while both workers are
	// busy, gained nothing measurable and held a piece, its records and
	// its evaluated tables more.
	l := &laneSet{h: h, name: name, th: th, opt: opt, free: make(chan *laneJob, workers)}
	for range cap(l.free) {
		l.free <- &laneJob{}
	}
	l.ch.c = parse.NewGstatChunks(name, l.blocks())
	l.ch.one.evs = make([]streamEvent, 0, 1)
	work := make(chan *laneJob, workers)
	for range workers {
		go l.lane(work, h.s.evaluator(encode))
	}
	last := make(chan chan struct{}, 1)
	go l.read(rd, work, last)
	if c := <-last; c != nil {
		<-c
	}
	return h.result(l.ch.err)
}

// read cuts rd into pieces, each given to a worker with its turn, then
// sends the handled of the last one sent (nil if none) on last.
func (l *laneSet) read(rd io.Reader, work chan<- *laneJob, last chan<- chan struct{}) {
	defer close(work)
	var prev chan struct{}
	defer func() {
		if r := recover(); r != nil { // (raised again on the caller's goroutine)
			l.h.recovered(r)
		}
		last <- prev
	}()
	var carry []byte // the bytes past the last cut
	var rerr error
	eof := false
	for first := true; ; first = false {
		var job *laneJob
		select {
		case job = <-l.free:
		case <-l.h.stop:
			return
		}
		buf := append(job.buf[:0], carry...)
		cut := -1
		// The first piece is read in order alone: cut short, the run it
		// starts is known before the next piece, read on its own meanwhile,
		// is to be evaluated for it.
		size := lanePiece
		if first {
			size = lanePiece / 8
		}
		for {
			if len(buf) > size {
				if cut = parse.GstatCut(buf, size); cut >= 0 {
					break
				}
			}
			if eof || rerr != nil || len(buf) >= laneMaxPiece {
				break
			}
			buf = slices.Grow(buf, 64<<10)
			// (64 KiB at most: what is read past the cut is copied to the
			// next piece.)
			n, err := rd.Read(buf[len(buf) : len(buf)+64<<10])
			buf = buf[:len(buf)+n]
			switch {
			case err == io.EOF:
				eof = true
			case err != nil:
				rerr = err
			}
		}
		job.buf, job.first, job.last, job.rest = buf, first, false, nil
		switch {
		case cut >= 0:
			carry = append(carry[:0], buf[cut:]...)
			job.buf = buf[:cut]
		case eof && rerr == nil:
			job.last = true
		case rerr != nil:
			job.rest, job.last = io.MultiReader(bytes.NewReader(buf), errReader{rerr}), true
		default: // (no table block to cut at)
			job.rest, job.last = io.MultiReader(bytes.NewReader(buf), rd), true
		}
		job.turn, job.handled = prev, make(chan struct{})
		select {
		case work <- job:
		case <-l.h.stop:
			return
		}
		prev = job.handled
		if job.last {
			return
		}
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// lane reads and evaluates pieces, and hands each on in its turn.
func (l *laneSet) lane(work <-chan *laneJob, v evaluator) {
	h := l.h
	evaluate := func(job *laneJob) {
		defer h.catch()
		job.proto = nil
		if job.first || job.rest != nil || h.stopped.Load() {
			return
		}
		parse.SpeculateGstat(job.buf, l.name, &job.pool, &job.spec)
		pub := l.pub.Load()
		if pub == nil || !job.spec.OK() {
			return
		}
		job.proto = pub.proto
		evs := job.batch.evs[:0]
		for _, t := range job.spec.Tables {
			if n := len(evs); n < cap(evs) {
				evs = evs[:n+1]
			} else {
				evs = append(evs, streamEvent{})
			}
			ev := &evs[len(evs)-1]
			ev.table, ev.scan, ev.proto = t, pub.scan, pub.proto
		}
		job.batch.evs = evs
		v.batch(&job.batch, &h.stopped)
	}
	handOn := func(job *laneJob) {
		defer h.catch()
		if !h.stopped.Load() {
			l.handOn(job, &v)
		}
	}
	for job := range work {
		evaluate(job)
		if job.turn != nil {
			<-job.turn
		}
		handOn(job)
		l.recycle(job)
		close(job.handled)
		l.free <- job
	}
}

// handOn takes job's piece in the reading in order, in its turn.
func (l *laneSet) handOn(job *laneJob, v *evaluator) {
	ch, h := &l.ch, l.h
	// The reading in order takes its records from the pool it puts them
	// back into: read in order to the end (a lone CR input, which has no
	// LF to cut at), the tables went into one pool and never came out
	// (311 MB for 300 MiB).
	ch.v = v
	ch.c.SetPool(&job.pool)
	defer func() {
		ch.v = nil
		ch.c.SetPool(nil)
	}()
	if job.rest != nil {
		ch.err = ch.c.Rest(job.rest)
		return
	}
	if job.proto != nil && job.proto == ch.proto && ch.scan != nil && ch.scanRep.Index == ch.c.Run() && ch.c.Accept(&job.spec) {
		if h.err == nil {
			h.handleBatch(&job.batch)
		}
	} else {
		job.batch.evs = job.batch.evs[:0] // (evaluated for nothing)
		if err := ch.c.Feed(job.buf); err != nil {
			ch.err = err
			return
		}
	}
	if ch.scan != nil && ch.scanRep.Index == ch.c.Run() && (h.s.Runs == nil || h.s.Runs(ch.scanRep.Index)) {
		if pub := l.pub.Load(); pub == nil || pub.proto != ch.proto {
			l.pub.Store(&lanePub{scan: ch.scan, proto: ch.proto})
		}
	}
	if job.last {
		ch.err = ch.c.Close()
	}
}

// recycle gives the tables of job's piece back to its pool, but the
// last one when the reading in order holds it, and empties its events.
func (l *laneSet) recycle(job *laneJob) {
	job.spec.Release(&job.pool)
	evs := job.batch.evs[:cap(job.batch.evs)]
	for i := range evs {
		evs[i].reset(nil)
	}
	job.batch.evs = evs[:0]
}

// blocks are the receivers of the reading in order: each block is
// evaluated and handed on at once, by the worker in turn.
func (l *laneSet) blocks() parse.GstatBlocks {
	skip := func(rep *parse.GstatReport) bool { return l.h.s.Runs != nil && !l.h.s.Runs(rep.Index) }
	return parse.GstatBlocks{
		Table: func(rep *parse.GstatReport, t *parse.GstatTable) error {
			if skip(rep) {
				l.ch.c.Put(t)
				return nil
			}
			return l.inOrder(streamEvent{rep: rep, header: rep.Header, table: t}, false)
		},
		Unattached: func(rep *parse.GstatReport, ix *parse.GstatIndex) error {
			if skip(rep) {
				return nil
			}
			return l.inOrder(streamEvent{rep: rep, header: rep.Header, index: ix}, false)
		},
		Report: func(rep *parse.GstatReport) error {
			if skip(rep) {
				return nil
			}
			return l.inOrder(streamEvent{rep: rep, header: rep.Header}, true)
		},
	}
}

// inOrder evaluates a block read in order and hands it on.
func (l *laneSet) inOrder(ev streamEvent, end bool) error {
	ch, h := &l.ch, l.h
	if ch.scan == nil || ch.scanRep != ev.rep {
		ch.scan, ch.proto = h.s.newScan(ev.rep, ev.header, l.th, l.opt)
		ch.scanRep = ev.rep
	}
	ev.scan, ev.proto = ch.scan, ch.proto
	if end {
		ch.scan = nil
	}
	b := &ch.one
	if cap(b.evs) > 0 {
		old := &b.evs[:1][0]
		ev.fired, ev.indices, ev.enc, ev.encEnds, ev.encTable = old.fired, old.indices, old.enc, old.encEnds, old.encTable
	}
	b.evs = append(b.evs[:0], ev)
	e := &b.evs[0]
	if e.table != nil {
		ch.v.event(e)
	}
	h.handleBatch(b)
	if e.table != nil {
		ch.c.Put(e.table)
	}
	e.reset(nil)
	if h.err != nil {
		return errStopped
	}
	return nil
}

// plainHead peeks at the head of rd: whether it is plain text with LF
// line ends, which the lanes may cut (parse.PlainText, parse.GstatCut),
// and the reader to read it all from. Lone CR line ends have no LF to
// cut at: read in order on the lanes, 300 MiB of them took 1.41 s
// against 1.12 s with the parser's goroutine.
func plainHead(rd io.Reader) (bool, io.Reader) {
	br := bufio.NewReaderSize(rd, 64<<10)
	head, _ := br.Peek(64 << 10)
	return parse.PlainText(head) && bytes.IndexByte(head, '\n') >= 0, br
}
