package analyze

import (
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

// estimateDepth is estimateDepthTo's estimate returned whole, basis
// included.
func estimateDepth(ix *parse.GstatIndex, pageSize *int64, odsMajor *int, fill float64) (depthEstimate, bool) {
	var e depthEstimate
	ok := estimateDepthTo(&e, &e.basis, ix, pageSize, odsMajor, fill)
	return e, ok
}

func gstatIndex(t *testing.T, in input, name string) (*parse.GstatIndex, *parse.GstatHeader) {
	t.Helper()
	rep := mustReport(t, in)
	for _, ix := range rep.Indices {
		if ix.Name == name {
			return ix, rep.Header
		}
	}
	t.Fatalf("%s: no index %s", in.name, name)
	return nil, nil
}

// The estimate is checked against the server: CODES_CODE built at 4 KB
// pages is 3 deep; the same database restored at 8 KB keeps 3 levels and
// at 16 KB has 2 (codes-8k and codes-16k). From the 4 KB figures alone the
// rebuilt depth at each page size must come out so.
func TestDepthPredictsRestores(t *testing.T) {
	ix, h := gstatIndex(t, codes4k, "CODES_CODE")
	fill := NewThresholds().Get("index-deep", "page_fill")
	for _, c := range []struct {
		in       input
		pageSize int64
	}{{codes4k, 4096}, {input{"gstat", "codes-8k-gstat-a-r.txt"}, 8192}, {input{"gstat", "codes-16k-gstat-a-r.txt"}, 16384}} {
		measured, mh := gstatIndex(t, c.in, "CODES_CODE")
		if *mh.PageSize != c.pageSize {
			t.Fatalf("%s: page size %d", c.in.name, *mh.PageSize)
		}
		p := c.pageSize
		e, ok := estimateDepth(ix, &p, h.ODSMajor, fill)
		if !ok || e.rebuilt != *measured.Depth {
			t.Errorf("rebuilt at %d: depth %d (ok %v), measured %d", p, e.rebuilt, ok, *measured.Depth)
		}
		// Each measured index is as deep as its own leaf pages need.
		m, ok := estimateDepth(measured, mh.PageSize, mh.ODSMajor, fill)
		if !ok || m.needed != *measured.Depth {
			t.Errorf("%s: needed %d, depth %d", c.in.name, m.needed, *measured.Depth)
		}
	}
	e, _ := estimateDepth(ix, h.PageSize, h.ODSMajor, fill)
	if e.lowerAt != 16384 || e.lowerDepth != 2 || e.needed != 3 {
		t.Errorf("4 KB: needed %d, lower at %d to %d; want 3, 16384, 2", e.needed, e.lowerAt, e.lowerDepth)
	}
}

// The fan-out of the 2.x index: 4056 usable bytes × 0.9 over 12.58-byte
// upper nodes (data length 2.58 + 10) is 290, so 174 leaf pages need 2
// levels; gstat shows 3.
func TestDepthFromDataLength(t *testing.T) {
	a := analyzeFile(t, fb21Doc.path(t), nil)[0]
	ix := index(t, a, "PK_CONFIGREVISIONSTORE")
	wantInt(t, "needed_depth", ix.NeededDepth, 2)
	wantInt(t, "rebuilt_depth", ix.RebuiltDepth, 2)
	wantFloat(t, "fan_out", ix.FanOut, 4056*0.9/12.58)
	if ix.LowerDepthPageSize != nil {
		t.Errorf("lower_depth_page_size %d: no page size lowers a 2-level rebuilt index", *ix.LowerDepthPageSize)
	}
}

func TestLevelsFor(t *testing.T) {
	for _, c := range []struct {
		leaves, fanOut float64
		want           int64
	}{{1, 100, 1}, {2, 100, 2}, {100, 100, 2}, {101, 100, 3}, {10000, 100, 3}, {10001, 100, 4}, {161, 39.5, 3}} {
		if got := levelsFor(c.leaves, c.fanOut); got != c.want {
			t.Errorf("levelsFor(%g, %g) = %d, want %d", c.leaves, c.fanOut, got, c.want)
		}
	}
}
