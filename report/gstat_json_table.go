package report

import (
	"github.com/fbdiag/fbdiag/analyze"
)

// tableIndent is the depth of a table in the tables array.
const tableIndent = "    "

// appendTableStats appends t as encoding/json with SetIndent(tableIndent,
// "  ") and SetEscapeHTML(false) writes it (without the newline), without
// reflection and without a second, indenting pass: a big run has a
// hundred thousand tables. ok is false on a NaN or an infinity, which
// encoding/json refuses; the caller then lets it say so. With guard, the
// strings are also escaped as printable.Writer escapes them (C1 and bidi
// controls as \uXXXX, valid JSON for the same characters): the bytes are
// those a printable.Writer would pass on. TestAppendTableStats holds it
// to encoding/json's bytes, field by field.
func appendTableStats(b []byte, t *analyze.TableStats, guard bool) (_ []byte, ok bool) {
	const in = "\n" + tableIndent + "  "
	ok = true
	b = append(b, '{')
	if t.Schema != "" {
		b = append(b, in+`"schema": `...)
		b = appendString(b, t.Schema, guard)
		b = append(b, ',')
	}
	b = append(b, in+`"name": `...)
	b = appendString(b, t.Name, guard)
	b = append(b, ","+in+`"id": `...)
	b = appendInt(b, t.ID)
	b = append(b, ","+in+`"records": `...)
	b = appendIntP(b, t.Records)
	b = append(b, ","+in+`"versions": `...)
	b = appendIntP(b, t.Versions)
	b = append(b, ","+in+`"max_versions": `...)
	b = appendIntP(b, t.MaxVersions)
	b = append(b, ","+in+`"average_record_length": `...)
	b, ok = appendFloatP(b, t.AvgRecord, ok)
	b = append(b, ","+in+`"average_version_length": `...)
	b, ok = appendFloatP(b, t.AvgVersion, ok)
	b = append(b, ","+in+`"average_unpacked_length": `...)
	b, ok = appendFloatP(b, t.AvgUnpacked, ok)
	b = append(b, ","+in+`"versions_per_record": `...)
	b, ok = appendFloatP(b, t.VersionsPerRecord, ok)
	b = append(b, ","+in+`"fragments": `...)
	b = appendIntP(b, t.Fragments)
	b = append(b, ","+in+`"max_fragments": `...)
	b = appendIntP(b, t.MaxFragments)
	b = append(b, ","+in+`"fragments_per_record": `...)
	b, ok = appendFloatP(b, t.FragmentsPerRecord, ok)
	b = append(b, ","+in+`"data_pages": `...)
	b = appendIntP(b, t.DataPages)
	b = append(b, ","+in+`"average_fill": `...)
	if t.AverageFill == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, int64(*t.AverageFill))
	}
	b = append(b, ","+in+`"primary_pages": `...)
	b = appendIntP(b, t.PrimaryPages)
	b = append(b, ","+in+`"secondary_pages": `...)
	b = appendIntP(b, t.SecondaryPages)
	b = append(b, ","+in+`"swept_pages": `...)
	b = appendIntP(b, t.SweptPages)
	b = append(b, ","+in+`"big_record_pages": `...)
	b = appendIntP(b, t.BigRecordPages)
	b = append(b, ","+in+`"size_bytes": `...)
	b = appendIntP(b, t.SizeBytes)
	b = append(b, ","+in+`"size_source": `...)
	b = appendStringP(b, t.SizeSource, guard)
	b = append(b, ","+in+`"total_formats": `...)
	b = appendIntP(b, t.TotalFormats)
	b = append(b, ","+in+`"used_formats": `...)
	b = appendIntP(b, t.UsedFormats)
	b = append(b, ","+in+`"blobs": `...)
	b = appendIntP(b, t.Blobs)
	b = append(b, ","+in+`"blob_levels": `...)
	b = appendInts(b, t.BlobLevels, tableIndent+"  ")
	b = append(b, ","+in+`"blob_level_bytes": `...)
	b = appendInts(b, t.BlobLevelBytes, tableIndent+"  ")
	b = append(b, ","+in+`"index_bytes": `...)
	b = appendIntP(b, t.IndexBytes)
	b = append(b, ","+in+`"indices": `...)
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
	const in = "\n" + at + "  "
	b = append(b, '{')
	if x.Schema != "" {
		b = append(b, in+`"schema": `...)
		b = appendString(b, x.Schema, guard)
		b = append(b, ',')
	}
	b = append(b, in+`"name": `...)
	b = appendString(b, x.Name, guard)
	b = append(b, ","+in+`"id": `...)
	b = appendInt(b, x.ID)
	b = append(b, ","+in+`"table": `...)
	b = appendString(b, x.Table, guard)
	b = append(b, ","+in+`"kind": `...)
	b = appendString(b, x.Kind, guard)
	b = append(b, ","+in+`"kind_source": `...)
	b = appendString(b, x.KindSource, guard)
	b = append(b, ","+in+`"constraint": `...)
	b = appendStringP(b, x.Constraint, guard)
	b = append(b, ","+in+`"depth": `...)
	b = appendIntP(b, x.Depth)
	b = append(b, ","+in+`"leaf_buckets": `...)
	b = appendIntP(b, x.LeafBuckets)
	b = append(b, ","+in+`"nodes": `...)
	b = appendIntP(b, x.Nodes)
	b = append(b, ","+in+`"total_dup": `...)
	b = appendIntP(b, x.TotalDup)
	b = append(b, ","+in+`"max_dup": `...)
	b = appendIntP(b, x.MaxDup)
	b = append(b, ","+in+`"size_bytes": `...)
	b = appendIntP(b, x.SizeBytes)
	b = append(b, ","+in+`"unique_keys": `...)
	b = appendIntP(b, x.UniqueKeys)
	b = append(b, ","+in+`"selectivity": `...)
	b, ok = appendFloatP(b, x.Selectivity, ok)
	b = append(b, ","+in+`"dup_ratio": `...)
	b, ok = appendFloatP(b, x.DupRatio, ok)
	b = append(b, ","+in+`"max_dup_share": `...)
	b, ok = appendFloatP(b, x.MaxDupShare, ok)
	b = append(b, ","+in+`"clustering_factor": `...)
	b = appendIntP(b, x.ClusteringFactor)
	b = append(b, ","+in+`"clustering_ratio": `...)
	b, ok = appendFloatP(b, x.ClusteringRatio, ok)
	b = append(b, ","+in+`"fill_distribution": `...)
	if x.Fill == nil {
		b = append(b, "null"...)
	} else {
		b = appendInts(b, x.Fill[:], at+"  ") // (five numbers, never null)
	}
	b = append(b, ","+in+`"light_share": `...)
	b, ok = appendFloatP(b, x.LightShare, ok)
	b = append(b, ","+in+`"needed_depth": `...)
	b = appendIntP(b, x.NeededDepth)
	b = append(b, ","+in+`"rebuilt_depth": `...)
	b = appendIntP(b, x.RebuiltDepth)
	b = append(b, ","+in+`"fan_out": `...)
	b, ok = appendFloatP(b, x.FanOut, ok)
	b = append(b, ","+in+`"lower_depth_page_size": `...)
	b = appendIntP(b, x.LowerDepthPageSize)
	b = append(b, ","+in+`"lower_depth": `...)
	b = appendIntP(b, x.LowerDepth)
	return append(b, "\n"+at+"}"...), ok
}

// appendInts appends an array of numbers whose key is at the depth of
// indent: null when nil, [] when empty, else one number a line.
func appendInts(b []byte, vs []int64, indent string) []byte {
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
		b = append(b, '\n')
		b = append(b, indent...)
		b = append(b, "  "...)
		b = appendInt(b, v)
	}
	b = append(b, '\n')
	b = append(b, indent...)
	return append(b, ']')
}

func appendStringP(b []byte, s *string, guard bool) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s, guard)
}
