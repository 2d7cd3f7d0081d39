package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The corpus folder has five files no analysis reads (two READMEs, the
// SOURCES.md of each public folder and the schema). Their warnings
// come last in the summary, which shows 12 of 29: the first screen said
// "and 17 more in the sections below" and nowhere that inputs were left
// out. It now names them, with a link to the section that says why. (30
// and 18 until public 07's MEDIA_ARC, whose final count gbak printed,
// stopped reading as cut short.)
func TestSummaryNamesSkippedInputs(t *testing.T) {
	r, out := writeReportOf(t, "corpus", []string{testutil.CorpusDir(t)})
	if len(r.Skipped) != 5 {
		t.Fatalf("%d skipped: %+v", len(r.Skipped), r.Skipped)
	}
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	const want = `<p class="muted">and 17 more in the sections below.</p><p class="warning"><span class="sev">warning</span>` +
		`Not analysed: 5 inputs: README.md, shop-schema.sql, SOURCES.md, SOURCES.md, README.md (<a href="#other-unknown">why</a>).</p>`
	if !strings.Contains(string(page), want) {
		t.Errorf("page lacks %s", want)
	}
	if !strings.Contains(string(page), `<section id="other-unknown"`) {
		t.Error("no section other-unknown")
	}
	// Its title said "Not analysed: unknown", the kind, not what was left out.
	for _, want := range []string{`<a href="#other-unknown">Not analysed: 5 inputs</a>`, `<h2>Not analysed: 5 inputs</h2>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// A summary that lists the skipped inputs itself has no such line.
	_, out = writeReportOf(t, "two", []string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-schema.sql")})
	if page, err = os.ReadFile(filepath.Join(out, IndexFile)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "shop-schema.sql: not analysed: ") || strings.Contains(string(page), "Not analysed: 1 input") {
		t.Error("the skipped schema is not in the summary's list, or named twice")
	}
	if !strings.Contains(string(page), `<h2>Not analysed: shop-schema.sql</h2>`) {
		t.Error("the section of the skipped schema is not titled by its name")
	}
}
