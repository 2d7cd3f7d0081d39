package parse

import "encoding/binary"

// The labels of table and index block items by number, so that a line's
// items are matched once the reader has seen the order its gstat writes
// them in: the item a label was followed by last time is tried first
// (predictedItem), a byte comparison instead of a search for the colon
// and a look-up of the label. Any gstat's order is learnt as it is read;
// a wrong guess costs a comparison and a look-up.

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

// itemLabels are the labels of one kind of block by number, and their
// numbers by label, looked up when a label is not the one that followed
// last time.
type itemLabels struct {
	labels  []string
	numbers map[string]uint8
	words   *[itemIDs]labelWords // by number, for fastLine
	bare    *[itemIDs]labelWords // the same without a blank, for a label looked up
	figures [itemIDs]figureField
}

var tableItems, indexItems = labelsOf(tableLabels[:], true), labelsOf(indexLabels[:], false)

func labelsOf(labels []string, table bool) *itemLabels {
	m := make(map[string]uint8, len(labels))
	for i, l := range labels[1:] {
		m[l] = uint8(i + 1)
	}
	w, bare := new([itemIDs]labelWords), new([itemIDs]labelWords)
	for i, l := range labels {
		w[i] = wordsOf(l)
		bare[i] = labelWords{size: len(l) + 1}
	}
	return &itemLabels{labels: labels, numbers: m, words: w, bare: bare, figures: figureFields(table)}
}

// labelWords is a label and the colon (and blank: wordsOf) after it as
// the three little-endian words of a 24-byte window and their masks, so
// that fastLine compares a line's next label with the one it expects in
// three loads at fixed places rather than a call to memequal (the bytes
// past the label masked off).
type labelWords struct {
	w, m  [3]uint64
	size  int  // the label's bytes, its colon and, if blank, a blank
	blank bool // the words hold the blank after the colon
}

// labelWindow is the bytes labelWords' loads read.
const labelWindow = 24

// wordsOf makes the words of label (24 bytes at most with its colon),
// and of the blank gstat writes after the colon when that fits too and
// the label is not one that ends its line (Fill distribution): stepped
// over with the label, that blank costs no test of its own.
func wordsOf(label string) labelWords {
	s := label + ":"
	if len(s) > labelWindow {
		panic("label too long for labelWords: " + label)
	}
	blank := len(s) < labelWindow && label != "Fill distribution"
	if blank {
		s += " "
	}
	var p, m [labelWindow]byte
	copy(p[:], s)
	for k := range s {
		m[k] = 0xff
	}
	w := labelWords{size: len(s), blank: blank}
	for k := range w.w {
		w.m[k] = binary.LittleEndian.Uint64(m[8*k:])
		w.w[k] = binary.LittleEndian.Uint64(p[8*k:]) & w.m[k]
	}
	return w
}

// at reports whether b[j:] starts with the label and its colon (and
// blank, if w.blank); false also when b has fewer than labelWindow bytes
// after j (fastLine then looks the label up).
func (w *labelWords) at(b []byte, j int) bool {
	c := b[j:]
	if len(c) < labelWindow {
		return false
	}
	return (binary.LittleEndian.Uint64(c)^w.w[0])&w.m[0]|(binary.LittleEndian.Uint64(c[8:])^w.w[1])&w.m[1]|
		(binary.LittleEndian.Uint64(c[16:])^w.w[2])&w.m[2] == 0
}

// itemOrder is the order a reader has seen one kind of block's items in:
// follow[a] is the item that followed item a last, prev the last item
// read.
type itemOrder struct {
	follow [itemIDs]uint8 // (itemIDs: a mask spares fastLines a bounds check)
	prev   uint8
}

// learn records item id as following the last one, and as the last.
func (o *itemOrder) learn(id uint8) { o.follow[o.prev], o.prev = id, id }

// blockItem is nextItem with the number of its label in s (0 if unknown):
// the label that followed the last item last time is tried first. It
// learns the item.
func (o *itemOrder) blockItem(rest []byte, s *itemLabels) (id uint8, label, value, next []byte, ok bool) {
	id = o.follow[o.prev]
	if label, value, next, ok = predictedItem(rest, s.labels[id]); !ok {
		if label, value, next, ok = nextItem(rest); !ok {
			return 0, nil, nil, nil, false
		}
		if hasPrefix(label, "Level ") {
			// A blob level's: no known label, so not looked up, nor
			// learnt, so that the label after the line ("Fill
			// distribution") is still predicted from the one before.
			return 0, label, value, next, true
		}
		id = s.numbers[string(label)]
	}
	o.learn(id)
	return id, label, value, next, true
}

// blockItems are the order and labels of the items of the block being
// read: a table's when table, else an index's.
func (r *GstatReader) blockItems(table bool) (*itemOrder, *itemLabels) {
	if table {
		return &r.tableOrder, tableItems
	}
	return &r.indexOrder, indexItems
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
