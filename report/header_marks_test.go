package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A header figure a rule judged says so in words, not by its border's
// colour only (red, amber and green read alike to a red-green colour
// blind DBA and on a grey printer): the stuck OAT of the 2005
// firebird-support header is marked critical, its sweep gap and ODS 10.1
// warning, its page size ok; a figure no rule judges has no mark.
func TestHeaderFiguresMarkedInWords(t *testing.T) {
	_, out := writeReportOf(t, "marks", []string{
		testutil.Corpus(t, "public", "gstat", "06_fb15_header_long_running_issue_firebird_support_2005.txt"),
	})
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<div class="headline critical"><span class="v">253838</span><span class="l">Next − OAT (age of the oldest active transaction)</span><span class="sev">critical</span></div>`,
		`<div class="headline warning"><span class="v">295047</span><span class="l">OST − OIT (the sweep gap)</span><span class="sev">warning</span></div>`,
		`<div class="headline warning"><span class="v">10.1</span><span class="l">ODS</span><span class="sev">warning</span></div>`,
		`<div class="headline ok"><span class="v">4.00 KiB</span><span class="l">Page size</span><span class="sev">ok</span></div>`,
		`<div class="headline "><span class="v">319143</span><span class="l">OAT (oldest active)</span></div>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}
