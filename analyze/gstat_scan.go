package analyze

import (
	"sync/atomic"

	"github.com/fbdiag/fbdiag/parse"
)

// GstatScan analyses one gstat run block by block, as a reader delivers
// them: a table and its indices are analysed and their rules run as soon
// as the table is complete, so a caller that writes each table and drops
// it holds one table at a time, whatever the size of the database. Gstat
// and GstatWith are a scan that keeps every table, so both give the same
// figures and the same warnings by construction.
//
//	s := analyze.NewGstatScan(file, report, header, th, opt)
//	for each table (with its Indices): ts := s.Table(t) // write ts, or keep it
//	for each index that follows no table: s.Unattached(ix)
//	a := s.Finish(findings, notices) // header, totals, warnings
//
// The header must come first: tables read before it are analysed without
// the page size (gstat always prints the header first).
type GstatScan struct {
	a        *GstatAnalysis
	c        *checker
	env      *statsEnv
	odsMajor *int
	keep     bool
	cur      TableStats
	opt      GstatOptions
	eval     *tableEval // Table's evaluator, made again when the header comes
}

// NewGstatScan starts the analysis of run report of file, whose header
// (nil for an excerpt of blocks) is h. Tables are kept in the result only
// with Keep.
func NewGstatScan(file string, report int, h *parse.GstatHeader, th Thresholds, opt GstatOptions) *GstatScan {
	if th.list == nil {
		th = NewThresholds()
	}
	a := &GstatAnalysis{
		File:              file,
		Report:            report,
		Tables:            []TableStats{},
		UnattachedIndices: []IndexStats{},
		Findings:          []*parse.GstatFinding{},
		Encryption:        []parse.GstatPageCrypt{},
		Warnings:          []Warning{},
		Notices:           []parse.Notice{},
	}
	s := &GstatScan{
		a:   a,
		c:   &checker{a: a, th: th, floorOut: new(atomic.Pointer[WarningKey]), holder: opt.OldestActive, remote: opt.Remote},
		env: &statsEnv{sl: newSlab(), fill: th.Get("index-deep", "page_fill"), cat: catalogueMap(opt.Catalogue)},
	}
	s.opt = opt
	if h != nil {
		s.setHeader(h)
	}
	return s
}

func (s *GstatScan) setHeader(h *parse.GstatHeader) {
	if h.Encryption != nil {
		s.a.Encryption = h.Encryption
	}
	s.odsMajor = h.ODSMajor
	if h.HeaderPage {
		s.a.Header = headerStats(h, s.c.th, s.opt.Server)
		s.env.pageSize = s.a.Header.PageSize
		s.env.odsMajor = h.ODSMajor
		s.c.header(h)
	}
	s.eval = nil
}

// LimitWarnings keeps only the n worst warnings (n > 0) and counts the
// others by severity in WarningsOmitted, for a view that shows n.
func (s *GstatScan) LimitWarnings(n int) {
	s.c.limit = n
	fired := s.a.Warnings
	s.a.Warnings, s.c.seen = []Warning{}, nil
	for i := range fired { // (one per key already)
		s.c.fireLimited(&fired[i])
	}
}

// SinkWarnings gives the run's warnings to sink as they fire, those
// already fired (the header's) first; the analysis then counts them.
func (s *GstatScan) SinkWarnings(sink WarningSink) {
	s.c.sink = sink
	fired := s.a.Warnings
	s.a.Warnings = []Warning{}
	for i := range fired {
		s.c.accept(&fired[i])
	}
}

// Err is the first error the warning sink returned.
func (s *GstatScan) Err() error { return s.c.sinkErr }

// Keep makes the scan keep every table in the result (Gstat does).
func (s *GstatScan) Keep() { s.keep = true }

// Table analyses one table block with its indices, runs the table and
// index rules on it and adds it to the totals. Without Keep the result is
// valid until the next call.
func (s *GstatScan) Table(t *parse.GstatTable) *TableStats {
	e := s.evaluator()
	var ts TableStats
	fired := e.table(&ts, t, s.a.tableWarnings, nil) // (valid until the next call)
	return s.add(&ts, fired)
}

// add takes a table evaluated by tableEval.table, in the order of the
// input: the run's warnings, the deepest index and the totals are the
// scan's, whoever evaluated it.
func (s *GstatScan) add(ts *TableStats, fired []Warning) *TableStats {
	return s.addEncoded(ts, fired, nil, nil)
}

// addEncoded is add with the bytes GstatStream.EncodeWarning made of the
// fired warnings, each ending at its ends entry (none: nil), for the
// sink's PutEncoded.
func (s *GstatScan) addEncoded(ts *TableStats, fired []Warning, enc []byte, ends []int) *TableStats {
	from := 0
	for i := range fired {
		if i < len(ends) {
			s.c.encoded = enc[from:ends[i]:ends[i]]
			from = ends[i]
		}
		s.c.accept(&fired[i])
	}
	s.c.encoded = nil
	for j := range ts.Indices {
		s.c.notePageSize(&ts.Indices[j])
	}
	s.a.tableWarnings = fired
	s.addTotals(ts)
	if s.keep {
		s.a.Tables = append(s.a.Tables, *ts)
		return &s.a.Tables[len(s.a.Tables)-1]
	}
	s.cur = *ts
	return &s.cur
}

