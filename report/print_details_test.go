package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Printed, the collapsed blocks are open: the report of corpus/fb30
// collapses its inputs (with why shop-schema.sql was not analysed), the
// 3 resolved findings of shop.fdb and the reader notes, and Chromium's
// PDF of the corpus report had none of them (191 pages; 202 with them).
// The print style opens them where ::details-content is known, the
// script on beforeprint elsewhere.
func TestPrintOpensDetails(t *testing.T) {
	_, out := writeReportOf(t, "fb30", []string{filepath.Join(testutil.CorpusDir(t), "fb30")})
	b, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<summary>Inputs (10)</summary>", "<summary>Resolved (3): shown by earlier snapshots only</summary>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	printCSS := regexp.MustCompile(`(?s)@media print \{.*?\n\}`).FindString(page)
	if !strings.Contains(printCSS, "details::details-content { content-visibility: visible; display: contents; }") {
		t.Errorf("the print style leaves collapsed blocks shut:\n%s", printCSS)
	}
	if !strings.Contains(page, `window.addEventListener("beforeprint"`) ||
		!strings.Contains(page, `document.querySelectorAll("details:not([open])").forEach(function (d) { d.open = true;`) {
		t.Error("no script opens the collapsed blocks before printing")
	}
}
