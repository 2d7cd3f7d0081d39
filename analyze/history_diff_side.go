package analyze

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/parse"
)

// A diff compares a few figures of each table and index of two runs and
// their warnings, yet a snapshot read whole keeps its run's analysis:
// 820 MB for two 100 MiB gstat outputs, most of it figures and texts a
// diff never reads. diffSide is what Diff compares of one snapshot, and
// DiffSamples makes it table by table as a stream reads the run
// (StreamGstat), so that a diff holds that and no analysis.

// diffSide is what Diff compares of a snapshot: its tables and indices
// in printed order (the tables' indices, then the unattached ones) with
// the figures a diff prints, and its warnings in SortWarnings's order,
// their reasons spooled in memory as the difference from their rule's
// first (extsort.TextRefs: a reason is three quarters its rule's words).
type diffSide struct {
	tables  pile[diffTable]
	indices pile[diffIndex]
	fired   pile[diffWarning] // the warnings as they came
	// warnings are the run's warnings in SortWarnings's order: fired,
	// less those a worse one replaced (gone, a table block printed twice).
	warnings []*diffWarning
	gone     map[int]bool
	texts    extsort.TextRefs
	reasons  []byte
	// header: the snapshot has a header page (the database rules can
	// fire or stay silent).
	header bool
	// schemas: its tables have schemas (Firebird 6), so its warnings name
	// their objects SCHEMA.NAME.
	schemas bool
	// system: it lists system tables or their indices (gstat -s); a run
	// without them does not show them, it did not drop them.
	system bool
}

// pile gathers records in blocks that are never copied as they grow, and
// a record's address stays. A side of a 100 MiB run is some 330,000
// records: slices grown by append copied each four or five times over,
// into memory the system faulted in each time (a tenth of gstat diff's
// CPU). The first block holds pileFirst records and each next one twice
// as many, up to pileBlock: a run of a few warnings takes a few
// kilobytes (a file of 36,315 runs of one warning each, a block of 4096
// warnings a run, took 12 s to diff and allocated 22 GB).
type pile[T any] struct {
	blocks [][]T
	n      int
}

const (
	pileFirst  = 16
	pileGrowth = 8                               // blocks that grow: pileFirst<<pileGrowth is pileBlock
	pileBlock  = pileFirst << pileGrowth         // 4096
	pileGrown  = pileFirst * (1<<pileGrowth - 1) // records in the blocks that grow
)

func (p *pile[T]) add(v T) {
	if k := len(p.blocks); k == 0 || len(p.blocks[k-1]) == cap(p.blocks[k-1]) {
		p.blocks = append(p.blocks, make([]T, 0, pileFirst<<min(k, pileGrowth)))
	}
	b := &p.blocks[len(p.blocks)-1]
	*b = append(*b, v)
	p.n++
}

func (p *pile[T]) len() int { return p.n }

// at is the i-th record added: block k of the growing ones starts at
// pileFirst × (2^k − 1).
func (p *pile[T]) at(i int) *T {
	if i < pileGrown {
		k := bits.Len(uint(i/pileFirst+1)) - 1
		return &p.blocks[k][i-pileFirst*(1<<k-1)]
	}
	j := i - pileGrown
	return &p.blocks[pileGrowth+j/pileBlock][j%pileBlock]
}

type diffTable struct {
	schema, name string

	// sizeSource is where the size comes from, for the size basis
	// (basisOf).
	sizeSource string

	records, versions, fragments, dataPages, sizeBytes, indexBytes, averageFill int64
	has                                                                         uint8
}

// What a diffTable or diffIndex has: the figures its snapshot printed.
const (
	dRecords uint8 = 1 << iota
	dVersions
	dFragments
	dDataPages
	dSize
	dIndexBytes
	dFill
	dSource
)

const (
	dDepth uint8 = 1 << iota
	dLeafBuckets
	dNodes
	dTotalDup
	dMaxDup
	dIndexSize
)

type diffIndex struct {
	tableSchema, table, name                               string
	depth, leafBuckets, nodes, totalDup, maxDup, sizeBytes int64
	has                                                    uint8
}

// diffWarning is a warning as a diff lists it; its reason is
// reasons[start:end], as texts spooled it.
type diffWarning struct {
	id                          int
	rule, kind, object, table   string
	unit                        string
	severity                    Severity
	value, threshold, magnitude float64
	start, end                  int
}

func (w *diffWarning) key() warningKey { return warningKey{w.rule, w.kind, w.object, w.table} }

