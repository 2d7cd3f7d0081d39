package parse

import (
	"bytes"
	"cmp"
	"slices"
)

// Table and index blocks: the hot path of a big gstat file. Lines are
// "Label: value, label: value" items, each matched first against the
// label that followed the one before last time (gstat_labels.go), else
// looked up among the known labels (no allocation, no regexp);
// values are parsed in place.

// startTable begins a table block.
func (r *GstatReader) startTable(schema, name string, id int64) {
	r.endBlock()
	r.flushHeader()
	tb := r.slab.table()
	tb.GstatPos, tb.Schema, tb.Name, tb.ID = r.pos(), schema, name, id
	r.table = tb
	r.lastTable = r.table
	r.used = true
	r.state = gsTable
}

// startIndex begins an index block; it belongs to the last table block.
func (r *GstatReader) startIndex(schema, name string, id int64) {
	r.endBlock()
	r.flushHeader()
	x := r.slab.index()
	x.GstatPos, x.Schema, x.Name, x.ID = r.pos(), schema, name, id
	if t := r.lastTable; t != nil {
		x.TableSchema, x.Table, x.TableID = t.Schema, t.Name, r.slab.i64(t.ID)
	}
	r.index = x
	r.used = true
	r.state = gsIndex
}

// endBlock returns the block being read, if any.
func (r *GstatReader) endBlock() {
	if r.fill != nil && r.fillSeen < 5 {
		r.notice("fill distribution of %s has %d of 5 lines", r.blockName(), r.fillSeen)
	}
	r.flushLeftOut()
	if r.table != nil {
		r.checkLevels(r.table)
		r.emit(r.table)
		r.table = nil
	}
	if r.index != nil {
		r.emit(r.index)
		r.index = nil
	}
	r.fill, r.fillSeen, r.blockData = nil, 0, false
	if r.state == gsTable || r.state == gsIndex {
		r.state = gsAnalysis
	}
}

// nextItem splits "label: value, rest". Items are separated by ", " (a
// comma and a space), so a decimal comma ("22,07") stays in its value.
func nextItem(b []byte) (label, value, rest []byte, ok bool) {
	// Labels are long enough for IndexByte; values are a few digits, for
	// which a loop beats a call.
	i := bytes.IndexByte(b, ':')
	if i <= 0 {
		return nil, nil, nil, false
	}
	label = b[:i]
	i++
	for i < len(b) && b[i] == ' ' {
		i++
	}
	v := b[i:]
	for j := 0; j+1 < len(v); j++ {
		if v[j] == ',' && v[j+1] == ' ' {
			return label, v[:j], v[j+2:], true
		}
	}
	return label, v, nil, true
}

// fillLine reads " 0 - 19% = 1" (the text after the indentation).
func (r *GstatReader) fillLine(t []byte) bool {
	i := 0
	lo := int64(0)
	for i < len(t) && isDigit(t[i]) && i < 4 {
		lo = lo*10 + int64(t[i]-'0')
		i++
	}
	if !hasPrefix(t[i:], " - ") {
		return false
	}
	i += 3
	for i < len(t) && (isDigit(t[i]) || t[i] == ' ') {
		i++
	}
	if !hasPrefix(t[i:], "% = ") {
		return false
	}
	n, ok := atoi64(t[i+4:])
	if !ok {
		return false
	}
	r.fillBucket(lo, n, t)
	return true
}

// fillBucket sets the count n of the fill bucket that starts at lo%, read
// from the fill line t.
func (r *GstatReader) fillBucket(lo, n int64, t []byte) {
	if r.fill == nil {
		r.fill = r.slab.fill()
		r.attachFill()
	}
	if lo%20 != 0 || lo > 80 {
		r.notice("unknown fill bucket %q", t)
		return
	}
	r.fill[lo/20] = n
	r.fillSeen++
}

func (r *GstatReader) attachFill() {
	if r.index != nil {
		r.index.Fill = r.fill
	} else if r.table != nil {
		r.table.Fill = r.fill
	}
}

// int/float/percent read a value and return a pointer, or note the line.
func (r *GstatReader) int(label, v []byte) *int64 {
	n, ok := atoi64(v)
	if !ok {
		r.notice("cannot read %q as an integer: %q", label, v)
		return nil
	}
	return r.slab.i64(n)
}

func (r *GstatReader) float(label, v []byte) *float64 {
	f, ok := atof(v)
	if !ok {
		r.notice("cannot read %q as a number: %q", label, v)
		return nil
	}
	return r.slab.f64(f)
}

func (r *GstatReader) percent(label, v []byte) *int {
	if n := len(v); n > 0 && v[n-1] == '%' {
		v = v[:n-1]
	}
	n, ok := atoi64(v)
	if !ok || n > 1<<31 {
		r.notice("cannot read %q as a percentage: %q", label, v)
		return nil
	}
	return r.slab.int(int(n))
}

