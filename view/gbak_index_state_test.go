package view

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The 3.0.11 restore cut after RDB$PRIMARY3's activation, which failed,
// and without the -st columns: gbak commits each deferred index before
// the next "activating and creating deferred index" line and reports a
// failure at once, so the four built before it were activated ("ok",
// time unknown), not "unknown: the log ends before the build does".
func TestGbakIndexActivatedWithoutStatistics(t *testing.T) {
	b := string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	end := strings.Index(b, "activating and creating deferred index ORDERS_CARRIER")
	head := b[:strings.LastIndex(b[:end], "\n")+1]
	head = regexp.MustCompile(`(?m)^gbak: time .*\n`).ReplaceAllString(head, "")
	head = regexp.MustCompile(`(?m)^gbak:\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+ `).ReplaceAllString(head, "gbak:")
	log := head + "gbak:cannot commit index RDB$PRIMARY3\n" +
		"gbak: ERROR:violation of PRIMARY or UNIQUE KEY constraint \"RDB$PRIMARY3\" on table \"ORDERS\"\n"
	tl, err := analyze.ReadGbakTimeline(strings.NewReader(log), "cut-nost.log")
	if err != nil {
		t.Fatal(err)
	}
	if tl.Columns != "" || tl.Outcome != analyze.GbakFailed {
		t.Fatalf("columns %q outcome %s", tl.Columns, tl.Outcome)
	}
	csv := write(t, CSV, Options{Table: "indices"}, Gbak(tl, GbakOptions{}))
	want := "index,seconds,reads,writes,state,failed\nOL_ITEM,,,,ok,false\nRDB$PRIMARY3,,,,failed,true\nRDB$PRIMARY4,,,,ok,false\nRDB$PRIMARY5,,,,ok,false\nRDB$PRIMARY6,,,,ok,false\n"
	if csv != want {
		t.Errorf("indices:\n%s\nwant\n%s", csv, want)
	}

	// The public excerpt of issue 7269 (no -st): PK_B3, PK_B2 and PK_B1
	// were activated before PK_A3 failed.
	f, err := os.Open(testutil.Corpus(t, "public", "gbak", "09_restore_deferred_index_failure_issue7269.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err = analyze.ReadGbakTimeline(f, "09.log")
	if err != nil {
		t.Fatal(err)
	}
	text := write(t, Text, Options{}, Gbak(tl, GbakOptions{}))
	for _, w := range []string{"PK_A3                       failed\n", "PK_B1                       ok\n", "PK_B3                       ok\n"} {
		if !strings.Contains(text, w) {
			t.Errorf("09 lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "the log ends before the build does") {
		t.Errorf("09 says the log ends before a build:\n%s", text)
	}
}
