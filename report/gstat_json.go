package report

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// GstatJSON writes a gstat analysis as the JSON of docs/gstat-json.md
// while the run is read: the header first, each table as it is analysed,
// then the unattached indices, findings, encryption, totals, warnings and
// notices, which are known only at the end. The bytes are those of
// WriteJSON on the whole analysis but for that order of keys; memory holds
// one table's JSON.
type GstatJSON struct {
	*jsonOut
	tables int
	table  []byte // Table's buffer
	// guard: the strings of the tables and warnings are escaped as a
	// printable.Writer would (NewGstatJSONGuarded).
	guard bool

	// As a WarningSink (analyze.GstatStream's Sink), the warnings are
	// sorted as they fire by a sorter that writes sorted runs of them to
	// a temporary file, and Close writes them in order: memory holds a
	// few megabytes of them whatever their number.
	spool *extsort.Sorter[spooled]
	gone  map[int]bool // the ids dropped: a worse warning replaced them
	// classes number what the warnings of a rule share (warningClass)
	// for the spool; last is the class of the last warning spooled.
	classes map[warningClass]int
	classAt []spoolClass
	last    int
	// texts are the reference texts the spooled reasons and advice are
	// told from.
	texts   extsort.TextRefs
	warning []byte // spooledWarnings's buffer
	// held are the warnings waiting in the spool's batch, heldChunk at a
	// time: one allocation a warning was a quarter of the run's
	// allocations.
	held []analyze.Warning
}

// heldChunk is how many warnings Put copies into one allocation.
const heldChunk = 256

// spoolBudget is the bytes of warnings a run holds before it writes
// them to its temporary file.
var spoolBudget = 2 << 20

// maxClasses is how many distinct classes (warningClass) the spool
// numbers; the warnings of others are spooled with their strings whole.
const maxClasses = 1024

// warningClass is what the warnings of a rule share but for their
// object, figures and texts: spooled as a number, each written by
// thousands of warnings (the source alone is a quarter of their JSON),
// and its JSON made once by the tail (tailEncoder).
type warningClass struct {
	rule, severity, kind, unit, source string
}

// spoolClass is a numbered class, with what its warnings' key needs and
// the numbers of the reference texts of its reasons and advice
// (extsort.TextRefs.Ref).
type spoolClass struct {
	warningClass
	rank           int
	reason, advice int
}

// classOf is the number of w's class, numbered as it comes; -1 past
// maxClasses. Warnings come to the codec sorted: most are of the class
// of the one before, told by comparing strings that are most often the
// same strings.
func (g *GstatJSON) classOf(w *analyze.Warning) int {
	if g.last >= 0 {
		c := &g.classAt[g.last]
		if c.rule == w.Rule && c.severity == string(w.Severity) && c.kind == w.Kind && c.unit == w.Unit && c.source == w.Source {
			return g.last
		}
	}
	k := warningClass{w.Rule, string(w.Severity), w.Kind, w.Unit, w.Source}
	n, ok := g.classes[k]
	if !ok {
		if len(g.classAt) >= maxClasses {
			return -1
		}
		if g.classes == nil {
			g.classes = map[warningClass]int{}
		}
		n = len(g.classAt)
		g.classes[k] = n
		g.classAt = append(g.classAt, spoolClass{warningClass: k, rank: w.Severity.Rank(),
			reason: g.texts.Ref(w.Rule, 'r', w.Reason), advice: g.texts.Ref(w.Rule, 'a', w.Advice)})
	}
	g.last = n
	return n
}

// spooled is a warning and the order it fired in: the sorter orders
// them as analyze.SortWarnings, ties in that order. Its key is copied
// out of the warning so that comparing two reads no further; w is the
// warning while it waits in memory, nil once read back from the spool
// (the key alone is decoded: the tail decodes the rest, decodeWarning).
type spooled struct {
	id                  int
	rank                int // the severity's
	mag                 float64
	rule, object, table string
	w                   *analyze.Warning
}

