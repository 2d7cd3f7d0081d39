package analyze

import (
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// A trend plots five figures a table a snapshot, but a snapshot read
// whole keeps its run: some six times its text in memory, 186 MB for 30
// snapshots of 1,578 tables, 2.2 GB for a year of them. TrendSamples
// keeps those figures alone, table by table, as a stream reads each run
// (StreamGstat), and makes the run's snapshot from them and the run's
// analysis without its tables: memory grows with the points a trend
// shows.
//
//	ts := new(analyze.TrendSamples)
//	analyze.StreamGstat(rd, name, th, opt, analyze.GstatStream{CountWarnings: true,
//		Table: func(_ *GstatAnalysis, t *TableStats) error { ts.Add(t); return nil },
//		Run: func(a *GstatAnalysis, rep *parse.GstatReport) error {
//			snaps = append(snaps, ts.Snapshot(a, rep, opt)); return nil }})
//
// Such a snapshot serves TrendOf and ComparableSnapshots; Diff compares
// snapshots made whole or by DiffSamples.
type TrendSamples struct {
	cur []growthSample
	// names holds one copy of each name and size source for every
	// snapshot, not one a snapshot, and no sample holds on to the block
	// of text its run's names were parsed into.
	names interned
	asIs  bool // (growthSamples of a whole snapshot: its names stay its own)
}

// interned holds one copy of each string it is given: the names of a
// stream's blocks share the block of text they were parsed from, which
// a sample or a diff's side would keep whole.
type interned map[string]string

// of is s's copy.
func (m *interned) of(s string) string {
	if s == "" {
		return s
	}
	if c, ok := (*m)[s]; ok {
		return c
	}
	if *m == nil {
		*m = interned{}
	}
	c := strings.Clone(s)
	(*m)[c] = c
	return c
}

// growthSample is one table of one snapshot as a trend plots it; has
// says which figures the snapshot printed.
type growthSample struct {
	schema, name, sizeSource     string
	sizeBytes, records, versions int64
	averageFill                  int
	has                          uint8
}

const (
	hasSize uint8 = 1 << iota
	hasRecords
	hasVersions
	hasFill
	hasSource
)

// Add keeps the trend's figures of table t of the run being read.
func (ts *TrendSamples) Add(t *TableStats) {
	ts.cur = append(ts.cur, ts.sampleOf(t))
}

// Snapshot places the run whose tables Add was given in time, as
// NewHistorySnapshot does; a is its analysis without tables
// (GstatStream's Run), rep the run without its tables. The next Add
// starts the next run.
func (ts *TrendSamples) Snapshot(a *GstatAnalysis, rep *parse.GstatReport, opt SnapshotOptions) *HistorySnapshot {
	opt.Analysis = a.Slim() // (the stream's own: what it omitted, its unattached indices)
	s := NewHistorySnapshot(rep, opt)
	s.samples, s.sampled = ts.cur, true
	ts.cur = nil
	return s
}

func (ts *TrendSamples) sampleOf(t *TableStats) growthSample {
	g := growthSample{schema: ts.intern(t.Schema), name: ts.intern(t.Name)}
	if t.SizeBytes != nil {
		g.sizeBytes, g.has = *t.SizeBytes, g.has|hasSize
	}
	if t.Records != nil {
		g.records, g.has = *t.Records, g.has|hasRecords
	}
	if t.Versions != nil {
		g.versions, g.has = *t.Versions, g.has|hasVersions
	}
	if t.AverageFill != nil {
		g.averageFill, g.has = *t.AverageFill, g.has|hasFill
	}
	if t.SizeSource != nil {
		g.sizeSource, g.has = ts.intern(*t.SizeSource), g.has|hasSource
	}
	return g
}

func (ts *TrendSamples) intern(s string) string {
	if ts.asIs {
		return s
	}
	return ts.names.of(s)
}

// growthSamples are the snapshot's tables as a trend reads them: its
// samples, or those of its analysis's tables.
func (s *HistorySnapshot) growthSamples() []growthSample {
	return (&TrendSamples{asIs: true}).samplesOf(s)
}

// samplesOf are snapshot s's samples: its own, or those ts makes of its
// analysis's tables.
func (ts *TrendSamples) samplesOf(s *HistorySnapshot) []growthSample {
	switch {
	case s.sampled:
		return s.samples
	case s.diff != nil: // (its analysis has no tables: DiffSamples)
		return s.diff.growthSamples()
	}
	tables := s.Analysis.Tables
	out := make([]growthSample, len(tables))
	for i := range tables {
		out[i] = ts.sampleOf(&tables[i])
	}
	return out
}

// The figures of a sample, nil where the snapshot printed none: pointers
// into the sample, which the trend's points keep.
func (g *growthSample) sizeBytesPtr() *int64 { return ifHas(g.has&hasSize != 0, &g.sizeBytes) }
func (g *growthSample) recordsPtr() *int64   { return ifHas(g.has&hasRecords != 0, &g.records) }
func (g *growthSample) versionsPtr() *int64  { return ifHas(g.has&hasVersions != 0, &g.versions) }
func (g *growthSample) fillPtr() *int        { return ifHas(g.has&hasFill != 0, &g.averageFill) }

func ifHas[T any](ok bool, p *T) *T {
	if ok {
		return p
	}
	return nil
}

// SizeBasis names what the snapshot's size adds up: its database, whether
// it has sizes, index statistics and system tables, and where its table
// sizes come from. Of one database's snapshots, those a trend or a
// history compares share it (the others are left out, with the reason).
func (s *HistorySnapshot) SizeBasis() string { return basisOf(s).key() }

// Sample is snapshot s as a trend reads it: its header and totals and
// its tables' samples, without its tables, indices and warnings, for a
// caller that keeps many snapshots and compares only the latest whole
// (the report). The names are held once for all the snapshots ts
// samples.
func (ts *TrendSamples) Sample(s *HistorySnapshot) *HistorySnapshot {
	out := &HistorySnapshot{Time: s.Time, TimeSource: s.TimeSource, Analysis: s.Analysis.Slim(),
		sampled: true, samples: ts.samplesOf(s)}
	if s.Parsed != nil {
		out.Parsed = runHeader(s.Parsed)
	}
	return out
}
