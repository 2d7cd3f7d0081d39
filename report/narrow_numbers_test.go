package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// On a phone (390 px) the page's "overflow-wrap: anywhere" squeezed a
// table to the screen by breaking its numbers: the restore's Phases read
// "108 / 41" index reads and "34.20 / 7 s" of data, Table data "300 / 00"
// records of "CUSTO / MER". A numeric cell and a column head now never
// break, a name only when it alone is wider than the box (the fleet's
// paths still wrap anywhere); the table scrolls sideways in its box (188
// of the corpus report's 196 at 390 px, none at 1280 px, measured in
// Chromium).
func TestNumbersNeverBreak(t *testing.T) {
	_, out := writeReportOf(t, "restore", []string{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")})
	b, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`<td class="num" data-sort="10841">10841</td>`, `<div class="scroll"><table data-table="phases">`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	style := regexp.MustCompile(`(?s)<style>.*</style>`).FindString(page)
	for _, want := range []string{
		"td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }",
		"th { overflow-wrap: normal; } td { overflow-wrap: break-word; } .fleet td { overflow-wrap: anywhere; }",
		".scroll { overflow-x: auto;",
	} {
		if !strings.Contains(style, want) {
			t.Errorf("style lacks %s", want)
		}
	}
}
