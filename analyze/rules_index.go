package analyze

import (
	"fmt"
	"math"

	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/units"
)

func (c *checker) index(ix *IndexStats, t *TableStats, odsMajor *int) {
	const kind = "index"
	schema := ix.Schema
	if schema == "" && t != nil {
		schema = t.Schema
	}
	c.indexDepth(ix, schema, odsMajor)
	c.indexMaxDup(ix, schema, odsMajor)
	// The DBA cannot drop or change the indices of system tables: judging
	// their selectivity is noise.
	useless := ix.Kind == IndexSystem
	if !useless && ix.UniqueKeys != nil && ix.Nodes != nil && *ix.Nodes > 0 && float64(*ix.Nodes) >= c.th.at(thIndexUselessMinNodes) &&
		float64(*ix.UniqueKeys) <= c.th.at(thIndexUselessMaxUniqueKeys) {
		useless = true
		f := finding{rule: "index-useless", sev: Warn, kind: kind, object: ix.QualifiedName(), table: ix.QualifiedTable(), value: float64(*ix.UniqueKeys),
			threshold: c.th.at(thIndexUselessMaxUniqueKeys), key: "max_unique_keys", unit: "keys", below: true}
		if c.wants(&f) {
			f.reason = "the optimizer gains nothing from " + ix.costText(t) + "; " + ix.KindText()
			f.advice = c.keepText(ix.appendDropAdvice(c.textBuf(), schema))
		}
		c.fire(&f)
	}
	if !useless {
		c.lowSelectivity(ix, t, schema)
	}
	if t != nil && t.Records != nil && ix.Nodes != nil && *t.Records > 0 {
		if *ix.Nodes == 0 && float64(*t.Records) >= c.th.at(thIndexEmptyMinRecords) {
			f := finding{rule: "index-empty", sev: Warn, kind: kind, object: ix.QualifiedName(), table: ix.QualifiedTable(), value: 0, threshold: float64(*t.Records), unit: "nodes", below: true}
			if c.wants(&f) {
				if noPartialIndices(c.a.Header) {
					f.reason = fmt.Sprintf("no keys for %s: a damaged index (ODS %s has no partial indices); %s", units.Count(*t.Records, "record"), *c.a.Header.ODSVersion, ix.KindText())
					f.advice = "rebuild it: " + ix.RebuildAdvice(schema, odsMajor)
				} else {
					f.reason = fmt.Sprintf("no keys for %s: a partial index (Firebird 5.0+) whose condition no row meets, or a damaged index; %s", units.Count(*t.Records, "record"), ix.KindText())
					f.advice = fmt.Sprintf("SELECT RDB$CONDITION_SOURCE FROM RDB$INDICES WHERE RDB$INDEX_NAME = %s; (5.0+) shows a condition; without one, rebuild it: %s",
						sqlString(ix.Name), ix.RebuildAdvice(schema, odsMajor))
				}
			}
			c.fire(&f)
		} else if limit := c.th.at(thIndexBrokenMinNodesShare) * float64(*t.Records); *ix.Nodes > 0 && float64(*ix.Nodes) < limit {
			f := finding{rule: "index-broken", sev: Warn, kind: kind, object: ix.QualifiedName(), table: ix.QualifiedTable(), value: float64(*ix.Nodes), threshold: limit, unit: "nodes", below: true}
			if c.wants(&f) {
				partial := " (or partial, Firebird 5.0+)"
				if noPartialIndices(c.a.Header) {
					partial = ""
				}
				f.reason = fmt.Sprintf("%s for %s: index inconsistent%s; %s", units.Count(*ix.Nodes, "key"), units.Count(*t.Records, "record"), partial, ix.KindText())
				f.advice = c.keepText(ix.appendRebuildAdvice(c.textBuf(), schema, odsMajor))
			}
			c.fire(&f)
		}
	}
	if ix.LightShare != nil && ix.LeafBuckets != nil && float64(*ix.LeafBuckets) >= c.th.at(thIndexSparseMinLeafBuckets) &&
		*ix.LightShare >= c.th.at(thIndexSparseLightShare) {
		f := finding{rule: "index-sparse", sev: Warn, kind: kind, object: ix.QualifiedName(), table: ix.QualifiedTable(), value: *ix.LightShare, threshold: c.th.at(thIndexSparseLightShare),
			key: "light_share", unit: "share"}
		if c.wants(&f) {
			// (The most frequent warning of a big file: appended, not
			// Sprintf or +.)
			b := numfmt.AppendFixed(c.textBuf(), *ix.LightShare*100, 0)
			b = append(b, "% of "...)
			b = numfmt.AppendInt(b, *ix.LeafBuckets)
			b = append(b, " leaf pages under 60% full; "...)
			f.reason = c.keepText(ix.appendKindText(b))
			f.advice = c.keepText(ix.appendRebuildAdvice(c.textBuf(), schema, odsMajor))
		}
		c.fire(&f)
	}
}

