package analyze

import "hash/maphash"

// A run of 75,000 tables can raise a hundred thousand warnings, each with
// its reason and advice: more memory than the tables themselves. A view
// that shows the worst twenty keeps only those and counts the others by
// severity (GstatScan.LimitWarnings); JSON keeps them all.

var warningSeed = maphash.MakeSeed()

// hashKey identifies a rule's warning on one object in 8 bytes instead of
// four strings that would keep every object's name alive.
func hashKey(k warningKey) uint64 {
	var h maphash.Hash
	h.SetSeed(warningSeed)
	for _, s := range [...]string{k.rule, k.kind, k.object, k.table} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// fireLimited adds a warning when the run keeps only the limit worst:
// one per object and rule as fire does, the kept ones replaced by a
// worse one, the dropped ones counted in WarningsOmitted.
func (c *checker) fireLimited(w Warning, k warningKey) {
	if c.seenH == nil {
		c.seenH = map[uint64]int32{}
	}
	h := hashKey(k)
	if i, ok := c.seenH[h]; ok {
		if i >= 0 {
			old := c.a.Warnings[i]
			if w.Severity.Rank() > old.Severity.Rank() || w.Severity == old.Severity && w.Magnitude > old.Magnitude {
				c.a.Warnings[i] = w
			}
		}
		return
	}
	c.seenH[h] = int32(len(c.a.Warnings))
	c.a.Warnings = append(c.a.Warnings, w)
	if len(c.a.Warnings) >= 2*c.limit {
		c.trimWarnings()
	}
}

// trimWarnings keeps the limit worst warnings and counts the others.
func (c *checker) trimWarnings() {
	SortWarnings(c.a.Warnings)
	if len(c.a.Warnings) <= c.limit {
		c.reindex()
		return
	}
	if c.a.WarningsOmitted == nil {
		c.a.WarningsOmitted = map[Severity]int{}
	}
	for _, w := range c.a.Warnings[c.limit:] {
		c.a.WarningsOmitted[w.Severity]++
		c.seenH[hashKey(warningKey{w.Rule, w.Kind, w.Object, w.Table})] = -1
	}
	clear(c.a.Warnings[c.limit:]) // (their strings can go)
	c.a.Warnings = c.a.Warnings[:c.limit]
	c.reindex()
}

func (c *checker) reindex() {
	for i, w := range c.a.Warnings {
		c.seenH[hashKey(warningKey{w.Rule, w.Kind, w.Object, w.Table})] = int32(i)
	}
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

// WarningSink takes a run's warnings as they fire instead of the analysis
// keeping them (a JSON writer spools them to a file): Put gets each
// warning with an id, the same id again when a worse warning of the same
// rule on the same object replaces it. The analysis then only counts them
// (WarningsOmitted) and its Warnings are empty.
type WarningSink interface {
	Put(id int, w Warning) error
}

// sinkSlot is what the checker keeps of a warning given to a sink: enough
// to tell whether a later one on the same object is worse.
type sinkSlot struct {
	sev Severity
	mag float64
}

func (c *checker) fireSink(w Warning, k warningKey) {
	if c.sinkErr != nil {
		return
	}
	h := hashKey(k)
	if c.a.WarningsOmitted == nil {
		c.a.WarningsOmitted = map[Severity]int{}
	}
	if id, ok := c.seenH[h]; ok {
		old := c.slots[id]
		if w.Severity.Rank() > old.sev.Rank() || w.Severity == old.sev && w.Magnitude > old.mag {
			c.a.WarningsOmitted[old.sev]--
			c.a.WarningsOmitted[w.Severity]++
			c.slots[id] = sinkSlot{w.Severity, w.Magnitude}
			c.sinkErr = c.sink.Put(int(id), w)
		}
		return
	}
	id := int32(len(c.slots))
	c.seenH[h] = id
	c.slots = append(c.slots, sinkSlot{w.Severity, w.Magnitude})
	c.a.WarningsOmitted[w.Severity]++
	c.sinkErr = c.sink.Put(int(id), w)
}
