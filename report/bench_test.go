package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

func benchRunSample(t *testing.T) (*parse.BenchResult, *analyze.BenchSummary) {
	t.Helper()
	b := testutil.ReadTestdata(t, "bench", "run-w1-t4.jsonl")
	res, err := parse.ReadBenchResult(bytes.NewReader(b), "run-w1-t4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return res, analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
}

// The text of a run read back from its file is what bench run printed
// live (testdata/bench/run-w1-t4.txt, the capture's stdout), but for the
// lines that changed on 2026-12-06: the 123 New-Orders rolled back by
// design are completed business transactions, counted in New-Order's
// Count and TPM and in tpmC (10,004 → 10,127) and tpmTotal (22,385 →
// 22,508), and no longer listed on the _ERR line of the failures.
func TestBenchTextGolden(t *testing.T) {
	_, s := benchRunSample(t)
	var b bytes.Buffer
	if err := WriteBenchText(&b, s); err != nil {
		t.Fatal(err)
	}
	want := string(testutil.ReadTestdata(t, "bench", "run-w1-t4.txt"))
	for _, c := range [][2]string{
		{"[Summary] NEW_ORDER    - Takes(s): 60, Count: 10004, TPM: 10004.0, Avg(ms)",
			"[Summary] NEW_ORDER    - Takes(s): 60, Count: 10127, TPM: 10127.0, Rolled back by design: 123, Avg(ms)"},
		{"NEW_ORDER_ERR - Rolled back: 123, Conflicts: 1904,", "NEW_ORDER_ERR - Conflicts: 1904,"},
		{"PAYMENT_ERR  - Rolled back: 0, Conflicts: 6544,", "PAYMENT_ERR  - Conflicts: 6544,"},
		{"DELIVERY_ERR - Rolled back: 0, Conflicts: 387,", "DELIVERY_ERR - Conflicts: 387,"},
		{"tpmC: 10004.0, tpmTotal: 22385.0, window: 60 s", "tpmC: 10127.0, tpmTotal: 22508.0, window: 60 s"},
	} {
		if strings.Count(want, c[0]) != 1 {
			t.Fatalf("the capture has no %q", c[0])
		}
		want = strings.Replace(want, c[0], c[1], 1)
	}
	if b.String() != want {
		t.Errorf("text differs from the live run's:\n%s\nwant\n%s", b.String(), want)
	}
	var csv bytes.Buffer
	if err := WriteTables(&csv, CSV, BenchTables(s)...); err != nil {
		t.Fatal(err)
	}
	// committed 10,004, share 10,127 of 22,508, per minute 10,127, rolled
	// back 123.
	if !strings.Contains(csv.String(), "new_order,10004,45.0,10127.0,123,1904,0,0,10.2,8.0,") {
		t.Errorf("csv:\n%s", csv.String())
	}
}

// The timeline chart plots every second's completed operations (the
// committed and the New-Orders rolled back by design, as tpmC counts
// them), shades the warm-up (0-10 s) and the drain (70-71 s), and draws
// the window's mean (22508 / 60 per second).
func TestBenchCharts(t *testing.T) {
	res, s := benchRunSample(t)
	cs, err := BenchCharts(s, res.Seconds, "run-w1-t4.jsonl")
	if err != nil || len(cs) != 2 {
		t.Fatalf("%v, %d charts", err, len(cs))
	}
	tl, lat := cs[0], cs[1]
	if tl.Kind != plot.KindBenchTimeline || lat.Kind != plot.KindBenchLatency {
		t.Fatalf("kinds %s %s", tl.Kind, lat.Kind)
	}
	all, no := tl.Series("all five kinds"), tl.Series("new_order (tpmC / 60)")
	if len(all.Y) != 71 || all.X[0] != 0.5 {
		t.Fatalf("%d seconds from %v", len(all.Y), all.X[0])
	}
	var sumNO, sumAll float64
	for i := 10; i < 70; i++ {
		sumNO += no.Y[i]
		sumAll += all.Y[i]
	}
	if sumNO != 10127 || sumAll != 22508 {
		t.Errorf("window sums %v %v", sumNO, sumAll)
	}
	if w := tl.Series("shaded warm-up"); w == nil || w.X[0] != 0 || w.X[1] != 10 {
		t.Errorf("warm-up %+v", w)
	}
	if d := tl.Series("shaded drain"); d == nil || d.X[0] != 70 || d.X[1] != 71 {
		t.Errorf("drain %+v", d)
	}
	if m := tl.Series("window mean 375/s"); m == nil || m.Y[0] != 22508.0/60 {
		t.Errorf("mean %+v", tl.Plotted)
	}
	p99 := lat.Series("p99")
	if p99 == nil || len(p99.X) != 5 || p99.X[0] != *s.Transactions[0].LatencyMs.P99 || p99.Labels[1] != "payment" {
		t.Errorf("p99 %+v", p99)
	}
	for _, c := range cs {
		png, err := c.PNG(plot.Options{})
		if err != nil || len(png) < 10000 {
			t.Errorf("%s: %v, %d bytes", c.Kind, err, len(png))
		}
	}
}

// The finding on operations given up counts the conflicts each met: the
// first attempt's and one a retry. The real 4-terminal run (10 retries)
// gave up 2 Payments, each after 11 conflicts: it read "after 10
// conflicts each"; with no retry it read "after 0 conflicts".
func TestBenchGivenUpFinding(t *testing.T) {
	res, _ := benchRunSample(t)
	for _, c := range []struct {
		retries int
		want    string
	}{
		{10, "run-w1-t4.jsonl: 2 transactions given up, each after 11 conflicts (the first attempt and 10 retries)"},
		{0, "run-w1-t4.jsonl: 2 transactions given up, each after 1 conflict (no retry)"},
	} {
		r := *res
		r.Run.Retries = c.retries
		var got []string
		for _, f := range BenchRunSection("run-w1-t4.jsonl", "run-w1-t4.jsonl", &r).Findings {
			if strings.Contains(f.Text, "given up") {
				got = append(got, f.Text)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("retries %d: findings %q, want %q", c.retries, got, c.want)
		}
	}
}

// A run's error messages are counted over the whole run, the
// transactions table's errors in the window: the note says so, where
// "new_order error ×5" stood beside a table of 3 errors.
func TestBenchErrorNoteScope(t *testing.T) {
	res, _ := benchRunSample(t)
	r := *res
	r.Run.Errors = []parse.BenchError{{Kind: "new_order", Message: "commit: lock conflict on no wait transaction", Count: 5}}
	s := analyze.SummarizeBench(&r.Run, r.Seconds, analyze.NewThresholds())
	notes := BenchRunTable(s).Notes
	want := "new_order error ×5 in the whole run (warm-up and drain too): commit: lock conflict on no wait transaction"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
}

// A window whose mix fell under the spec's minimums because Payments were
// given up says so in the run table (text, markdown, CSV) and, in the
// report, as a warning: the testdata run with half its Payments given up.
func TestBenchMixShortShown(t *testing.T) {
	res, _ := benchRunSample(t)
	for i := range res.Seconds {
		p := &res.Seconds[i].Kinds[1]
		half := p.Committed / 2
		p.Committed -= half
		p.GaveUp += half
	}
	s := analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
	benchRowAndWarning(t, res, s, "mix off the spec", "payment 27.4 % of the completed operations, under the spec's 43 % (4829 given up, 0 failed): "+
		"tpmC counts a mix TPC-C does not allow (rule bench-mix)")
}

// benchRowAndWarning checks that summary s of run res has the run
// table's row "label  words" in text and that its report section has
// the warning "run-w1-t4.jsonl: label: words".
func benchRowAndWarning(t *testing.T, res *parse.BenchResult, s *analyze.BenchSummary, label, words string) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteBenchText(&b, s); err != nil {
		t.Fatal(err)
	}
	if row := fmt.Sprintf("%-24s%s", label, words); !strings.Contains(b.String(), row) {
		t.Errorf("no %q in\n%s", row, b.String())
	}
	sec := BenchRunSection("run-w1-t4.jsonl", "run-w1-t4.jsonl", res)
	if !slices.ContainsFunc(sec.Findings, func(f Finding) bool {
		return f.Severity == "warning" && f.Text == "run-w1-t4.jsonl: "+label+": "+words
	}) {
		t.Errorf("findings %+v", sec.Findings)
	}
}

// The transactions table's new_order row reads 10004 committed and 10127
// per minute over 60 s, its share and rate counting the 123 rolled back
// by design in the column after them: a note says what they count.
func TestBenchTransactionsSayWhatTheyCount(t *testing.T) {
	_, s := benchRunSample(t)
	tx := benchTransactions(s, ms)
	if got := tx.Rows[0][:5]; !slices.Equal(got, []string{"new_order", "10004", "45.0", "10127.0", "123"}) {
		t.Errorf("new_order row %q", got)
	}
	want := []string{"share % and per minute count the committed and the rolled back by design, as tpmC does", "tpmC 10127.0, tpmTotal 22508.0 over a window of 60 s"}
	if !slices.Equal(tx.Notes, want) {
		t.Errorf("notes %q, want %q", tx.Notes, want)
	}
}

// A run of more terminals a warehouse than TPC-C's 10 (clause 4.2.2)
// says so in the run table and, in the report, as a warning; the
// testdata run (4 terminals on 1 warehouse) does not. Here that run
// with its header's terminals set to 25: its figures are the 4
// terminals', only the check reads the count.
func TestBenchTerminalsOverSpecShown(t *testing.T) {
	res, s := benchRunSample(t)
	if s.TerminalsPerWarehouse != 4 || s.TerminalsOverSpec {
		t.Errorf("4 terminals on 1 warehouse: %v a warehouse, over %v", s.TerminalsPerWarehouse, s.TerminalsOverSpec)
	}
	if w := TerminalsOverWords(s); w != "" {
		t.Errorf("4 terminals on 1 warehouse: %q", w)
	}
	res.Run.Terminals = 25
	s = analyze.SummarizeBench(&res.Run, res.Seconds, analyze.NewThresholds())
	if s.TerminalsPerWarehouse != 25 || !s.TerminalsOverSpec {
		t.Errorf("25 terminals on 1 warehouse: %v a warehouse, over %v", s.TerminalsPerWarehouse, s.TerminalsOverSpec)
	}
	benchRowAndWarning(t, res, s, "terminals off the spec", "25 terminals a warehouse, over the spec's 10 (TPC-C clause 4.2.2): "+
		"tpmC includes contention TPC-C does not measure (rule bench-terminals)")
}
