package analyze

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// GbakStream receives the steps, tables and indices of a gbak log as
// each is complete, in log order (see StreamGbakTimeline). Every func may
// be nil. The values are valid until the call returns: copy what you
// keep (the pointers they hold stay valid).
type GbakStream struct {
	// Step gets each step once its cost is known: when the next step
	// starts, or at the end of the log.
	Step func(*GbakStep) error
	// Table gets the data of a table with its step.
	Table func(*GbakTable) error
	// Index gets a deferred index build with its step.
	Index func(*GbakIndex) error
	// Failed says that of the first n indices handed to Index, those
	// named name failed: a "cannot commit index" line came after them.
	// (The index of a step still open is marked before it is handed on,
	// so Failed is called only for one gbak names twice.)
	Failed func(name string, n int)
	// Error and Warning get each error and warning of the log once it is
	// complete (the lines that continue it joined to it), in log order:
	// when one is set, the timeline keeps none of that kind (a failed
	// restore can print a million error lines) and only counts them
	// (Timeline.ErrorCount, Timeline.WarningCount).
	Error, Warning func(msg string) error
}

// And hands everything to s, then to t, stopping at the first error.
func (s GbakStream) And(t GbakStream) GbakStream {
	return GbakStream{
		Step:  both(s.Step, t.Step),
		Table: both(s.Table, t.Table),
		Index: both(s.Index, t.Index),
		Failed: func(name string, n int) {
			if s.Failed != nil {
				s.Failed(name, n)
			}
			if t.Failed != nil {
				t.Failed(name, n)
			}
		},
		Error:   bothMessages(s.Error, t.Error),
		Warning: bothMessages(s.Warning, t.Warning),
	}
}

// bothMessages is both for Error and Warning.
func bothMessages(f, g func(string) error) func(string) error {
	switch {
	case f == nil:
		return g
	case g == nil:
		return f
	}
	return func(msg string) error {
		if err := f(msg); err != nil {
			return err
		}
		return g(msg)
	}
}

func both[T any](f, g func(*T) error) func(*T) error {
	switch {
	case f == nil:
		return g
	case g == nil:
		return f
	}
	return func(v *T) error {
		if err := f(v); err != nil {
			return err
		}
		return g(v)
	}
}

// GbakTimeline analyses a log read whole by parse.ReadGbak.
func GbakTimeline(log *parse.GbakLog) *Timeline {
	b := NewGbakTimelineBuilder(log.Name, log.Columns)
	for i := range log.Lines {
		b.Add(&log.Lines[i])
	}
	b.restored = log.Restored
	return b.Finish(log.Op, log.Notices)
}

// ReadGbakTimeline streams a gbak log into a timeline: memory grows with
// the steps, not with the progress lines. The reader's notices are in
// Timeline.Notices. On an I/O error, or for a file without a single gbak
// line, it returns what was read (with its notices) and the error.
func ReadGbakTimeline(r io.Reader, name string) (*Timeline, error) {
	rd := parse.NewGbakReader(r, name)
	return readGbak(rd, NewGbakTimelineBuilder(rd.Name(), 0))
}

// StreamGbakTimeline reads a gbak log and hands its steps, tables and
// indices to s as they are complete: memory holds one step. The timeline
// returned has every other figure of ReadGbakTimeline's (phases, totals,
// errors, notices) but no Steps, Tables or Indices (nil). The error is
// ReadGbakTimeline's, or the first one a receiver returns, which stops
// the reading.
func StreamGbakTimeline(r io.Reader, name string, s GbakStream) (*Timeline, error) {
	rd := parse.NewGbakReader(r, name)
	b := NewGbakTimelineBuilder(rd.Name(), 0)
	b.t.Steps, b.t.Tables, b.t.Indices = nil, nil, nil
	b.out, b.stream = s, true
	return readGbak(rd, b)
}

func readGbak(rd *parse.GbakReader, b *GbakTimelineBuilder) (*Timeline, error) {
	var second *parse.Notice
	lastT, hasT := 0.0, false
	finished := 0 // the line of the run's closing message, once read
	op := ""      // the run's operation, from its first line that tells
	for b.err == nil && rd.Next() {
		l := rd.Line()
		// gbak's time is elapsed since its start: when it goes back, a
		// second run was appended (cat a.log b.log, >> log). Mixing them
		// made shares of 195%; the first run is analysed alone.
		if l.Has&parse.ColTime != 0 {
			if hasT && l.Time < lastT-0.0005 {
				second = &parse.Notice{File: rd.Name(), Line: l.Line, Msg: fmt.Sprintf(
					"another gbak run starts here (time back from %.3f to %.3f s): only the first is analysed; "+
						"give each run its own file ('fbdiag gbak compare' compares them)", lastT, l.Time)}
				break
			}
			lastT, hasT = l.Time, true
		}
		// Without the time column, a log shows a second run by its first
		// line after the first's closing one (a backup and then its
		// restore, logged to one file).
		if finished > 0 && startsRun(l.Kind) {
			second = &parse.Notice{File: rd.Name(), Line: l.Line, Msg: fmt.Sprintf(
				"another gbak run starts here (the run before it finished at line %d): only the first is analysed; "+
					"give each run its own file ('fbdiag gbak compare' compares them)", finished)}
			break
		}
		// Nor by its closing line when the first run was cut (a backup
		// killed, then a restore logged to the same file): a line that
		// opens a run of the other operation (the restore's "opened
		// file", the backup's "readied database") starts another.
		if startsRun(l.Kind) && l.Op != "" && op != "" && l.Op != op {
			second = &parse.Notice{File: rd.Name(), Line: l.Line, Msg: fmt.Sprintf(
				"another gbak run starts here (a %s's first line; the %s before it has no closing line): only the first is analysed; "+
					"give each run its own file ('fbdiag gbak compare' compares them)", l.Op, op)}
			break
		}
		if op == "" {
			op = l.Op
		}
		if l.Kind == parse.GbakFinish {
			finished = l.Line
		}
		b.Add(l)
	}
	if b.err != nil {
		return nil, b.err
	}
	notices := rd.Notices()
	if second != nil {
		notices = append(notices, *second)
	} else {
		b.restored = rd.Restored()
	}
	tl := b.Finish(rd.Op(), notices)
	if b.err != nil {
		return nil, b.err
	}
	if err := rd.Err(); err != nil {
		return tl, err
	}
	if rd.Lines() == 0 {
		return tl, rd.NoGbakError()
	}
	return tl, nil
}

