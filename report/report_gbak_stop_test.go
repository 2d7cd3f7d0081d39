package report

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A 3.0.11 restore that went on past UX_U_CODE's duplicates and stopped
// at PK_A3's: the summary quoted the first error line, UX_U_CODE's, whose
// advice says "in the database restored again with every index inactive
// (the advice on PK_A3)", an advice the summary did not show. It quotes
// the index gbak stopped at, with the steps the other's advice points to.
func TestReportGbakSummaryQuotesTheStop(t *testing.T) {
	r, _ := writeReportOf(t, "stop", []string{testutil.Testdata(t, "gbak", "fb30-restore-unique-then-pk.log")})
	if len(r.Sections) != 1 || len(r.Sections[0].Findings) == 0 {
		t.Fatalf("sections %d", len(r.Sections))
	}
	got := r.Sections[0].Findings[0]
	wantStart := "fb30-restore-unique-then-pk.log: restore failed: cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint \"PK_A3\" on table \"A3\""
	wantDo := "Do: gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269)"
	if got.Severity != "critical" || !strings.HasPrefix(got.Text, wantStart) || !strings.Contains(got.Text, wantDo) ||
		!strings.Contains(got.Text, " more error lines). Do: ") {
		t.Errorf("summary finding %+v", got)
	}
}
