package parse

// The labels of table and index block items by number, so that a line's
// items are matched once the reader has seen the order its gstat writes
// them in: the item a label was followed by last time is tried first
// (predictedItem), a byte comparison instead of a search for the colon
// and a switch on the label. Any gstat's order is learnt as it is read;
// a wrong guess costs one comparison.

// Table block items; 0 is none (an unknown label).
const (
	tbNone uint8 = iota
	tbPrimaryPointerPage
	tbIndexRootPage
	tbTotalFormats
	tbUsedFormats
	tbAverageRecordLength
	tbTotalRecords
	tbAverageVersionLength
	tbTotalVersions
	tbMaxVersions
	tbAverageFragmentLength
	tbTotalFragments
	tbMaxFragments
	tbAverageUnpackedLength
	tbCompressionRatio
	tbPointerPages
	tbDataPageSlots
	tbDataPages
	tbAverageFill
	tbPrimaryPages
	tbSecondaryPages
	tbSweptPages
	tbEmptyPages
	tbFullPages
	tbBigRecordPages
	tbBlobs
	tbTotalLength
	tbBlobPages
	tbTableSize
	tbFillDistribution
	tbTablespace
	tbLabels
)

// tableLabels are the table items' labels by number.
var tableLabels = [tbLabels]string{
	tbPrimaryPointerPage:    "Primary pointer page",
	tbIndexRootPage:         "Index root page",
	tbTotalFormats:          "Total formats",
	tbUsedFormats:           "used formats",
	tbAverageRecordLength:   "Average record length",
	tbTotalRecords:          "total records",
	tbAverageVersionLength:  "Average version length",
	tbTotalVersions:         "total versions",
	tbMaxVersions:           "max versions",
	tbAverageFragmentLength: "Average fragment length",
	tbTotalFragments:        "total fragments",
	tbMaxFragments:          "max fragments",
	tbAverageUnpackedLength: "Average unpacked length",
	tbCompressionRatio:      "compression ratio",
	tbPointerPages:          "Pointer pages",
	tbDataPageSlots:         "data page slots",
	tbDataPages:             "Data pages",
	tbAverageFill:           "average fill",
	tbPrimaryPages:          "Primary pages",
	tbSecondaryPages:        "secondary pages",
	tbSweptPages:            "swept pages",
	tbEmptyPages:            "Empty pages",
	tbFullPages:             "full pages",
	tbBigRecordPages:        "Big record pages",
	tbBlobs:                 "Blobs",
	tbTotalLength:           "total length",
	tbBlobPages:             "blob pages",
	tbTableSize:             "Table size",
	tbFillDistribution:      "Fill distribution",
	tbTablespace:            "Tablespace",
}

// Index block items; 0 is none.
const (
	ixNone uint8 = iota
	ixRootPage
	ixDepth
	ixDepthCapital
	ixLeafBuckets
	ixNodes
	ixAverageNodeLength
	ixTotalDup
	ixMaxDup
	ixAverageKeyLength
	ixCompressionRatio
	ixAveragePrefixLength
	ixAverageDataLength
	ixAverageDataLengthCapital
	ixClusteringFactor
	ixRatio
	ixFillDistribution
	ixLabels
)

// indexLabels are the index items' labels by number.
var indexLabels = [ixLabels]string{
	ixRootPage:                 "Root page",
	ixDepth:                    "depth",
	ixDepthCapital:             "Depth",
	ixLeafBuckets:              "leaf buckets",
	ixNodes:                    "nodes",
	ixAverageNodeLength:        "Average node length",
	ixTotalDup:                 "total dup",
	ixMaxDup:                   "max dup",
	ixAverageKeyLength:         "Average key length",
	ixCompressionRatio:         "compression ratio",
	ixAveragePrefixLength:      "Average prefix length",
	ixAverageDataLength:        "average data length",
	ixAverageDataLengthCapital: "Average data length",
	ixClusteringFactor:         "Clustering factor",
	ixRatio:                    "ratio",
	ixFillDistribution:         "Fill distribution",
}

// tableLabel is the number of a table item's label, tbNone if unknown.
func tableLabel(label []byte) uint8 {
	switch string(label) {
	case "Primary pointer page":
		return tbPrimaryPointerPage
	case "Index root page":
		return tbIndexRootPage
	case "Total formats":
		return tbTotalFormats
	case "used formats":
		return tbUsedFormats
	case "Average record length":
		return tbAverageRecordLength
	case "total records":
		return tbTotalRecords
	case "Average version length":
		return tbAverageVersionLength
	case "total versions":
		return tbTotalVersions
	case "max versions":
		return tbMaxVersions
	case "Average fragment length":
		return tbAverageFragmentLength
	case "total fragments":
		return tbTotalFragments
	case "max fragments":
		return tbMaxFragments
	case "Average unpacked length":
		return tbAverageUnpackedLength
	case "compression ratio":
		return tbCompressionRatio
	case "Pointer pages":
		return tbPointerPages
	case "data page slots":
		return tbDataPageSlots
	case "Data pages":
		return tbDataPages
	case "average fill":
		return tbAverageFill
	case "Primary pages":
		return tbPrimaryPages
	case "secondary pages":
		return tbSecondaryPages
	case "swept pages":
		return tbSweptPages
	case "Empty pages":
		return tbEmptyPages
	case "full pages":
		return tbFullPages
	case "Big record pages":
		return tbBigRecordPages
	case "Blobs":
		return tbBlobs
	case "total length":
		return tbTotalLength
	case "blob pages":
		return tbBlobPages
	case "Table size":
		return tbTableSize
	case "Fill distribution":
		return tbFillDistribution
	case "Tablespace":
		return tbTablespace
	}
	return tbNone
}

// indexLabel is the number of an index item's label, ixNone if unknown.
func indexLabel(label []byte) uint8 {
	switch string(label) {
	case "Root page":
		return ixRootPage
	case "depth":
		return ixDepth
	case "Depth":
		return ixDepthCapital
	case "leaf buckets":
		return ixLeafBuckets
	case "nodes":
		return ixNodes
	case "Average node length":
		return ixAverageNodeLength
	case "total dup":
		return ixTotalDup
	case "max dup":
		return ixMaxDup
	case "Average key length":
		return ixAverageKeyLength
	case "compression ratio":
		return ixCompressionRatio
	case "Average prefix length":
		return ixAveragePrefixLength
	case "average data length":
		return ixAverageDataLength
	case "Average data length":
		return ixAverageDataLengthCapital
	case "Clustering factor":
		return ixClusteringFactor
	case "ratio":
		return ixRatio
	case "Fill distribution":
		return ixFillDistribution
	}
	return ixNone
}

// predictedItem is nextItem when b starts with label and a colon, else
// ok is false.
func predictedItem(b []byte, label string) (_, value, rest []byte, ok bool) {
	n := len(label)
	if n == 0 || len(b) <= n || b[n] != ':' || string(b[:n]) != label {
		return nil, nil, nil, false
	}
	i := n + 1
	for i < len(b) && b[i] == ' ' {
		i++
	}
	v := b[i:]
	for j := 0; j+1 < len(v); j++ {
		if v[j] == ',' && v[j+1] == ' ' {
			return b[:n], v[:j], v[j+2:], true
		}
	}
	return b[:n], v, nil, true
}