// startsRun says whether a line of kind k opens a gbak run: the backup's
// database or file, the restore's file or database.
func startsRun(k parse.GbakKind) bool {
	return k == parse.GbakOpenFile || k == parse.GbakOpenDatabase || k == parse.GbakCreateDatabase
}

// GbakTimelineBuilder builds a Timeline from lines as they are read, so
// that memory grows with the steps, not with the progress lines. It holds
// the last step (its cost is open until the next one starts) and hands
// the steps before it on: to the Timeline's slices, or to a GbakStream.
type GbakTimelineBuilder struct {
	t *Timeline
	// stream: the steps, tables and indices go to out, else to t's
	// slices.
	stream bool
	out    GbakStream
	err    error // the first error of out
	// cur is the last step, with its table (a data step) or index (a
	// deferred index build); pending when its cost is still open.
	cur      GbakStep
	hasCur   bool
	pending  bool
	curTable GbakTable // cur's table, when it is a data step (hasTable)
	// counts is how many "N records" lines cur had, last and prev the
	// last two counts (finalCount).
	counts     int
	last, prev int64
	// interval is the progress interval the log shows (-v 10000,
	// -verbint N), 0 while no table has had two counts.
	interval int64
	curIndex GbakIndex // cur's index, when it is a deferred index build (hasIndex)
	// advice is fbdiag's advice on gbak's messages (GbakMessageAdvice,
	// gbakIndexAdvice), one per message, taken when the message is
	// complete (sealError, sealWarning): the next line can continue it.
	advice []GbakAdvice
	// failures are the indices gbak could not activate (the first
	// maxIndexAdvice), advised on at the end, when the log has said
	// whether gbak went on; failName is the index of the open error.
	failures []indexFailure
	failName string
	// refusedAlone is the trigger's refusal to set an index inactive
	// when no line before it named the index (unnamedKeyAdvice).
	refusedAlone string
	exited       bool // "Exiting before completion due to errors"
	notOnline    bool // "Database is not online due to failure to activate…"
	warnOpen     bool // the last warning can still be continued
	// versions are gbak's and the server's (gbak -z), advised on with
	// the first error when gbak is the newer (gbakVersions).
	versions       gbakVersions
	versionAdvised bool
	// backupFiles and database are those a restore's log names (opened
	// file X, each volume of a backup in volumes, first to last; created
	// database Y), for the commands of the advice.
	backupFiles []string
	database    string
	// restored is what fbdiag restore said of a failed restore
	// --replace: where it kept the database gbak made, which the advice
	// to fix it names (database is the name asked for, the original's),
	// and that it left the original as it was.
	restored parse.GbakRestored
	// mostWrites are the tables whose data wrote the most pages, most
	// first (a backup's garbage collection, backupWrites).
	mostWrites []GbakTable
	// inactive tells the indices a restore left inactive.
	inactive inactiveIndices
	steps    int // steps seen, cur included
	indices  int // indices handed on
	first    string
	phases   phaseSums
	known    float64 // sum of the known step costs, in log order
	cols     parse.GbakColumns
	// the interval since the pending step's line
	sumD, prevT   float64
	sumR, sumW    int64
	n             int
	broken        bool
	hasPrevT      bool
	afterCreate   bool
	lastT, firstT float64
	hasT          bool
	sumAllR       int64
	sumAllW       int64
	total         *parse.GbakLine
	ops           map[string]int
	lastErr       int // index in t.Errors of the error being continued, -1
	anyGap        bool
	joinNext      bool
	finished      bool
	// emptyDone: the pending step is closed by a line that reports its
	// own work (reportsDone) right after the step's line; its interval
	// is empty, a cost of 0, not an unknown one.
	emptyDone bool
	// doneStep: the pending step's line reports its own work
	// (reportsDone), so its figures are the step's even when the total
	// line closes it (closeTotal).
	doneStep bool
	// A line of Firebird 3.0.11, 4.0.4 or 5.0.0 can carry a negative
	// page read or write delta (firebird#8027: the remote client read a
	// bad counter, 0, fixed by 210310eab3), and the next line the
	// matching jump, measured from the bad value: only the two lines'
	// sum means something. wrapOpen: a wrapped line was read and its
	// jump not yet; wrapMine: that line is in the pending interval.
	// wrapSplit: the pending interval holds one line of such a pair and
	// not the other, so its reads and writes are not its own; rawR and
	// rawW are then its sums, which phaseSums adds up with the other
	// line's.
	wrapOpen, wrapMine, wrapSplit bool
	rawR, rawW                    int64
	mem                           gbakSlab
}

