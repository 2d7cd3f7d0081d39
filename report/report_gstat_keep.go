package report

import "github.com/fbdiag/fbdiag/analyze"

// runKeeper says which runs the sections show whole: of each database,
// the latest, the latest with tables and the latest with a header (in
// the fleet's order: its section's header block, tables and indices),
// and among its runs the history can place (dated, with a database
// path), the two latest of each size basis and of all (the history's
// diff compares the latest two whose sizes compare).
type runKeeper struct {
	dbs map[string]*keptRuns
	// whole are the runs of all not slimmed, from: the first not yet
	// looked at.
	whole []int
	from  int
}

// keptRuns are a database's runs shown whole, as places in all; -1 none.
type keptRuns struct {
	latest, tables, header int
	pairs                  map[string]*[2]int // by size basis; "" every basis
}

// note takes run r, about to be all[len(all)] (fed in order, once each).
func (k *runKeeper) note(all []GstatRun, r GstatRun) {
	if k.dbs == nil {
		k.dbs = map[string]*keptRuns{}
	}
	i := len(all)
	run := func(j int) *GstatRun {
		if j == i {
			return &r
		}
		return &all[j]
	}
	key := analyze.DatabaseKey(r.Analysis)
	kr := k.dbs[key]
	if kr == nil {
		kr = &keptRuns{latest: -1, tables: -1, header: -1, pairs: map[string]*[2]int{}}
		k.dbs[key] = kr
	}
	later := func(at int) bool { return at < 0 || analyze.SnapshotBefore(run(at).Analysis, at, r.Analysis, i) }
	if later(kr.latest) {
		kr.latest = i
	}
	a := r.Analysis
	if (a.Totals.Tables > 0 || a.Totals.Indices > 0) && later(kr.tables) {
		kr.tables = i
	}
	if a.Header != nil && later(kr.header) {
		kr.header = i
	}
	if r.trend.Time == nil || a.Header == nil || a.Header.Database == nil {
		return // (the history leaves it out)
	}
	for _, b := range []string{"", r.trend.SizeBasis()} {
		p := kr.pairs[b]
		if p == nil {
			p = &[2]int{-1, -1}
			kr.pairs[b] = p
		}
		// p[1] the latest, p[0] the one before: by time, then order read.
		newer := func(at int) bool { return at < 0 || !r.trend.Time.Before(*run(at).trend.Time) }
		switch {
		case newer(p[1]):
			p[0], p[1] = p[1], i
		case newer(p[0]):
			p[0] = i
		}
	}
}

// slim lets go of the tables, indices and warnings of every run of all
// that no section shows whole. A run slimmed is never shown whole later:
// the runs shown are the latest ones, and a later run only pushes one
// out.
func (k *runKeeper) slim(all []GstatRun) {
	shown := map[int]bool{}
	for _, kr := range k.dbs {
		shown[kr.latest], shown[kr.tables], shown[kr.header] = true, true, true
		for _, p := range kr.pairs {
			shown[p[0]], shown[p[1]] = true, true
		}
	}
	for ; k.from < len(all); k.from++ {
		k.whole = append(k.whole, k.from)
	}
	j := 0
	for _, i := range k.whole {
		if shown[i] {
			k.whole[j] = i
			j++
			continue
		}
		r := &all[i]
		r.Analysis, r.Report, r.streamed, r.slim = r.Analysis.Slim(), nil, nil, true
	}
	k.whole = k.whole[:j]
}
