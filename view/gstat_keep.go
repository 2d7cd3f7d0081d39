package view

import (
	"cmp"
	"slices"

	"github.com/fbdiag/fbdiag/analyze"
)

// GstatKept is what a GstatKeeper kept of one streamed run.
type GstatKept struct {
	Tables  []analyze.TableStats
	Indices []*analyze.IndexStats
	// Worst is the rank of the worst warning of each kept index (the
	// run's warnings may be limited to the worst few).
	Worst map[[2]string]int
}

// GstatKeeper keeps, of a gstat run analysed table by table
// (analyze.StreamGstat), what the bounded view shows: the opt.Top first
// tables and indices in the view's orders. Memory then holds a few dozen
// tables whatever the size of the database; the totals count the rest.
type GstatKeeper struct {
	top      int
	tableCmp func(x, y *analyze.TableStats) int
	by       string
	tables   []*analyze.TableStats
	indices  []*analyze.IndexStats
	worst    map[[2]string]int // of the kept indices
	worstMax int               // at least every rank worst has held
	// tableCut and indexCut are the last table and index kept at the
	// latest trim: one that sorts after them can never be shown, so it
	// is not copied (most tables of a big run).
	tableCut *analyze.TableStats
	indexCut *rankedIndex
	copied   int // tables copied (a test's measure of the cuts)
}

// NewGstatKeeper keeps opt.Top tables and indices (opt.Top > 0).
func NewGstatKeeper(opt GstatOptions) *GstatKeeper {
	by := cmp.Or(opt.Sort, "size")
	return &GstatKeeper{top: opt.Top, by: by, tableCmp: tableOrder(by), worst: map[[2]string]int{}}
}

// Table offers one analysed table of run a (its warnings just fired).
func (k *GstatKeeper) Table(a *analyze.GstatAnalysis, t *analyze.TableStats) {
	fired := a.TableWarnings()
	ranks := newIndexRanks(fired, 16)
	// Ranks only rise (the worst warning of a table printed twice, as
	// the whole analysis has it), so the cuts only move up.
	var pos []int // of the indices that may be shown
	for i := range t.Indices {
		ix := &t.Indices[i]
		if c := k.indexCut; c != nil {
			// Most indices of a big run sort after the cut even at the
			// highest rank k.worst holds: no map lookup for those.
			key := warnedKey(ix)
			r := ranks.of(key)
			at := rankedIndex{max(r, k.worstMax), indexKey(k.by, ix), ix}
			if compareRanked(at, *c) >= 0 {
				continue
			}
			if at.rank = max(r, k.worst[key]); compareRanked(at, *c) >= 0 {
				continue
			}
		}
		pos = append(pos, i)
	}
	ixs := make([]*analyze.IndexStats, len(pos))
	if k.tableCut == nil || k.tableCmp(t, k.tableCut) < 0 {
		cp := *t
		cp.Indices = slices.Clone(t.Indices)
		k.copied++
		k.tables = append(k.tables, &cp)
		if len(k.tables) >= 2*k.top {
			slices.SortStableFunc(k.tables, k.tableCmp)
			k.tables = k.tables[:k.top]
			k.tableCut = k.tables[k.top-1]
		}
		for j, i := range pos {
			ixs[j] = &cp.Indices[i]
		}
	} else {
		for j, i := range pos {
			c := t.Indices[i]
			ixs[j] = &c
		}
	}
	for _, ix := range ixs {
		key := warnedKey(ix)
		if r := ranks.of(key); r > 0 {
			k.worst[key] = max(k.worst[key], r)
			k.worstMax = max(k.worstMax, r)
		}
		k.indices = append(k.indices, ix)
	}
	if len(k.indices) >= 2*k.top {
		k.trimIndices()
	}
}

// indexRanks ranks each index of a table by the worst of the warnings
// the table fired on it (worstIndexWarnings's): looked through for each
// index when they are many or fewer (most tables fire a few), a map of
// two-string keys made only past that.
type indexRanks struct {
	fired []analyze.Warning
	m     map[[2]string]int
}

func newIndexRanks(fired []analyze.Warning, many int) indexRanks {
	if len(fired) > many {
		return indexRanks{m: worstIndexWarnings(fired)}
	}
	return indexRanks{fired: fired}
}

// of is the rank of the index of key (warnedKey).
func (r *indexRanks) of(key [2]string) int {
	if r.m != nil {
		return r.m[key]
	}
	return firedRank(r.fired, key)
}

// firedRank is the rank of the worst of a table's warnings on the index
// of key (warnedKey), 0 when none: worstIndexWarnings's for one index,
// without a map for every table (most fire a few).
func firedRank(ws []analyze.Warning, key [2]string) int {
	r := 0
	for i := range ws {
		if w := &ws[i]; w.Kind == "index" && w.Object == key[1] && w.Table == key[0] {
			r = max(r, w.Severity.Rank())
		}
	}
	return r
}

func (k *GstatKeeper) trimIndices() {
	sortIndices(k.indices, k.by, k.worst)
	for _, ix := range k.indices[k.top:] {
		delete(k.worst, warnedKey(ix))
	}
	k.indices = k.indices[:k.top]
	last := k.indices[k.top-1]
	k.indexCut = &rankedIndex{k.worst[warnedKey(last)], indexKey(k.by, last), last}
}

// Kept ends the run: a is its analysis (no tables), returned with the
// kept tables, and the options for view.Gstat.
func (k *GstatKeeper) Kept(a *analyze.GstatAnalysis, opt GstatOptions) (*analyze.GstatAnalysis, GstatOptions) {
	slices.SortStableFunc(k.tables, k.tableCmp)
	k.tables = k.tables[:min(len(k.tables), k.top)]
	for i := range a.UnattachedIndices {
		k.indices = append(k.indices, &a.UnattachedIndices[i])
	}
	for key, r := range worstIndexWarnings(a.Warnings) { // (the unattached indices')
		k.worst[key] = max(k.worst[key], r)
	}
	if len(k.indices) > k.top {
		k.trimIndices()
	}
	kept := &GstatKept{Indices: k.indices, Worst: k.worst}
	b := *a
	b.Tables = make([]analyze.TableStats, len(k.tables))
	for i, t := range k.tables {
		b.Tables[i] = *t
	}
	kept.Tables = b.Tables
	opt.Kept = kept
	*k = *NewGstatKeeper(opt)
	return &b, opt
}