// NewGbakTimelineBuilder starts a timeline for the named file.
func NewGbakTimelineBuilder(file string, cols parse.GbakColumns) *GbakTimelineBuilder {
	return &GbakTimelineBuilder{
		t:       &Timeline{File: file, Errors: []string{}, Warnings: []string{}, Tables: []GbakTable{}, Indices: []GbakIndex{}, Steps: []GbakStep{}},
		cols:    cols,
		lastErr: -1,
		ops:     map[string]int{},
	}
}

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }

// gbakSlab hands out the pointers of optional values from chunks: one
// allocation per 256 values instead of one per value.
type gbakSlab struct {
	fs []float64
	is []int64
}

func (s *gbakSlab) f(v float64) *float64 {
	if len(s.fs) == cap(s.fs) {
		s.fs = make([]float64, 0, 256)
	}
	s.fs = append(s.fs, v)
	return &s.fs[len(s.fs)-1]
}

func (s *gbakSlab) i(v int64) *int64 {
	if len(s.is) == cap(s.is) {
		s.is = make([]int64, 0, 256)
	}
	s.is = append(s.is, v)
	return &s.is[len(s.is)-1]
}

// Add takes the next line of the log.
func (b *GbakTimelineBuilder) Add(l *parse.GbakLine) {
	b.cols |= l.Has
	if l.Op != "" {
		b.ops[l.Op]++
	}
	switch l.Kind {
	case parse.GbakError, parse.GbakExiting:
		b.exited = b.exited || l.Kind == parse.GbakExiting
		b.addError(l.Message, l.Continued)
		return
	case parse.GbakWarning:
		if l.Continued && len(b.t.Warnings) > 0 {
			b.t.Warnings[len(b.t.Warnings)-1] += "; " + l.Message
		} else {
			b.sealWarning()
			b.handWarnings()
			b.t.Warnings = append(b.t.Warnings, l.Message)
			b.t.WarningCount++
			b.warnOpen = true
		}
		return
	case parse.GbakIndexFailed:
		b.addError("cannot commit index "+l.Name, false)
		b.joinNext = true
		b.failName = l.Name
		b.indexFailed(l.Name)
		return
	case parse.GbakNotOnline:
		b.notOnline = true
		b.addError(l.Message, len(b.t.Errors) > 0 && b.lastErr >= 0 && strings.HasPrefix(l.Message, "Run gfix"))
		return
	}
	b.sealError()
	b.lastErr, b.joinNext = -1, false
	b.inactive.add(l)
	if l.Kind == parse.GbakVersion {
		b.versions.add(l)
	}
	switch {
	case l.Kind == parse.GbakOpenFile && l.Op == parse.GbakRestore:
		// (a restore takes every volume: gbak -c v1.fbk v2.fbk DB; the
		// last alone is "out of sequence". A backup has a few.)
		if len(b.backupFiles) < maxBackupVolumes && !slices.Contains(b.backupFiles, l.Name) {
			b.backupFiles = append(b.backupFiles, l.Name)
		}
	case l.Kind == parse.GbakCreateDatabase:
		b.database = l.Name
	}
	// (lines skipped before the first step, a command line or a title,
	// hide nothing)
	if (l.Gap && b.steps > 0) || (l.Has&(parse.ColTime|parse.ColDelta) == parse.ColTime|parse.ColDelta && b.hasT &&
		l.Time-b.lastT > l.Delta+gapTolerance) {
		b.anyGap = true
	}
	if l.Has&parse.ColTime != 0 {
		if !b.hasT {
			b.firstT, b.hasT = l.Time, true
		}
		b.lastT = l.Time
	}
	if l.Has&parse.ColReads != 0 && l.Kind != parse.GbakTotal {
		b.sumAllR += l.Reads
	}
	if l.Has&parse.ColWrites != 0 && l.Kind != parse.GbakTotal {
		b.sumAllW += l.Writes
	}
	switch l.Kind {
	case parse.GbakIgnored:
		if b.hasCur && b.cur.Kind == parse.GbakSkipData {
			// 6.0 since #9075: "skipping data for table X" before
			// the work, then its count.
			b.accumulate(l)
			if b.cur.Ignored == nil {
				b.cur.Ignored = b.mem.i(0)
			}
			*b.cur.Ignored += l.Count
			return
		}
		// Before it, a table skipped (-skip_data, -include_data, -m)
		// has this line alone, printed once its data is read past
		// (ignore_data, restore.epp): a step of its own, not more of
		// the table restored before it (public 11: TAB_1_A's and
		// TAB_1_B's after TAB_2_A's "1 records restored").
		b.openDone(l)
		b.cur.Ignored = b.mem.i(l.Count)
		return
	case parse.GbakRecords:
		b.accumulate(l)
		b.counts, b.prev, b.last = b.counts+1, b.last, l.Count
		// A table's first count, when another follows, is the
		// interval; not after lines missing (an excerpt's "# . . ."
		// before "30000" and "40000" made it 30000, and a log cut at
		// "80000 records" read as the table's end).
		if b.counts == 2 && b.interval == 0 && b.prev > 0 && !b.broken {
			b.interval = b.prev
		}
		if b.hasTable() {
			tb, st := &b.curTable, &b.cur
			if tb.Records == nil {
				tb.Records = b.mem.i(0)
			}
			*tb.Records = l.Count // cumulative count: the last one is the table's
			st.Records = tb.Records
		}
		return
	case parse.GbakTotal:
		b.accumulate(l)
		// R and W of the total line are absolute counters, not the cost
		// of the last step: only its time is (closeTotal).
		b.closeTotal(l)
		lc := *l
		b.total = &lc
		return
	}
	if reportsDone(l) {
		b.openDone(l)
		return
	}
	// A step line: it ends the pending step's interval and opens its own.
	b.accumulate(l)
	b.close()
	b.open(l)
}

