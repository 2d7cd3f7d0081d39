package report

import (
	"slices"
	"unsafe"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/numfmt"
)

// tableIndent is the depth of a table in the tables array.
const tableIndent = "    "

// tableField and indexField start a line of a table's field and of an
// index's.
const (
	tableField = "\n" + tableIndent + "  "
	indexField = "\n" + tableIndent + "      "
)

// tableKeys and indexKeys are the keys appendTableStats and
// appendIndexStats write, each after the comma and the line break that
// end the field before it, and the lines of a list of numbers (intsLine
// before each number, intsEnd after the last).
var tableKeys = struct {
	name, id, records, versions, maxVersions, averageRecordLength       fieldKey
	averageVersionLength, averageUnpackedLength, versionsPerRecord      fieldKey
	fragments, maxFragments, fragmentsPerRecord, dataPages, averageFill fieldKey
	primaryPages, secondaryPages, sweptPages, bigRecordPages, sizeBytes fieldKey
	sizeSource, totalFormats, usedFormats, blobs, blobLevels            fieldKey
	blobLevelBytes, indexBytes, indices                                 fieldKey
	intsLine, intsEnd                                                   fieldKey
}{
	name:                  newFieldKey(tableField + `"name": `),
	id:                    newFieldKey("," + tableField + `"id": `),
	records:               newFieldKey("," + tableField + `"records": `),
	versions:              newFieldKey("," + tableField + `"versions": `),
	maxVersions:           newFieldKey("," + tableField + `"max_versions": `),
	averageRecordLength:   newFieldKey("," + tableField + `"average_record_length": `),
	averageVersionLength:  newFieldKey("," + tableField + `"average_version_length": `),
	averageUnpackedLength: newFieldKey("," + tableField + `"average_unpacked_length": `),
	versionsPerRecord:     newFieldKey("," + tableField + `"versions_per_record": `),
	fragments:             newFieldKey("," + tableField + `"fragments": `),
	maxFragments:          newFieldKey("," + tableField + `"max_fragments": `),
	fragmentsPerRecord:    newFieldKey("," + tableField + `"fragments_per_record": `),
	dataPages:             newFieldKey("," + tableField + `"data_pages": `),
	averageFill:           newFieldKey("," + tableField + `"average_fill": `),
	primaryPages:          newFieldKey("," + tableField + `"primary_pages": `),
	secondaryPages:        newFieldKey("," + tableField + `"secondary_pages": `),
	sweptPages:            newFieldKey("," + tableField + `"swept_pages": `),
	bigRecordPages:        newFieldKey("," + tableField + `"big_record_pages": `),
	sizeBytes:             newFieldKey("," + tableField + `"size_bytes": `),
	sizeSource:            newFieldKey("," + tableField + `"size_source": `),
	totalFormats:          newFieldKey("," + tableField + `"total_formats": `),
	usedFormats:           newFieldKey("," + tableField + `"used_formats": `),
	blobs:                 newFieldKey("," + tableField + `"blobs": `),
	blobLevels:            newFieldKey("," + tableField + `"blob_levels": `),
	blobLevelBytes:        newFieldKey("," + tableField + `"blob_level_bytes": `),
	indexBytes:            newFieldKey("," + tableField + `"index_bytes": `),
	indices:               newFieldKey("," + tableField + `"indices": `),
	intsLine:              newFieldKey(tableField + "  "),
	intsEnd:               newFieldKey(tableField + "]"),
}

