package report

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// seedInput reads one seed table (testdata/seeds) as the report does.
func seedInput(t *testing.T, name string) analyze.Input {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, runs, notices, err := parse.ReadThroughput(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Input{Tables: tables, Runs: runs, Notices: notices}
}

// seedResult analyses one seed table as the report does.
func seedResult(t *testing.T, name string) *analyze.Result {
	t.Helper()
	res, err := analyze.Throughput(seedInput(t, name), analyze.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The report's throughput section is the view's: its headline figures,
// its chart and its HTML fragment, with the prediction analyze chose
// (twice the largest size, 3.54 TiB) and no knee (no 4× jump with two
// sizes on each side).
func TestThroughputSectionIsTheView(t *testing.T) {
	s := ThroughputSection("degradation-throughput-sata.csv", []string{"degradation-throughput-sata.csv"},
		seedInput(t, "degradation-throughput-sata.csv"))
	if s.Err != "" || s.Title != "Throughput (degradation): degradation-throughput-sata.csv" || len(s.Figures) != 1 || len(s.Tables) != 0 {
		t.Fatalf("section %q err %q, %d figures, %d tables", s.Title, s.Err, len(s.Figures), len(s.Tables))
	}
	want := []Headline{
		{Label: "first to last size (9.04 GiB → 1.77 TiB)", Value: "-65.8 %"},
		{Label: "lost per size doubling (power fit, R² 0.992)", Value: "13.4 %"},
		{Label: "predicted at 3.54 TiB (95 % interval 140–157, power fit; extrapolated 2× past the largest size, which alone sets the curve (leverage 0.929); its leave-last-out check missed by +14.2 %, outside its 95 % interval)", Value: "148", Caveat: true},
	}
	if len(s.Headlines) != len(want) {
		t.Fatalf("headlines %+v", s.Headlines)
	}
	for i, h := range want {
		if s.Headlines[i] != h {
			t.Errorf("headline %d: %+v, want %+v", i, s.Headlines[i], h)
		}
	}
	frag := string(s.Fragment)
	for _, w := range []string{
		`<table data-table="prediction">`,
		`<caption>Prediction at 3.54 TiB</caption>`,
		`<td class="num" data-sort="148.00766375663426">148</td>`,
		`<td class="num" data-sort="1947734409583">1.77 TiB</td>`,
	} {
		if !strings.Contains(frag, w) {
			t.Errorf("fragment lacks %s", w)
		}
	}
	if strings.Contains(frag, `data-table="knee"`) || !strings.Contains(frag, `<div class="headline" data-key="predicted_ops_per_s"><span class="v">148 (95 % interval 140–157, power fit; extrapolated 2× past the largest size, which alone sets the curve (leverage 0.929); its leave-last-out check missed by +14.2 %, outside its 95 % interval)</span>`) {
		t.Errorf("fragment has a knee table or lacks the headline:\n%s", frag)
	}
}