// tableLine handles a line inside a table block; false hands it to topLine.
func (r *GstatReader) tableLine(t []byte) bool {
	if isDigit(t[0]) {
		return r.fillLine(t)
	}
	if t[len(t)-1] == ')' || hasPrefix(t, "Expected ") {
		return false // a block name or a finding
	}
	tb := r.table
	r.inLevel = false
	rest := t
	first := true
	for len(rest) > 0 {
		id, label, v, next, ok := r.tableOrder.blockItem(rest, tableItems)
		if !ok {
			if first {
				return false
			}
			r.notice("unknown text %q in table %s", rest, tb.Name)
			break
		}
		if !r.tableItem(tb, id, label, v, first) {
			if first && !hasPrefix(t, "Level ") {
				return r.unknownLine(&tb.Unknown, t, "table "+tb.Name)
			}
			r.notice("unknown item %q in table %s", label, tb.Name)
		}
		first = false
		rest = next
	}
	r.blockData = true
	return true
}

// full reports whether kept, the number of lines of a kind kept, is at
// the bound max: the current line is then counted in o.
func (r *GstatReader) full(o *leftOut, kept, max int, what string) bool {
	if kept < max {
		return false
	}
	o.add(r.lr.Line(), what)
	return true
}

// flushLeftOut queues the notices on the lines left out, at the end of
// their block or header, and the notices held since the first of them,
// in line order.
func (r *GstatReader) flushLeftOut() {
	if r.moreUnknown.n+r.moreCrypt.n == 0 {
		return // (nothing held either: notices are held only behind a count; every block ends here)
	}
	for _, o := range []*leftOut{&r.moreUnknown, &r.moreCrypt} {
		if o.n > 0 {
			r.held = append(r.held, Notice{File: r.lr.Name(), Line: max(o.first, 1),
				Msg: sprintf("%d more %s not kept, from this one", o.n, o.what)})
			o.n = 0
		}
	}
	slices.SortStableFunc(r.held, func(a, b Notice) int { return cmp.Compare(a.Line, b.Line) })
	for _, n := range r.held {
		r.queueNotice(n)
	}
	r.held = r.held[:0]
}

// maxUnknownLines bounds the unknown lines a block (or a header) keeps,
// each with a notice; the others are counted in one. A newer gstat adds
// a few labels to a block; thousands are no gstat block (100 MiB of text
// whose lines looked like table names and labels kept 674 MB and printed
// 212 MB of notices). fbdiag's own bound.
const maxUnknownLines = 20

// unknownLine keeps an unknown "label: value" line of a block, the first
// maxUnknownLines of the block.
func (r *GstatReader) unknownLine(dst *[]GstatKV, t []byte, where string) bool {
	if r.full(&r.moreUnknown, len(*dst), maxUnknownLines, "unknown lines in "+where) {
		return true
	}
	label, _, _, _ := nextItem(t)
	i := bytes.IndexByte(t, ':')
	*dst = append(*dst, GstatKV{Line: r.lr.Line(), Key: string(label), Value: string(trimLeftBlank(t[i+1:]))})
	r.notice("unknown line in %s kept as text: %q", where, t)
	return true
}

// tableItem sets one field of a table block.
func (r *GstatReader) tableItem(tb *GstatTable, id uint8, label, v []byte, first bool) bool {
	if p := r.tableInt(tb, id); p != nil {
		*p = r.int(label, v)
		return true
	}
	if p := tableFloat(tb, id); p != nil {
		*p = r.float(label, v)
		return true
	}
	switch id {
	case tbAverageFill:
		tb.AverageFill = r.percent(label, v)
	case tbTableSize:
		v = bytes.TrimSuffix(v, []byte(" bytes"))
		tb.TableSize = r.int(label, v)
	case tbFillDistribution:
		if r.fill == nil {
			r.fill = r.slab.fill()
			tb.Fill = r.fill
		}
	case tbTablespace:
		tb.Tablespace = string(v)
	default:
		if hasPrefix(label, "Level ") {
			lv, ok := atoi64(label[len("Level "):])
			if !ok || lv > 100 {
				return false
			}
			n, _ := atoi64(v)
			if tb.BlobLevels == nil {
				tb.BlobLevels = r.slab.levels()
			}
			tb.BlobLevels = append(tb.BlobLevels, GstatBlobLevel{Level: int(lv), Count: n})
			r.inLevel = true
			return true
		}
		return false
	}
	return true
}

// tableInt is the field of tb that the integer item id sets, or nil.
// (tableItem's, and fastLine's for the figures it has read.)
func (r *GstatReader) tableInt(tb *GstatTable, id uint8) **int64 {
	switch id {
	case tbPrimaryPointerPage:
		return &tb.PrimaryPointerPage
	case tbIndexRootPage:
		return &tb.IndexRootPage
	case tbTotalFormats:
		return &tb.TotalFormats
	case tbUsedFormats:
		return &tb.UsedFormats
	case tbTotalRecords:
		return &tb.TotalRecords
	case tbTotalVersions:
		return &tb.TotalVersions
	case tbMaxVersions:
		return &tb.MaxVersions
	case tbTotalFragments:
		return &tb.TotalFragments
	case tbMaxFragments:
		return &tb.MaxFragments
	case tbPointerPages:
		return &tb.PointerPages
	case tbDataPageSlots:
		return &tb.DataPageSlots
	case tbDataPages:
		return &tb.DataPages
	case tbPrimaryPages:
		return &tb.PrimaryPages
	case tbSecondaryPages:
		return &tb.SecondaryPages
	case tbSweptPages:
		return &tb.SweptPages
	case tbEmptyPages:
		return &tb.EmptyPages
	case tbFullPages:
		return &tb.FullPages
	case tbBigRecordPages:
		return &tb.BigRecordPages
	case tbBlobs:
		return &tb.Blobs
	case tbTotalLength:
		if r.inLevel {
			return &tb.BlobLevels[len(tb.BlobLevels)-1].TotalLength
		}
		return &tb.BlobTotalLength
	case tbBlobPages:
		if r.inLevel {
			return &tb.BlobLevels[len(tb.BlobLevels)-1].BlobPages
		}
		return &tb.BlobPages
	}
	return nil
}