// indexDepth compares the depth with the depth the leaf pages need: deeper
// is a warning (rebuild), as deep is information (a bigger page size, when
// one is computed to help).
func (c *checker) indexDepth(ix *IndexStats, schema string, odsMajor *int) {
	minDepth := c.th.at(thIndexDeepMinDepth)
	if ix.Depth == nil || float64(*ix.Depth) < minDepth {
		return
	}
	d := *ix.Depth
	f := finding{rule: "index-deep", sev: Info, kind: "index", object: ix.QualifiedName(), table: ix.QualifiedTable(), value: float64(d), threshold: minDepth,
		key: "min_depth", unit: "levels"}
	if ix.NeededDepth != nil && d > *ix.NeededDepth {
		f.sev, f.threshold, f.key = Warn, float64(*ix.NeededDepth), "page_fill"
	}
	if !c.wants(&f) {
		c.fire(&f)
		return
	}
	lower := ""
	if ix.LowerDepthPageSize != nil {
		lower = fmt.Sprintf("a page size of %d would make it %d deep (gbak backup, then restore into a new file with -page_size %d)",
			*ix.LowerDepthPageSize, val0(ix.LowerDepth), *ix.LowerDepthPageSize)
	}
	switch {
	case ix.NeededDepth == nil:
		f.reason = fmt.Sprintf("depth %d; gstat printed no node length, so the depth its size needs is unknown", d)
	case d > *ix.NeededDepth:
		f.reason = fmt.Sprintf("depth %d where %d leaf pages need %d (fan-out about %.0f keys per upper page, %s): the upper levels are sparse; %s",
			d, val0(ix.LeafBuckets), *ix.NeededDepth, *ix.FanOut, ix.depthBasis, ix.KindText())
		f.advice = "rebuild it: " + ix.RebuildAdvice(schema, odsMajor)
		if ix.RebuiltDepth != nil {
			f.advice += fmt.Sprintf("; rebuilt it would be about %d deep", *ix.RebuiltDepth)
		}
		if lower != "" {
			f.advice += "; " + lower
		}
	default:
		f.reason = fmt.Sprintf("depth %d is what %d leaf pages need at this page size (fan-out about %.0f keys per upper page, %s)",
			d, val0(ix.LeafBuckets), *ix.FanOut, ix.depthBasis)
		switch {
		case lower != "":
			f.advice = lower
		case ix.RebuiltDepth != nil:
			f.advice = "nothing to do: no page size up to the largest lowers it"
		default:
			f.advice = "gstat -h gives the page size, from which the page size that would lower it is computed"
		}
	}
	c.fire(&f)
}