// indexFailed marks the indices named name built so far as failed: the
// one of the open step here, those handed on by the receivers.
func (b *GbakTimelineBuilder) indexFailed(name string) {
	if b.hasIndex() && b.curIndex.Name == name {
		b.curIndex.Failed = true
	}
	if b.indices == 0 {
		return
	}
	if !b.stream {
		for i := range b.t.Indices {
			if b.t.Indices[i].Name == name {
				b.t.Indices[i].Failed = true
			}
		}
	} else if b.out.Failed != nil {
		b.out.Failed(name, b.indices)
	}
}

func (b *GbakTimelineBuilder) addError(msg string, continued bool) {
	if b.joinNext && b.lastErr >= 0 {
		// the status vector that says why the index failed
		b.t.Errors[b.lastErr] += ": " + msg
		b.joinNext = false
		return
	}
	if continued && b.lastErr >= 0 {
		b.t.Errors[b.lastErr] += "; " + msg
		return
	}
	b.sealError()
	b.handErrors()
	b.t.Errors = append(b.t.Errors, msg)
	b.t.ErrorCount++
	b.lastErr = len(b.t.Errors) - 1
}

// sealError takes the advice on the last error, complete now that a line
// that cannot continue it came: a new error, a step, the end.
func (b *GbakTimelineBuilder) sealError() {
	if b.lastErr < 0 {
		return
	}
	msg := b.t.Errors[b.lastErr]
	b.adviseOn(msg)
	if a := b.versions.advice(); a != "" && !b.versionAdvised {
		// (once: the first error is the one the mismatch caused)
		b.versionAdvised = true
		b.addAdvice(msg, a)
	}
	if n := len(b.failures); b.failName == "" && n > 0 && b.failures[n-1].steps == b.steps && refusal(msg) {
		// public 09: the refusal to set the index inactive is an error
		// line of its own after the index's
		b.failures[n-1].refused = true
	} else if b.failName == "" && refusal(msg) && b.refusedAlone == "" {
		b.refusedAlone = msg
	}
	if b.failName == "" {
		// without -v: the error of an index built with the metadata,
		// its words first (the literal test spares the patterns the
		// other lines of a log of a million errors)
		switch {
		case strings.HasPrefix(msg, uniqueConstraintWords):
			if m := uniqueConstraint.FindStringSubmatch(msg); m != nil && strings.HasPrefix(msg, m[0]) {
				b.addFailure(indexFailure{name: unquoteName(m[1]), msg: msg, steps: b.steps, constraint: true})
			}
		case strings.HasPrefix(msg, uniqueIndexWords):
			if m := uniqueIndex.FindStringSubmatch(msg); m != nil && strings.HasPrefix(msg, m[0]) {
				b.addFailure(indexFailure{name: unquoteName(m[1]), msg: msg, steps: b.steps})
			}
		}
	}
	if b.failName != "" {
		b.addFailure(indexFailure{name: b.failName, msg: msg, steps: b.steps, refused: refusal(msg)})
		b.failName = ""
	}
}

// addFailure keeps an index gbak could not activate, the first
// maxIndexAdvice.
func (b *GbakTimelineBuilder) addFailure(f indexFailure) {
	if len(b.failures) < maxIndexAdvice {
		b.failures = append(b.failures, f)
	}
}

// sealWarning takes the advice on the last warning, complete now that a
// new one starts or the log ends.
func (b *GbakTimelineBuilder) sealWarning() {
	if b.warnOpen && len(b.t.Warnings) > 0 {
		b.adviseOn(b.t.Warnings[len(b.t.Warnings)-1])
	}
	b.warnOpen = false
}

// adviseOn adds GbakMessageAdvice's advice on msg, once a message.
func (b *GbakTimelineBuilder) adviseOn(msg string) {
	if a := GbakMessageAdvice(msg); a != "" {
		b.addAdvice(msg, a)
	}
}

func (b *GbakTimelineBuilder) addAdvice(msg, a string) {
	if !slices.ContainsFunc(b.advice, func(x GbakAdvice) bool { return x.Message == msg }) {
		b.advice = append(b.advice, GbakAdvice{Message: msg, Advice: a})
	}
}

// handErrors hands the error held to the stream's Error, when set,
// before a new one starts (only the last one can be continued) and at
// the end; handWarnings the warning so.
func (b *GbakTimelineBuilder) handErrors()   { b.hand(b.out.Error, &b.t.Errors) }
func (b *GbakTimelineBuilder) handWarnings() { b.hand(b.out.Warning, &b.t.Warnings) }