// tableFloat is the field of tb that the decimal item id sets, or nil.
func tableFloat(tb *GstatTable, id uint8) **float64 {
	switch id {
	case tbAverageRecordLength:
		return &tb.AverageRecordLength
	case tbAverageVersionLength:
		return &tb.AverageVersionLength
	case tbAverageFragmentLength:
		return &tb.AverageFragmentLength
	case tbAverageUnpackedLength:
		return &tb.AverageUnpackedLength
	case tbCompressionRatio:
		return &tb.CompressionRatio
	}
	return nil
}

// checkLevels compares the 5.0.2+ per-level blob lines with the Blobs line
// and fills the totals from the levels when the Blobs line is missing.
func (r *GstatReader) checkLevels(tb *GstatTable) {
	if len(tb.BlobLevels) == 0 || tb.BlobLevels[0].TotalLength == nil {
		return
	}
	var cnt, length, pages int64
	for _, l := range tb.BlobLevels {
		cnt += l.Count
		if l.TotalLength != nil {
			length += *l.TotalLength
		}
		if l.BlobPages != nil {
			pages += *l.BlobPages
		}
	}
	sum := func(dst **int64, v int64, what string) {
		if *dst == nil {
			*dst = r.slab.i64(v)
		} else if **dst != v {
			r.noticeAt(tb.Line, "table %s: the blob levels sum to %s %d, the Blobs line says %d", tb.Name, what, v, **dst)
		}
	}
	sum(&tb.Blobs, cnt, "count")
	sum(&tb.BlobTotalLength, length, "total length")
	sum(&tb.BlobPages, pages, "blob pages")
}

// indexLine handles a line inside an index block.
func (r *GstatReader) indexLine(t []byte) bool {
	if isDigit(t[0]) {
		return r.fillLine(t)
	}
	if t[len(t)-1] == ')' || hasPrefix(t, "Expected ") {
		return false
	}
	x := r.index
	rest := t
	first := true
	for len(rest) > 0 {
		id, label, v, next, ok := r.indexOrder.blockItem(rest, indexItems)
		if !ok {
			if first {
				return false
			}
			r.notice("unknown text %q in index %s", rest, x.Name)
			break
		}
		if !r.indexItem(x, id, label, v) {
			if first {
				return r.unknownLine(&x.Unknown, t, "index "+x.Name)
			}
			r.notice("unknown item %q in index %s", label, x.Name)
		}
		first = false
		rest = next
	}
	r.blockData = true
	return true
}

// indexItem sets one field of an index block (2.x and 3.0+ labels).
func (r *GstatReader) indexItem(x *GstatIndex, id uint8, label, v []byte) bool {
	if p := indexInt(x, id); p != nil {
		*p = r.int(label, v)
		return true
	}
	if p := indexFloat(x, id); p != nil {
		*p = r.float(label, v)
		return true
	}
	if id != ixFillDistribution {
		return false
	}
	if r.fill == nil {
		r.fill = r.slab.fill()
		x.Fill = r.fill
	}
	return true
}

// indexInt is the field of x that the integer item id sets, or nil.
func indexInt(x *GstatIndex, id uint8) **int64 {
	switch id {
	case ixRootPage:
		return &x.RootPage
	case ixDepth, ixDepthCapital:
		return &x.Depth
	case ixLeafBuckets:
		return &x.LeafBuckets
	case ixNodes:
		return &x.Nodes
	case ixTotalDup:
		return &x.TotalDup
	case ixMaxDup:
		return &x.MaxDup
	case ixClusteringFactor:
		return &x.ClusteringFactor
	}
	return nil
}

// indexFloat is the field of x that the decimal item id sets, or nil.
func indexFloat(x *GstatIndex, id uint8) **float64 {
	switch id {
	case ixAverageNodeLength:
		return &x.AverageNodeLength
	case ixAverageKeyLength:
		return &x.AverageKeyLength
	case ixCompressionRatio:
		return &x.CompressionRatio
	case ixAveragePrefixLength:
		return &x.AveragePrefixLength
	case ixAverageDataLength, ixAverageDataLengthCapital:
		return &x.AverageDataLength
	case ixRatio:
		return &x.ClusteringRatio
	}
	return nil
}
