package view

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"slices"
	"sync"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/parse"
)

// GstatMetrics writes the OpenMetrics exposition of gstat runs analysed
// table by table (analyze.StreamGstat, with the hooks of Stream): the
// bytes Write gives for the last run's document of each database. The
// families with a sample per table or index are written family by
// family, each database's samples in the order of the input: each table
// and index goes as one record of its labels and values (objectRecord)
// to the tables' or the indices' stream as the tables come, a few
// megabytes in memory and the rest in a temporary file
// (internal/extsort.Streams), and each stream is read back once a family.
// The records are made on the worker that evaluated the table (Prepare);
// memory holds the analysis of each database's last run without its
// tables.
type GstatMetrics struct {
	w io.Writer
	// pass is the writer w guards when w is a printable.Writer (the
	// terminal's guard), else w: the samples go past the guard, their
	// labels escaped as it would (appendLabelValue escapes more).
	pass io.Writer
	vopt GstatOptions
	seed maphash.Seed

	slots []*metricsSlot // by the first run of each database
	byDB  map[string]int
	slot  int // of the run being read
	cur   *analyze.GstatAnalysis
	segs  []metricSeg // of the run being read
	// pending is the last run read, given to Written when the next
	// ends or at Close.
	pending *analyze.GstatAnalysis

	// samples holds the tables' records and the indices' (objectRecord),
	// two streams, each read once a family.
	samples *extsort.Streams
	// hashes holds a hash of the labels of each table and index of the
	// run being read that has a sample, with the line of its block: when
	// none repeats, no sample does.
	hashes *extsort.Repeats
	out    []byte
	// line is the line of the table block being read; ixLines those of
	// the run's index blocks that follow no table (Stream's Parsed).
	line    int
	ixLines []int

	// Written, when set, gets each run's analysis when the next one ends
	// or at Close (the notices and the --fail-on count).
	Written func(a *analyze.GstatAnalysis)
}

// objectFamilies is the number of families with a sample per table or
// index.
const objectFamilies = len(gstatTableMetrics) + len(gstatIndexMetrics)

// metricsSlot is a database: the document and samples of its last run,
// and in each family the samples left out of it, those whose labels an
// earlier one has (a table block printed twice): their places among the
// family's samples of the run, in ranges.
type metricsSlot struct {
	doc  *Doc
	segs []metricSeg
	skip [objectFamilies][]sampleRange
}

// sampleRange is the samples from the from-th to before the to-th.
type sampleRange struct{ from, to int64 }

// metricSeg is the samples of a run with one database label (the
// tables', then the unattached indices', which gstat may have named
// after the tables): the label, escaped, and where their records are in
// each stream (objectStreams).
type metricSeg struct {
	raw, db  string
	from, to [objectStreams]int64
}

// objectStreams are the streams of samples: the tables' records, then
// the indices'.
const objectStreams = 2

// A record holds four values (appendRecord, objectRecord): a stream's
// families.
var _ = [1]struct{}{}[len(gstatTableMetrics)-4+len(gstatIndexMetrics)-4]
var _ = [1]struct{}{}[len(gstatTableMetrics)-len(gstatIndexMetrics)]

// familyStream is the stream of family f's samples, and f's place among
// the values of a record of that stream (objectRecord).
func familyStream(f int) (stream, at int) {
	if f < len(gstatTableMetrics) {
		return 0, f
	}
	return 1, f - len(gstatTableMetrics)
}

// metricBudget is the bytes of samples (and of the hashes of their
// labels) a stream holds in memory.
var metricBudget = 2 << 20

// NewGstatMetrics writes the exposition on w at Close.
func NewGstatMetrics(w io.Writer, vopt GstatOptions) *GstatMetrics {
	pass := w
	if pw, ok := w.(*printable.Writer); ok {
		pass = pw.Unguarded()
	}
	return &GstatMetrics{w: w, pass: pass, vopt: vopt, seed: maphash.MakeSeed(), byDB: map[string]int{},
		samples: extsort.NewStreams(objectStreams, metricBudget/2),
		// (a hash and the line of its block: twice the bytes of
		// newHashes's, twice its budget)
		hashes: extsort.NewRepeats(hashBits, 8, metricBudget/4)}
}