var indexKeys = struct {
	name, id, table, kind, kindSource, constraint, depth, leafBuckets, nodes fieldKey
	totalDup, maxDup, sizeBytes, uniqueKeys, selectivity, dupRatio           fieldKey
	maxDupShare, clusteringFactor, clusteringRatio, fillDistribution         fieldKey
	lightShare, neededDepth, rebuiltDepth, fanOut, lowerDepthPageSize        fieldKey
	lowerDepth                                                               fieldKey
	intsLine, intsEnd                                                        fieldKey
}{
	name:               newFieldKey(indexField + `"name": `),
	id:                 newFieldKey("," + indexField + `"id": `),
	table:              newFieldKey("," + indexField + `"table": `),
	kind:               newFieldKey("," + indexField + `"kind": `),
	kindSource:         newFieldKey("," + indexField + `"kind_source": `),
	constraint:         newFieldKey("," + indexField + `"constraint": `),
	depth:              newFieldKey("," + indexField + `"depth": `),
	leafBuckets:        newFieldKey("," + indexField + `"leaf_buckets": `),
	nodes:              newFieldKey("," + indexField + `"nodes": `),
	totalDup:           newFieldKey("," + indexField + `"total_dup": `),
	maxDup:             newFieldKey("," + indexField + `"max_dup": `),
	sizeBytes:          newFieldKey("," + indexField + `"size_bytes": `),
	uniqueKeys:         newFieldKey("," + indexField + `"unique_keys": `),
	selectivity:        newFieldKey("," + indexField + `"selectivity": `),
	dupRatio:           newFieldKey("," + indexField + `"dup_ratio": `),
	maxDupShare:        newFieldKey("," + indexField + `"max_dup_share": `),
	clusteringFactor:   newFieldKey("," + indexField + `"clustering_factor": `),
	clusteringRatio:    newFieldKey("," + indexField + `"clustering_ratio": `),
	fillDistribution:   newFieldKey("," + indexField + `"fill_distribution": `),
	lightShare:         newFieldKey("," + indexField + `"light_share": `),
	neededDepth:        newFieldKey("," + indexField + `"needed_depth": `),
	rebuiltDepth:       newFieldKey("," + indexField + `"rebuilt_depth": `),
	fanOut:             newFieldKey("," + indexField + `"fan_out": `),
	lowerDepthPageSize: newFieldKey("," + indexField + `"lower_depth_page_size": `),
	lowerDepth:         newFieldKey("," + indexField + `"lower_depth": `),
	intsLine:           newFieldKey(indexField + "  "),
	intsEnd:            newFieldKey(indexField + "]"),
}

// appendTableStats appends t as encoding/json with SetIndent(tableIndent,
// "  ") and SetEscapeHTML(false) writes it (without the newline), without
// reflection and without a second, indenting pass: a big run has a
// hundred thousand tables. ok is false on a NaN or an infinity, which
// encoding/json refuses; the caller then lets it say so. With guard, the
// strings are also escaped as printable.Writer escapes them (C1 and bidi
// controls as \uXXXX, valid JSON for the same characters): the bytes are
// those a printable.Writer would pass on. TestAppendTableStats holds it
// to encoding/json's bytes, field by field. Its keys are copied in blocks
// of fieldKeySize (appendKey), which may write up to that many bytes past
// what it appends, within b's capacity: b's spare room must be the
// caller's own (both callers pass a buffer of theirs cut to [:0]).
func appendTableStats(b []byte, t *analyze.TableStats, guard bool) (_ []byte, ok bool) {
	const in = tableField
	ok = true
	b = append(b, '{')
	if t.Schema != "" {
		b = append(b, in+`"schema": `...)
		b = appendString(b, t.Schema, guard)
		b = append(b, ',')
	}
	b = appendKey(b, &tableKeys.name)
	b = appendString(b, t.Name, guard)
	b = appendKey(b, &tableKeys.id)
	b = numfmt.AppendInt(b, t.ID)
	b = appendKey(b, &tableKeys.records)
	b = appendIntP(b, t.Records)
	b = appendKey(b, &tableKeys.versions)
	b = appendIntP(b, t.Versions)
	b = appendKey(b, &tableKeys.maxVersions)
	b = appendIntP(b, t.MaxVersions)
	b = appendKey(b, &tableKeys.averageRecordLength)
	b, ok = appendFloatP(b, t.AvgRecord, ok)
	b = appendKey(b, &tableKeys.averageVersionLength)
	b, ok = appendFloatP(b, t.AvgVersion, ok)
	b = appendKey(b, &tableKeys.averageUnpackedLength)
	b, ok = appendFloatP(b, t.AvgUnpacked, ok)
	b = appendKey(b, &tableKeys.versionsPerRecord)
	b, ok = appendFloatP(b, t.VersionsPerRecord, ok)
	b = appendKey(b, &tableKeys.fragments)
	b = appendIntP(b, t.Fragments)
	b = appendKey(b, &tableKeys.maxFragments)
	b = appendIntP(b, t.MaxFragments)
	b = appendKey(b, &tableKeys.fragmentsPerRecord)
	b, ok = appendFloatP(b, t.FragmentsPerRecord, ok)
	b = appendKey(b, &tableKeys.dataPages)
	b = appendIntP(b, t.DataPages)
	b = appendKey(b, &tableKeys.averageFill)
	if t.AverageFill == nil {
		b = append(b, "null"...)
	} else {
		b = numfmt.AppendInt(b, int64(*t.AverageFill))
	}
	b = appendKey(b, &tableKeys.primaryPages)
	b = appendIntP(b, t.PrimaryPages)
	b = appendKey(b, &tableKeys.secondaryPages)
	b = appendIntP(b, t.SecondaryPages)
	b = appendKey(b, &tableKeys.sweptPages)
	b = appendIntP(b, t.SweptPages)
	b = appendKey(b, &tableKeys.bigRecordPages)
	b = appendIntP(b, t.BigRecordPages)
	b = appendKey(b, &tableKeys.sizeBytes)
	b = appendIntP(b, t.SizeBytes)
	b = appendKey(b, &tableKeys.sizeSource)
	if t.SizeSource == nil {
		b = append(b, "null"...)
	} else {
		b = appendWord(b, *t.SizeSource, guard)
	}
	b = appendKey(b, &tableKeys.totalFormats)
	b = appendIntP(b, t.TotalFormats)
	b = appendKey(b, &tableKeys.usedFormats)
	b = appendIntP(b, t.UsedFormats)
	b = appendKey(b, &tableKeys.blobs)
	b = appendIntP(b, t.Blobs)
	b = appendKey(b, &tableKeys.blobLevels)
	b = appendInts(b, t.BlobLevels, &tableKeys.intsLine, &tableKeys.intsEnd)
	b = appendKey(b, &tableKeys.blobLevelBytes)
	b = appendInts(b, t.BlobLevelBytes, &tableKeys.intsLine, &tableKeys.intsEnd)
	b = appendKey(b, &tableKeys.indexBytes)
	b = appendIntP(b, t.IndexBytes)
	b = appendKey(b, &tableKeys.indices)
	switch {
	case t.Indices == nil:
		b = append(b, "null"...)
	case len(t.Indices) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i := range t.Indices {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, in+"  "...)
			b, ok = appendIndexStats(b, &t.Indices[i], ok, guard)
		}
		b = append(b, in+"]"...)
	}
	return append(b, "\n"+tableIndent+"}"...), ok
}

