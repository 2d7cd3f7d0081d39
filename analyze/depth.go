package analyze

import (
	"fmt"
	"math"

	"github.com/fbdiag/fbdiag/parse"
)

// The depth an index needs. A B-tree with L leaf pages under pages that
// each point to F children needs 1 + ⌈log_F L⌉ levels. F, the fan-out of
// the upper levels, is estimated from the page size and the node length
// gstat prints; the upper levels hold the first key of each child page
// with a page number added and, their neighbours being far apart, little
// prefix compression. An index deeper than it needs has sparse upper
// levels (or keys longer than the estimate): a rebuild packs it. An index
// exactly as deep as its size needs is sound; only a bigger page size
// would lower it, and which one is computed, not assumed.
const (
	// btreePageHeader is the part of an index page that holds no nodes
	// (page header, sibling pointers, level, jump information): about 40
	// bytes in ODS 11–13 (src/jrd/ods.h, struct btree_page).
	btreePageHeader = 40
	// pageNumberBytes is what an upper-level node adds to a leaf node: the
	// number of its child page.
	pageNumberBytes = 4
	// nodeOverheadODS11 is a 2.x node's bytes beside its key data (flags,
	// prefix, length, record number): Ann Harrison's "average key length
	// ≈ average data length + 6" (ibase.ru/calcindex). 2.x prints no node
	// length, 3.0+ does.
	nodeOverheadODS11 = 6
)

// depthEstimate is what the node lengths say about an index's depth.
type depthEstimate struct {
	// needed is the depth LeafBuckets leaf pages need at the current page
	// size; rebuilt the depth after a rebuild (packed leaf pages).
	needed, rebuilt int64
	fanOut          float64
	// lowerAt is the smallest bigger page size at which a rebuilt index
	// is shallower than it would be now (rebuilt at the current size),
	// lowerDepth its depth there; 0 when no page size up to the ODS
	// maximum lowers it.
	lowerAt, lowerDepth int64
	// basis says how the fan-out was estimated.
	basis depthBasis
}

// maxPageSize is the largest page size of an ODS: 16384 up to Firebird
// 3.0 (src/jrd/ods.h MAX_PAGE_SIZE; a 3.0.11 server asked for 32768
// creates 16384), 32768 from Firebird 4.0 (ODS 13).
func maxPageSize(odsMajor *int) int64 {
	if odsMajor != nil && *odsMajor >= 13 {
		return 32768
	}
	return 16384
}

// levelsFor is 1 + ⌈log_F leaves⌉, counted without logarithms so that a
// full power of F is not one level off.
func levelsFor(leaves, fanOut float64) int64 {
	depth, reach := int64(1), 1.0
	for reach < leaves && depth < 64 {
		reach *= fanOut
		depth++
	}
	return depth
}

// depthBasis holds how the fan-out was estimated; its text is made only
// for the index a rule reports, not for every index of a big run.
type depthBasis struct {
	upperNode, node, prefix, dataLength, perLeaf float64
	fromNode, noPageSize                         bool
}

func (b depthBasis) String() string {
	var s string
	if b.fromNode {
		s = fmt.Sprintf("upper nodes of %.0f bytes (node %.2f + prefix %.2f + page number)", b.upperNode, b.node, b.prefix)
	} else {
		s = fmt.Sprintf("upper nodes of %.0f bytes (data length %.2f + 10)", b.upperNode, b.dataLength)
	}
	if b.noPageSize {
		s += fmt.Sprintf("; page size not in the input: %.0f keys per leaf page", b.perLeaf)
	}
	return s
}

// estimateDepthTo writes the depth estimate of ix to e, but its basis to
// basis (fillIndexStats's IndexStats), and returns false when gstat did
// not print what it needs (depth, leaf buckets, nodes and a node or data
// length): an estimate is 88 bytes, which returning and copying cost
// 0.3 % of a text run. e and basis are written only where it returns true.
func estimateDepthTo(e *depthEstimate, basis *depthBasis, ix *parse.GstatIndex, pageSize *int64, odsMajor *int, fill float64) bool {
	if ix.Depth == nil || ix.LeafBuckets == nil || ix.Nodes == nil || *ix.LeafBuckets < 1 || *ix.Nodes < 1 {
		return false
	}
	var leafNode, upperNode float64
	switch {
	case ix.AverageNodeLength != nil:
		prefix := 0.0
		if ix.AveragePrefixLength != nil {
			prefix = *ix.AveragePrefixLength
		}
		leafNode = *ix.AverageNodeLength
		upperNode = leafNode + prefix + pageNumberBytes
		*basis = depthBasis{upperNode: upperNode, node: leafNode, prefix: prefix, fromNode: true}
	case ix.AverageDataLength != nil:
		leafNode = *ix.AverageDataLength + nodeOverheadODS11
		upperNode = leafNode + pageNumberBytes
		*basis = depthBasis{upperNode: upperNode, dataLength: *ix.AverageDataLength}
	default:
		return false
	}
	leaves, nodes := float64(*ix.LeafBuckets), float64(*ix.Nodes)
	if pageSize == nil || *pageSize <= btreePageHeader {
		// No page size: the leaf level shows how many keys a page holds.
		perLeaf := nodes / leaves
		f := max(2, perLeaf*leafNode/upperNode)
		basis.perLeaf, basis.noPageSize = perLeaf, true
		e.needed, e.rebuilt, e.fanOut, e.lowerAt, e.lowerDepth = levelsFor(leaves, f), 0, f, 0, 0
		return true
	}
	// (The builtin max, which is math.Max to the bit, NaN and ±0 alike,
	// but inline: math.Max's call cost 0.7 % of a text run.)
	fanOut := func(p int64) float64 { return max(2, float64(p-btreePageHeader)*fill/upperNode) }
	rebuiltAt := func(p int64) int64 {
		l := max(1, math.Ceil(nodes*leafNode/(float64(p-btreePageHeader)*fill)))
		return levelsFor(l, fanOut(p))
	}
	// (The page size's fan-out once, not three times: a division each.)
	f := fanOut(*pageSize)
	rebuilt := levelsFor(max(1, math.Ceil(nodes*leafNode/(float64(*pageSize-btreePageHeader)*fill))), f)
	e.needed, e.rebuilt, e.fanOut, e.lowerAt, e.lowerDepth = levelsFor(leaves, f), rebuilt, f, 0, 0
	for p, most := *pageSize*2, maxPageSize(odsMajor); p <= most; p *= 2 {
		if d := rebuiltAt(p); d < rebuilt {
			e.lowerAt, e.lowerDepth = p, d
			break
		}
	}
	return true
}
