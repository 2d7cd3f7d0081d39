package view

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/parse"
)

// GstatMetrics writes the OpenMetrics exposition of gstat runs analysed
// table by table (analyze.StreamGstat, with the hooks of Stream): the
// bytes Write gives for the last run's document of each database. The
// samples of the families with one per table or index go through a
// sorter that keeps a few megabytes of them and writes sorted runs of
// the rest to temporary files (internal/extsort); memory holds the
// analysis of each database's last run without its tables.
type GstatMetrics struct {
	w    io.Writer
	vopt GstatOptions

	slots []*metricsSlot // by the first run of each database
	byDB  map[string]int
	runs  []int // the slot of each run read
	cur   *analyze.GstatAnalysis
	// pending is the last run read, given to Written when the next
	// ends or at Close.
	pending *analyze.GstatAnalysis
	tables  int64 // tables and indices of the run being read
	ixs     int64

	samples *extsort.Sorter[metricRow]
	objects *extsort.Sorter[metricObject]

	// Written, when set, gets each run's analysis when the next one ends
	// or at Close (the notices and the --fail-on count).
	Written func(a *analyze.GstatAnalysis)
}

// metricsSlot is a database: its last run and that run's document.
type metricsSlot struct {
	run int
	doc *Doc
}

// metricRow is a sample of a family with one per table or index:
// family (the tables' first, in the order written), database slot and
// order in the run, then the run and what is written.
type metricRow struct {
	fam, slot, seq, run int64
	labels, value       string
}

// metricObject is a table or index of a run, for finding the samples
// written twice (a table printed twice): kind 0 for a table, 1 for an
// index, its labels, order in the run, and which of its kind's families
// have a sample (a bit each).
type metricObject struct {
	run, kind int64
	labels    string
	seq       int64
	has       int64
}

// metricBudget is the bytes of samples (and of objects) a stream holds
// in memory.
var metricBudget = 2 << 20

var metricRowCodec = extsort.Codec[metricRow]{
	Append: func(b []byte, r metricRow) []byte {
		for _, v := range [...]int64{r.fam, r.slot, r.seq, r.run} {
			b = extsort.AppendInt(b, v)
		}
		return extsort.AppendString(extsort.AppendString(b, r.labels), r.value)
	},
	Decode: func(b []byte) (metricRow, error) {
		f := extsort.NewFields(b)
		r := metricRow{fam: f.Int(), slot: f.Int(), seq: f.Int(), run: f.Int()}
		r.labels, r.value = f.Ref(), f.Ref()
		return r, f.Err()
	},
	Size: func(r metricRow) int { return 96 + len(r.labels) + len(r.value) },
}

var metricObjectCodec = extsort.Codec[metricObject]{
	Append: func(b []byte, o metricObject) []byte {
		b = extsort.AppendInt(extsort.AppendInt(b, o.run), o.kind)
		b = extsort.AppendString(b, o.labels)
		return extsort.AppendInt(extsort.AppendInt(b, o.seq), o.has)
	},
	Decode: func(b []byte) (metricObject, error) {
		f := extsort.NewFields(b)
		o := metricObject{run: f.Int(), kind: f.Int(), labels: f.String()}
		o.seq, o.has = f.Int(), f.Int()
		return o, f.Err()
	},
	Size: func(o metricObject) int { return 72 + len(o.labels) },
}

func compareMetricRows(a, b metricRow) int {
	if c := cmp.Compare(a.fam, b.fam); c != 0 {
		return c
	}
	if c := cmp.Compare(a.slot, b.slot); c != 0 {
		return c
	}
	if c := cmp.Compare(a.seq, b.seq); c != 0 {
		return c
	}
	return cmp.Compare(a.run, b.run)
}