func (b *GbakTimelineBuilder) hand(to func(string) error, held *[]string) {
	if to == nil || b.err != nil {
		return
	}
	for _, m := range *held {
		if b.err = to(m); b.err != nil {
			return
		}
	}
	*held = (*held)[:0]
}

// accumulate adds a line to the pending interval.
func (b *GbakTimelineBuilder) accumulate(l *parse.GbakLine) {
	if !b.pending {
		b.trackT(l)
		return
	}
	if l.Has == 0 || l.Gap {
		b.broken = true
	}
	if l.Has&parse.ColDelta != 0 {
		b.sumD += l.Delta
	}
	if l.Has&(parse.ColReads|parse.ColWrites) != 0 && l.Kind != parse.GbakTotal {
		if b.wrapOpen {
			// the jump of a wrapped line: in this interval, or in the
			// one after the wrapped line's
			b.wrapOpen = false
			b.wrapSplit = b.wrapSplit || !b.wrapMine
		}
		if l.Reads < 0 || l.Writes < 0 {
			b.wrapOpen, b.wrapMine = true, true
		}
	}
	if l.Kind != parse.GbakTotal { // (absolute counters: closeTotal)
		b.sumR += l.Reads
		b.sumW += l.Writes
	}
	if l.Has&(parse.ColTime|parse.ColDelta) == parse.ColTime|parse.ColDelta && b.hasPrevT &&
		l.Time-b.prevT > l.Delta+gapTolerance {
		b.broken = true // lines are missing between the two
	}
	b.n++
	b.trackT(l)
}

func (b *GbakTimelineBuilder) trackT(l *parse.GbakLine) {
	if l.Has&parse.ColTime != 0 {
		b.prevT, b.hasPrevT = l.Time, true
	} else if l.Has == 0 {
		b.hasPrevT = false
	}
}

// close sets the cost of the pending step, at a line whose counters are
// deltas (the total line's are not: closeTotal).
func (b *GbakTimelineBuilder) close() { b.closeIO(true, true) }

// closeIO is close, with the reads and the writes known apart: withR
// and withW say whether sumR and sumW are the step's (closeTotal).
func (b *GbakTimelineBuilder) closeIO(withR, withW bool) {
	withIO := withR || withW
	if !b.pending {
		return
	}
	st := &b.cur
	if b.wrapOpen && b.wrapMine {
		b.wrapSplit = true // the jump comes in a later interval
	}
	b.wrapMine = false
	if !b.broken && (b.n > 0 || b.emptyDone) {
		switch {
		case st.Start != nil && b.hasPrevT:
			// the time column, even over one line: gbak truncates both
			// columns from one clock reading (print_stats), so time
			// differences add up to the run's time where deltas lose
			// up to 1 ms a line
			st.Seconds = b.mem.f(round3(b.prevT - *st.Start))
		case b.cols&parse.ColDelta != 0:
			st.Seconds = b.mem.f(round3(b.sumD))
		}
		if st.Seconds != nil && *st.Seconds < 0 {
			st.Seconds = nil // the time went back: a second log starts here
		}
		if b.cols&parse.ColReads != 0 && withR {
			st.Reads = b.mem.i(b.sumR)
		}
		if b.cols&parse.ColWrites != 0 && withW {
			st.Writes = b.mem.i(b.sumW)
		}
	}
	if b.wrapSplit && withIO {
		// one line of a wrapped pair (#8027): neither figure is the
		// step's
		st.Reads, st.Writes, st.Wrapped = nil, nil, true
		b.rawR, b.rawW = b.sumR, b.sumW
	}
	b.wrapSplit = false
	if st.Kind == parse.GbakData && b.hasTable() {
		tb := &b.curTable
		tb.Seconds, tb.Reads, tb.Writes, tb.Wrapped = st.Seconds, st.Reads, st.Writes, st.Wrapped
		if tb.Seconds != nil && *tb.Seconds > 0 && tb.Records != nil {
			tb.RecordsPerSecond = b.mem.f(float64(*tb.Records) / *tb.Seconds)
		}
	}
	if st.Kind == parse.GbakActivateIndex && b.hasIndex() {
		ix := &b.curIndex
		ix.Seconds, ix.Reads, ix.Writes, ix.Wrapped = st.Seconds, st.Reads, st.Writes, st.Wrapped
	}
	b.pending = false
}

// closeCut ends the last step. Its cost is unknown, as nothing follows
// it, unless it is a table's data with progress lines after it: a restore
// whose server died mid-table, or a cut log. The records logged bound
// the cost from below (30000 records over 5.3 s: at least 5.3 s).
func (b *GbakTimelineBuilder) closeCut() {
	if !b.pending || b.n == 0 || b.cur.Kind != parse.GbakData {
		b.pending = false
		return
	}
	b.close()
	if b.finalCount() {
		return // the table's data ended at its last line: its cost is known
	}
	if st := &b.cur; st.Seconds != nil {
		st.LowerBound = true
		if b.hasTable() {
			b.curTable.LowerBound = true
		}
	}
}

