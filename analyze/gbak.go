package analyze

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// Outcomes of a gbak run.
const (
	GbakCompleted  = "completed"  // the closing line was printed and no error
	GbakFailed     = "failed"     // an error, a failed index or "not online"
	GbakIncomplete = "incomplete" // no closing line (cut log or excerpt)
)

// Phases of a gbak run, in the order gbak goes through them.
const (
	PhaseOpen     = "open"     // open/create files and database, start transaction
	PhaseMetadata = "metadata" // domains, tables, columns, privileges, ...
	PhaseData     = "data"     // table data
	PhaseIndices  = "indices"  // creating indexes (commit), deferred index activation
	PhaseFinish   = "finish"   // fixing views, generators, closing
)

// gapTolerance is how much a time difference may exceed the line's delta
// before we conclude that lines are missing between the two (gbak prints
// both truncated to milliseconds).
const gapTolerance = 0.0025

// GbakStep is one step of a gbak run: a line that announces work, with the
// cost of that work. gbak prints a step's message before doing it, so the
// cost is the interval from the step's own line to the next line; progress
// lines ("10000 records restored") are folded into their step. A cost
// that cannot be known (last line, lines missing, no statistics) is nil.
type GbakStep struct {
	Line    int            `json:"line"`
	Kind    parse.GbakKind `json:"kind"`
	Object  string         `json:"object,omitempty"`
	Name    string         `json:"name,omitempty"`
	Message string         `json:"message"`
	Phase   string         `json:"phase"`
	// Start is the time column at the step's line (seconds since gbak
	// started).
	Start   *float64 `json:"start"`
	Seconds *float64 `json:"seconds"`
	Reads   *int64   `json:"reads"`
	Writes  *int64   `json:"writes"`
	// Records is the last record count printed for a data step.
	Records *int64 `json:"records,omitempty"`
	Ignored *int64 `json:"ignored,omitempty"`
	// LowerBound is set when the log ends inside the step: a table was
	// loading when the server died or the log was cut. Its progress
	// lines bound the cost from below, so Seconds, Reads and Writes are
	// what was logged, and the step took at least that.
	LowerBound bool `json:"lower_bound,omitempty"`
}

// Key identifies a step across runs: kind, object and name. The name of
// a step that names a file or a database (opened file X, created database
// X) is left out: two restores of one backup into two databases
// (…/deepA.fdb, …/deepB.fdb) do the same step.
func (s *GbakStep) Key() string {
	if s.namesPath() {
		return string(s.Kind) + "|" + s.Object
	}
	return string(s.Kind) + "|" + s.Object + "|" + s.Name
}

// namesPath reports whether the step's name is a file or database path.
func (s *GbakStep) namesPath() bool {
	switch s.Kind {
	case parse.GbakOpenFile, parse.GbakOpenDatabase, parse.GbakCreateDatabase:
		return true
	case parse.GbakVersion:
		return s.Object == "database"
	}
	return false
}

// Label names a step for a DBA: "index RDB$PRIMARY4 (build)" (the
// deferred build) and "index RDB$PRIMARY4 (definition)" (its metadata),
// "data ORDER_LINE", "creating indexes".
func (s *GbakStep) Label() string {
	switch s.Kind {
	case parse.GbakData:
		return "data " + s.Name
	case parse.GbakActivateIndex:
		return "index " + s.Name + " (build)"
	case parse.GbakMetadata:
		if s.Object == "index" {
			return "index " + s.Name + " (definition)"
		}
		return s.Object + " " + s.Name
	}
	return s.Message
}

// MatchLabel names the step as it is matched across runs: the Label,
// without the path of a step that names a file or a database ("created
// database", not "created database /data/deepA.fdb, page_size 8192
// bytes").
func (s *GbakStep) MatchLabel() string {
	if !s.namesPath() || s.Name == "" {
		return s.Label()
	}
	if i := strings.Index(s.Message, s.Name); i > 0 {
		return strings.TrimSpace(s.Message[:i])
	}
	return string(s.Kind)
}