// Stream is what analyze.StreamGstat calls as it reads an input: the
// warnings are only counted (by severity, as the metrics show them).
func (g *GstatMetrics) Stream() analyze.GstatStream {
	return analyze.GstatStream{
		CountWarnings: true,
		Prepare: func(t *analyze.TableStats) any {
			return g.prepare(t, t.Indices)
		},
		Table: g.table,
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			return g.run(a)
		},
		// The line of each block, for the notice of a block printed
		// twice.
		Parsed: func(t *parse.GstatTable, ix *parse.GstatIndex) {
			if t != nil {
				g.line = t.Line
			} else if ix != nil {
				g.ixLines = append(g.ixLines, ix.Line)
			}
		},
	}
}

// MaxHeld is the most bytes of samples the stream held in memory at
// once.
func (g *GstatMetrics) MaxHeld() int { return g.samples.MaxHeld() }

// slotOf is the slot of run a's database, made when it is new.
func (g *GstatMetrics) slotOf(a *analyze.GstatAnalysis) int {
	db := GstatDatabase(a)
	i, ok := g.byDB[db]
	if !ok {
		i = len(g.slots)
		g.byDB[db] = i
		g.slots = append(g.slots, &metricsSlot{})
	}
	return i
}

func (g *GstatMetrics) start(a *analyze.GstatAnalysis) {
	if g.cur != a {
		g.cur, g.segs = a, nil
		g.slot = g.slotOf(a)
	}
}

// metricPrep is the samples of a table and its indices in the families
// with one per table or index: the records of each stream
// (objectRecord) in buf, and the hash of the labels of each object with
// a sample.
type metricPrep struct {
	buf    []byte
	objs   [objectStreams]struct{ from, to int }
	hashes []uint64
}

// metricPreps holds the metricPreps added to the stream, for the workers
// to fill again: a big input's samples take no new memory per table.
var metricPreps = sync.Pool{New: func() any { return new(metricPrep) }}

// prepare makes the samples of table t (nil for none) and of the indices
// ixs. It runs on the worker that evaluated the table.
func (g *GstatMetrics) prepare(t *analyze.TableStats, ixs []analyze.IndexStats) *metricPrep {
	p := metricPreps.Get().(*metricPrep)
	size := 64
	if t != nil {
		size += len(t.Schema) + len(t.Name) + 120
	}
	for i := range ixs {
		size += len(ixs[i].Schema) + len(ixs[i].Table) + len(ixs[i].Name) + 120
	}
	b := slices.Grow(p.buf[:0], size)
	p.hashes = p.hashes[:0]
	if t != nil {
		var v [len(gstatTableMetrics)]*int64
		for f := range gstatTableMetrics {
			v[f] = gstatTableMetrics[f].get(t)
		}
		b = p.appendRecord(b, g.seed, t.Schema, t.Name, "", false, v[:])
	}
	p.objs[0].from, p.objs[0].to = 0, len(b)
	for i := range ixs {
		var v [len(gstatIndexMetrics)]*int64
		for f := range gstatIndexMetrics {
			v[f] = gstatIndexMetrics[f].get(&ixs[i])
		}
		b = p.appendRecord(b, g.seed, ixs[i].Schema, ixs[i].Table, ixs[i].Name, true, v[:])
	}
	p.objs[1].from, p.objs[1].to = p.objs[0].to, len(b)
	p.buf = b
	return p
}