// finalCount says whether the last "N records written/restored" line of
// the data step is the table's last, printed after its data loop: gbak
// prints progress at multiples of the interval (-v 10000, -verbint at
// least 100; BurpTasks.cpp, master, prints verb * verboseInterval) and
// then the table's count, so a count that is no multiple of the interval
// (a table's first count when another follows it; else 100), or repeats
// the line before (3.0: "50000 records written" twice), ends the data.
// The public 07 backup's "1072223 records written" is MEDIA_ARC's last:
// the backup failed after the table, which took 210.211 s, not "at
// least". A count of a whole interval printed once
// (the cut fb30 restore's "90000 records restored") may be progress.
func (b *GbakTimelineBuilder) finalCount() bool {
	every := b.interval
	if every == 0 {
		every = 100 // -verbint's least; -v's 10000 and common intervals are multiples of it
	}
	return b.counts > 0 && (b.last%every != 0 || b.counts > 1 && b.last == b.prev)
}

func round3(v float64) float64 {
	if v < 0 {
		return -round3(-v)
	}
	if !(v < 1<<52/1000) { // (no thousandths left to round, and v*1000 would overflow an int64; NaN too)
		return v
	}
	return float64(int64(v*1000+0.5)) / 1000
}

// flush hands the last step on, with its table or index: its cost is
// known (or never will be).
func (b *GbakTimelineBuilder) flush() {
	if !b.hasCur {
		return
	}
	st := &b.cur
	b.phases.add(st, b.rawR, b.rawW)
	if st.Seconds != nil {
		b.known += *st.Seconds
	}
	keep := !b.stream
	if keep {
		b.t.Steps = append(b.t.Steps, *st)
	} else if b.out.Step != nil && b.err == nil {
		b.err = b.out.Step(st)
	}
	if b.hasTable() {
		b.noteWrites(b.curTable)
		if keep {
			b.t.Tables = append(b.t.Tables, b.curTable)
		} else if b.out.Table != nil && b.err == nil {
			b.err = b.out.Table(&b.curTable)
		}
	}
	if b.hasIndex() {
		if keep {
			b.t.Indices = append(b.t.Indices, b.curIndex)
		} else if b.out.Index != nil && b.err == nil {
			b.err = b.out.Index(&b.curIndex)
		}
		b.indices++
	}
	b.hasCur = false
}

// mostWritesKept is how many tables backupWrites names.
const mostWritesKept = 3

// noteWrites keeps tb among the tables whose data wrote the most pages.
func (b *GbakTimelineBuilder) noteWrites(tb GbakTable) {
	if tb.Writes == nil || *tb.Writes <= 0 {
		return
	}
	i, _ := slices.BinarySearchFunc(b.mostWrites, *tb.Writes, func(t GbakTable, w int64) int { return cmp.Compare(w, *t.Writes) })
	if i < mostWritesKept {
		b.mostWrites = slices.Insert(b.mostWrites, i, tb)
		b.mostWrites = b.mostWrites[:min(len(b.mostWrites), mostWritesKept)]
	}
}

// backupWrites says what a backup's page writes while it read the
// tables likely were: a backup only reads, but reading a table Firebird
// collects its garbage, the back versions no transaction needs any more,
// and a backup reads every table (gbak(1), -garbage_collect: "Since the
// backup process reads all the tables, this forces garbage collection of
// the whole database"). Likely, not certainly: the R and W columns are
// the database's counters, and on SuperServer other attachments and the
// garbage collector thread write too, whatever table gbak reads. most are
// the tables during whose data the most pages were written. The advice
// of -g is left out for a backup that failed: it is not why it failed.
func backupWrites(phases []GbakPhase, most []GbakTable, failed bool) string {
	i := slices.IndexFunc(phases, func(p GbakPhase) bool { return p.Name == PhaseData })
	if i < 0 || phases[i].Writes == nil || *phases[i].Writes <= 0 {
		return ""
	}
	p := phases[i]
	s := fmt.Sprintf("the backup wrote %d database pages while it read the tables", *p.Writes)
	if p.Reads != nil && *p.Reads > 0 {
		s += " (" + per100(*p.Writes, *p.Reads) + " for every 100 pages read)"
	}
	if len(most) > 0 {
		var names []string
		for _, tb := range most {
			names = append(names, fmt.Sprintf("%s %d", tb.Name, *tb.Writes))
		}
		s += ", most while reading " + strings.Join(names, ", ")
	}
	s += ": most likely garbage collection (reading a table, Firebird collects its back versions no transaction needs, " +
		"and a backup reads them all); on SuperServer these counters are database-wide, " +
		"so other attachments and the garbage collector thread count too"
	if failed {
		return s
	}
	return s + "; if the backup ran without -g (-garbage_collect), -g inhibits that collection and speeds the backup, " +
		"leaving the garbage to a sweep"
}

// per100 is n for every 100 of of, never 0 for a nonzero n: 6476 pages
// written for 10 million read is "<0.1", not "0".
func per100(n, of int64) string {
	v := 100 * float64(n) / float64(of)
	switch {
	case v >= 10:
		return fmt.Sprintf("%.0f", v)
	case v >= 0.1:
		return fmt.Sprintf("%.1f", v)
	}
	return "<0.1"
}

// hasTable says whether cur is a data step, whose table is curTable.
func (b *GbakTimelineBuilder) hasTable() bool { return b.hasCur && b.cur.Kind == parse.GbakData }

// hasIndex says whether cur is a deferred index build, whose index is
// curIndex.
func (b *GbakTimelineBuilder) hasIndex() bool {
	return b.hasCur && b.cur.Kind == parse.GbakActivateIndex
}