// indexMaxDup: before Firebird 2.0 (ODS 11) a long chain of one value made
// garbage collection and deletes walk it; since, duplicates are ordered by
// record number (Harrison: "Version 2 has a new index structure that
// eliminates the problem") and a long chain only says a lookup on that
// value returns many rows.
func (c *checker) indexMaxDup(ix *IndexStats, schema string, odsMajor *int) {
	limit := c.th.at(thIndexMaxDupWarning)
	if ix.MaxDup == nil || float64(*ix.MaxDup) <= limit {
		return
	}
	f := finding{rule: "index-max-dup", kind: "index", object: ix.QualifiedName(), table: ix.QualifiedTable(), value: float64(*ix.MaxDup), threshold: limit, unit: "keys"}
	// The clustering factor is printed from 3.0 (ODS 12) only.
	modern := odsMajor != nil && *odsMajor >= 11 || odsMajor == nil && ix.ClusteringFactor != nil
	switch {
	case modern:
		f.sev = Info
	case odsMajor != nil:
		f.sev = Critical
	default:
		f.sev = Warn
	}
	if !c.wants(&f) {
		c.fire(&f)
		return
	}
	// (Fired for every index of a big file made of one: appended, not
	// Sprintf.)
	b := numfmt.AppendInt(c.textBuf(), *ix.MaxDup)
	b = append(b, " more keys share one value"...)
	if ix.MaxDupShare != nil {
		b = append(b, " ("...)
		b = numfmt.AppendFixed(b, *ix.MaxDupShare*100, 1)
		b = append(b, "% of the index)"...)
	}
	switch {
	case modern:
		b = append(b, ": since Firebird 2.0 (ODS 11) duplicates are kept in record-number order, so garbage collection finds each entry without walking the chain; a lookup on that value returns "...)
		b = numfmt.AppendInt(b, *ix.MaxDup+1)
		b = append(b, " rows"...)
		f.advice = "nothing to do for garbage collection; whether the index pays its way is index-low-selectivity's matter"
	case odsMajor != nil:
		b = append(b, ": before Firebird 2.0 (ODS "...)
		b = numfmt.AppendInt(b, int64(*odsMajor))
		b = append(b, " here) deletes and garbage collection walk the whole chain"...)
		f.advice = "make the key more selective (add the primary key as a last segment), or upgrade to Firebird 2.0 or later (backup and restore)"
		// A constraint's index has the constraint's columns: no segment
		// can be added to it. Harrison, on such a foreign key index
		// (gem-00000012): "Were it me, I'd eliminate the constraint for now."
		if ix.IsConstraintIndex() {
			f.advice = "upgrade to Firebird 2.0 or later (backup with this server, restore with the new one); until then, only dropping the constraint removes its index: " +
				ix.dropConstraint(schema) + ix.referencedBy() + " (its segments are the constraint's columns, so no segment can be added to it)"
		}
	default:
		b = append(b, "; the ODS is not in the input: before Firebird 2.0 deletes and garbage collection walk such a chain, since 2.0 only lookups on the value are slow"...)
		f.advice = "gstat -h gives the ODS; before 2.0 make the key more selective"
	}
	f.reason = c.keepText(b)
	c.fire(&f)
}

// lowSelectivity fires when an average value matches a large share of the
// keys, or one value holds most of them (the gstat manual's "max dup close
// to total dup"), and says what the index costs.
func (c *checker) lowSelectivity(ix *IndexStats, t *TableStats, schema string) {
	if ix.UniqueKeys == nil || ix.Nodes == nil || *ix.UniqueKeys < 1 || float64(*ix.Nodes) < c.th.at(thIndexLowSelectivityMinNodes) {
		return
	}
	valueShare := 1 / float64(*ix.UniqueKeys)
	vs, ms := c.th.at(thIndexLowSelectivityValueShare), c.th.at(thIndexLowSelectivityMaxDupShare)
	maxShare := 0.0
	if ix.MaxDupShare != nil {
		maxShare = *ix.MaxDupShare
	}
	// (The finding made once it fires: most indices do not, and it is
	// some twenty words.)
	var value, threshold float64
	var key string
	switch {
	case valueShare >= vs && (maxShare < ms || valueShare/vs >= maxShare/ms):
		value, threshold, key = valueShare, vs, "value_share"
	case maxShare >= ms:
		value, threshold, key = maxShare, ms, "max_dup_share"
	default:
		return
	}
	f := finding{rule: "index-low-selectivity", sev: Warn, kind: "index", object: ix.QualifiedName(), table: ix.QualifiedTable(),
		value: value, threshold: threshold, key: key, unit: "share"}
	if c.wants(&f) {
		b := append(ix.appendCost(c.textBuf(), t), "; "...)
		f.reason = c.keepText(ix.appendKindText(b))
		f.advice = c.keepText(ix.appendDropAdvice(c.textBuf(), schema))
	}
	c.fire(&f)
}