// tableEval computes one table's figures and the warnings its rules fire
// from what the run settles before its tables (thresholds, header, page
// size, ODS), without touching the scan: several can evaluate a run's
// tables at once, and the scan adds them in order (StreamGstat).
type tableEval struct {
	c        checker
	env      statsEnv
	odsMajor *int
}

// evaluator is the tableEval of the scan's own Table, made when first
// needed after the header (setHeader drops it).
func (s *GstatScan) evaluator() *tableEval {
	if s.eval == nil {
		s.eval = s.newEval()
	}
	return s.eval
}

// newEval returns a tableEval for the run as it stands, with its own
// slab: one per worker of a stream.
func (s *GstatScan) newEval() *tableEval {
	e := &tableEval{env: *s.env, odsMajor: s.odsMajor}
	e.env.sl = newSlab()
	e.c = checker{a: &GstatAnalysis{Header: s.a.Header}, th: s.c.th, collect: true, floorAt: s.c.floorOut, textless: s.c.textless, noTables: s.c.noTables,
		remote: s.c.remote}
	return e
}

// table evaluates t into ts; the warnings its rules fire are appended
// to fired[:0], which the caller keeps, and its indices to indices[:0]
// when it has room (a stream's, given back).
func (e *tableEval) table(ts *TableStats, t *parse.GstatTable, fired []Warning, indices []IndexStats) []Warning {
	tableStats(ts, t, &e.env, indices)
	e.c.fired = fired[:0]
	if !e.c.noTables {
		e.c.table(ts)
	}
	for j := range ts.Indices {
		e.c.index(&ts.Indices[j], ts, e.odsMajor)
	}
	return e.c.fired
}

// Unattached analyses an index block that followed no table block.
func (s *GstatScan) Unattached(ix *parse.GstatIndex) *IndexStats {
	is := indexStats(ix, false, s.env)
	s.a.UnattachedIndices = append(s.a.UnattachedIndices, is)
	p := &s.a.UnattachedIndices[len(s.a.UnattachedIndices)-1]
	s.c.collect, s.c.fired = true, nil
	s.c.index(p, nil, s.odsMajor)
	s.c.collect = false
	for i := range s.c.fired {
		s.c.accept(&s.c.fired[i])
	}
	s.a.unattachedWarnings = append(s.a.unattachedWarnings, s.c.fired...)
	s.c.fired = nil
	s.c.notePageSize(p)
	s.a.Totals.Indices++
	s.a.Totals.LeafPages = addPtr(s.a.Totals.LeafPages, p.LeafBuckets)
	s.a.Totals.IndexBytes = addPtr(s.a.Totals.IndexBytes, p.SizeBytes)
	return p
}

// Finish runs the rules that need the whole run (gstat's own error lines,
// the page size against the deepest indices), sorts the warnings and
// returns the analysis: header, totals, warnings, notices, and the tables
// when kept.
func (s *GstatScan) Finish(findings []*parse.GstatFinding, notices []parse.Notice) *GstatAnalysis {
	a := s.a
	if cf := cryptFindings(a.Report, a.Encryption); cf != nil {
		findings = append(cf, findings...) // (the -e lines come before the tables')
	}
	if findings != nil {
		a.Findings = findings
	}
	if notices != nil {
		a.Notices = notices
	}
	s.c.findings(findings)
	s.c.pageSize()
	switch {
	case s.c.sink != nil:
		s.c.dropReplaced()
	case s.c.limit > 0:
		s.c.endLimited()
	}
	s.c.flushOmitted()
	// No warning fires after this: what told them apart can go.
	s.c.seen, s.c.heldH = nil, hashIndex{}
	SortWarnings(a.Warnings)
	a.Totals.Warnings = len(a.Warnings)
	for _, n := range a.WarningsOmitted {
		a.Totals.Warnings += n
	}
	return a
}

func (s *GstatScan) addTotals(ts *TableStats) {
	t := &s.a.Totals
	t.Tables++
	t.Indices += len(ts.Indices)
	t.Records = addPtr(t.Records, ts.Records)
	t.Versions = addPtr(t.Versions, ts.Versions)
	t.DataPages = addPtr(t.DataPages, ts.DataPages)
	t.PrimaryPages = addPtr(t.PrimaryPages, ts.PrimaryPages)
	t.SecondaryPages = addPtr(t.SecondaryPages, ts.SecondaryPages)
	t.SweptPages = addPtr(t.SweptPages, ts.SweptPages)
	t.TableBytes = addPtr(t.TableBytes, ts.SizeBytes)
	for i := range ts.Indices {
		t.LeafPages = addPtr(t.LeafPages, ts.Indices[i].LeafBuckets)
		t.IndexBytes = addPtr(t.IndexBytes, ts.Indices[i].SizeBytes)
	}
}