// GbakTable is the data of one table: records and the time and I/O spent
// from its "restoring data for table" / "writing data for table" line to
// the next step.
type GbakTable struct {
	Name    string   `json:"name"`
	Line    int      `json:"line"`
	Records *int64   `json:"records"`
	Ignored *int64   `json:"ignored,omitempty"`
	Seconds *float64 `json:"seconds"`
	// RecordsPerSecond is nil when the time is unknown or zero; with
	// LowerBound it is the rate of the records logged.
	RecordsPerSecond *float64 `json:"records_per_second"`
	Reads            *int64   `json:"reads"`
	Writes           *int64   `json:"writes"`
	// LowerBound: the log ends inside the table's data (GbakStep.LowerBound).
	LowerBound bool `json:"lower_bound,omitempty"`
}

// GbakIndex is the build of one index ("activating and creating deferred
// index X"), measured on the line after it.
type GbakIndex struct {
	Name    string   `json:"name"`
	Line    int      `json:"line"`
	Seconds *float64 `json:"seconds"`
	Reads   *int64   `json:"reads"`
	Writes  *int64   `json:"writes"`
	Failed  bool     `json:"failed"`
}

// GbakPhase sums the known costs of the steps of one phase; Unknown counts
// its steps whose cost is not known. Seconds is nil when no step's cost
// is known: zero would claim the phase took no time.
type GbakPhase struct {
	Name    string   `json:"name"`
	Steps   int      `json:"steps"`
	Unknown int      `json:"unknown"`
	Seconds *float64 `json:"seconds"`
	Reads   int64    `json:"reads"`
	Writes  int64    `json:"writes"`
	// LowerBound is set when one of the phase's steps was cut short
	// (GbakStep.LowerBound): the sums are lower bounds.
	LowerBound bool `json:"lower_bound,omitempty"`
	// Share is Seconds / the run's total_seconds; nil when either is
	// unknown (an excerpt has no total).
	Share *float64 `json:"share"`
}

// Timeline is the analysis of one gbak log.
type Timeline struct {
	File    string   `json:"file"`
	Kind    *string  `json:"kind"`
	Outcome string   `json:"outcome"`
	Errors  []string `json:"errors"`
	// Warnings are gbak's own WARNING lines.
	Warnings []string `json:"warnings"`
	Columns  string   `json:"columns"`
	// TotalSeconds is the time of the "total statistics" line, else, for
	// a log that ended (completed or failed), the last time printed; an
	// incomplete log (an excerpt, a cut file) has none. LastTimeSeconds
	// is the last time printed, whatever the outcome. TotalReads and
	// TotalWrites are the absolute counters of the total line, else the
	// sum of the deltas of a whole log.
	TotalSeconds    *float64 `json:"total_seconds"`
	LastTimeSeconds *float64 `json:"last_time_seconds"`
	TotalReads      *int64   `json:"total_reads"`
	TotalWrites     *int64   `json:"total_writes"`
	// SpanSeconds is the time from the first to the last line shown (the
	// whole run, or the part an excerpt holds).
	SpanSeconds *float64       `json:"span_seconds"`
	Phases      []GbakPhase    `json:"phases"`
	Tables      []GbakTable    `json:"tables"`
	Indices     []GbakIndex    `json:"indices"`
	Steps       []GbakStep     `json:"steps"`
	Notes       []string       `json:"notes"`
	Notices     []parse.Notice `json:"notices"`
}

// Slowest returns the n steps with the largest known cost, slowest first.
// KnownSteps counts the steps whose cost is known (those Slowest ranks).
func (t *Timeline) KnownSteps() int {
	n := 0
	for i := range t.Steps {
		if t.Steps[i].Seconds != nil {
			n++
		}
	}
	return n
}

func (t *Timeline) Slowest(n int) []GbakStep {
	// Sort positions, not steps: a log of a million steps is sorted
	// without a second copy of them.
	var idx []int
	for i := range t.Steps {
		if t.Steps[i].Seconds != nil {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return *t.Steps[idx[i]].Seconds > *t.Steps[idx[j]].Seconds })
	if n >= 0 && len(idx) > n {
		idx = idx[:n]
	}
	var s []GbakStep
	for _, i := range idx {
		s = append(s, t.Steps[i])
	}
	return s
}