// spooledOf is w, the id-th warning, as it waits in memory.
func spooledOf(id int, w *analyze.Warning) spooled {
	return spooled{id: id, rank: w.Severity.Rank(), mag: w.Magnitude, rule: w.Rule, object: w.Object, table: w.Table, w: w}
}

// compareSpooled orders as analyze.CompareWarningKeys, then by id.
func compareSpooled(a, b spooled) int { return cmpSpooled(&a, &b) }

// cmpSpooled is compareSpooled on pointers, for a sort.
func cmpSpooled(a, b *spooled) int {
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := cmp.Compare(b.mag, a.mag); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rule, b.rule); c != 0 {
		return c
	}
	if c := cmp.Compare(a.object, b.object); c != 0 {
		return c
	}
	if c := cmp.Compare(a.table, b.table); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// spooledKey orders as compareSpooled's first two keys.
func spooledKey(r *spooled) uint64 { return extsort.RankKey(int64(r.rank), extsort.DescFloat(r.mag)) }

// spooledHead is the bytes a spooled warning starts with: its id, its
// class (-1 past maxClasses), magnitude, value and threshold, each of a
// fixed size, read in place by the merge and the tail (as varints and
// fields read one by one, they took as many instructions again).
const spooledHead = 8 + 4 + 3*8

// readSpooledHead reads the head of a spooled warning, and the rest.
func readSpooledHead(rec []byte) (id int64, class int32, mag, value, threshold float64, rest []byte, err error) {
	if len(rec) < spooledHead {
		return 0, 0, 0, 0, 0, nil, errors.New("a spooled warning cut short")
	}
	le := binary.LittleEndian
	return int64(le.Uint64(rec)), int32(le.Uint32(rec[8:])), math.Float64frombits(le.Uint64(rec[12:])),
		math.Float64frombits(le.Uint64(rec[20:])), math.Float64frombits(le.Uint64(rec[28:])), rec[spooledHead:], nil
}

// packedLens is the lengths a spooled warning of a numbered class holds
// after its head, two bytes each: its object's, its table's, and its
// reason's and advice's prefix, suffix and own bytes, which their class's
// reference texts make up (extsort.TextRefs.Shared); the bytes of the
// object, the table and the texts' own follow. The merge and the tail read
// them in place: as varints read field by field (extsort.Fields) they
// took some 500 instructions a warning.
const packedLens = 8 * 2

// packed is a spooled warning of a numbered class as read back.
type packed struct {
	object, table  string
	reason, advice packedText
}

// packedText is a text of a packed warning: ref[:p] + mid +
// ref[len(ref)-q:] of its class's reference text ref.
type packedText struct {
	p, q int
	mid  string
}

// readPacked reads what follows the head of a warning of a numbered
// class.
func readPacked(rest []byte) (packed, error) {
	if len(rest) < packedLens {
		return packed{}, errors.New("a spooled warning cut short")
	}
	le := binary.LittleEndian
	lo, lt := int(le.Uint16(rest)), int(le.Uint16(rest[2:]))
	rm, am := int(le.Uint16(rest[8:])), int(le.Uint16(rest[14:]))
	b := rest[packedLens:]
	if len(b) != lo+lt+rm+am {
		return packed{}, errors.New("a spooled warning's length is not its fields'")
	}
	return packed{object: bytesAt(b, 0, lo), table: bytesAt(b, lo, lt),
		reason: packedText{int(le.Uint16(rest[4:])), int(le.Uint16(rest[6:])), bytesAt(b, lo+lt, rm)},
		advice: packedText{int(le.Uint16(rest[10:])), int(le.Uint16(rest[12:])), bytesAt(b, lo+lt+rm, am)}}, nil
}

// bytesAt is b[at:at+n] as a string, without a copy.
func bytesAt(b []byte, at, n int) string {
	return unsafe.String(unsafe.SliceData(b[at:at+n]), n)
}