// costText says what a lookup returns and reads, and what the index costs
// to keep. Firebird fetches the rows of an index lookup in record order,
// each data page once; the clustering ratio (data page changes per key in
// key order, 3.0+) estimates how many pages a run of equal keys touches.
func (ix *IndexStats) costText(t *TableStats) string { return string(ix.appendCost(nil, t)) }

// appendCost appends costText: strconv rather than Sprintf, a big run
// formats this for thousands of indices (the same digits as %d and
// %.1f).
func (ix *IndexStats) appendCost(b []byte, t *TableStats) []byte {
	n, u := val0(ix.Nodes), max(val0(ix.UniqueKeys), 1)
	b = numfmt.AppendInt(b, u)
	b = append(b, " distinct values in "...)
	b = numfmt.AppendInt(b, n)
	b = append(b, " keys: a lookup on one value returns "...)
	b = numfmt.AppendInt(b, n/u)
	b = append(b, " rows on average ("...)
	b = numfmt.AppendFixed(b, 100/float64(u), 1)
	b = append(b, "% of the keys)"...)
	if ix.MaxDup != nil {
		b = append(b, ", on the most common value "...)
		b = numfmt.AppendInt(b, *ix.MaxDup+1)
	}
	if t != nil && t.DataPages != nil && *t.DataPages > 0 && ix.ClusteringRatio != nil {
		// (Compared as floats: an estimate past an int64 would wrap.)
		pages := *t.DataPages
		if est := math.Ceil(float64(n/u) * *ix.ClusteringRatio); est < float64(pages) {
			pages = max(1, int64(est))
		}
		b = append(b, ", reading about "...)
		b = numfmt.AppendInt(b, pages)
		b = append(b, " of the table's "...)
		b = numfmt.AppendInt(b, *t.DataPages)
		b = append(b, " data pages (clustering ratio "...)
		b = numfmt.AppendFixed(b, *ix.ClusteringRatio, 2)
		b = append(b, ')')
	}
	if ix.LeafBuckets != nil {
		b = append(b, "; the index costs "...)
		b = numfmt.AppendInt(b, *ix.LeafBuckets)
		b = append(b, " leaf pages"...)
		if ix.SizeBytes != nil {
			b = append(b, " ("...)
			b = appendSize(b, float64(*ix.SizeBytes))
			b = append(b, ')')
		}
		b = append(b, " and an entry written on every insert, delete and key update"...)
	}
	return b
}

// notePageSize remembers, index by index, the deepest index a bigger page
// size would make shallower (the biggest among equals), for pageSize.
func (c *checker) notePageSize(ix *IndexStats) {
	h := c.a.Header
	if h == nil || h.PageSize == nil || float64(*h.PageSize) >= c.th.at(thPageSizeSmallPageSize) {
		return
	}
	if ix.Depth == nil || *ix.Depth < int64(c.th.at(thPageSizeSmallDepth)) || ix.LowerDepthPageSize == nil {
		return
	}
	c.deepN++
	if b := c.deepest; b == nil || *ix.Depth > *b.Depth || *ix.Depth == *b.Depth && val0(ix.LeafBuckets) > val0(b.LeafBuckets) {
		cp := *ix // the scan may drop the table it belongs to
		c.deepest = &cp
	}
}

// pageSize fires page-size-small once per run, when a bigger page size
// would make some deep index shallower, and names that page size.
func (c *checker) pageSize() {
	h, best, n := c.a.Header, c.deepest, c.deepN
	if best == nil {
		return
	}
	minDepth := int64(c.th.at(thPageSizeSmallDepth))
	reason := fmt.Sprintf("page size %d: index %s is %d deep and would be %d at %d-byte pages", *h.PageSize, best.Name, *best.Depth, *best.LowerDepth, *best.LowerDepthPageSize)
	if n > 1 {
		reason += fmt.Sprintf(" (%d indices of depth %d or more would be shallower at a bigger page size)", n, minDepth)
	}
	c.fire(&finding{rule: "page-size-small", sev: Warn, kind: db, object: db, value: float64(*h.PageSize), threshold: c.th.at(thPageSizeSmallPageSize),
		key: "depth", unit: "bytes", below: true, reason: reason,
		advice: fmt.Sprintf("gbak backup, then restore into a new file with -page_size %d", *best.LowerDepthPageSize)})
}