// GbakTimeline analyses a log read whole by parse.ReadGbak.
func GbakTimeline(log *parse.GbakLog) *Timeline {
	b := NewGbakTimelineBuilder(log.Name, log.Columns)
	for i := range log.Lines {
		b.Add(&log.Lines[i])
	}
	return b.Finish(log.Op, log.Notices)
}

// ReadGbakTimeline streams a gbak log into a timeline: memory grows with
// the steps, not with the progress lines. The reader's notices are in
// Timeline.Notices. On an I/O error, or for a file without a single gbak
// line, it returns what was read (with its notices) and the error.
func ReadGbakTimeline(r io.Reader, name string) (*Timeline, error) {
	rd := parse.NewGbakReader(r, name)
	b := NewGbakTimelineBuilder(rd.Name(), 0)
	var second *parse.Notice
	lastT, hasT := 0.0, false
	for rd.Next() {
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
		b.Add(l)
	}
	notices := rd.Notices()
	if second != nil {
		notices = append(notices, *second)
	}
	tl := b.Finish(rd.Op(), notices)
	if err := rd.Err(); err != nil {
		return tl, err
	}
	if rd.Lines() == 0 {
		return tl, rd.NoGbakError()
	}
	return tl, nil
}

// GbakTimelineBuilder builds a Timeline from lines as they are read, so
// that memory grows with the steps, not with the progress lines.
type GbakTimelineBuilder struct {
	t       *Timeline
	cols    parse.GbakColumns
	pending int // index of the step whose cost is open, -1 if none
	// the interval since the pending step's line
	sumD, prevT   float64
	sumR, sumW    int64
	n             int
	broken        bool
	hasPrevT      bool
	table         int // index in t.Tables of the table receiving records, -1
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
	mem           gbakSlab
}

// NewGbakTimelineBuilder starts a timeline for the named file.
func NewGbakTimelineBuilder(file string, cols parse.GbakColumns) *GbakTimelineBuilder {
	return &GbakTimelineBuilder{
		t:       &Timeline{File: file, Errors: []string{}, Warnings: []string{}, Tables: []GbakTable{}, Indices: []GbakIndex{}, Steps: []GbakStep{}},
		cols:    cols,
		pending: -1, table: -1, lastErr: -1,
		ops: map[string]int{},
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
		b.addError(l.Message, l.Continued)
		return
	case parse.GbakWarning:
		if l.Continued && len(b.t.Warnings) > 0 {
			b.t.Warnings[len(b.t.Warnings)-1] += "; " + l.Message
		} else {
			b.t.Warnings = append(b.t.Warnings, l.Message)
		}
		return
	case parse.GbakIndexFailed:
		b.addError("cannot commit index "+l.Name, false)
		b.joinNext = true
		for i := range b.t.Indices {
			if b.t.Indices[i].Name == l.Name {
				b.t.Indices[i].Failed = true
			}
		}
		return
	case parse.GbakNotOnline:
		b.addError(l.Message, len(b.t.Errors) > 0 && b.lastErr >= 0 && strings.HasPrefix(l.Message, "Run gfix"))
		return
	}
	b.lastErr, b.joinNext = -1, false
	// (lines skipped before the first step, a command line or a title,
	// hide nothing)
	if (l.Gap && len(b.t.Steps) > 0) || (l.Has&(parse.ColTime|parse.ColDelta) == parse.ColTime|parse.ColDelta && b.hasT &&
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
	case parse.GbakRecords, parse.GbakIgnored:
		b.accumulate(l)
		if b.table >= 0 {
			tb := &b.t.Tables[b.table]
			st := &b.t.Steps[len(b.t.Steps)-1]
			if l.Kind == parse.GbakRecords {
				if tb.Records == nil {
					tb.Records = b.mem.i(0)
				}
				*tb.Records = l.Count // cumulative count: the last one is the table's
				if st.Kind == parse.GbakData {
					st.Records = tb.Records
				}
			} else {
				if tb.Ignored == nil {
					tb.Ignored = b.mem.i(0)
				}
				*tb.Ignored += l.Count
				if st.Kind == parse.GbakData {
					st.Ignored = tb.Ignored
				}
			}
		}
		return
	case parse.GbakTotal:
		b.accumulate(l)
		// R and W of the total line are absolute counters, not the cost
		// of the last step: only its time is.
		b.close(false)
		lc := *l
		b.total = &lc
		return
	}
	// A step line: it ends the pending step's interval and opens its own.
	b.accumulate(l)
	b.close(true)
	b.open(l)
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
	b.t.Errors = append(b.t.Errors, msg)
	b.lastErr = len(b.t.Errors) - 1
}

