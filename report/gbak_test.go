package report

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

func loadTimeline(t *testing.T, dir, name string) *analyze.Timeline {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := analyze.ReadGbakTimeline(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func tableByName(t *testing.T, tables []*Table, name string) *Table {
	t.Helper()
	for _, x := range tables {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no table %q", name)
	return nil
}

func TestGbakTablesRestore(t *testing.T) {
	tl := loadTimeline(t, "fb30", "shop-gbak-restore-v-st.log")
	tables := GbakTables(tl, Text, 3)
	if got := tableNames(tables); got != "summary,phases,tables,indices,slowest" {
		t.Fatalf("tables %s", got)
	}
	sum := tables[0]
	if sum.Title != "gbak restore: shop-gbak-restore-v-st.log" {
		t.Errorf("title %q", sum.Title)
	}
	if got := strings.Join(sum.Rows[2], "|"); got != "total seconds|35.170" {
		t.Errorf("summary row %s", got)
	}
	data := tableByName(t, tables, "phases").Rows[2]
	if got := strings.Join(data, "|"); got != "data|6|0|34.207|97.3%|8|4378" {
		t.Errorf("data phase %s", got)
	}
	// WAREHOUSE loaded 5 records in 0.000 s: no rate, "?" in text.
	td := tableByName(t, tables, "tables")
	if got := strings.Join(td.Rows[5], "|"); got != "WAREHOUSE|5||0.000|?|2|0" {
		t.Errorf("WAREHOUSE row %s", got)
	}
	slow := tableByName(t, tables, "slowest")
	if slow.Title != "Slowest 3 steps" || len(slow.Rows) != 3 {
		t.Fatalf("slowest: %q, %d rows", slow.Title, len(slow.Rows))
	}
	if got := strings.Join(slow.Rows[0], "|"); got != "77|data ORDER_LINE|data|3.747|24.882|2|3322" {
		t.Errorf("slowest step %s", got)
	}
	if len(tableByName(t, tables, "indices").Rows) != 10 {
		t.Errorf("index builds: %d rows, want 10", len(tableByName(t, tables, "indices").Rows))
	}

	// CSV leaves unknown cells empty, where a "?" would not read as missing.
	csv := tableByName(t, GbakTables(tl, CSV, 3), "tables")
	if got := csv.Rows[5][4]; got != "" {
		t.Errorf("CSV unknown rate %q, want empty", got)
	}
}

func TestGbakComparisonTablesSeeds(t *testing.T) {
	a := loadTimeline(t, "seeds", "restore-balanced.log")
	b := loadTimeline(t, "seeds", "restore-high-performance.log")
	cmp := analyze.CompareTimelines(analyze.GbakRun{Label: "balanced", Timeline: a}, analyze.GbakRun{Label: "high-performance", Timeline: b})
	tables := GbakComparisonTables(cmp, Markdown, 2)
	runs := tableByName(t, tables, "runs")
	// An excerpt has no total (issue 13): its last timestamp is a row of
	// its own, named for what it is.
	if got := strings.Join(runs.Rows[0], "|"); got != "balanced|restore-balanced.log|incomplete|?|3774.995|5|0" {
		t.Errorf("first run %s", got)
	}
	totals := tableByName(t, tables, "totals")
	if totals.Title != "Totals (ratio = balanced / high-performance)" {
		t.Errorf("totals title %q", totals.Title)
	}
	if got := strings.Join(totals.Rows[0], "|"); got != "last timestamp (log incomplete)|13304.334|7894.340|1.685|5409.994|+68.53%" {
		t.Errorf("total row %s", got)
	}
	if len(totals.Rows) != 2 || totals.Rows[1][0] != "span of matched steps" {
		t.Errorf("totals %q", totals.Rows)
	}
	steps := tableByName(t, tables, "steps")
	if steps.Title != "Slowest 2 steps (median seconds per side)" || len(steps.Rows) != 2 {
		t.Fatalf("steps: %q, %d rows", steps.Title, len(steps.Rows))
	}
	if got := strings.Join(steps.Rows[0], "|"); got != "index INDMF_TAG_PLC_DATA_DT_D|1258.270|622.882|2.020|635.388|+102.01%" {
		t.Errorf("slowest step %s", got)
	}
	// one run per side: the warning is said once, under the steps
	if got := strings.Join(steps.Notes[1:], "|"); got != "one run per side: ratio only, no significance test" {
		t.Errorf("step notes %q", got)
	}
}