// codec spools a warning's fields: its head (spooledHead), then for a
// warning of a numbered class its packed fields (packedLens); past
// maxClasses, or for a field too long for two bytes, class -1 and its
// rule, severity, kind, unit, source, object and table as strings and its
// reason and advice as extsort.TextRefs texts. Decode reads the key alone;
// the tail reads the whole warning (tailEncoder). The classes are numbered
// on the goroutine that spills (the codec's), and read back once it is
// done (Sorter.EachRaw waits for it) or on it (a merge of runs while
// spilling).
func (g *GstatJSON) codec() extsort.Codec[spooled] {
	return extsort.Codec[spooled]{
		Append: func(b []byte, r spooled) []byte {
			w := r.w
			n := g.classOf(w)
			var rp, rq, ap, aq int
			if n >= 0 {
				c := &g.classAt[n]
				const max = 1<<16 - 1
				if c.reason < 0 || c.advice < 0 || len(w.Object) > max || len(w.Table) > max {
					n = -1
				} else {
					rp, rq = g.texts.Shared(c.reason, w.Reason)
					ap, aq = g.texts.Shared(c.advice, w.Advice)
					if len(w.Reason)-rp-rq > max || len(w.Advice)-ap-aq > max {
						n = -1
					}
				}
			}
			le := binary.LittleEndian
			b = le.AppendUint64(b, uint64(r.id))
			b = le.AppendUint32(b, uint32(int32(n)))
			b = extsort.AppendFloat(b, w.Magnitude)
			b = extsort.AppendFloat(b, w.Value)
			b = extsort.AppendFloat(b, w.Threshold)
			if n >= 0 {
				rm, am := len(w.Reason)-rp-rq, len(w.Advice)-ap-aq
				b = le.AppendUint64(b, uint64(len(w.Object))|uint64(len(w.Table))<<16|uint64(rp)<<32|uint64(rq)<<48)
				b = le.AppendUint64(b, uint64(rm)|uint64(ap)<<16|uint64(aq)<<32|uint64(am)<<48)
				b = append(b, w.Object...)
				b = append(b, w.Table...)
				b = append(b, w.Reason[rp:rp+rm]...)
				return append(b, w.Advice[ap:ap+am]...)
			}
			b = extsort.AppendString(b, w.Rule)
			b = extsort.AppendString(b, string(w.Severity))
			b = extsort.AppendString(b, w.Kind)
			b = extsort.AppendString(b, w.Unit)
			b = extsort.AppendString(b, w.Source)
			b = extsort.AppendString(b, w.Object)
			b = extsort.AppendString(b, w.Table)
			b = g.texts.AppendText(b, w.Rule, 'r', w.Reason)
			return g.texts.AppendText(b, w.Rule, 'a', w.Advice)
		},
		DecodeTo: func(b []byte, r *spooled) error {
			id, n, mag, _, _, rest, err := readSpooledHead(b)
			if err != nil {
				return err
			}
			r.id, r.mag, r.w = int(id), mag, nil
			switch {
			case n == -1:
				var f extsort.Fields
				f.Reset(rest)
				r.rule, r.rank = f.Ref(), analyze.Severity(f.Ref()).Rank()
				f.Ref() // (kind)
				f.Ref() // (unit)
				f.Ref() // (source)
				r.object, r.table = f.Ref(), f.Ref()
				return f.ErrSoFar()
			case n >= 0 && int(n) < len(g.classAt):
				c := &g.classAt[n]
				r.rule, r.rank = c.rule, c.rank
				p, err := readPacked(rest)
				r.object, r.table = p.object, p.table
				return err
			default:
				return fmt.Errorf("spooled warning %d: no class %d", r.id, n)
			}
		},
		// The warning, its record and its strings but the source, a
		// threshold's (analyze.Threshold.Source) that every warning of the
		// rule shares.
		Size: func(r spooled) int {
			w := r.w
			return 272 + len(w.Rule) + len(w.Severity) + len(w.Kind) + len(w.Object) + len(w.Table) +
				len(w.Unit) + len(w.Reason) + len(w.Advice)
		},
	}
}