// accumulate adds a line to the pending interval.
func (b *GbakTimelineBuilder) accumulate(l *parse.GbakLine) {
	if b.pending < 0 {
		b.trackT(l)
		return
	}
	if l.Has == 0 || l.Gap {
		b.broken = true
	}
	if l.Has&parse.ColDelta != 0 {
		b.sumD += l.Delta
	}
	b.sumR += l.Reads
	b.sumW += l.Writes
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

// close sets the cost of the pending step. withIO is false when the
// closing line's counters are not deltas (the total line).
func (b *GbakTimelineBuilder) close(withIO bool) {
	if b.pending < 0 {
		return
	}
	st := &b.t.Steps[b.pending]
	if !b.broken && b.n > 0 {
		switch {
		case b.n == 1 && b.cols&parse.ColDelta != 0:
			st.Seconds = b.mem.f(b.sumD)
		case st.Start != nil && b.hasPrevT:
			st.Seconds = b.mem.f(round3(b.prevT - *st.Start))
		case b.cols&parse.ColDelta != 0:
			st.Seconds = b.mem.f(round3(b.sumD))
		}
		if st.Seconds != nil && *st.Seconds < 0 {
			st.Seconds = nil // the time went back: a second log starts here
		}
		if b.cols&parse.ColReads != 0 && withIO {
			st.Reads = b.mem.i(b.sumR)
		}
		if b.cols&parse.ColWrites != 0 && withIO {
			st.Writes = b.mem.i(b.sumW)
		}
	}
	if st.Kind == parse.GbakData && b.table >= 0 {
		tb := &b.t.Tables[b.table]
		tb.Seconds, tb.Reads, tb.Writes = st.Seconds, st.Reads, st.Writes
		if tb.Seconds != nil && *tb.Seconds > 0 && tb.Records != nil {
			tb.RecordsPerSecond = b.mem.f(float64(*tb.Records) / *tb.Seconds)
		}
	}
	if st.Kind == parse.GbakActivateIndex {
		ix := &b.t.Indices[len(b.t.Indices)-1]
		ix.Seconds, ix.Reads, ix.Writes = st.Seconds, st.Reads, st.Writes
	}
	b.pending = -1
}

// closeCut ends the last step. Its cost is unknown, as nothing follows
// it, unless it is a table's data with progress lines after it: a restore
// whose server died mid-table, or a cut log. The records logged bound
// the cost from below (30000 records over 5.3 s: at least 5.3 s).
func (b *GbakTimelineBuilder) closeCut() {
	p := b.pending
	if p < 0 || b.n == 0 || b.t.Steps[p].Kind != parse.GbakData {
		b.pending = -1
		return
	}
	b.close(true)
	if st := &b.t.Steps[p]; st.Seconds != nil {
		st.LowerBound = true
		if b.table >= 0 {
			b.t.Tables[b.table].LowerBound = true
		}
	}
}

func round3(v float64) float64 {
	if v < 0 {
		return -round3(-v)
	}
	return float64(int64(v*1000+0.5)) / 1000
}

func (b *GbakTimelineBuilder) open(l *parse.GbakLine) {
	st := GbakStep{Line: l.Line, Kind: l.Kind, Object: l.Object, Name: l.Name, Message: l.Message, Phase: b.phase(l.Kind)}
	if l.Has&parse.ColTime != 0 {
		st.Start = b.mem.f(l.Time)
	}
	b.t.Steps = append(b.t.Steps, st)
	b.table = -1
	switch l.Kind {
	case parse.GbakData:
		b.t.Tables = append(b.t.Tables, GbakTable{Name: l.Name, Line: l.Line})
		b.table = len(b.t.Tables) - 1
	case parse.GbakActivateIndex:
		b.t.Indices = append(b.t.Indices, GbakIndex{Name: l.Name, Line: l.Line})
	case parse.GbakCreateIndexes:
		b.afterCreate = true
	case parse.GbakFinish:
		b.finished = true
	}
	// Without statistics on this line the interval to the next line is
	// not a measure of this step.
	if l.Has == 0 && b.cols != 0 {
		b.pending = -1
		return
	}
	b.pending = len(b.t.Steps) - 1
	b.sumD, b.sumR, b.sumW, b.n, b.broken = 0, 0, 0, 0, false
}

func (b *GbakTimelineBuilder) phase(k parse.GbakKind) string {
	switch k {
	case parse.GbakOpenFile, parse.GbakOpenDatabase, parse.GbakCreateDatabase,
		parse.GbakTransaction, parse.GbakBackupInfo, parse.GbakVersion:
		return PhaseOpen
	case parse.GbakData, parse.GbakSkipData:
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
	ended := b.finished || len(t.Errors) > 0
	if t.TotalSeconds == nil && b.hasT && ended {
		t.TotalSeconds = f64(b.lastT)
	}
	if t.TotalSeconds == nil && b.cols&parse.ColDelta != 0 && ended {
		var s float64
		for _, st := range t.Steps {
			if st.Seconds != nil {
				s += *st.Seconds
			}
		}
		t.TotalSeconds = f64(round3(s))
	}
	// Without the total line the deltas add up to the run's I/O only
	// when the log is whole: it starts at gbak's first line and misses
	// nothing.
	whole := !b.anyGap && len(t.Steps) > 0 && t.Steps[0].Phase == PhaseOpen
	if t.TotalReads == nil && b.cols&parse.ColReads != 0 && whole {
		t.TotalReads = i64(b.sumAllR)
	}
	if t.TotalWrites == nil && b.cols&parse.ColWrites != 0 && whole {
		t.TotalWrites = i64(b.sumAllW)
	}
	if b.hasT {
		t.SpanSeconds = f64(round3(b.lastT - b.firstT))
	}
	switch {
	case len(t.Errors) > 0:
		t.Outcome = GbakFailed
	case b.finished:
		t.Outcome = GbakCompleted
	default:
		t.Outcome = GbakIncomplete
	}
	t.Phases = phases(t.Steps)
	if t.TotalSeconds != nil && *t.TotalSeconds > 0 && b.cols != 0 {
		for i := range t.Phases {
			if p := &t.Phases[i]; p.Seconds != nil {
				p.Share = f64(*p.Seconds / *t.TotalSeconds)
			}
		}
	}
	if b.cols == 0 {
		t.Notes = append(t.Notes, "no statistics columns: run gbak with -st tdrw (Firebird 2.5.5 and later) to get times and page I/O")
	}
	t.Notices = notices
	if t.Notices == nil {
		t.Notices = []parse.Notice{}
	}
	return t
}

func phases(steps []GbakStep) []GbakPhase {
	order := []string{PhaseOpen, PhaseMetadata, PhaseData, PhaseIndices, PhaseFinish}
	idx := map[string]int{}
	out := make([]GbakPhase, len(order))
	sum := make([]float64, len(order))
	for i, p := range order {
		out[i].Name, idx[p] = p, i
	}
	for _, st := range steps {
		i := idx[st.Phase]
		p := &out[i]
		p.Steps++
		if st.Seconds == nil {
			p.Unknown++
			continue
		}
		sum[i] += *st.Seconds
		p.LowerBound = p.LowerBound || st.LowerBound
		if st.Reads != nil {
			p.Reads += *st.Reads
		}
		if st.Writes != nil {
			p.Writes += *st.Writes
		}
	}
	var kept []GbakPhase
	for i, p := range out {
		if p.Steps > 0 {
			if p.Unknown < p.Steps {
				v := round3(sum[i])
				p.Seconds = &v
			}
			kept = append(kept, p)
		}
	}
	return kept
}
