package analyze

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/fbdiag/fbdiag/internal/extsort"
)

// A run of 75,000 tables can raise a hundred thousand warnings, each with
// its reason and advice: more memory than the tables themselves. A view
// that shows the worst twenty keeps only those and counts the others by
// severity (GstatScan.LimitWarnings); JSON keeps them all.

var warningSeed = maphash.MakeSeed()

// warningHash identifies a rule's warning on one object in 8 bytes
// instead of four strings that would keep every object's name alive: the
// four strings (rule, kind, object, table), each ending in a 0 byte,
// hashed at once in the checker's buffer. Written one by one into a
// maphash.Hash they took 1.7 % of a text run's instructions (a hash for
// every warning fired). (w by pointer: a Warning is some 180 bytes.)
func (c *checker) warningHash(w *Warning) uint64 {
	b := append(append(c.keyBuf[:0], w.Rule...), 0)
	b = append(append(b, w.Kind...), 0)
	b = append(append(b, w.Object...), 0)
	c.keyBuf = append(append(b, w.Table...), 0)
	return maphash.Bytes(warningSeed, c.keyBuf)
}

// fireLimited adds a warning when the run keeps only the limit worst.
// The run's result is that of a run that keeps them all (one warning per
// object and rule, the worst, the first of equals) and then shows the
// limit worst and counts the others, in memory that does not grow with
// the run:
//
//   - every warning is counted in WarningsOmitted as it comes, and logged
//     (its key's hash, severity and magnitude) in an extsort.Repeats;
//   - the held ones, up to twice the limit, are looked up by their key's
//     hash: a worse one of the same object replaces one held;
//   - a warning that sorts after the floor (the worst of the limit kept
//     at the last trim) is not held: the floor only rises, so neither a
//     later copy of it, nor it, could be among the limit worst;
//   - when the run ends (endLimited), of each key logged more than once
//     only the worst stays counted, and the warnings shown are not.
//
// Keeping the key of every warning instead, as this did before, took
// 24 MB for the 1.2 million warnings of a 1 GiB gstat output.
func (c *checker) fireLimited(w *Warning) {
	h := c.warningHash(w)
	if _, ok := c.logSunk(w, h); !ok {
		return
	}
	if i, ok := c.heldH.get(h); ok {
		if old := &c.a.Warnings[i]; worse(w, old.Severity, old.Magnitude) {
			c.a.Warnings[i] = *w
		}
		return
	}
	if c.belowFloor(w) {
		return
	}
	c.heldH.set(h, int32(len(c.a.Warnings)))
	c.a.Warnings = append(c.a.Warnings, *w)
	if len(c.a.Warnings) >= 2*c.limit {
		c.trimWarnings()
	}
}

// worse says whether w replaces a warning of the same rule and object.
func worse(w *Warning, sev Severity, mag float64) bool {
	return w.Severity.Rank() > sev.Rank() || w.Severity == sev && w.Magnitude > mag
}

func (c *checker) belowFloor(w *Warning) bool {
	return c.hasFloor && CompareWarningKeys(w.Key(), c.floor) > 0
}

// omit counts a warning of severity sev the run does not hold, and
// uncount forgets one (a worse one replaced it, or it is shown).
// The three severities are counted in the checker (omitted) and written
// to WarningsOmitted when the run ends (flushOmitted): a map update for
// every warning fired cost 0.6 % of a run's instructions.
func (c *checker) omit(sev Severity) {
	if r := sev.Rank(); r > 0 {
		c.omitted[r]++
		c.omittedAny = true
		return
	}
	if c.a.WarningsOmitted == nil {
		c.a.WarningsOmitted = map[Severity]int{}
	}
	c.a.WarningsOmitted[sev]++
}

func (c *checker) uncount(sev Severity) {
	if r := sev.Rank(); r > 0 {
		c.omitted[r]--
		c.omittedAny = true
		return
	}
	if c.a.WarningsOmitted[sev]--; c.a.WarningsOmitted[sev] == 0 {
		delete(c.a.WarningsOmitted, sev)
	}
}

