package report

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/plot"
)

// GstatChartKeeper gathers, table by table, what the tables, indices and
// fill charts of one gstat run show: the largest tables and indices,
// the indices of each depth and the pages of each fill bucket. A run
// analysed as it is read (analyze.StreamGstat) is charted from it in
// memory bounded by the charts, not by the database; GstatCharts feeds
// it a whole analysis, so that both draw the same charts.
type GstatChartKeeper struct {
	top int
	// tables by size (bytes, else data pages), largest first; allBytes:
	// every table so far has its size in bytes.
	tables   topKept[chartTable]
	nTables  int
	allBytes bool
	// indices by leaf size in bytes and in leaf buckets: which one the
	// chart shows is known at the end (bytes when every index has them).
	ixBytes, ixLeaves topKept[chartIndex]
	nIndices          int
	allIxBytes        bool
	depths            map[int]*plot.DepthCount
	// tableFill and indexFill sum the fill distributions of the tables
	// and indices that print one (nTableFill, nIndexFill).
	tableFill, indexFill   [5]float64
	nTableFill, nIndexFill int
}

type chartTable struct {
	key        float64 // bytes, else data pages: the order
	mib, pages float64
	bar        plot.TableBar // (Size set by tablesChart)
}

type chartIndex struct {
	key float64
	bar plot.IndexBar
}

// NewGstatChartKeeper keeps the top largest tables and indices.
func NewGstatChartKeeper(top int) *GstatChartKeeper {
	return &GstatChartKeeper{top: top, allBytes: true, allIxBytes: true, depths: map[int]*plot.DepthCount{},
		tables: topKept[chartTable]{top: top}, ixBytes: topKept[chartIndex]{top: top}, ixLeaves: topKept[chartIndex]{top: top}}
}

// severityOf looks up the worst warning of a table, or of an index and
// its worst depth warning.
type severityOf interface {
	table(name string) analyze.Severity
	index(name, table string) (worst, depth analyze.Severity)
}

// chartSeverities are the worst warnings of tables (by name) and indices
// (by name and table), and of indices the worst depth warning, of a
// whole analysis: it knows a warning's object by its name only.
type chartSeverities struct {
	tables         map[string]analyze.Severity
	indices, depth map[[2]string]analyze.Severity
}

func severitiesOf(ws []analyze.Warning) *chartSeverities {
	s := &chartSeverities{tables: map[string]analyze.Severity{}, indices: map[[2]string]analyze.Severity{}, depth: map[[2]string]analyze.Severity{}}
	for i := range ws {
		w := &ws[i]
		worse := func(old analyze.Severity) bool { return w.Severity.Rank() > old.Rank() }
		switch w.Kind {
		case "table":
			if worse(s.tables[w.Object]) {
				s.tables[w.Object] = w.Severity
			}
		case "index":
			k := [2]string{w.Object, w.Table}
			if worse(s.indices[k]) {
				s.indices[k] = w.Severity
			}
			if isDepthRule(w.Rule) && worse(s.depth[k]) {
				s.depth[k] = w.Severity
			}
		}
	}
	return s
}

func (s *chartSeverities) table(name string) analyze.Severity { return s.tables[name] }

func (s *chartSeverities) index(name, table string) (worst, depth analyze.Severity) {
	k := [2]string{name, table}
	return s.indices[k], s.depth[k]
}

// firedSeverities are the warnings fired on one table and its indices
// (a few): looked through for each lookup.
type firedSeverities []analyze.Warning

func (f firedSeverities) table(name string) analyze.Severity {
	var worst analyze.Severity
	for i := range f {
		if w := &f[i]; w.Kind == "table" && w.Object == name && w.Severity.Rank() > worst.Rank() {
			worst = w.Severity
		}
	}
	return worst
}

func (f firedSeverities) index(name, table string) (worst, depth analyze.Severity) {
	for i := range f {
		w := &f[i]
		if w.Kind != "index" || w.Object != name || w.Table != table {
			continue
		}
		if w.Severity.Rank() > worst.Rank() {
			worst = w.Severity
		}
		if w.Severity.Rank() > depth.Rank() && isDepthRule(w.Rule) {
			depth = w.Severity
		}
	}
	return worst, depth
}