// sideOf is what Diff compares of s: the side a stream made, else one
// made of its whole analysis.
func sideOf(s *HistorySnapshot) *diffSide {
	if s.diff != nil {
		return s.diff
	}
	a := s.Analysis
	d := &diffSide{header: a.Header != nil}
	for i := range a.Tables {
		d.addTable(&a.Tables[i], asIs)
	}
	d.addUnattached(a.UnattachedIndices, asIs)
	for i := range a.Warnings {
		d.addWarning(i, &a.Warnings[i], asIs)
	}
	for i := range d.fired.len() { // (in SortWarnings's order already)
		d.warnings = append(d.warnings, d.fired.at(i))
	}
	return d
}

func asIs(s string) string { return s }

// addTable adds table t and its indices, their names as name gives them.
func (d *diffSide) addTable(t *TableStats, name func(string) string) {
	dt := diffTable{schema: name(t.Schema), name: name(t.Name)}
	d.schemas = d.schemas || t.Schema != ""
	set := func(bit uint8, p, v *int64) { setFigure(&dt.has, bit, p, v) }
	set(dRecords, &dt.records, t.Records)
	set(dVersions, &dt.versions, t.Versions)
	set(dFragments, &dt.fragments, t.Fragments)
	set(dDataPages, &dt.dataPages, t.DataPages)
	set(dSize, &dt.sizeBytes, t.SizeBytes)
	set(dIndexBytes, &dt.indexBytes, t.IndexBytes)
	if t.AverageFill != nil {
		dt.averageFill, dt.has = int64(*t.AverageFill), dt.has|dFill
	}
	if t.SizeSource != nil {
		dt.sizeSource, dt.has = name(*t.SizeSource), dt.has|dSource
	}
	d.system = d.system || IsSystemTable(dt.name)
	d.tables.add(dt)
	own := func(s string) string {
		if s == t.Name { // (an index's table: named once)
			return dt.name
		}
		return name(s)
	}
	for i := range t.Indices {
		d.addIndex(dt.schema, &t.Indices[i], own)
	}
}

// addUnattached adds the indices that follow no table block.
func (d *diffSide) addUnattached(ixs []IndexStats, name func(string) string) {
	for i := range ixs {
		d.addIndex("", &ixs[i], name)
	}
}

func (d *diffSide) addIndex(tableSchema string, x *IndexStats, name func(string) string) {
	di := diffIndex{tableSchema: tableSchema, table: name(x.Table), name: name(x.Name)}
	set := func(bit uint8, p, v *int64) { setFigure(&di.has, bit, p, v) }
	set(dDepth, &di.depth, x.Depth)
	set(dLeafBuckets, &di.leafBuckets, x.LeafBuckets)
	set(dNodes, &di.nodes, x.Nodes)
	set(dTotalDup, &di.totalDup, x.TotalDup)
	set(dMaxDup, &di.maxDup, x.MaxDup)
	set(dIndexSize, &di.sizeBytes, x.SizeBytes)
	d.system = d.system || IsSystemTable(di.table)
	d.indices.add(di)
}

// setFigure copies figure v, when printed, to p and says so in has.
func setFigure(has *uint8, bit uint8, p, v *int64) {
	if v != nil {
		*p, *has = *v, *has|bit
	}
}

// addWarning adds w, the id-th of its run.
func (d *diffSide) addWarning(id int, w *Warning, name func(string) string) {
	start := len(d.reasons)
	d.reasons = d.texts.AppendText(d.reasons, w.Rule, 'r', w.Reason)
	// (Rule, kind, unit and severity are fbdiag's words, not the run's.)
	d.fired.add(diffWarning{id: id, rule: w.Rule, kind: w.Kind, object: name(w.Object),
		table: name(w.Table), unit: w.Unit, severity: w.Severity, value: w.Value, threshold: w.Threshold, magnitude: w.Magnitude,
		start: start, end: len(d.reasons)})
}

// sideSink makes a side its stream's WarningSink.
type sideSink struct {
	d  *diffSide
	ds *DiffSamples
}

func (s sideSink) Put(id int, w Warning) error {
	s.d.addWarning(id, &w, s.ds.intern)
	return nil
}

func (s sideSink) Drop(id int) error {
	if s.d.gone == nil {
		s.d.gone = map[int]bool{}
	}
	s.d.gone[id] = true
	return nil
}

