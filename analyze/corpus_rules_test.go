package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// corpusGstat lists every gstat file the tests can read
// (testutil.GstatOutputs), and needs the corpus.
func corpusGstat(t *testing.T) []string {
	t.Helper()
	testutil.CorpusDir(t) // (skips without the corpus)
	files := testutil.GstatOutputs(t)
	if len(files) < 60 {
		t.Fatalf("%d gstat files, want the whole corpus", len(files))
	}
	return files
}

// Over every gstat file: no repack advice on a system table, no ALTER
// INDEX on a constraint's index, no page-size advice for records far
// smaller than a page, no index-deep warning on an index its size
// explains. The verdicts that remain are listed exactly.
func TestCorpusVerdicts(t *testing.T) {
	th := NewThresholds()
	var deep, pageSize, fragments []string
	for _, path := range corpusGstat(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(f, path)
		f.Close()
		if err != nil {
			continue // not gstat text (auth failures are read; this is the rest)
		}
		name := filepath.Base(path)
		for _, rep := range reps {
			a := Gstat(rep, th)
			tables := map[string]*TableStats{}
			indices := map[string]*IndexStats{}
			for i := range a.Tables {
				tables[a.Tables[i].QualifiedName()] = &a.Tables[i]
				for j := range a.Tables[i].Indices {
					ix := &a.Tables[i].Indices[j]
					indices[ix.QualifiedTable()+"|"+ix.QualifiedName()] = ix
				}
			}
			for j := range a.UnattachedIndices {
				ix := &a.UnattachedIndices[j]
				indices[ix.QualifiedTable()+"|"+ix.QualifiedName()] = ix
			}
			var page float64
			if a.Header != nil && a.Header.PageSize != nil {
				page = float64(*a.Header.PageSize)
			}
			seen := map[string]bool{}
			for _, w := range a.Warnings {
				where := fmt.Sprintf("%s: %s %s", name, w.Rule, w.Object)
				if key := w.Rule + "|" + w.Kind + "|" + w.Object + "|" + w.Table; seen[key] {
					t.Errorf("%s: two warnings for one object", where)
				} else {
					seen[key] = true
				}
				if w.Kind == "table" && w.Rule == "table-sparse" && IsSystemTable(w.Object) {
					t.Errorf("%s: repack advice on a system table", where)
				}
				if w.Kind == "index" {
					ix := indices[w.Table+"|"+w.Object]
					if ix == nil {
						t.Fatalf("%s: no such index", where)
					}
					if (ix.IsConstraintIndex() || ix.Kind == IndexSystem) && strings.Contains(w.Advice, "ALTER INDEX "+QuoteIdent(ix.Name)+" INACTIVE") {
						t.Errorf("%s: ALTER INDEX advice on %s: %s", where, ix.KindText(), w.Advice)
					}
					if w.Rule == "index-deep" {
						deep = append(deep, fmt.Sprintf("%s %s %s depth %.0f, needs %d", name, w.Severity, w.Object, w.Value, val0(ix.NeededDepth)))
						if w.Severity != Info && (ix.NeededDepth == nil || *ix.Depth <= *ix.NeededDepth) {
							t.Errorf("%s: %s on an index its size explains", where, w.Severity)
						}
					}
				}
				if tb := tables[w.Object]; w.Kind == "table" && tb != nil && tb.AvgRecord != nil && page > 0 &&
					*tb.AvgRecord < page/4 && strings.Contains(w.Advice, "page_size") {
					t.Errorf("%s: page-size advice for %.0f-byte records on %.0f-byte pages: %s", where, *tb.AvgRecord, page, w.Advice)
				}
				switch w.Rule {
				case "page-size-small":
					pageSize = append(pageSize, name+" "+w.Advice)
				case "table-fragments":
					fragments = append(fragments, name+" "+w.Object)
				}
			}
		}
	}
	slices.Sort(deep)
	want := []string{
		"05_fb21_doc_header_and_2x_table_index.txt warning PK_CONFIGREVISIONSTORE depth 3, needs 2",
		"Banan4iG-firebird-qa__parallel-test_index.expected.txt info IDX_TEST depth 3, needs 3",
		"bench-w1-gstat-a-r.txt info CUSTOMER_LAST depth 3, needs 3",
		"bench-w1-gstat-a-r.txt info PK_ORDER_LINE depth 3, needs 3",
		"codes-4k-gstat-a-r.txt info CODES_CODE depth 3, needs 3",
		"codes-8k-gstat-a-r.txt info CODES_CODE depth 3, needs 3",
	}
	testutil.EqualLines(t, "index-deep", deep, want)
	// (TPC-C's ORDER_LINE key, 443,282 entries in 851 leaf pages of 4 KiB.)
	if want := []string{"bench-w1-gstat-a-r.txt gbak backup, then restore into a new file with -page_size 16384",
		"codes-4k-gstat-a-r.txt gbak backup, then restore into a new file with -page_size 16384"}; !slices.Equal(pageSize, want) {
		t.Errorf("page-size-small: %q, want %q", pageSize, want)
	}
	slices.Sort(fragments)
	// (TPC-C's Delivery fills OL_DELIVERY_D: order lines grow on update.)
	if want := []string{"bench-w1-gstat-a-r.txt ORDER_LINE", "records-4k-gstat-r.txt SMALLU", "shop-fb6-names.txt PUBLIC.CUSTOMER", "shop-gstat-a-r.txt CUSTOMER", "shop-gstat-r-later.txt CUSTOMER", "shop-gstat-s-r.txt CUSTOMER", "shop-odd-names-corrupt.txt ORDER LINES"}; !slices.Equal(fragments, want) {
		t.Errorf("table-fragments: %q, want %q", fragments, want)
	}
}