// appendIndexStats appends an index of a table's indices array (at the
// depth of tableIndent + 4) as appendTableStats does the table.
func appendIndexStats(b []byte, x *analyze.IndexStats, ok, guard bool) ([]byte, bool) {
	const at = tableIndent + "    "
	const in = indexField
	b = append(b, '{')
	if x.Schema != "" {
		b = append(b, in+`"schema": `...)
		b = appendString(b, x.Schema, guard)
		b = append(b, ',')
	}
	b = appendKey(b, &indexKeys.name)
	b = appendString(b, x.Name, guard)
	b = appendKey(b, &indexKeys.id)
	b = numfmt.AppendInt(b, x.ID)
	b = appendKey(b, &indexKeys.table)
	b = appendString(b, x.Table, guard)
	b = appendKey(b, &indexKeys.kind)
	b = appendWord(b, x.Kind, guard)
	b = appendKey(b, &indexKeys.kindSource)
	b = appendWord(b, x.KindSource, guard)
	b = appendKey(b, &indexKeys.constraint)
	b = appendStringP(b, x.Constraint, guard)
	b = appendKey(b, &indexKeys.depth)
	b = appendIntP(b, x.Depth)
	b = appendKey(b, &indexKeys.leafBuckets)
	b = appendIntP(b, x.LeafBuckets)
	b = appendKey(b, &indexKeys.nodes)
	b = appendIntP(b, x.Nodes)
	b = appendKey(b, &indexKeys.totalDup)
	b = appendIntP(b, x.TotalDup)
	b = appendKey(b, &indexKeys.maxDup)
	b = appendIntP(b, x.MaxDup)
	b = appendKey(b, &indexKeys.sizeBytes)
	b = appendIntP(b, x.SizeBytes)
	b = appendKey(b, &indexKeys.uniqueKeys)
	b = appendIntP(b, x.UniqueKeys)
	b = appendKey(b, &indexKeys.selectivity)
	b, ok = appendFloatP(b, x.Selectivity, ok)
	b = appendKey(b, &indexKeys.dupRatio)
	b, ok = appendFloatP(b, x.DupRatio, ok)
	b = appendKey(b, &indexKeys.maxDupShare)
	b, ok = appendFloatP(b, x.MaxDupShare, ok)
	b = appendKey(b, &indexKeys.clusteringFactor)
	b = appendIntP(b, x.ClusteringFactor)
	b = appendKey(b, &indexKeys.clusteringRatio)
	b, ok = appendFloatP(b, x.ClusteringRatio, ok)
	b = appendKey(b, &indexKeys.fillDistribution)
	if x.Fill == nil {
		b = append(b, "null"...)
	} else {
		b = appendInts(b, x.Fill[:], &indexKeys.intsLine, &indexKeys.intsEnd) // (five numbers, never null)
	}
	b = appendKey(b, &indexKeys.lightShare)
	b, ok = appendFloatP(b, x.LightShare, ok)
	b = appendKey(b, &indexKeys.neededDepth)
	b = appendIntP(b, x.NeededDepth)
	b = appendKey(b, &indexKeys.rebuiltDepth)
	b = appendIntP(b, x.RebuiltDepth)
	b = appendKey(b, &indexKeys.fanOut)
	b, ok = appendFloatP(b, x.FanOut, ok)
	b = appendKey(b, &indexKeys.lowerDepthPageSize)
	b = appendIntP(b, x.LowerDepthPageSize)
	b = appendKey(b, &indexKeys.lowerDepth)
	b = appendIntP(b, x.LowerDepth)
	return append(b, "\n"+at+"}"...), ok
}

