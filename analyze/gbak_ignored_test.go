package analyze

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// gbak reads a skipped table's data past and then prints "N records
// ignored" (ignore_data, restore.epp), without the table's name before
// Firebird 6.0's #9075: in the public 11 restore (-SKIP_DATA TAB_1_%)
// the two lines after TAB_2_A's "1 records restored" are TAB_1_A's and
// TAB_1_B's (the reporter's words). They were summed into TAB_2_A,
// "1 records, 2 ignored", and the time gbak spent reading the skipped
// data past went to TAB_2_A's data and records/s. Each is now a data step
// of its own; after #9075's "skipping data for table X" the count is
// that step's.
func TestGbakIgnoredRecordsAreSkippedTables(t *testing.T) {
	path := testutil.Corpus(t, "public", "gbak", "11_fb6_restore_skip_data_issue9075.log")
	tl := timelineOf(t, path)
	if len(tl.Tables) != 2 {
		t.Fatalf("tables %+v", tl.Tables)
	}
	for _, tb := range tl.Tables {
		if tb.Ignored != nil || tb.Records == nil || *tb.Records != 1 {
			t.Errorf("table %s: records %s ignored %s, want 1 and none", tb.Name, intOr(tb.Records), intOr(tb.Ignored))
		}
	}
	var skipped []GbakStep
	for _, st := range tl.Steps {
		if st.Kind == parse.GbakIgnored {
			skipped = append(skipped, st)
		}
	}
	if len(skipped) != 2 {
		t.Fatalf("skipped-table steps %+v", skipped)
	}
	for i, st := range skipped {
		if st.Line != 15+i || st.Phase != PhaseData || st.Ignored == nil || *st.Ignored != 1 ||
			st.Label() != "data of a skipped table (1 records ignored)" {
			t.Errorf("step %+v (ignored %v), label %q", st, st.Ignored, st.Label())
		}
	}
	if p := tl.Phases[1]; p.Name != PhaseData || p.Steps != 4 {
		t.Errorf("phase %+v", p)
	}

	// The same log in 6.0's form since #9075: the count is the skip
	// step's, and the table restored before keeps its own.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "gbak:     1 records ignored\ngbak:     1 records ignored\n",
		"gbak:skipping data for table \"PUBLIC\".\"TAB_1_A\"\ngbak:   1 records ignored\n"+
			"gbak:skipping data for table \"PUBLIC\".\"TAB_1_B\"\ngbak:   1 records ignored\n", 1)
	log, err := parse.ReadGbak(strings.NewReader(text), "9075.log")
	if err != nil {
		t.Fatal(err)
	}
	tl = GbakTimeline(log)
	var names []string
	for _, st := range tl.Steps {
		if st.Kind == parse.GbakIgnored {
			t.Errorf("a records_ignored step after skipping data: %+v", st)
		}
		if st.Kind == parse.GbakSkipData {
			if st.Ignored == nil || *st.Ignored != 1 {
				t.Errorf("%s: ignored %v", st.Label(), st.Ignored)
			}
			names = append(names, st.Name)
		}
	}
	if strings.Join(names, " ") != `"PUBLIC"."TAB_1_A" "PUBLIC"."TAB_1_B"` {
		t.Errorf("skip steps %q", names)
	}
	if tb := tl.Tables[1]; tb.Name != `"PUBLIC"."TAB_2_A"` || tb.Ignored != nil {
		t.Errorf("TAB_2_A %+v", tb)
	}
}

// Firebird 3.0.11's restore of ORDERS (20000 rows, a primary key) and
// AUDIT_LOG (600000 rows, no index) with -skip_data AUDIT_LOG: ORDERS
// read "20000 records, 600000 ignored, 1.239 s, 16142 records/s", the
// 0.074 s gbak spent reading AUDIT_LOG's data past its own.
func TestGbakSkippedTableAfterRestoredTable(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-skip-data.log"))
	if len(tl.Tables) != 1 {
		t.Fatalf("tables %+v", tl.Tables)
	}
	tb := tl.Tables[0]
	if tb.Name != "ORDERS" || *tb.Records != 20000 || tb.Ignored != nil || *tb.Seconds != 1.164 || int(*tb.RecordsPerSecond) != 17182 {
		t.Errorf("ORDERS: records %d ignored %s seconds %v records/s %v", *tb.Records, intOr(tb.Ignored), *tb.Seconds, *tb.RecordsPerSecond)
	}
	for _, st := range tl.Steps {
		if st.Line == 25 {
			if st.Kind != parse.GbakIgnored || *st.Ignored != 600000 || *st.Start != 1.334 || *st.Seconds != 0.075 || st.Phase != PhaseData {
				t.Errorf("line 25: %+v", st)
			}
			return
		}
	}
	t.Error("no step at line 25")
}

func intOr(p *int64) string {
	if p == nil {
		return "none"
	}
	return strconv.FormatInt(*p, 10)
}
