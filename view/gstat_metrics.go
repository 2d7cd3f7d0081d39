package view

import (
	"bufio"
	"bytes"
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
// family, each database's samples in the order of the input: each
// family's samples go to a stream of their own as the tables come, a few
// megabytes in memory and the rest in a temporary file
// (internal/extsort.Streams), and are read back family by family. The
// samples are made on the worker that evaluated the table (Prepare);
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

	// samples holds a stream per family (gstatTableMetrics, then
	// gstatIndexMetrics): lines without the metric name and database
	// label, `table="T",index="I"} 12` and a newline.
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
// after the tables): the label, escaped, and where they are in each
// family's stream.
type metricSeg struct {
	raw, db  string
	from, to [objectFamilies]int64
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
		samples: extsort.NewStreams(objectFamilies, metricBudget/2),
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
// with one per table or index: the lines of each family (as the streams
// hold them) in buf, and the hash of the labels of each object with a
// sample.
type metricPrep struct {
	buf    []byte
	fams   [objectFamilies]struct{ from, to int }
	hashes []uint64
}

// metricPreps holds the metricPreps added to the stream, for the workers
// to fill again: a big input's samples take no new memory per table.
var metricPreps = sync.Pool{New: func() any { return new(metricPrep) }}

// prepare makes the samples of table t (nil for none) and of the indices
// ixs. It runs on the worker that evaluated the table.
func (g *GstatMetrics) prepare(t *analyze.TableStats, ixs []analyze.IndexStats) *metricPrep {
	p := metricPreps.Get().(*metricPrep)
	n := len(ixs)
	size := n * 40
	if t != nil {
		n++
		size += len(t.Schema) + len(t.Name) + 30
	}
	for i := range ixs {
		size += len(ixs[i].Schema) + len(ixs[i].Table) + len(ixs[i].Name) + 10
	}
	b := slices.Grow(p.buf[:0], 5*size+64)
	// The labels of each object first, the table's, then its indices':
	// the lines copy them.
	type object struct{ from, to, has int }
	var few [16]object
	objs := few[:0]
	if n > len(few) {
		objs = make([]object, 0, n)
	}
	// Firebird 6's names live in schemas: a schema label tells two
	// schemas' ORDERS apart (before 6.0 there is none, and no label).
	if t != nil {
		from := len(b)
		b = appendSchemaLabel(b, t.Schema)
		b = append(b, `table="`...)
		b = appendLabelValue(b, t.Name)
		b = append(b, '"')
		objs = append(objs, object{from: from, to: len(b)})
	}
	for i := range ixs {
		from := len(b)
		b = appendSchemaLabel(b, ixs[i].Schema)
		b = append(b, `table="`...)
		b = appendLabelValue(b, ixs[i].Table)
		b = append(b, `",index="`...)
		b = appendLabelValue(b, ixs[i].Name)
		b = append(b, '"')
		objs = append(objs, object{from: from, to: len(b)})
	}
	line := func(o *object, v int64) {
		b = append(b, b[o.from:o.to]...)
		b = append(b, "} "...)
		b = appendMetricInt(b, v)
		b = append(b, '\n')
		o.has++
	}
	for f := range gstatTableMetrics {
		from := len(b)
		if t != nil {
			if v := gstatTableMetrics[f].get(t); v != nil {
				line(&objs[0], *v)
			}
		}
		p.fams[f].from, p.fams[f].to = from, len(b)
	}
	ixObjs := objs
	if t != nil {
		ixObjs = objs[1:]
	}
	for f := range gstatIndexMetrics {
		from, get := len(b), gstatIndexMetrics[f].get
		for i := range ixs {
			if v := get(&ixs[i]); v != nil {
				line(&ixObjs[i], *v)
			}
		}
		k := len(gstatTableMetrics) + f
		p.fams[k].from, p.fams[k].to = from, len(b)
	}
	p.hashes = slices.Grow(p.hashes[:0], n)
	for _, o := range objs {
		if o.has > 0 {
			p.hashes = append(p.hashes, maphash.Bytes(g.seed, b[o.from:o.to]))
		}
	}
	p.buf = b
	return p
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
		for f := range seg.from {
			seg.from[f] = g.samples.Len(f)
		}
		g.segs = append(g.segs, seg)
	}
	for f, r := range p.fams {
		if r.to > r.from {
			if err := g.samples.Append(f, p.buf[r.from:r.to]); err != nil {
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
		for f := range g.segs[n-1].to {
			g.segs[n-1].to[f] = g.samples.Len(f)
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

// newHashes finds the hashes that repeat, its log holding budget bytes.
func newHashes(budget int) *extsort.Repeats { return extsort.NewRepeats(hashBits, 0, budget) }

// hashRepeats says whether a hash of r came twice (emptying r for the
// next run).
func hashRepeats(r *extsort.Repeats) (bool, error) {
	defer r.Reset()
	repeat := false
	err := r.Repeated(func(uint64, [][]byte) error {
		repeat = true
		return errStop
	})
	if repeat {
		return true, nil
	}
	return false, err
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
		k := int64(0)
		for _, seg := range segs {
			head := `{database="` + seg.db + `",`
			err := g.samples.Read(f, seg.from[f], seg.to[f], func(b []byte) error {
				for len(b) > 0 {
					line := b[:bytes.IndexByte(b, '\n')+1]
					b = b[len(line):]
					labels := head + string(line[:bytes.LastIndexByte(line, ' ')])
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
// (metricsSlot.skip). They are written past b and its guard (g.pass),
// half a megabyte at a time, once b is flushed: the 93 MB of samples of
// 100 MiB of gstat output need no scan, their labels escaped as they were
// made (appendLabelValue).
func (g *GstatMetrics) writeObjectSamples(b *bufio.Writer, name, sample string, f int) error {
	if err := b.Flush(); err != nil {
		return err
	}
	out := g.out[:0]
	defer func() { g.out = out[:0] }()
	for _, s := range g.slots {
		skip := s.skip[f]
		k := int64(0) // the samples of f read of the run, when some are left out
		for _, seg := range s.segs {
			head := sample + `{database="` + seg.db + `",`
			err := g.samples.Read(f, seg.from[f], seg.to[f], func(p []byte) error {
				o := out
				if len(skip) == 0 {
					// (no sample repeats: each line is written after its head)
					for len(p) > 0 {
						n := bytes.IndexByte(p, '\n') + 1
						o = append(append(o, head...), p[:n]...)
						p = p[n:]
					}
				} else {
					for len(p) > 0 {
						n := bytes.IndexByte(p, '\n') + 1
						for len(skip) > 0 && skip[0].to <= k {
							skip = skip[1:]
						}
						if len(skip) == 0 || k < skip[0].from {
							o = append(append(o, head...), p[:n]...)
						}
						p = p[n:]
						k++
					}
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
