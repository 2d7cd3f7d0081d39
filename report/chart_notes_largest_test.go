package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/bigfile"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The tables chart shows the 12 largest tables. Of the real shop run
// grown to 102 tables (make-big), the largest are the ORDER_LINE copies,
// without a back version, while ORDERS, STOCK and CUSTOMER copies hold
// them: the caption said "no record versions and no fragmented records
// in this snapshot" beside a summary of tables holding back versions.
func TestReportChartNotesLargestOnly(t *testing.T) {
	var run bytes.Buffer
	n, err := bigfile.Gstat(&run, testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 128<<10)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "grown.txt")
	if err := os.WriteFile(p, run.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := writeReportOf(t, "largest", []string{p})
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if n != 102 {
		t.Fatalf("%d tables grown; want 102 (17 copies of 6)", n)
	}
	for _, want := range []string{
		`<div class="headline"><span class="v">51</span><span class="l">tables holding back versions</span></div>`,
		`<figcaption>Largest tables: grown.txt <span class="muted">(tables-db-shop.fdb.png)</span>` +
			`<br>no record versions and no fragmented records in the 12 largest tables (of 102)</figcaption>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}
