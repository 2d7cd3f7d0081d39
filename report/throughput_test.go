package report

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func throughputSeed(t *testing.T, name string, opt analyze.Options) *analyze.Result {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, runs, notes, err := parse.ReadThroughput(f, name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyze.Throughput(analyze.Input{Tables: tables, Runs: runs, Notices: notes}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestThroughputTablesDegradation(t *testing.T) {
	r := throughputSeed(t, "degradation-throughput-sata.csv", analyze.Options{Knee: analyze.At{Value: 16 << 30, Size: true}, Predict: analyze.At{Value: 2 << 40, Size: true}})
	tables := ThroughputTables(r)
	if got := tableNames(tables); got != "summary,models,checks,knee" {
		t.Fatalf("tables %s", got)
	}
	sum := tables[0]
	if sum.Title != "degradation: ops_per_s (ops/s) against size_gb (GB)" {
		t.Errorf("title %q", sum.Title)
	}
	if got := strings.Join(sum.Rows[0], "|"); got != "ops_per_s|12|-65.8%|9.04 → 30.3: -17.5%|30.3 → 1814: ×0.415|494.7 at 9.04 GB" {
		t.Errorf("summary %s", got)
	}
	power := tables[1].Rows[2]
	if got := strings.Join(power, "|"); got != "power|c=811.9±10.85 k=-0.2077±0.003765|0.9920|0.000|+13.4%" {
		t.Errorf("power model %s", got)
	}
	checks := tables[2]
	if checks.Title != "Leave-last-out at 1814 GB, fitted on the other sizes" || checks.Columns[4].Name != "at 2048 GB [95% interval]" {
		t.Errorf("checks %q, %q", checks.Title, checks.Columns[4].Name)
	}
	if got := checks.Rows[2][4]; got != "166.7 [157.9, 175.9]" {
		t.Errorf("power prediction at 2 TB %q", got)
	}
	if got := strings.Join(tables[3].Rows[0], "|"); got != "16 GB|4|8|+0.8%|0.541|no|no" {
		t.Errorf("knee %s", got)
	}
	want := "high leverage (above 0.5: the point outweighs all the others in its own fitted value): " +
		"1813.97 GB (linear 1.00, loglinear 0.93, power 0.93); the curves go through it, whatever the other sizes say."
	if notes := tables[1].Notes; len(notes) != 2 || notes[1] != want {
		t.Errorf("model notes %q", notes)
	}
}

func TestThroughputTablesSweepLoadAB(t *testing.T) {
	sw := ThroughputTables(throughputSeed(t, "page-buffers-1.7tb.csv", analyze.Options{}))
	if len(sw) != 3 || sw[1].Title != "Sweep: classic_points" || sw[2].Title != "Sweep: superclassic_points" {
		t.Fatalf("sweep tables: %d", len(sw))
	}
	var marks []string
	for _, r := range sw[2].Rows {
		marks = append(marks, r[0]+"="+r[4])
	}
	if got := strings.Join(marks, ","); got != "256=,512=,768=within noise,1024=within noise,1500=best,2048=" {
		t.Errorf("superclassic marks %s", got)
	}
	if got := strings.Join(sw[1].Rows[0], "|"); got != "256|1|299 points|-23.3%|" {
		t.Errorf("classic 256 row %s", got)
	}

	ld := ThroughputTables(throughputSeed(t, "degradation-load-sata.csv", analyze.Options{}))
	if len(ld) != 2 || ld[1].Name != "load" || len(ld[1].Rows) != 12 {
		t.Fatalf("load: %d tables", len(ld))
	}
	if got := strings.Join(ld[1].Rows[0], "|"); got != "9.04 GB|3.652" {
		t.Errorf("first load row %s", got)
	}

	// A/B has no summary: the A/B table says it all.
	ab := ThroughputTables(throughputSeed(t, "power-plan-tpcc.tsv", analyze.Options{}))
	if len(ab) != 1 || ab[0].Name != "ab" {
		t.Fatalf("A/B: %d tables", len(ab))
	}
	if got := strings.Join(ab[0].Rows[1], "|"); got != "High performance|1|21226 score|+24.6%|+24.65% (n=1+1, no test)" {
		t.Errorf("A/B row %s", got)
	}
	if got := strings.Join(ab[0].Notes, "|"); got != "High performance vs Balanced: +24.65% (n=1+1, no test)|one run per side: ratio only, no significance test" {
		t.Errorf("A/B notes %q", got)
	}
}