// Table offers one analysed table of a streamed run with the warnings
// its analysis fired on it and its indices (GstatAnalysis.TableWarnings):
// its bars take the worst of them.
func (k *GstatChartKeeper) Table(t *analyze.TableStats, fired []analyze.Warning) {
	k.table(t, firedSeverities(fired))
}

// End ends the run: a is its analysis, whose unattached indices (with
// their warnings, GstatAnalysis.UnattachedWarnings) come after the
// tables. It returns what the run's charts show, as GstatCharts draws
// them, and empties k for the next run.
func (k *GstatChartKeeper) End(a *analyze.GstatAnalysis) GstatChartData {
	// Looked up in maps: a run can have thousands of unattached indices
	// and as many warnings on them (19,554 of an index block repeated to
	// 8 MiB took 7.8 s scanning the warnings once an index).
	sev := severitiesOf(a.UnattachedWarnings())
	for i := range a.UnattachedIndices {
		k.index(&a.UnattachedIndices[i], sev)
	}
	d := k.data(a.File)
	*k = *NewGstatChartKeeper(k.top)
	return d
}

// GstatChartData is what the charts of one gstat run show: each is nil
// when the run has nothing for it.
type GstatChartData struct {
	File    string
	Tables  *plot.Tables
	Indices *plot.Indices
	Fill    *plot.Fill
}

func (k *GstatChartKeeper) data(file string) GstatChartData {
	d := GstatChartData{File: file}
	if k.nTables > 0 {
		t := k.tablesChart(file)
		d.Tables = &t
	}
	if k.nIndices > 0 {
		ix := k.indicesChart(file)
		d.Indices = &ix
	}
	if fill := k.fillChart(file); len(fill.Groups) > 0 {
		d.Fill = &fill
	}
	return d
}

// Draw draws the charts: tables, indices, fill.
func (d GstatChartData) Draw() ([]*plot.Chart, error) {
	var out []*plot.Chart
	var errs []error
	add := func(c *plot.Chart, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		c.Name = plot.SafeName(filepath.Base(d.File))
		out = append(out, c)
	}
	if d.Tables != nil {
		add(plot.TablesChart(*d.Tables))
	}
	if d.Indices != nil {
		add(plot.IndicesChart(*d.Indices))
	}
	if d.Fill != nil {
		add(plot.FillChart(*d.Fill))
	}
	return out, errors.Join(errs...)
}

func (k *GstatChartKeeper) table(t *analyze.TableStats, sev severityOf) {
	k.nTables++
	key := f64(t.DataPages)
	if t.SizeBytes != nil {
		key = float64(*t.SizeBytes)
	} else {
		k.allBytes = false
	}
	if k.tables.wants(key) {
		k.tables.add(chartTable{key: key, mib: sizeMiB(t.SizeBytes), pages: f64(t.DataPages),
			bar: plot.TableBar{Name: t.Name, Records: f64(t.Records), Versions: f64(t.Versions), Fragments: f64(t.Fragments),
				Severity: plot.Severity(sev.table(t.Name))}})
	}
	if t.Fill != nil {
		k.nTableFill++
		for i, v := range t.Fill {
			k.tableFill[i] += float64(v)
		}
	}
	for i := range t.Indices {
		k.index(&t.Indices[i], sev)
	}
}

func (k *GstatChartKeeper) index(ix *analyze.IndexStats, sev severityOf) {
	k.nIndices++
	if ix.SizeBytes == nil {
		k.allIxBytes = false
	}
	byBytes := k.allIxBytes && k.ixBytes.wants(sizeMiB(ix.SizeBytes)) // (once an index lacks them, bytes are never shown)
	byLeaves := k.ixLeaves.wants(f64(ix.LeafBuckets))
	if ix.Depth != nil || byBytes || byLeaves {
		worst, deepest := sev.index(ix.Name, ix.Table)
		if ix.Depth != nil {
			d := int(*ix.Depth)
			dc := k.depths[d]
			if dc == nil {
				dc = &plot.DepthCount{Depth: d}
				k.depths[d] = dc
			}
			dc.Count++
			if deepest.Rank() > analyze.Severity(dc.Severity).Rank() {
				dc.Severity = plot.Severity(deepest)
			}
		}
		bar := plot.IndexBar{Name: ix.Name, Table: ix.Table, Severity: plot.Severity(worst)}
		if byBytes {
			k.ixBytes.add(chartIndex{key: sizeMiB(ix.SizeBytes), bar: bar})
		}
		if byLeaves {
			k.ixLeaves.add(chartIndex{key: f64(ix.LeafBuckets), bar: bar})
		}
	}
	if ix.Fill != nil {
		k.nIndexFill++
		for i, v := range ix.Fill {
			k.indexFill[i] += float64(v)
		}
	}
}