// endRun leaves out the warnings a worse one replaced and puts the others
// in SortWarnings's order, ties in the order they fired.
func (d *diffSide) endRun() {
	d.warnings = make([]*diffWarning, 0, d.fired.len()-len(d.gone))
	for i := range d.fired.len() {
		if w := d.fired.at(i); !d.gone[w.id] {
			d.warnings = append(d.warnings, w)
		}
	}
	d.gone = nil
	slices.SortFunc(d.warnings, func(a, b *diffWarning) int {
		return cmp.Or(CompareWarningKeys(WarningKey{a.severity, a.magnitude, a.rule, a.object, a.table},
			WarningKey{b.severity, b.magnitude, b.rule, b.object, b.table}), cmp.Compare(a.id, b.id))
	})
}

// reason is warning w's reason.
func (d *diffSide) reason(w *diffWarning) string {
	f := extsort.NewFields(d.reasons[w.start:w.end])
	t, err := f.ReadText(d.texts.Refs())
	if err != nil {
		return "" // (spooled here, by addWarning: cannot happen)
	}
	return string(t.Append(nil, d.texts.Refs()))
}

// key is what matches a table or an index across snapshots (tableKey,
// indexKey).
func (t *diffTable) key() objectKey { return objectKeyOf(t.schema, t.name, t.name) }
func (x *diffIndex) key() objectKey { return indexKey(x.tableSchema, x.table, x.name) }

// The figures of a table or index, nil where its snapshot printed none:
// pointers into the side, which the diff's pairs keep.
func (t *diffTable) get(bit uint8, p *int64) *int64 { return ifHas(t.has&bit != 0, p) }
func (x *diffIndex) get(bit uint8, p *int64) *int64 { return ifHas(x.has&bit != 0, p) }

// DiffSamples keeps, as a stream reads gstat runs (StreamGstat), what
// Diff compares of each run, and makes the run's snapshot of that and of
// the run's analysis without its tables. A diff of two 100 MiB runs read
// so holds some tens of megabytes a run, not its analysis.
//
//	ds := new(analyze.DiffSamples)
//	analyze.StreamGstat(rd, name, th, opt, ds.Stream(snapOpt, func(s *analyze.HistorySnapshot, rep *parse.GstatReport) error {
//		snaps = append(snaps, s); return nil }))
type DiffSamples struct {
	cur     *diffSide
	printed map[string]bool
	names   interned
}

// Stream is the GstatStream that fills ds; run gets each run's snapshot,
// placed in time as NewHistorySnapshot places it (opt), when the run
// ends.
func (ds *DiffSamples) Stream(opt SnapshotOptions, run func(s *HistorySnapshot, rep *parse.GstatReport) error) GstatStream {
	return GstatStream{
		Sink: func(*GstatAnalysis) WarningSink { return sideSink{ds.side(), ds} },
		Parsed: func(t *parse.GstatTable, ix *parse.GstatIndex) {
			if ds.printed == nil {
				ds.printed = map[string]bool{}
			}
			addBlockFields(ds.printed, t, ix)
		},
		Table: func(_ *GstatAnalysis, t *TableStats) error {
			ds.side().addTable(t, ds.intern)
			return nil
		},
		Run: func(a *GstatAnalysis, rep *parse.GstatReport) error {
			side := ds.side()
			side.addUnattached(a.UnattachedIndices, ds.intern)
			side.header = a.Header != nil
			side.endRun()
			opt.Analysis = a.Slim() // (the stream's own: no tables)
			s := NewHistorySnapshot(rep, opt)
			for k := range ds.printed {
				s.printed[k] = true
			}
			s.diff, ds.cur, ds.printed = side, nil, nil
			return run(s, rep)
		},
	}
}

func (ds *DiffSamples) side() *diffSide {
	if ds.cur == nil {
		ds.cur = &diffSide{}
	}
	return ds.cur
}

// intern is s held once for all the runs ds reads.
func (ds *DiffSamples) intern(s string) string { return ds.names.of(s) }

// growthSamples are the side's tables as a trend reads them.
func (d *diffSide) growthSamples() []growthSample {
	out := make([]growthSample, d.tables.len())
	for i := range out {
		t := d.tables.at(i)
		g := &out[i]
		g.schema, g.name, g.sizeSource = t.schema, t.name, t.sizeSource
		g.sizeBytes, g.records, g.versions, g.averageFill = t.sizeBytes, t.records, t.versions, int(t.averageFill)
		for _, b := range [...][2]uint8{{dSize, hasSize}, {dRecords, hasRecords}, {dVersions, hasVersions}, {dFill, hasFill}, {dSource, hasSource}} {
			if t.has&b[0] != 0 {
				g.has |= b[1]
			}
		}
	}
	return out
}
