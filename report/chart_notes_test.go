package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Issue 15: a chart's notes are printed in the page. codes-4k's tables
// have neither back versions nor fragments: its chart is the size panel
// with the sentence under it. The firebird-qa test of an empty table
// (one table, no data page) would draw two empty charts: each is its
// sentence only, with no picture in the page and no file beside it.
func TestReportChartNotes(t *testing.T) {
	empty := testutil.Corpus(t, "public", "gstat", "Banan4iG-firebird-qa__records-test_empty_table.expected.txt")
	r, out := writeReportOf(t, "notes", []string{testutil.Testdata(t, "gstat", "codes-4k-gstat-a-r.txt"), empty})
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	const qa = "Banan4iG-firebird-qa__records-test_empty_table.expected.txt"
	for _, want := range []string{
		`<figcaption>Largest tables: codes-4k-gstat-a-r.txt <span class="muted">(tables-db-h13deep-0a3682b3.fdb.png)</span>` +
			`<br>no record versions and no fragmented records in this snapshot</figcaption>`,
		`<p class="chart-notes"><span class="muted">Largest tables: ` + qa + `:</span> no table has data pages in this snapshot.</p>`,
		`<p class="chart-notes"><span class="muted">Page fill: ` + qa + `:</span> no table data pages in this snapshot.</p>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(string(page), `alt="Largest tables: `+qa) || strings.Contains(string(page), `alt="Page fill: `+qa) {
		t.Error("an empty chart is in the page as a picture")
	}
	var files []string
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".png") {
			files = append(files, e.Name())
		}
	}
	// codes-4k's tables, indices and fill charts; nothing of the empty
	// database.
	if got := strings.Join(files, " "); got != "fill-db-h13deep-0a3682b3.fdb.png indices-db-h13deep-0a3682b3.fdb.png tables-db-h13deep-0a3682b3.fdb.png" {
		t.Errorf("chart files %s", got)
	}
	if n := len(r.Drawn()); n != 3 || len(r.Figures()) != 5 {
		t.Errorf("%d charts drawn of %d", n, len(r.Figures()))
	}
}
