package view

import (
	"cmp"
	"slices"
	"sort"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/units"
)

// GbakKept is what a GbakKeeper kept of a streamed timeline
// (analyze.StreamGbakTimeline): the rows the view shows, in its orders,
// and the number of each.
type GbakKept struct {
	// Steps are the slowest steps, those of unknown cost last in log
	// order; Tables and Indices the first in the natural order of their
	// names.
	Steps   []analyze.GbakStep
	Tables  []analyze.GbakTable
	Indices []analyze.GbakIndex
	// The counts of every step, table and index of the log.
	StepCount, TableCount, IndexCount int
	// Cut are the steps the log ends inside (GbakStep.LowerBound), for
	// the findings.
	Cut []analyze.GbakStep
	// Wrapped counts the steps whose reads and writes a wrapped counter
	// took (analyze.GbakStep.Wrapped).
	Wrapped int
	// Errors and Warnings are the first of the log's (all, or those the
	// keeper was asked to keep: WithMessages); the timeline counts them
	// all (analyze.Timeline.ErrorCount).
	Errors, Warnings []string
	messages         int // the bound of Errors and Warnings (WithMessages)
	// chart is the timeline chart's input, when the keeper made it.
	chart *gbakChart
	// disk holds every step, sorted on disk, when the keeper was asked
	// to (StepsOnDisk); the steps table then reads it once.
	disk *diskSteps
}

type diskSteps struct {
	rows *extsort.Sorter[stepRow]
	err  error
}

// Err is the first error of the temporary files that held the steps
// (StepsOnDisk), once the view was written.
func (k *GbakKept) Err() error {
	if k.disk == nil {
		return nil
	}
	return k.disk.err
}

// GbakKeeper keeps, of a gbak timeline streamed step by step, what the
// view shows: the top slowest steps and the first GbakListTop tables and
// indices by name (or every one of a kind whose limit is below 0, for a
// CSV table that lists all). Memory then holds a few dozen steps whatever
// the length of the log.
type GbakKeeper struct {
	k       GbakKept
	chart   *gbakChart
	steps   kept[analyze.GbakStep]
	tables  kept[analyze.GbakTable]
	indices kept[analyze.GbakIndex]
	disk    *diskSteps
	// messages bounds Errors and Warnings (below 0: all).
	messages int
}

// NewGbakKeeper keeps the top slowest steps and list tables and indices;
// a limit below 0 keeps all.
func NewGbakKeeper(top, list int) *GbakKeeper {
	return &GbakKeeper{
		steps:    kept[analyze.GbakStep]{limit: top, order: func(a, b *analyze.GbakStep) int { return compareCost(a.Seconds, b.Seconds) }},
		tables:   kept[analyze.GbakTable]{limit: list, order: func(a, b *analyze.GbakTable) int { return units.Compare(a.Name, b.Name) }},
		indices:  kept[analyze.GbakIndex]{limit: list, order: func(a, b *analyze.GbakIndex) int { return units.Compare(a.Name, b.Name) }},
		messages: -1,
	}
}

// WithMessages keeps the first n errors and the first n warnings of the
// log (n below 0: all, the default), the view's findings: a failed
// restore can print a million error lines, and the view shows the first
// (Doc.FindingsLimit) and counts the others (Doc.FindingsOmitted).
func (k *GbakKeeper) WithMessages(n int) *GbakKeeper {
	k.messages = n
	return k
}

// WithChart makes the keeper gather the timeline chart's input too: the
// phases' bars (one per run of steps of a phase) and the slowest tables
// and indices.
func (k *GbakKeeper) WithChart() *GbakKeeper {
	k.chart = newGbakChart(GbakChartSteps)
	return k
}

// StepsOnDisk makes a keeper of every step (a limit below 0) sort them on
// disk instead of keeping them: for a view written once, in one pass (a
// CSV of the steps table), whose memory then stays flat whatever the
// length of the log.
func (k *GbakKeeper) StepsOnDisk() *GbakKeeper {
	if k.steps.limit < 0 {
		k.disk = &diskSteps{rows: extsort.New(compareStepRows, stepRowCodec, stepRowBudget)}
	}
	return k
}

// Stream is what analyze.StreamGbakTimeline hands the timeline to.
func (k *GbakKeeper) Stream() analyze.GbakStream {
	return analyze.GbakStream{
		Step: func(st *analyze.GbakStep) error {
			if k.chart != nil {
				k.chart.add(st)
			}
			if k.disk != nil {
				if err := k.disk.rows.Add(newStepRow(st, k.k.StepCount)); err != nil {
					return err
				}
			} else {
				k.steps.add(st, k.k.StepCount)
			}
			k.k.StepCount++
			if cutStep(st) {
				k.k.Cut = append(k.k.Cut, *st)
			}
			if st.Wrapped {
				k.k.Wrapped++
			}
			return nil
		},
		Table: func(t *analyze.GbakTable) error {
			k.tables.add(t, k.k.TableCount)
			k.k.TableCount++
			return nil
		},
		Index: func(ix *analyze.GbakIndex) error {
			k.indices.add(ix, k.k.IndexCount)
			k.k.IndexCount++
			return nil
		},
		Failed: func(name string, n int) {
			for i := range k.indices.vs {
				if x := &k.indices.vs[i]; x.Name == name && (k.indices.ns == nil && i < n || k.indices.ns != nil && k.indices.ns[i] < n) {
					x.Failed = true
				}
			}
		},
		Error:   func(msg string) error { k.keepMessage(&k.k.Errors, msg); return nil },
		Warning: func(msg string) error { k.keepMessage(&k.k.Warnings, msg); return nil },
	}
}

// keepMessage keeps an error or a warning while dst holds fewer than
// the keeper's bound (WithMessages).
func (k *GbakKeeper) keepMessage(dst *[]string, msg string) {
	if k.messages < 0 || len(*dst) < k.messages {
		*dst = append(*dst, msg)
	}
}

// Kept ends the stream: the rows kept, the first ones in the view's
// orders (those of a kind kept whole in log order: the view sorts them).
func (k *GbakKeeper) Kept() *GbakKept {
	out := k.k
	out.Steps, out.Tables, out.Indices = k.steps.vs, k.tables.vs, k.indices.vs
	out.chart, out.disk, out.messages = k.chart, k.disk, k.messages
	return &out
}

// kept holds the first limit values in order, ties in log order (limit
// below 0: every value, in log order). vs is sorted; ns are the values'
// positions in the log, when limited.
type kept[T any] struct {
	limit int
	order func(a, b *T) int
	vs    []T
	ns    []int
}

// add offers the n-th value of the log.
func (k *kept[T]) add(v *T, n int) {
	if k.limit < 0 {
		k.vs = append(k.vs, *v)
		return
	}
	if k.limit == 0 {
		return
	}
	// (a later value ties after the kept ones: it goes after them)
	i := sort.Search(len(k.vs), func(i int) bool { return k.order(v, &k.vs[i]) < 0 })
	if i == k.limit {
		return
	}
	if len(k.vs) == k.limit {
		k.vs, k.ns = k.vs[:k.limit-1], k.ns[:k.limit-1]
	}
	k.vs, k.ns = slices.Insert(k.vs, i, *v), slices.Insert(k.ns, i, n)
}

// compareCost orders known costs the largest first, unknown ones last.
func compareCost(a, b *float64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Compare(*b, *a)
}
