package analyze

import (
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
// lines ("10000 records restored") are folded into their step. Three
// messages come after their work (reportsDone): their step starts at the
// line before and its own line's figures are its cost. A cost that cannot
// be known (last line, lines missing, no statistics) is nil.
type GbakStep struct {
	Line    int            `json:"line"`
	Kind    parse.GbakKind `json:"kind"`
	Object  string         `json:"object,omitempty"`
	Name    string         `json:"name,omitempty"`
	Message string         `json:"message"`
	Phase   string         `json:"phase"`
	// Start is the time column at the step's line (seconds since gbak
	// started); for a line printed after its work (reportsDone), at the
	// line before, where the work began.
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
	// Wrapped is set when Reads and Writes are nil because a wrapped
	// counter (firebird#8027) fell on the step: a line with a negative
	// delta and the next line, measured from the bad value, charged to
	// two steps. Only the two lines' sum means something; the phase has
	// it (GbakPhase). A notice names the line.
	Wrapped bool `json:"-"`
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
	case parse.GbakIgnored:
		// gbak does not name the table before Firebird 6.0 (#9075)
		return "data of a skipped table (" + s.Message + ")"
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
	// Wrapped: Reads and Writes are unknown (GbakStep.Wrapped).
	Wrapped bool `json:"-"`
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
	// Ended is set when another step follows the build: gbak commits
	// each deferred index before it starts the next and reports a
	// failure at once ("cannot commit index X": RESTORE_restore in 3.0's
	// restore.epp, SAVE or COMMIT activateIndexTran; activateIndex in
	// master), so an index not Failed was activated, whether or not the
	// log has -st columns to time it.
	Ended bool `json:"-"`
	// Wrapped: Reads and Writes are unknown (GbakStep.Wrapped).
	Wrapped bool `json:"-"`
}

// GbakPhase sums the known costs of the steps of one phase; Unknown counts
// its steps whose cost is not known. Seconds is nil when no step's cost
// is known: zero would claim the phase took no time.
type GbakPhase struct {
	Name    string   `json:"name"`
	Steps   int      `json:"steps"`
	Unknown int      `json:"unknown"`
	Seconds *float64 `json:"seconds"`
	// Reads and Writes sum the steps' known page reads and writes; nil
	// when no step of the phase has them (no R or W column, or only steps
	// of unknown cost). A log of -st w has writes and no seconds.
	Reads  *int64 `json:"reads"`
	Writes *int64 `json:"writes"`
	// LowerBound is set when one of the phase's steps was cut short
	// (GbakStep.LowerBound): the sums are lower bounds.
	LowerBound bool `json:"lower_bound,omitempty"`
	// Wrapped is set when Reads and Writes are nil because the two
	// lines of a wrapped counter (firebird#8027) fell on steps of two
	// phases, or the log ends between them: the phase's share of their
	// sum is not known. Within one phase the sum is the phase's.
	Wrapped bool `json:"-"`
	// Share is Seconds / the run's total_seconds; nil when either is
	// unknown (an excerpt has no total).
	Share *float64 `json:"share"`
}

// Timeline is the analysis of one gbak log. Steps comes second so that
// the JSON can be written while the log is read (StreamGbakTimeline):
// steps as they come, the figures known at the end after them.
type Timeline struct {
	File    string     `json:"file"`
	Steps   []GbakStep `json:"steps"`
	Kind    *string    `json:"kind"`
	Outcome string     `json:"outcome"`
	Errors  []string   `json:"errors"`
	// Warnings are gbak's own WARNING lines.
	Warnings []string `json:"warnings"`
	// ErrorCount and WarningCount count them; a stream that takes them
	// as they come (GbakStream.Error, GbakStream.Warning) leaves Errors
	// and Warnings empty and counts them here.
	ErrorCount   int    `json:"-"`
	WarningCount int    `json:"-"`
	Columns      string `json:"columns"`
	// TotalSeconds is the time of the "total statistics" line, else, for
	// a log that ended (completed or failed), the last time printed; an
	// incomplete log (an excerpt, a cut file) has none. LastTimeSeconds
	// is the last time printed, whatever the outcome. TotalReads and
	// TotalWrites are the absolute counters of the total line, else the
	// sum of the deltas of a whole log.
	TotalSeconds *float64 `json:"total_seconds"`
	// TotalLowerBound is set when TotalSeconds is a lower bound: the run
	// failed before its closing line and has no total line, so gbak
	// stopped at a moment after its last timestamp that the log does not
	// give (the error lines have no time).
	TotalLowerBound bool     `json:"total_lower_bound,omitempty"`
	LastTimeSeconds *float64 `json:"last_time_seconds"`
	TotalReads      *int64   `json:"total_reads"`
	TotalWrites     *int64   `json:"total_writes"`
	// ReadsSoFar and WritesSoFar are the sums of the deltas of a whole
	// log that is incomplete (no closing line, no total line): the page
	// I/O up to where the log stops, not the run's, for the reason its
	// total time is unknown; TotalReads and TotalWrites are then nil.
	ReadsSoFar  *int64 `json:"reads_so_far"`
	WritesSoFar *int64 `json:"writes_so_far"`
	// SpanSeconds is the time from the first to the last line shown (the
	// whole run, or the part an excerpt holds).
	SpanSeconds *float64    `json:"span_seconds"`
	Phases      []GbakPhase `json:"phases"`
	Tables      []GbakTable `json:"tables"`
	Indices     []GbakIndex `json:"indices"`
	// InactiveIndices counts the indices a completed restore defined
	// and never activated, inactive in the database it made (gbak -i
	// leaves every index so; without it, those inactive in the database
	// backed up stay so); InactiveIndexNames names them in log order
	// (empty past 10,000 indices: the count alone). Nil when the log
	// cannot tell: not a completed restore of Firebird 3.0 or later
	// logged with -v (gbak_inactive.go).
	// RestoredIndices counts the indices the restore defined, nil as
	// InactiveIndices is.
	RestoredIndices    *int     `json:"restored_indices"`
	InactiveIndices    *int     `json:"inactive_indices"`
	InactiveIndexNames []string `json:"inactive_index_names"`
	Notes              []string `json:"notes"`
	// Advice is fbdiag's advice on gbak's errors and warnings (an index
	// it could not activate, Firebird 5.0's parallel workers), each
	// naming the message it answers.
	Advice  []GbakAdvice   `json:"advice"`
	Notices []parse.Notice `json:"notices"`
}

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

// Slowest returns the n steps with the largest known cost, slowest first.
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