func compareMetricObjects(a, b metricObject) int {
	if c := cmp.Compare(a.run, b.run); c != 0 {
		return c
	}
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.labels, b.labels); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// NewGstatMetrics writes the exposition on w at Close.
func NewGstatMetrics(w io.Writer, vopt GstatOptions) *GstatMetrics {
	return &GstatMetrics{w: w, vopt: vopt, byDB: map[string]int{},
		samples: extsort.New(compareMetricRows, metricRowCodec, metricBudget),
		objects: extsort.New(compareMetricObjects, metricObjectCodec, metricBudget)}
}

// Stream is what analyze.StreamGstat calls as it reads an input: the
// warnings go to a sink that counts them.
func (g *GstatMetrics) Stream() analyze.GstatStream {
	return analyze.GstatStream{
		Sink:  func(*analyze.GstatAnalysis) analyze.WarningSink { return discard{} },
		Table: g.table,
		Run: func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error {
			return g.run(a)
		},
	}
}

// MaxHeld is the most samples the stream held in memory at once.
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
		g.cur, g.tables, g.ixs = a, 0, 0
		g.runs = append(g.runs, g.slotOf(a))
	}
}

func (g *GstatMetrics) table(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
	g.start(a)
	run := int64(len(g.runs) - 1)
	slot := int64(g.runs[run])
	db := Label{"database", GstatDatabase(a)}
	labels, err := labelText(tableLabels(db, t))
	if err != nil {
		return err
	}
	g.tables++
	var has int64
	for f, m := range gstatTableMetrics {
		if p := m.get(t); p != nil {
			has |= 1 << f
			if err := g.samples.Add(metricRow{fam: int64(f), slot: slot, seq: g.tables, run: run, labels: labels, value: metricValue(float64(*p))}); err != nil {
				return err
			}
		}
	}
	if err := g.objects.Add(metricObject{run: run, kind: 0, labels: labels, seq: g.tables, has: has}); err != nil {
		return err
	}
	for i := range t.Indices {
		if err := g.index(a, &t.Indices[i]); err != nil {
			return err
		}
	}
	return nil
}

func (g *GstatMetrics) index(a *analyze.GstatAnalysis, ix *analyze.IndexStats) error {
	run := int64(len(g.runs) - 1)
	slot := int64(g.runs[run])
	labels, err := labelText(indexLabels(Label{"database", GstatDatabase(a)}, ix))
	if err != nil {
		return err
	}
	g.ixs++
	var has int64
	for f, m := range gstatIndexMetrics {
		if p := m.get(ix); p != nil {
			has |= 1 << f
			fam := int64(len(gstatTableMetrics) + f)
			if err := g.samples.Add(metricRow{fam: fam, slot: slot, seq: g.ixs, run: run, labels: labels, value: metricValue(float64(*p))}); err != nil {
				return err
			}
		}
	}
	return g.objects.Add(metricObject{run: run, kind: 1, labels: labels, seq: g.ixs, has: has})
}

// run ends run a: its document (without tables) replaces the one of its
// database's run before.
func (g *GstatMetrics) run(a *analyze.GstatAnalysis) error {
	g.start(a)
	for i := range a.UnattachedIndices {
		if err := g.index(a, &a.UnattachedIndices[i]); err != nil {
			return err
		}
	}
	// As the documents of Writer, a run counts when the next one ends or
	// at Close (an input that holds none after a run stops before).
	if g.Written != nil && g.pending != nil {
		g.Written(g.pending)
	}
	g.pending = a
	run := len(g.runs) - 1
	s := g.slots[g.runs[run]]
	s.run, s.doc = run, Gstat(a, g.vopt)
	g.cur = nil
	return nil
}

// Abort drops what was read (an error stopped the reading).
func (g *GstatMetrics) Abort() {
	g.samples.Close()
	g.objects.Close()
}

// dupAt is where the exposition meets a sample whose labels its family
// had already: the family, slot and order of the second.
type dupAt struct{ fam, slot, seq int64 }

