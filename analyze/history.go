package analyze

import (
	"cmp"
	"time"

	"github.com/fbdiag/fbdiag/parse"
)

// History compares gstat snapshots of one database taken at different
// times (DBAs keep them for months): Diff for two of them, Trend for a
// series. Objects are matched by schema and name only (ids change on a
// restore), so a renamed table is a drop plus a create. Values a
// snapshot does not show stay null; they are never taken as zero.

// Pair is a value before and after, [before, after] in JSON; either side
// is null when that snapshot does not show it.
type Pair [2]*int64

// Change is after − before, null unless both are known.
func (p Pair) Change() *int64 { return diff(p[1], p[0]) }

// Differs tells whether both values are known and different.
func (p Pair) Differs() bool { return p[0] != nil && p[1] != nil && *p[0] != *p[1] }

// Known tells whether both values are known, so that they compare.
func (p Pair) Known() bool { return p[0] != nil && p[1] != nil }

// Relative is the change relative to the before value, (after −
// before) / before, the first snapshot being the baseline; null unless
// both are known and before is not 0.
func (p Pair) Relative() *float64 {
	if p[0] == nil || p[1] == nil || *p[0] == 0 {
		return nil
	}
	return ptr(float64(*p[1]-*p[0]) / float64(*p[0]))
}

// FloatPair is Pair for computed figures (hours, rates).
type FloatPair [2]*float64

// HistorySnapshot is one gstat run placed in time: the unit Diff and
// Trend compare.
type HistorySnapshot struct {
	// Time is the gstat execution time, or another time the caller
	// chose (TimeSource says which); nil when unknown.
	Time       *time.Time
	TimeSource string
	// Parsed is the run's place, file and header (its tables and
	// indices, which the analysis holds, are let go of).
	Parsed   *parse.GstatReport
	Analysis *GstatAnalysis
	// printed are the fields the run prints (printedFields), for Diff.
	printed map[string]bool
	// sampled: the run was read as a stream (TrendSamples), its
	// analysis has no tables, and samples are what a trend plots of
	// them.
	sampled bool
	samples []growthSample
	// diff is what Diff compares, when a stream made the snapshot
	// (DiffSamples): its analysis then has no tables.
	diff *diffSide
}

// Time sources of a snapshot.
const (
	TimeFromExecution = "execution_time"
	TimeFromFile      = "file_mtime"
)

// SnapshotOptions are what a caller may know of a gstat run besides its
// text.
type SnapshotOptions struct {
	// Analysis is the run's analysis when the caller made it already
	// (the report analyses every run once); nil: NewHistorySnapshot
	// analyses the run with the default thresholds.
	Analysis *GstatAnalysis
	// FileTime is the modification time of the run's file: it dates a
	// run printed without a "Gstat execution time" (gstat before 2.5, a
	// cut excerpt). Zero: such a run stays undated, and Trend skips it.
	FileTime time.Time
}

// NewHistorySnapshot places one gstat run in time: by its "Gstat
// execution time", else by opt.FileTime (TimeSource says which). It is
// the one way diff, trend and the report make a snapshot.
func NewHistorySnapshot(rep *parse.GstatReport, opt SnapshotOptions) *HistorySnapshot {
	a := opt.Analysis
	if a == nil {
		a = Gstat(rep, NewThresholds())
	}
	// The parsed records go once their fields are listed: a snapshot
	// kept for a diff holds its analysis, not its run twice over.
	s := &HistorySnapshot{Parsed: runHeader(rep), Analysis: a, printed: printedFields(rep)}
	s.Time, s.TimeSource = SnapshotTime(rep, opt.FileTime)
	return s
}

// runHeader is rep's place, file and header, without its blocks.
func runHeader(rep *parse.GstatReport) *parse.GstatReport {
	return &parse.GstatReport{Index: rep.Index, File: rep.File, Header: rep.Header, Completion: rep.Completion}
}

// cut reports whether the run ends before its "Gstat completion time",
// which gstat prints last from Firebird 3.0 (ODS 12) on, after its
// execution time: a file cut short (a disk full, a gstat killed), whose
// size counts the tables before the cut.
func (s *HistorySnapshot) cut() bool {
	p := s.Parsed
	if p == nil || p.Completion != nil || p.Header == nil || p.Header.ExecutionTime == nil || s.Analysis.Header == nil {
		return false
	}
	major, ok := odsMajor(s.Analysis.Header.ODSVersion)
	return ok && major >= 12
}