// appendWord is appendString for a field whose text is mostly one of
// analyze's few words (an index's kind and where it was learnt, a table
// size's source): those are appended as their JSON, without the scan for
// bytes to escape.
func appendWord(b []byte, s string, guard bool) []byte {
	switch s {
	case analyze.IndexPrimaryKey:
		return append(b, `"`+analyze.IndexPrimaryKey+`"`...)
	case analyze.IndexForeignKey:
		return append(b, `"`+analyze.IndexForeignKey+`"`...)
	case analyze.IndexUnique:
		return append(b, `"`+analyze.IndexUnique+`"`...)
	case analyze.IndexPlain:
		return append(b, `"`+analyze.IndexPlain+`"`...)
	case analyze.IndexSystem:
		return append(b, `"`+analyze.IndexSystem+`"`...)
	case analyze.IndexUnknown:
		return append(b, `"`+analyze.IndexUnknown+`"`...)
	case analyze.KindFromName:
		return append(b, `"`+analyze.KindFromName+`"`...)
	case analyze.KindFromTable:
		return append(b, `"`+analyze.KindFromTable+`"`...)
	case analyze.KindFromCatalogue:
		return append(b, `"`+analyze.KindFromCatalogue+`"`...)
	case "data_pages", "table_size":
		return append(append(append(b, '"'), s...), '"')
	}
	return appendString(b, s, guard)
}

// appendInts appends an array of numbers: null when nil, [] when empty,
// else one number a line, each after line and the last before end.
func appendInts(b []byte, vs []int64, line, end *fieldKey) []byte {
	switch {
	case vs == nil:
		return append(b, "null"...)
	case len(vs) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, line)
		b = numfmt.AppendInt(b, v)
	}
	return appendKey(b, end)
}

// fieldKey is the text between two values of a table (a comma, a line
// break, the indentation, the key), padded to a fixed size: append's copy
// of a string that long called memmove, some 30 instructions a key (half
// a million keys in the JSON of an 8 MiB gstat file); a fixed-size array
// is copied in a few moves.
type fieldKey struct {
	text [fieldKeySize]byte
	n    int
}

const fieldKeySize = 48

func newFieldKey(s string) fieldKey {
	var k fieldKey
	if len(s) > len(k.text) {
		panic("report: field key longer than fieldKeySize: " + s)
	}
	k.n = copy(k.text[:], s)
	return k
}

// appendKey appends k: all of its padded text to b's spare capacity, b's
// length then over k's own (the padding is left past b's end).
func appendKey(b []byte, k *fieldKey) []byte {
	at := len(b)
	if cap(b)-at < fieldKeySize {
		b = slices.Grow(b, fieldKeySize)
	}
	// (cap(b) >= at+fieldKeySize now: copied without a bounds check)
	*(*[fieldKeySize]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)) = k.text
	return b[:at+k.n]
}

func appendStringP(b []byte, s *string, guard bool) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s, guard)
}