// flushOmitted writes the counts of omit and uncount to WarningsOmitted,
// as a map updated at each would hold them (no entry at 0).
func (c *checker) flushOmitted() {
	if !c.omittedAny {
		return
	}
	if c.a.WarningsOmitted == nil {
		c.a.WarningsOmitted = map[Severity]int{}
	}
	for r := 1; r < len(c.omitted); r++ {
		if n := c.omitted[r]; n != 0 {
			c.a.WarningsOmitted[severities[r]] = n
		} else {
			delete(c.a.WarningsOmitted, severities[r])
		}
	}
}

// trimWarnings keeps the limit worst warnings held; the worst kept
// becomes the floor after which new ones are only counted.
func (c *checker) trimWarnings() {
	SortWarnings(c.a.Warnings)
	if len(c.a.Warnings) > c.limit {
		clear(c.a.Warnings[c.limit:]) // (their strings can go)
		c.a.Warnings = c.a.Warnings[:c.limit]
	}
	if len(c.a.Warnings) == c.limit {
		c.floor, c.hasFloor = c.a.Warnings[c.limit-1].Key(), true
		if c.floorOut != nil {
			fl := c.floor
			c.floorOut.Store(&fl)
		}
	}
	c.heldH.reset()
	for i := range c.a.Warnings {
		c.heldH.set(c.warningHash(&c.a.Warnings[i]), int32(i))
	}
}

// endLimited ends a run that keeps the limit worst warnings: the limit
// held, the counts are those of the warnings not shown, one per key.
func (c *checker) endLimited() {
	c.trimWarnings()
	c.dropReplaced()
	for _, w := range c.a.Warnings {
		c.uncount(w.Severity)
	}
	c.flushOmitted()
}

// WarningsAtLeast counts the run's warnings of severity sev or worse,
// the omitted ones included.
func (a *GstatAnalysis) WarningsAtLeast(sev Severity) int {
	n := 0
	for _, w := range a.Warnings {
		if w.Severity.Rank() >= sev.Rank() {
			n++
		}
	}
	for s, k := range a.WarningsOmitted {
		if s.Rank() >= sev.Rank() {
			n += k
		}
	}
	return n
}

// TableWarnings are, during a stream (StreamGstat's Table), the warnings
// the rules fired on the table just analysed and its indices: a receiver
// that keeps a few tables judges them with it while the run's warnings
// are limited.
func (a *GstatAnalysis) TableWarnings() []Warning { return a.tableWarnings }

// Prepared is, during a stream, what GstatStream.Prepare returned for
// the table just analysed (nil without Prepare).
func (a *GstatAnalysis) Prepared() any { return a.prepared }

// EncodedTable is, during a stream, what GstatStream.EncodeTable made of
// the table just analysed (nil without EncodeTable); the bytes are valid
// until Table returns.
func (a *GstatAnalysis) EncodedTable() ([]byte, error) { return a.encTable, a.encTableErr }

// UnattachedWarnings are the warnings the rules fired on the indices
// that followed no table (UnattachedIndices), kept with them whether the
// run's warnings are limited or go to a sink.
func (a *GstatAnalysis) UnattachedWarnings() []Warning { return a.unattachedWarnings }

// WarningSink takes a run's warnings as they fire instead of the analysis
// keeping them (a JSON writer spools them to a file): Put gets each
// warning with an id, 0, 1, 2... in the order they fire. When the run
// ends, Drop names each one a worse warning of the same rule on the same
// object replaced (a table block printed twice): one warning per object
// and rule stays, as in an analysis that keeps them. The analysis then
// only counts them (WarningsOmitted) and its Warnings are empty.
type WarningSink interface {
	Put(id int, w Warning) error
	Drop(id int) error
}

// sunk is what the checker keeps of a warning given to a sink (or
// counted while the run's warnings are limited), to find at the end of
// the run those a worse one replaced: the hash of its rule
// and object, its id, severity and magnitude (a run of 250,000 tables
// fires some 350,000 warnings). Two warnings of one rule on one object
// are rare (a table block printed twice), so they are not sorted as they
// come: an extsort.Repeats logs them and, at the end, finds the hashes
// that came twice (Repeated).
type sunk struct {
	h    uint64
	id   int64
	rank int64
	mag  float64
}

// sunkBudget is the bytes of sunk records a run holds in memory, in its
// log and in Repeated's sort.
var sunkBudget = 512 << 10