// SnapshotTime is when run rep was taken: its "Gstat execution time",
// else fileTime, its file's modification time (zero: unknown, nil); the
// source says which (TimeFromExecution, TimeFromFile, "").
func SnapshotTime(rep *parse.GstatReport, fileTime time.Time) (*time.Time, string) {
	switch {
	case rep.Header != nil && rep.Header.ExecutionTime != nil:
		return rep.Header.ExecutionTime, TimeFromExecution
	case !fileTime.IsZero():
		// To the second, as gstat dates: files written together (a
		// copy, a checkout) read microseconds apart, "-0.000 s".
		t := fileTime.UTC().Truncate(time.Second)
		return &t, TimeFromFile
	}
	return nil, ""
}

// DatedByFile tells whether the snapshot's time is its file's
// modification time.
func (s *HistorySnapshot) DatedByFile() bool { return s.TimeSource == TimeFromFile }

// SnapshotInfo identifies a snapshot in diff and trend output.
type SnapshotInfo struct {
	File   string `json:"file"`
	Report int    `json:"report"`
	// Time is the execution time as printed (local time of the machine
	// that ran gstat, zone unknown, written as UTC).
	Time            *time.Time `json:"time"`
	TimeSource      *string    `json:"time_source"`
	Database        *string    `json:"database"`
	FirebirdVersion *string    `json:"firebird_version"`
	ODSVersion      *string    `json:"ods_version"`
	PageSize        *int64     `json:"page_size"`
	// Tables and Indices are nil when the run printed no such block
	// (gstat -h, -d), as gstat's totals: 0 would read as the database's.
	Tables  *int `json:"tables"`
	Indices *int `json:"indices"`
	// SizeBytes is tables plus indices (see Totals): the database less
	// its free, system and blob-only pages.
	SizeBytes  *int64 `json:"size_bytes"`
	TableBytes *int64 `json:"table_bytes"`
	IndexBytes *int64 `json:"index_bytes"`
}

// Info describes the snapshot.
func (s *HistorySnapshot) Info() SnapshotInfo {
	a := s.Analysis
	in := SnapshotInfo{
		File: a.File, Report: a.Report, Time: s.Time, TimeSource: strPtr(s.TimeSource),
		Tables: a.Totals.TablesShown(), Indices: a.Totals.IndicesShown(),
		TableBytes: a.Totals.TableBytes, IndexBytes: a.Totals.IndexBytes,
		SizeBytes: s.SizeBytes(),
	}
	if h := a.Header; h != nil {
		in.Database = h.Database
		in.FirebirdVersion = h.FirebirdVersion
		in.ODSVersion = h.ODSVersion
		in.PageSize = h.PageSize
	}
	return in
}

// SizeBytes is the size of the tables plus their indices, null when the
// snapshot shows no table sizes (a header-only gstat -h).
func (s *HistorySnapshot) SizeBytes() *int64 {
	t := s.Analysis.Totals
	if t.TableBytes == nil {
		return nil
	}
	return addPtr(ptr(*t.TableBytes), t.IndexBytes)
}

// tableKey matches tables across snapshots: schema and name, never the
// relation id (a restore renumbers it). Before Firebird 6 there are no
// schemas; a restore into 6.0 puts the application's objects in PUBLIC
// and Firebird's own in SYSTEM (the "PUBLIC"."RDB$…" of firebird#8595 and
// #9083 is a user reference that missed SYSTEM), so a table printed
// without a schema is matched as if in the schema it would get.
func tableKey(schema, name string) string {
	k := objectKeyOf(schema, name, name)
	return k.schema + "." + k.name
}

// objectKey is tableKey's or indexKey's match as a map key that
// allocates nothing: a diff of two runs of a hundred thousand objects
// made 15 MB of key strings.
type objectKey struct{ schema, name string }

// objectKeyOf is the key of object name of table (the table itself for a
// table) in schema, "" for a run printed without schemas.
func objectKeyOf(schema, table, name string) objectKey {
	return objectKey{cmp.Or(schema, defaultSchema(table)), name}
}

// indexKey matches indices: index names are unique per schema, the
// schema of the table they belong to.
func indexKey(tableSchema, table, name string) objectKey {
	return objectKeyOf(tableSchema, cmp.Or(table, name), name)
}

func defaultSchema(table string) string {
	if IsSystemTable(table) {
		return "SYSTEM"
	}
	return "PUBLIC"
}
