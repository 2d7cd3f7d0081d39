package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The shop sample has four index warnings (index-low-selectivity and
// index-sparse, severity warning) on three indices: ORDERS_CARRIER has
// two. The summary's "indices with a warning" is 3, the indices that
// report.json's findings name, not 4, the findings.
func TestReportCountsIndicesNotFindings(t *testing.T) {
	path := filepath.Join(testutil.CorpusDir(t), "fb30", "shop-gstat-a-r.txt")
	r, out := writeReportOf(t, "counts", []string{path})
	var counts []string
	for _, c := range r.Counts {
		counts = append(counts, c.Value+" "+c.Label)
	}
	if got, want := strings.Join(counts, "; "), "1 database; 3 indices with a warning; 0 deep indices (index-deep); "+
		"3 tables holding back versions; 0 critical findings; 5 warnings"; got != want {
		t.Errorf("counts %q, want %q", got, want)
	}
	b, err := os.ReadFile(filepath.Join(out, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Databases []struct {
			Findings []struct{ Rule, Severity, Kind, Table, Object string }
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	findings, indices := 0, map[string]bool{}
	for _, f := range s.Databases[0].Findings {
		if f.Kind == "index" && f.Severity == "warning" {
			findings++
			indices[f.Table+"."+f.Object] = true
		}
	}
	if findings != 4 || len(indices) != 3 || !indices["ORDERS.ORDERS_CARRIER"] {
		t.Errorf("report.json: %d index warnings on %v, want 4 on 3 indices", findings, indices)
	}
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<span class="v">3</span><span class="l">indices with a warning</span>`; !strings.Contains(string(page), want) {
		t.Errorf("page lacks %s", want)
	}
}
