package report

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// CSV and markdown kept the text layout's clipping: a gbak CSV had
// "restore-high-perf…" for a label and cut step names at 44 characters.
// Only the text output fits 100 columns; the other formats keep them whole.
func TestGbakCSVKeepsNamesWhole(t *testing.T) {
	tl := loadTimeline(t, "fb30", "shop-gbak-restore-v-st.log")
	created := "created database localhost:/var/lib/firebird/data/shop2.fdb, page_size 8192 bytes"
	for _, c := range []struct {
		f    Format
		want string
	}{
		{CSV, created},
		{Markdown, created},
		{Text, "created database localhost:/var/lib/firebir…"},
	} {
		st := tableByName(t, GbakTables(tl, c.f, 200), "slowest")
		found := false
		for _, r := range st.Rows {
			if r[0] == "6" {
				found = r[1] == c.want
				if !found {
					t.Errorf("%s: step of line 6 is %q; want %q", c.f, r[1], c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no step of line 6 %q", c.f, c.want)
		}
	}
	a := loadTimeline(t, "seeds", "restore-balanced.log")
	b := loadTimeline(t, "seeds", "restore-high-performance.log")
	cmp := analyze.CompareTimelines(analyze.GbakRun{Label: "restore-balanced", Timeline: a},
		analyze.GbakRun{Label: "restore-high-performance", Timeline: b})
	runs := tableByName(t, GbakComparisonTables(cmp, CSV, 10), "runs")
	if got := strings.Join(runs.Rows[1][:2], "|"); got != "restore-high-performance|restore-high-performance.log" {
		t.Errorf("CSV run %s", got)
	}
	runs = tableByName(t, GbakComparisonTables(cmp, Text, 10), "runs")
	if got := strings.Join(runs.Rows[1][:2], "|"); got != "restore-high-perf…|restore-high-performance.…" {
		t.Errorf("text run %s", got)
	}
}
