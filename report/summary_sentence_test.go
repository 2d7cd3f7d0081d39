package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A summary finding is two sentences, what is wrong and then "Do: …":
// the stuck OAT of the 2005 firebird-support header read "…blocks
// garbage collection Do: find the client…", and a finding of several
// snapshots put its "(2 of 2 snapshots)" after the advice, as if it
// were part of the ALTER INDEX.
func TestSummaryFindingSentences(t *testing.T) {
	r, out := writeReportOf(t, "sentences", []string{
		testutil.Corpus(t, "public", "gstat", "06_fb15_header_long_running_issue_firebird_support_2005.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
	})
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"06_fb15_header_long_running_issue_firebird_support_2005.txt: database: Next - OAT = 253838: " +
			"the oldest active transaction (319143) blocks garbage collection. Do: find the client that keeps it open",
		"06_fb15_header_long_running_issue_firebird_support_2005.txt: database: ODS 10.1 is Firebird 1.5: out of maintenance. " +
			"Do: gbak backup with this server, restore with a current one",
		"shop.fdb: index ORDERS_DATE_D on ORDERS: 99% of 181 leaf pages under 60% full; a plain index or the index of a named constraint " +
			"(the gstat text cannot tell; fbdiag collect reads the catalogue) (2 of 2 snapshots). " +
			"Do: ALTER INDEX ORDERS_DATE_D ACTIVE; (rebuilds it while it stays active)",
	} {
		found := false
		for _, f := range r.Summary {
			found = found || strings.HasPrefix(f.Text, want)
		}
		if !found {
			t.Errorf("no summary finding reads %q", want)
		}
		if !strings.Contains(string(page), strings.ReplaceAll(want, "'", "&#39;")) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, f := range r.Summary {
		if strings.Contains(f.Text, " Do: ") && !strings.Contains(f.Text, ". Do: ") {
			t.Errorf("run-on advice: %q", f.Text)
		}
	}
}

// A failed restore with two error lines says "and 1 more error line"
// (it read "1 more error lines").
func TestSummaryOneMoreErrorLine(t *testing.T) {
	r, _ := writeReportOf(t, "one more", []string{
		testutil.Corpus(t, "public", "gbak", "09_restore_deferred_index_failure_issue7269.log"),
	})
	const want = `09_restore_deferred_index_failure_issue7269.log: restore failed: cannot commit index PK_A3: ` +
		`violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 9) (and 1 more error line). ` +
		`Do: gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269), ` +
		`and the database file it left is unfinished: restore again with every index inactive (gbak -rep -i), delete or change the rows of A3 ` +
		`that repeat the key ("ID" = 9), then ALTER INDEX PK_A3 ACTIVE, then the other indices -i left inactive, foreign keys last ` +
		`(they need their primary key active)`
	if len(r.Summary) == 0 || r.Summary[0].Text != want {
		t.Errorf("summary %+v\nwant %q", r.Summary, want)
	}
}