// sunkBits is the log2 of the most bits of each of the log's two
// bitsets: 2^22, half a megabyte each, made when the run ends (a run of
// fewer than 2^17 warnings gets 32 to 64 bits a warning). Of n warnings some
// n/2^22 share a bit with another (8 % of 350,000) and are sorted for
// nothing.
var sunkBits = 22

// sunkPayload is the bytes of a sunk record besides its hash: id,
// magnitude, rank.
const sunkPayload = 17

func newSunkLog() *extsort.Repeats { return extsort.NewRepeats(sunkBits, sunkPayload, sunkBudget) }

func addSunk(l *extsort.Repeats, r sunk) error {
	var p [8 + sunkPayload]byte
	binary.LittleEndian.PutUint64(p[:], r.h)
	binary.LittleEndian.PutUint64(p[8:], uint64(r.id))
	binary.LittleEndian.PutUint64(p[16:], math.Float64bits(r.mag))
	p[24] = byte(r.rank)
	return l.AddRecord(p[:])
}

func sunkOf(h uint64, p []byte) sunk {
	return sunk{h: h, id: int64(binary.LittleEndian.Uint64(p)), mag: math.Float64frombits(binary.LittleEndian.Uint64(p[8:])), rank: int64(p[16])}
}

// severities are the severities by rank.
var severities = [...]Severity{0: "", 1: Info, 2: Warn, 3: Critical}

// logSunk counts w, whose key hashes to h, and logs it for the end of
// the run (dropReplaced); id is its place among the run's warnings, ok
// false once the log failed (sinkErr).
func (c *checker) logSunk(w *Warning, h uint64) (id int, ok bool) {
	if c.sinkErr != nil {
		return 0, false
	}
	if c.sunk == nil {
		c.sunk = newSunkLog()
	}
	id = int(c.sunk.Len())
	c.omit(w.Severity)
	c.sinkErr = addSunk(c.sunk, sunk{h, int64(id), int64(w.Severity.Rank()), w.Magnitude})
	return id, c.sinkErr == nil
}

func (c *checker) fireSink(w *Warning) {
	id, ok := c.logSunk(w, c.warningHash(w))
	if !ok {
		return
	}
	// A sink holds its warnings a while (a batch waiting to be sorted):
	// their object's and table's names are copied beside their texts,
	// where they do not hold the parser's 4 KiB block of names each. A
	// warning every 16 tables (the fdb-made 300 MiB file) held a block a
	// warning: 4.7 MB of csv --table warnings' 12.5 MB live heap. (Not
	// for a sink that only counts.)
	if _, counting := c.sink.(counted); !counting {
		names := c.keepText(append(append(c.textBuf(), w.Object...), w.Table...))
		w.Object, w.Table = names[:len(w.Object)], names[len(w.Object):]
	}
	if c.encoded != nil { // (the assertion only then: JSON encodes none)
		if es, ok := c.sink.(EncodedWarningSink); ok {
			c.sinkErr = es.PutEncoded(id, *w, c.encoded)
			return
		}
	}
	c.sinkErr = c.sink.Put(id, *w)
}

// dropReplaced ends a run whose warnings went to a sink or were limited:
// of the warnings of one rule on one object, the worst stays (the first
// of equals, as fire keeps it); the counts forget the others, and a sink
// drops them.
func (c *checker) dropReplaced() {
	defer c.flushOmitted()
	if c.sunk == nil {
		return
	}
	defer c.closeSunk()
	if c.sinkErr != nil {
		return
	}
	c.sinkErr = c.sunk.Repeated(func(h uint64, copies [][]byte) error {
		kept := sunkOf(h, copies[0])
		for _, p := range copies[1:] {
			r := sunkOf(h, p)
			gone := r
			if r.rank > kept.rank || r.rank == kept.rank && r.mag > kept.mag {
				gone, kept = kept, r
			}
			c.uncount(severities[gone.rank])
			if c.sink == nil {
				continue
			}
			if err := c.sink.Drop(int(gone.id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// closeSunk removes the temporary file of the sunk warnings' log.
func (c *checker) closeSunk() {
	if c.sunk != nil {
		c.sunk.Close()
		c.sunk = nil
	}
}
