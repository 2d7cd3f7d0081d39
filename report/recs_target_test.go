package report

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A header finding's kind and object are both "database": the section's
// recommendations read "database database (oat-stuck; 1 of 1 snapshot)"
// for the Firebird 1.5 header whose Next - OAT is 253838. They now name
// it once, as the summary does ("…txt: database: Next - OAT = 253838").
func TestRecommendationNamesDatabaseOnce(t *testing.T) {
	r := buildReport(t, "oat", []string{testutil.Corpus(t, "public", "gstat", "06_fb15_header_long_running_issue_firebird_support_2005.txt")})
	page := htmlOf(t, r)
	if strings.Contains(page, "database database") {
		t.Error(`the page reads "database database"`)
	}
	const want = `<span class="sev">critical</span><strong>database</strong> <span class="muted">(oat-stuck; 1 of 1 snapshot)</span><br>Next - OAT = 253838`
	if !strings.Contains(page, want) {
		t.Errorf("page lacks %s", want)
	}
}