// topKept keeps the top largest of what it is offered, by key (NaN, an
// unknown size, last); of equal keys, the first offered: a stable sort
// of every one offered, cut at top.
type topKept[T keyed] struct {
	top  int
	kept []T
	// cut is the key of the last kept at the latest sort: a key not
	// above it can never be shown (most tables of a big run).
	cut  float64
	full bool
}

type keyed interface{ sortKey() float64 }

func (c chartTable) sortKey() float64 { return c.key }
func (c chartIndex) sortKey() float64 { return c.key }

// wants tells whether an object of that key may be kept.
func (t *topKept[T]) wants(key float64) bool {
	return t.top > 0 && (!t.full || cmp.Compare(key, t.cut) > 0)
}

func (t *topKept[T]) add(c T) {
	t.kept = append(t.kept, c)
	if len(t.kept) >= 2*t.top {
		t.sort()
		t.cut, t.full = t.kept[t.top-1].sortKey(), true
	}
}

// sort sorts the kept, largest first, and cuts them at top.
func (t *topKept[T]) sort() []T {
	slices.SortStableFunc(t.kept, func(x, y T) int { return cmp.Compare(y.sortKey(), x.sortKey()) })
	if len(t.kept) > t.top {
		clear(t.kept[t.top:])
		t.kept = t.kept[:t.top]
	}
	return t.kept
}

func (k *GstatChartKeeper) tablesChart(file string) plot.Tables {
	d := plot.Tables{Title: "Largest tables: " + filepath.Base(file), SizeUnit: "MiB", Of: k.nTables}
	// Bytes when every table has them, else pages (never mixed).
	if !k.allBytes {
		d.SizeUnit = "data pages"
	}
	for _, t := range k.tables.sort() {
		t.bar.Size = t.mib
		if !k.allBytes {
			t.bar.Size = t.pages
		}
		d.Tables = append(d.Tables, t.bar)
	}
	return d
}

func (k *GstatChartKeeper) indicesChart(file string) plot.Indices {
	d := plot.Indices{Title: "Index depth: " + filepath.Base(file), SizeUnit: "MiB"}
	keys := make([]int, 0, len(k.depths))
	for depth := range k.depths {
		keys = append(keys, depth)
	}
	slices.Sort(keys)
	for _, depth := range keys {
		d.Depths = append(d.Depths, *k.depths[depth])
	}
	largest := k.ixBytes
	if !k.allIxBytes {
		d.SizeUnit = "leaf buckets"
		largest = k.ixLeaves
	}
	for _, ix := range largest.sort() {
		ix.bar.Size = ix.key
		d.Largest = append(d.Largest, ix.bar)
	}
	return d
}

func (k *GstatChartKeeper) fillChart(file string) plot.Fill {
	d := plot.Fill{Title: "Page fill: " + filepath.Base(file)}
	if k.nTableFill > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "table data pages", Pages: k.tableFill})
	}
	if k.nIndexFill > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "index leaf pages", Pages: k.indexFill})
	}
	return d
}

// wholeChartKeeper is a keeper fed every table and index of a.
func wholeChartKeeper(a *analyze.GstatAnalysis, top int) *GstatChartKeeper {
	k := NewGstatChartKeeper(top)
	sev := severitiesOf(a.Warnings)
	for i := range a.Tables {
		k.table(&a.Tables[i], sev)
	}
	for i := range a.UnattachedIndices {
		k.index(&a.UnattachedIndices[i], sev)
	}
	return k
}