func (b *GbakTimelineBuilder) open(l *parse.GbakLine) {
	if b.hasIndex() {
		b.curIndex.Ended = true // the next step starts: the build is over
	}
	b.flush()
	b.counts = 0
	b.cur = GbakStep{Line: l.Line, Kind: l.Kind, Object: l.Object, Name: l.Name, Message: l.Message, Phase: b.phase(l.Kind)}
	b.hasCur = true
	if b.steps == 0 {
		b.first = b.cur.Phase
	}
	b.steps++
	if l.Has&parse.ColTime != 0 {
		b.cur.Start = b.mem.f(l.Time)
	}
	switch l.Kind {
	case parse.GbakData:
		b.curTable = GbakTable{Name: l.Name, Line: l.Line}
	case parse.GbakActivateIndex:
		b.curIndex = GbakIndex{Name: l.Name, Line: l.Line}
	case parse.GbakCreateIndexes:
		b.afterCreate = true
	case parse.GbakFinish:
		b.finished = true
	}
	// Without statistics on this line the interval to the next line is
	// not a measure of this step.
	if l.Has == 0 && b.cols != 0 {
		b.pending = false
		return
	}
	b.pending, b.doneStep = true, false
	b.sumD, b.sumR, b.sumW, b.n, b.broken = 0, 0, 0, 0, false
	b.wrapSplit = false
}

func (b *GbakTimelineBuilder) phase(k parse.GbakKind) string {
	switch k {
	case parse.GbakOpenFile, parse.GbakOpenDatabase, parse.GbakCreateDatabase,
		parse.GbakTransaction, parse.GbakBackupInfo, parse.GbakVersion:
		return PhaseOpen
	case parse.GbakData, parse.GbakSkipData, parse.GbakIgnored:
		return PhaseData
	case parse.GbakCreateIndexes, parse.GbakActivateIndex:
		return PhaseIndices
	case parse.GbakCommitMetadata:
		if b.afterCreate {
			return PhaseIndices // this commit builds the non-deferred indexes
		}
		return PhaseMetadata
	case parse.GbakFinishStep, parse.GbakFinish, parse.GbakOnlineFlags:
		return PhaseFinish
	}
	return PhaseMetadata
}

// Finish completes the timeline; op is the operation the reader saw and
// notices are the reader's.
func (b *GbakTimelineBuilder) Finish(op string, notices []parse.Notice) *Timeline {
	t := b.t
	b.closeCut()
	b.flush()
	b.sealError()
	b.sealWarning()
	b.handErrors()
	b.handWarnings()
	stop := b.stoppedAt()
	for i := range b.failures {
		b.addAdvice(b.failures[i].msg, b.gbakIndexAdvice(&b.failures[i], stop))
	}
	if stop == nil && b.refusedAlone != "" {
		b.addAdvice(b.refusedAlone, b.unnamedKeyAdvice())
	}
	if stop != nil {
		for i := range b.advice {
			b.advice[i].Stopped = b.advice[i].Message == stop.msg
		}
	}
	t.Advice = b.advice
	if t.Advice == nil {
		t.Advice = []GbakAdvice{}
	}
	if op != "" {
		t.Kind = &op
	}
	if b.ops[parse.GbakBackup] > 0 && b.ops[parse.GbakRestore] > 0 {
		t.Notes = append(t.Notes, "the file holds both backup and restore lines; the figures cover both")
	}
	t.Columns = b.cols.String()
	if b.total != nil {
		if b.total.Has&parse.ColTime != 0 {
			t.TotalSeconds = f64(b.total.Time)
		}
		if b.total.Has&parse.ColReads != 0 {
			t.TotalReads = i64(b.total.Reads)
		}
		if b.total.Has&parse.ColWrites != 0 {
			t.TotalWrites = i64(b.total.Writes)
		}
	}
	if b.hasT {
		t.LastTimeSeconds = f64(b.lastT)
	}
	// Without the total line the last time is the total only of a run
	// that ended: an excerpt stops anywhere.
	ended := b.finished || t.ErrorCount > 0
	if t.TotalSeconds == nil && b.hasT && ended {
		t.TotalSeconds = f64(b.lastT)
	}
	if t.TotalSeconds == nil && b.cols&parse.ColDelta != 0 && ended {
		t.TotalSeconds = f64(round3(b.known))
	}
	// A run that failed before its closing line stopped after its last
	// timestamp, when its error lines (no time) were printed: the public
	// 07 backup failed at least 558.685 s in, read as its total.
	t.TotalLowerBound = b.total == nil && t.TotalSeconds != nil && t.ErrorCount > 0 && !b.finished
	// Without the total line the deltas add up to the run's I/O only
	// when the log is whole: it starts at gbak's first line and misses
	// nothing.
	whole := b.wholeLog()
	if t.TotalReads == nil && b.cols&parse.ColReads != 0 && whole {
		t.TotalReads = i64(b.sumAllR)
	}
	if t.TotalWrites == nil && b.cols&parse.ColWrites != 0 && whole {
		t.TotalWrites = i64(b.sumAllW)
	}
	if b.total == nil && (!ended || t.TotalLowerBound) {
		// A log cut while the server worked (killed, or an excerpt):
		// its sums are the I/O so far, no more a total than its last
		// timestamp is the total time. So are those of a run that
		// failed before its closing line: the step it failed in (a
		// primary key's index build over a whole table) did I/O no
		// line gives.
		t.ReadsSoFar, t.TotalReads = t.TotalReads, nil
		t.WritesSoFar, t.TotalWrites = t.TotalWrites, nil
	}
	if b.hasT {
		t.SpanSeconds = f64(round3(b.lastT - b.firstT))
	}
	switch {
	case t.ErrorCount > 0:
		t.Outcome = GbakFailed
	case b.finished:
		t.Outcome = GbakCompleted
	default:
		t.Outcome = GbakIncomplete
	}
	b.inactive.set(t, b.afterCreate)
	t.Phases = b.phases.result(b.wrapOpen)
	// Of a total that is only a lower bound a share is only a bound
	// too (public 07: the data phase's 210.211 s of "at least 558.685
	// s" read 37.6 %, as if gbak had stopped at its last timestamp).
	if t.TotalSeconds != nil && *t.TotalSeconds > 0 && b.cols != 0 && !t.TotalLowerBound {
		for i := range t.Phases {
			if p := &t.Phases[i]; p.Seconds != nil {
				p.Share = f64(*p.Seconds / *t.TotalSeconds)
			}
		}
	}
	if b.cols == 0 {
		t.Notes = append(t.Notes, "no statistics columns: run gbak with -st tdrw (Firebird 2.5.5 and later) to get times and page I/O")
	}
	if op == parse.GbakBackup {
		if n := backupWrites(t.Phases, b.mostWrites, t.Outcome == GbakFailed); n != "" {
			t.Notes = append(t.Notes, n)
		}
	}
	t.Notices = notices
	if t.Notices == nil {
		t.Notices = []parse.Notice{}
	}
	return t
}