// appendRecord appends the record of an object (objectRecord) with the
// values v of its families, and the hash of its labels to p's; nothing
// for an object with no sample.
func (p *metricPrep) appendRecord(b []byte, seed maphash.Seed, schema, table, index string, isIndex bool, v []*int64) []byte {
	if v[0] == nil && v[1] == nil && v[2] == nil && v[3] == nil {
		return b
	}
	at := len(b)
	b = append(b, 0, 0, 0, 0, 0, 0) // (the values' ends, the labels' length)
	// Firebird 6's names live in schemas: a schema label tells two
	// schemas' ORDERS apart (before 6.0 there is none, and no label).
	b = appendSchemaLabel(b, schema)
	b = append(b, `table="`...)
	b = appendLabelValue(b, table)
	if isIndex {
		b = append(b, `",index="`...)
		b = appendLabelValue(b, index)
	}
	b = append(b, '"')
	p.hashes = append(p.hashes, maphash.Bytes(seed, b[at+6:]))
	if n := len(b) - at - 6; n < 0xffff {
		b[at+4], b[at+5] = byte(n), byte(n>>8)
	} else {
		b[at+4], b[at+5] = 0xff, 0xff
		b = slices.Insert(b, at+6, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	values := len(b)
	for f := range 4 {
		if v[f] != nil {
			b = appendMetricInt(b, *v[f])
		}
		b[at+f] = byte(len(b) - values)
	}
	return b
}

// objectRecord reads the record at the start of p, a table's or an
// index's: its labels (`table="T",index="I"`, escaped), its value in the
// at-th family of its stream (empty for none), and the bytes after it. A
// record is where each of its four values ends among them (a byte each),
// the labels' length (two bytes, little-endian; 0xffff then four for
// 65,535 bytes or more), the labels and the values' digits: an object's
// labels once, not once a sample.
func objectRecord(p []byte, at int) (labels, value, rest []byte) {
	from, to, end := 0, int(p[at]), int(p[3])
	if at > 0 {
		from = int(p[at-1])
	}
	n, h := int(p[4])|int(p[5])<<8, 6
	if n == 0xffff {
		n, h = int(binary.LittleEndian.Uint32(p[6:])), 10
	}
	labels = p[h : h+n]
	values := p[h+n : h+n+end]
	return labels, values[from:to], p[h+n+end:]
}

func (g *GstatMetrics) table(a *analyze.GstatAnalysis, _ *analyze.TableStats) error {
	g.start(a)
	p := a.Prepared().(*metricPrep) // (Stream's Prepare made it on a worker)
	err := g.add(a, p, g.line)
	metricPreps.Put(p) // (add copied its samples and hashes)
	return err
}

// add adds the samples p of run a, of the block at line.
func (g *GstatMetrics) add(a *analyze.GstatAnalysis, p *metricPrep, line int) error {
	// The database label is the one the run has as the block comes.
	if db := GstatDatabase(a); len(g.segs) == 0 || g.segs[len(g.segs)-1].raw != db {
		g.endSegment()
		seg := metricSeg{raw: db, db: string(appendLabelValue(nil, db))}
		for st := range seg.from {
			seg.from[st] = g.samples.Len(st)
		}
		g.segs = append(g.segs, seg)
	}
	for st, r := range p.objs {
		if r.to > r.from {
			if err := g.samples.Append(st, p.buf[r.from:r.to]); err != nil {
				return err
			}
		}
	}
	var at [8]byte
	binary.LittleEndian.PutUint64(at[:], uint64(line))
	for _, h := range p.hashes {
		if err := g.hashes.Add(h, at[:]); err != nil {
			return err
		}
	}
	return nil
}

// endSegment ends the samples of the last segment of the run.
func (g *GstatMetrics) endSegment() {
	if n := len(g.segs); n > 0 {
		for st := range g.segs[n-1].to {
			g.segs[n-1].to[st] = g.samples.Len(st)
		}
	}
}

// run ends run a: its document (without tables) and samples replace
// those of its database's run before.
func (g *GstatMetrics) run(a *analyze.GstatAnalysis) error {
	g.start(a)
	// Each index block that follows no table with its own line (Parsed
	// gave them in the order of UnattachedIndices).
	for i := range a.UnattachedIndices {
		line := 0
		if i < len(g.ixLines) {
			line = g.ixLines[i]
		}
		p := g.prepare(nil, a.UnattachedIndices[i:i+1])
		err := g.add(a, p, line)
		metricPreps.Put(p)
		if err != nil {
			return err
		}
	}
	g.ixLines = g.ixLines[:0]
	g.endSegment()
	skip, notices, err := g.duplicates(g.segs)
	if err != nil {
		return err
	}
	for i := range notices {
		notices[i].File = a.File
	}
	a.Notices = append(a.Notices, notices...)
	// As the documents of Writer, a run counts when the next one ends or
	// at Close (an input that holds none after a run stops before).
	if g.Written != nil && g.pending != nil {
		g.Written(g.pending)
	}
	g.pending = a
	s := g.slots[g.slot]
	s.doc, s.segs, s.skip = Gstat(a, g.vopt), g.segs, skip
	g.cur, g.segs = nil, nil
	return nil
}

// Abort drops what was read (an error stopped the reading).
func (g *GstatMetrics) Abort() {
	g.samples.Close()
	g.hashes.Close()
}

// hashBits is the log2 of the bits of each bitset of a view's
// extsort.Repeats: 2^22, the two a megabyte, read in one pass at the end
// of the run; of n hashes some n/2^22 share a bit with another (15 % of
// the 630,000 tables and indices of 300 MiB of gstat output) and are
// sorted for nothing. (A variable for the tests.)
var hashBits = 22

// newHashes finds the hashes that repeat, its log holding budget bytes
// and marked as it goes to its file (extsort.Repeats.MarkEarly): the
// index names' 420,000 hashes of 300 MiB of gstat output were marked
// after the last table, on one core.
func newHashes(budget int) *extsort.Repeats {
	return extsort.NewRepeats(hashBits, 0, budget).MarkEarly()
}

// hashRepeats says whether a hash of r came twice (emptying r for the
// next run).
func hashRepeats(r *extsort.Repeats) (bool, error) {
	defer r.Reset()
	return r.Repeat()
}

// duplicates finds, in each family, the samples of the run (made of segs)
// whose labels an earlier sample of the family has (a table or index
// printed twice), to be left out: their places among the family's
// samples of the run, in ranges; and a notice at the line of each block
// printed again. Samples with the same labels have the same hash: when
// no hash repeats, none; else the labels are sorted (bounded memory
// again), the hash may only be shared.
func (g *GstatMetrics) duplicates(segs []metricSeg) (skip [objectFamilies][]sampleRange, notices []parse.Notice, err error) {
	// The lines of the blocks of each repeated hash (of the first
	// maxRepeatNotices hashes: a run printed twice over repeats them all).
	lines := map[uint64][]int{}
	more := 0
	err = g.hashes.Repeated(func(h uint64, payloads [][]byte) error {
		if len(lines) == maxRepeatNotices {
			more++
			return nil
		}
		for _, p := range payloads {
			lines[h] = append(lines[h], int(binary.LittleEndian.Uint64(p)))
		}
		return nil
	})
	g.hashes.Reset()
	if err != nil || len(lines) == 0 && more == 0 {
		return skip, nil, err
	}
	// again is the notice of each block printed again, by its line: the
	// labels of its first object found repeated, and the line of the
	// first copy.
	type repeat struct {
		labels string
		first  int
	}
	again := map[int]repeat{}
	for f := range skip {
		s := extsort.New(compareLabelRows, labelRowCodec, metricBudget)
		st, at := familyStream(f)
		k := int64(0)
		for _, seg := range segs {
			head := `{database="` + seg.db + `",`
			err := g.samples.Read(st, seg.from[st], seg.to[st], func(b []byte) error {
				for len(b) > 0 {
					object, v, rest := objectRecord(b, at)
					b = rest
					if len(v) == 0 {
						continue // (no sample in the family)
					}
					labels := head + string(object) + "}"
					if err := s.Add(labelRow{labels, k, int64(len(head))}); err != nil {
						return err
					}
					k++
				}
				return nil
			})
			if err != nil {
				s.Close()
				return skip, nil, err
			}
		}
		// The places to leave out, sorted.
		places := extsort.New(cmp.Compare[int64], placeCodec, metricBudget)
		var prev string
		first, copies := true, 0 // copies: of prev before this one
		err := s.Each(func(r labelRow) error {
			if first || r.labels != prev {
				prev, first, copies = r.labels, false, 0
				return nil
			}
			copies++
			// (the hash is of the object's labels, without the database's and the closing brace)
			object := r.labels[r.head : len(r.labels)-1]
			if at := lines[maphash.String(g.seed, object)]; copies < len(at) {
				if n, ok := again[at[copies]]; !ok || len(object) < len(n.labels) {
					again[at[copies]] = repeat{object, at[0]}
				}
			}
			return places.Add(r.k)
		})
		if err != nil {
			places.Close()
			return skip, nil, err
		}
		err = places.Each(func(k int64) error {
			if n := len(skip[f]); n > 0 && skip[f][n-1].to == k {
				skip[f][n-1].to++
			} else {
				skip[f] = append(skip[f], sampleRange{k, k + 1})
			}
			return nil
		})
		if err != nil {
			return skip, nil, err
		}
	}
	at := slices.Sorted(maps.Keys(again))
	for _, line := range at {
		r := again[line]
		notices = append(notices, parse.Notice{Line: line, Msg: fmt.Sprintf(
			"{%s} printed again (first at line %d): OpenMetrics keeps the samples of line %d, one per series; text, JSON, CSV and the totals count both",
			r.labels, r.first, r.first)})
	}
	if more > 0 && len(at) > 0 {
		notices = append(notices, parse.Notice{Line: at[len(at)-1], Msg: fmt.Sprintf(
			"%d more tables or indices printed again: OpenMetrics keeps the samples of their first block", more)})
	}
	return skip, notices, nil
}

// maxRepeatNotices bounds the notices of tables and indices printed
// again in a run; the others are counted in one.
const maxRepeatNotices = 100

// labelRow is a sample's labels, its place in its family, and where
// the labels of its object start (after the database's).
type labelRow struct {
	labels  string
	k, head int64
}

var labelRowCodec = extsort.Codec[labelRow]{
	Append: func(b []byte, r labelRow) []byte {
		return extsort.AppendInt(extsort.AppendInt(extsort.AppendString(b, r.labels), r.k), r.head)
	},
	Decode: func(b []byte) (labelRow, error) {
		f := extsort.NewFields(b)
		r := labelRow{labels: f.String(), k: f.Int(), head: f.Int()}
		return r, f.Err()
	},
	Size: func(r labelRow) int { return 48 + len(r.labels) },
}

// placeCodec codes the place of a sample.
var placeCodec = extsort.Codec[int64]{
	Append: extsort.AppendInt,
	Decode: func(b []byte) (int64, error) {
		f := extsort.NewFields(b)
		k := f.Int()
		return k, f.Err()
	},
	Size: func(int64) int { return 16 },
}

func compareLabelRows(a, b labelRow) int {
	if c := cmp.Compare(a.labels, b.labels); c != 0 {
		return c
	}
	return cmp.Compare(a.k, b.k)
}

// Close writes the exposition as Write does of the documents of each
// database's last run: a family's samples together, in the order of the
// databases' first runs, then "# EOF".
func (g *GstatMetrics) Close() error {
	defer g.Abort()
	if g.Written != nil && g.pending != nil {
		g.Written(g.pending)
		g.pending = nil
	}
	docs := make([]*Doc, len(g.slots))
	for i, s := range g.slots {
		docs[i] = s.doc
	}
	object := map[string]int{}
	for i, m := range gstatTableMetrics {
		object[m.name] = i
	}
	for i, m := range gstatIndexMetrics {
		object[m.name] = len(gstatTableMetrics) + i
	}
	return writeMetricsWith(g.w, docs, func(name string) familySamples {
		f, ok := object[name]
		if !ok {
			// One sample or three a database: a few.
			return nil
		}
		return func(b *bufio.Writer, name, sample string) error {
			return g.writeObjectSamples(b, name, sample, f)
		}
	})
}

// writeObjectSamples writes the samples of family f (named name, its samples
// sample), the databases in the order of their first runs, each in the
// order of the input, but those a table or index printed again repeats
// (metricsSlot.skip), each made of its object's record (objectRecord).
// They are written past b and its guard (g.pass), half a megabyte at a
// time, once b is flushed: the 93 MB of samples of 100 MiB of gstat
// output need no scan, their labels escaped as they were made
// (appendLabelValue).
func (g *GstatMetrics) writeObjectSamples(b *bufio.Writer, name, sample string, f int) error {
	if err := b.Flush(); err != nil {
		return err
	}
	out := g.out[:0]
	defer func() { g.out = out[:0] }()
	st, at := familyStream(f)
	for _, s := range g.slots {
		skip := s.skip[f]
		k := int64(0) // the samples of f read of the run, when some are left out
		for _, seg := range s.segs {
			head := sample + `{database="` + seg.db + `",`
			err := g.samples.Read(st, seg.from[st], seg.to[st], func(p []byte) error {
				o := out
				for len(p) > 0 {
					labels, v, rest := objectRecord(p, at)
					p = rest
					if len(v) == 0 {
						continue // (no sample in the family)
					}
					if len(skip) > 0 {
						for len(skip) > 0 && skip[0].to <= k {
							skip = skip[1:]
						}
						k++
						if len(skip) > 0 && k-1 >= skip[0].from {
							continue
						}
					}
					o = append(append(append(o, head...), labels...), "} "...)
					o = append(append(o, v...), '\n')
				}
				out = o
				if len(out) >= 512<<10 {
					if _, err := g.pass.Write(out); err != nil {
						return err
					}
					out = out[:0]
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	_, err := g.pass.Write(out)
	return err
}

// errStop ends an iteration its reader left.
var errStop = errors.New("stopped")

// appendSchemaLabel appends schema="S", before the table label, when the
// object has a schema (Firebird 6).
func appendSchemaLabel(b []byte, schema string) []byte {
	if schema == "" {
		return b
	}
	b = append(b, `schema="`...)
	b = appendLabelValue(b, schema)
	return append(b, `",`...)
}
