package report

import (
	"cmp"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// TopObjects is how many tables or indices a chart shows.
const TopObjects = 12

// worstFor is the worst warning severity of one table or index.
func worstFor(ws []analyze.Warning, kind, object, table string) plot.Severity {
	var sel []analyze.Warning
	for _, w := range ws {
		if w.Kind == kind && w.Object == object && (kind != "index" || w.Table == table) {
			sel = append(sel, w)
		}
	}
	return plot.Severity(analyze.Worst(sel))
}

// sizeMiB is a size in bytes as MiB (2²⁰), as every fbdiag output
// shows sizes, NaN when unknown.
func sizeMiB(b *int64) float64 {
	if b == nil {
		return math.NaN()
	}
	return float64(*b) / (1 << 20)
}

// GstatTablesChart is the tables chart input: the largest tables by size
// (bytes, else data pages), with records, back versions and fragments.
func GstatTablesChart(a *analyze.GstatAnalysis, top int) plot.Tables {
	ts := slices.Clone(a.Tables)
	bySize := func(t *analyze.TableStats) float64 {
		if t.SizeBytes != nil {
			return float64(*t.SizeBytes)
		}
		return f64(t.DataPages)
	}
	slices.SortStableFunc(ts, func(x, y analyze.TableStats) int { return cmp.Compare(bySize(&y), bySize(&x)) })
	d := plot.Tables{Title: "Largest tables: " + filepath.Base(a.File), SizeUnit: "MiB"}
	// Bytes when every table has them, else pages (never mixed).
	useBytes := !slices.ContainsFunc(ts, func(t analyze.TableStats) bool { return t.SizeBytes == nil })
	if !useBytes {
		d.SizeUnit = "data pages"
	}
	for i, t := range ts {
		if i == top {
			break
		}
		size := sizeMiB(t.SizeBytes)
		if !useBytes {
			size = f64(t.DataPages)
		}
		d.Tables = append(d.Tables, plot.TableBar{
			Name: t.Name, Size: size,
			Records: f64(t.Records), Versions: f64(t.Versions), Fragments: f64(t.Fragments),
			Severity: worstFor(a.Warnings, "table", t.Name, ""),
		})
	}
	return d
}

// allIndices lists every index of the analysis, attached or not.
func allIndices(a *analyze.GstatAnalysis) []analyze.IndexStats {
	var out []analyze.IndexStats
	for _, t := range a.Tables {
		out = append(out, t.Indices...)
	}
	return append(out, a.UnattachedIndices...)
}

// GstatIndicesChart is the indices chart input: how many indices have
// each depth (a bar takes the worst severity of the depth warnings at
// that depth) and the largest indices by leaf size with their worst
// warning.
func GstatIndicesChart(a *analyze.GstatAnalysis, top int) plot.Indices {
	ixs := allIndices(a)
	d := plot.Indices{Title: "Index depth: " + filepath.Base(a.File), SizeUnit: "MiB"}
	// The worst depth warning of each index, in one pass over the
	// warnings: looked for index by index, a run of 130,000 indices and
	// 117,000 warnings took a minute.
	type indexKey struct{ name, table string }
	deep := map[indexKey]analyze.Severity{}
	for _, w := range a.Warnings {
		k := indexKey{w.Object, w.Table}
		if w.Kind == "index" && isDepthRule(w.Rule) && w.Severity.Rank() > deep[k].Rank() {
			deep[k] = w.Severity
		}
	}
	depths := map[int]*plot.DepthCount{}
	var keys []int
	for _, ix := range ixs {
		if ix.Depth == nil {
			continue
		}
		k := int(*ix.Depth)
		dc := depths[k]
		if dc == nil {
			dc = &plot.DepthCount{Depth: k}
			depths[k] = dc
			keys = append(keys, k)
		}
		dc.Count++
		if sev := deep[indexKey{ix.Name, ix.Table}]; sev.Rank() > analyze.Severity(dc.Severity).Rank() {
			dc.Severity = plot.Severity(sev)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		d.Depths = append(d.Depths, *depths[k])
	}
	useBytes := !slices.ContainsFunc(ixs, func(ix analyze.IndexStats) bool { return ix.SizeBytes == nil })
	if !useBytes {
		d.SizeUnit = "leaf buckets"
	}
	size := func(ix *analyze.IndexStats) float64 {
		if useBytes {
			return sizeMiB(ix.SizeBytes)
		}
		return f64(ix.LeafBuckets)
	}
	slices.SortStableFunc(ixs, func(x, y analyze.IndexStats) int { return cmp.Compare(size(&y), size(&x)) })
	for i, ix := range ixs {
		if i == top {
			break
		}
		d.Largest = append(d.Largest, plot.IndexBar{Name: ix.Name, Table: ix.Table, Size: size(&ix),
			Severity: worstFor(a.Warnings, "index", ix.Name, ix.Table)})
	}
	return d
}

// isDepthRule tells the index depth rules ("index-deep").
func isDepthRule(rule string) bool {
	return strings.Contains(rule, "deep") || strings.Contains(rule, "depth")
}

// GstatFillChart is the fill chart input: data pages of all tables and
// leaf pages of all indices per fill bucket, summed from the parsed
// report (the analysis keeps only the average fill of tables).
func GstatFillChart(a *analyze.GstatAnalysis, rep *parse.GstatReport) plot.Fill {
	d := plot.Fill{Title: "Page fill: " + filepath.Base(a.File)}
	var tables, indices [5]float64
	var nt, ni int
	for _, t := range rep.Tables {
		if t.Fill == nil {
			continue
		}
		nt++
		for k, v := range t.Fill {
			tables[k] += float64(v)
		}
	}
	for _, ix := range allIndices(a) {
		if ix.Fill == nil {
			continue
		}
		ni++
		for k, v := range ix.Fill {
			indices[k] += float64(v)
		}
	}
	if nt > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "table data pages", Pages: tables})
	}
	if ni > 0 {
		d.Groups = append(d.Groups, plot.FillGroup{Name: "index leaf pages", Pages: indices})
	}
	return d
}

// GstatCharts draws the tables, indices and fill charts of one gstat run
// (each only when the run has what it shows); fbdiag gstat --png writes
// them with WritePNGs.
func GstatCharts(a *analyze.GstatAnalysis, rep *parse.GstatReport) ([]*plot.Chart, error) {
	var out []*plot.Chart
	var errs []error
	add := func(c *plot.Chart, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		c.Name = plot.SafeName(filepath.Base(a.File))
		out = append(out, c)
	}
	if len(a.Tables) > 0 {
		add(plot.TablesChart(GstatTablesChart(a, TopObjects)))
	}
	if len(allIndices(a)) > 0 {
		add(plot.IndicesChart(GstatIndicesChart(a, TopObjects)))
	}
	if fill := GstatFillChart(a, rep); len(fill.Groups) > 0 {
		add(plot.FillChart(fill))
	}
	return out, errors.Join(errs...)
}