// phaseOrder is the order of the phases in a timeline.
var phaseOrder = [...]string{PhaseOpen, PhaseMetadata, PhaseData, PhaseIndices, PhaseFinish}

// phaseSums adds up the steps of each phase as they come.
type phaseSums struct {
	p   [len(phaseOrder)]GbakPhase
	sum [len(phaseOrder)]float64
	// reads and writes sum the known page counts; hasReads and
	// hasWrites say whether a step had any (a million steps: no
	// allocation each).
	reads, writes       [len(phaseOrder)]int64
	hasReads, hasWrites [len(phaseOrder)]bool
	// A run of steps whose reads and writes a wrapped counter took
	// (GbakStep.Wrapped): chainR and chainW add up their intervals, in
	// which the bad value cancels out, and chain has a bit for each
	// phase they are in. lost marks the phases such a run spanned: their
	// sums are not known.
	chainR, chainW int64
	chain          uint8
	lost           [len(phaseOrder)]bool
}

// add adds a step; rawR and rawW are the sums of its interval when it is
// Wrapped.
func (s *phaseSums) add(st *GbakStep, rawR, rawW int64) {
	i := 0
	for j, name := range phaseOrder {
		if name == st.Phase {
			i = j
			break
		}
	}
	p := &s.p[i]
	p.Steps++
	p.LowerBound = p.LowerBound || st.LowerBound
	if st.Wrapped {
		s.chainR += rawR
		s.chainW += rawW
		s.chain |= 1 << i
	} else {
		s.endChain(false)
	}
	// Page reads and writes are summed where known, whether or not the
	// time is: a log of -st w or -st rw has them and no time column.
	if st.Reads != nil {
		s.reads[i], s.hasReads[i] = s.reads[i]+*st.Reads, true
	}
	if st.Writes != nil {
		s.writes[i], s.hasWrites[i] = s.writes[i]+*st.Writes, true
	}
	if st.Seconds == nil {
		p.Unknown++
		return
	}
	s.sum[i] += *st.Seconds
}

// endChain ends a run of wrapped steps: within one phase their sums are
// that phase's (the wrapped line and its jump both counted); across
// phases, or when bad (the log ends before the jump), the phases' sums
// are unknown.
func (s *phaseSums) endChain(bad bool) {
	if s.chain == 0 {
		return
	}
	for i := range phaseOrder {
		if s.chain&(1<<i) == 0 {
			continue
		}
		if bad || s.chain != 1<<i {
			s.lost[i] = true
			continue
		}
		s.reads[i], s.hasReads[i] = s.reads[i]+s.chainR, true
		s.writes[i], s.hasWrites[i] = s.writes[i]+s.chainW, true
	}
	s.chainR, s.chainW, s.chain = 0, 0, 0
}

// result lists the phases that had steps, in phaseOrder; bad says that
// the log ended between a wrapped line and its jump.
func (s *phaseSums) result(bad bool) []GbakPhase {
	s.endChain(bad)
	// [] rather than null for a log of no step (errors only): a script
	// iterating the phases of a failed restore met a JSON null.
	kept := []GbakPhase{}
	for i, p := range s.p {
		if p.Steps > 0 {
			p.Name = phaseOrder[i]
			if p.Unknown < p.Steps {
				v := round3(s.sum[i])
				p.Seconds = &v
			}
			if s.hasReads[i] && !s.lost[i] {
				r := s.reads[i]
				p.Reads = &r
			}
			if s.hasWrites[i] && !s.lost[i] {
				w := s.writes[i]
				p.Writes = &w
			}
			p.Wrapped = s.lost[i]
			kept = append(kept, p)
		}
	}
	return kept
}