// Put spools one warning.
func (g *GstatJSON) Put(id int, w analyze.Warning) error {
	if !finite(w.Value) || !finite(w.Threshold) || !finite(w.Magnitude) {
		bad := w // (a copy: w itself stays on the stack)
		err := jsonError(&bad)
		if err == nil {
			err = fmt.Errorf("warning %s on %s: a figure JSON cannot hold", w.Rule, w.Object)
		}
		return err
	}
	if g.spool == nil {
		// No two warnings compare equal (their ids differ): an unstable
		// sort keeps the order of a stable one, in a third less time; by
		// severity and magnitude first, as a number, in 30 % less again.
		ks := &extsort.KeySort[spooled]{Key: spooledKey, Cmp: cmpSpooled}
		g.spool = extsort.New(compareSpooled, g.codec(), spoolBudget).SortWith(ks.Sort).CompareWith(cmpSpooled)
	}
	if len(g.held) == cap(g.held) {
		// (The sorter holds the old chunk's warnings until it spills them.)
		g.held = make([]analyze.Warning, 0, heldChunk)
	}
	g.held = append(g.held, w)
	return g.spool.Add(spooledOf(id, &g.held[len(g.held)-1]))
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Drop leaves out a warning spooled earlier.
func (g *GstatJSON) Drop(id int) error {
	if g.gone == nil {
		g.gone = map[int]bool{}
	}
	g.gone[id] = true
	return nil
}

// spooledWarnings writes the spooled warnings as the "warnings" array,
// in analyze.SortWarnings's order, and removes the spool file. When the
// spool went to a file, merging its runs and writing the JSON share two
// cores: this goroutine merges and passes the records' bytes, in
// batches, to one that decodes, encodes and writes them.
func (g *GstatJSON) spooledWarnings() {
	defer func() {
		g.spool.Close()
		g.spool, g.gone, g.classes, g.classAt, g.last, g.texts, g.held = nil, nil, nil, nil, -1, extsort.TextRefs{}, nil
	}()
	g.raw(`  "warnings": [`)
	n := 0
	var tail *extsort.Tail
	err := g.spool.EachRaw(func(r spooled, raw []byte) error {
		if g.gone[r.id] {
			return nil // (replaced by a worse one)
		}
		if raw == nil { // (in memory: no file, no tail)
			if tail != nil { // (EachRaw passes bytes for all or none)
				return errors.New("a warning held in memory after spooled ones")
			}
			g.writeWarning(n, r.w)
			n++
			return g.err
		}
		if tail == nil {
			// The classes are all numbered: the records were written.
			tail = extsort.NewTail(tailBatch, g.writeSpooled(&n, newTailEncoder(g.classAt, g.texts.Refs(), g.guard)))
		}
		return tail.Add(raw)
	})
	if tail != nil {
		tail.Close() // (its error is g.err)
	}
	if err != nil && g.err == nil { // (extsort.ErrTailFailed comes with g.err set)
		g.err = fmt.Errorf("reading the spooled warnings: %w", err)
	}
	g.endArray(n)
	g.raw(",\n")
}

// writeWarning writes w as the n-th element of the warnings array.
func (g *GstatJSON) writeWarning(n int, w *analyze.Warning) {
	if g.err == nil {
		g.warning, _ = appendWarning(g.warning[:0], w, g.guard)
	}
	g.item(n, g.warning)
}

// tailBatch is the bytes of spooled warnings the merge hands to the
// goroutine that writes them at once (extsort.Tail; a variable for the
// tests).
var tailBatch = 256 << 10

// writeSpooled writes a spooled warning, encoded by enc, as the n-th
// element of the warnings array, on the goroutine of the tail; its
// error is g.err.
func (g *GstatJSON) writeSpooled(n *int, enc *tailEncoder) func(rec []byte) error {
	return func(rec []byte) error {
		if g.err != nil {
			return g.err
		}
		var err error
		if g.warning, err = enc.append(elementHead(g.warning[:0], *n), rec); err != nil {
			g.err = fmt.Errorf("reading the spooled warnings: %w", err)
			return g.err
		}
		g.passed(g.warning)
		*n++
		return g.err
	}
}

// NewGstatJSON starts one run's document: file, report and header.
func NewGstatJSON(w io.Writer, a *analyze.GstatAnalysis) *GstatJSON {
	return newGstatJSON(w, a, false)
}

// NewGstatJSONGuarded is NewGstatJSON for a w that a printable.Writer
// guards (printable.Writer.Unguarded): the document goes to w as that
// guard would pass it on, the tables and warnings escaped as they are
// encoded and the rest through a guard of its own, so that the writing
// goroutine does not scan hundreds of megabytes again. Its tables are
// AppendGstatTable's with guard.
func NewGstatJSONGuarded(w io.Writer, a *analyze.GstatAnalysis) *GstatJSON {
	return newGstatJSON(w, a, true)
}

func newGstatJSON(w io.Writer, a *analyze.GstatAnalysis, guard bool) *GstatJSON {
	out := w
	if guard {
		out = printable.NewWriter(w) // (raw's and item's bytes pass it: pass stays w)
	}
	g := &GstatJSON{jsonOut: newJSONOut(out), guard: guard, last: -1}
	g.pass = w
	g.raw("{\n")
	g.field("file", a.File, "  ", false)
	g.field("report", a.Report, "  ", false)
	g.field("header", a.Header, "  ", false)
	g.raw(`  "tables": [`)
	return g
}

// Table writes one table of the run.
func (g *GstatJSON) Table(t *analyze.TableStats) {
	if g.err != nil {
		return
	}
	var b []byte
	if b, g.err = AppendGstatTable(g.table[:0], t, g.guard); g.err == nil {
		g.TableEncoded(b)
	}
	g.table = b
}

// TableEncoded writes a table that AppendGstatTable encoded (with guard
// for a NewGstatJSONGuarded document), as Table would, or several
// tables' one after the other, or nothing for a table whose bytes came
// with an earlier one's (analyze.GstatStream's EncodeTable): each starts
// with the comma and line break of an element after the first, the comma
// left out for the first.
func (g *GstatJSON) TableEncoded(b []byte) {
	if g.tables == 0 && len(b) > 0 {
		b = b[1:]
	}
	if len(b) > 0 {
		g.passed(b)
	}
	g.tables++
}

// AppendGstatTable appends t's JSON as GstatJSON.Table writes it, for a
// stream to encode tables on several cores (analyze.GstatStream's
// Prepare) and write them in order with TableEncoded: the comma and line
// break before an element of the tables array too, so that the in-order
// writer makes one write a table (TableEncoded drops the comma of the
// first). With guard, the
// bytes are those a printable.Writer passes on (NewGstatJSONGuarded).
// It may write past what it appends, within b's capacity (its keys are
// copied in fixed blocks, appendTableStats): b's spare room must be the
// caller's own, as a scratch buffer cut to [:0] is.
func AppendGstatTable(b []byte, t *analyze.TableStats, guard bool) ([]byte, error) {
	out, ok := appendTableStats(elementHead(b, 1), t, guard)
	if ok {
		return out, nil
	}
	// A NaN or an infinity: encoding/json says so.
	if err := jsonError(t); err != nil {
		return b, err
	}
	return b, fmt.Errorf("encoding table %s: a figure JSON cannot hold", t.Name)
}

// Close writes what the end of the run brings and ends the document.
func (g *GstatJSON) Close(a *analyze.GstatAnalysis) error {
	g.endArray(g.tables)
	g.raw(",\n")
	array(g.jsonOut, "unattached_indices", a.UnattachedIndices)
	array(g.jsonOut, "findings", a.Findings)
	array(g.jsonOut, "encryption", a.Encryption)
	g.field("totals", a.Totals, "  ", false)
	if g.spool != nil {
		g.spooledWarnings()
	} else {
		array(g.jsonOut, "warnings", a.Warnings)
	}
	g.raw(`  "notices": `)
	g.elements(len(a.Notices), func(i int) any { return &a.Notices[i] })
	g.raw("\n}\n")
	return g.err
}

// Abort removes the spool file of a document that will not be closed.
func (g *GstatJSON) Abort() {
	if g.spool != nil {
		g.spool.Close()
		g.spool = nil
	}
}