// firstDuplicate finds, among the last runs of the databases, the first
// sample in the exposition's order that repeats the labels of one before
// it in its family (a table or index printed twice); ok false when none.
func (g *GstatMetrics) firstDuplicate() (at dupAt, ok bool, err error) {
	var group []metricObject
	check := func() {
		for len(group) > 1 {
			o := group[0]
			nf := len(gstatTableMetrics)
			base := int64(0)
			if o.kind == 1 {
				nf, base = len(gstatIndexMetrics), int64(len(gstatTableMetrics))
			}
			for f := range nf {
				n := 0
				for _, x := range group {
					if x.has&(1<<f) == 0 {
						continue
					}
					if n++; n == 2 {
						d := dupAt{base + int64(f), int64(g.runs[o.run]), x.seq}
						if !ok || d.fam < at.fam || d.fam == at.fam && (d.slot < at.slot || d.slot == at.slot && d.seq < at.seq) {
							at, ok = d, true
						}
						break
					}
				}
			}
			break
		}
		group = group[:0]
	}
	err = g.objects.Each(func(o metricObject) error {
		if g.slots[g.runs[o.run]].run != int(o.run) {
			return nil // (a database's earlier run)
		}
		if len(group) > 0 && (o.run != group[0].run || o.kind != group[0].kind || o.labels != group[0].labels) {
			check()
		}
		group = append(group, o)
		return nil
	})
	check()
	return at, ok, err
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
	dup, isDup, err := g.firstDuplicate()
	if err != nil {
		return err
	}
	var names []string
	byName := map[string][]MetricFamily{}
	for _, s := range g.slots {
		for _, f := range s.doc.Metrics {
			if _, ok := byName[f.Name]; !ok {
				names = append(names, f.Name)
			}
			byName[f.Name] = append(byName[f.Name], f)
		}
	}
	if len(names) == 0 {
		return ErrNoMetrics
	}
	object := map[string]int64{}
	for i, m := range gstatTableMetrics {
		object[m.name] = int64(i)
	}
	for i, m := range gstatIndexMetrics {
		object[m.name] = int64(len(gstatTableMetrics) + i)
	}
	next, stop := iter.Pull2(g.sortedSamples())
	defer stop()
	row, rerr, more := next()
	b := bufio.NewWriter(g.w)
	for _, name := range names {
		fams := byName[name]
		f := fams[0]
		if err := checkFamily(f); err != nil {
			return err
		}
		sample := writeFamilyHead(b, &f)
		for _, h := range fams {
			if h.Type != f.Type || h.Unit != f.Unit {
				return fmt.Errorf("metric %s: type %s %q and %s %q in two documents", name, f.Type, f.Unit, h.Type, h.Unit)
			}
		}
		fam, ok := object[name]
		if !ok {
			// One sample or three a database: a few.
			seen := map[string]bool{}
			for _, h := range fams {
				if err := writeSamples(b, name, sample, &h, seen); err != nil {
					return err
				}
			}
			continue
		}
		for ; more && row.fam <= fam; row, rerr, more = next() {
			if rerr != nil {
				return rerr
			}
			if row.fam < fam || g.slots[row.slot].run != int(row.run) {
				continue // (a database's earlier run)
			}
			if isDup && dup == (dupAt{row.fam, row.slot, row.seq}) {
				return fmt.Errorf("metric %s%s: %w", name, row.labels, ErrDuplicateSample)
			}
			fmt.Fprintf(b, "%s%s %s\n", sample, row.labels, row.value)
		}
	}
	if rerr != nil {
		return rerr
	}
	fmt.Fprintln(b, "# EOF")
	return b.Flush()
}

// sortedSamples yields the samples in order, then the sorter's error.
func (g *GstatMetrics) sortedSamples() iter.Seq2[metricRow, error] {
	return func(yield func(metricRow, error) bool) {
		stopped := false
		err := g.samples.Each(func(r metricRow) error {
			if !yield(r, nil) {
				stopped = true
				return errStop
			}
			return nil
		})
		if err != nil && !stopped {
			yield(metricRow{}, err)
		}
	}
}

// errStop ends an iteration its reader left.
var errStop = errors.New("stopped")
