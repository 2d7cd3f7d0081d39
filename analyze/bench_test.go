package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func benchSample(t *testing.T, name string) (*parse.BenchResult, []byte) {
	t.Helper()
	b := testutil.ReadTestdata(t, "bench", name)
	res, err := parse.ReadBenchResult(bytes.NewReader(b), name)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// The figures computed from the seconds of the live run are the ones the
// run printed (its first line), to the last digit.
func TestSummarizeBench(t *testing.T) {
	res, b := benchSample(t, "run-w1-t4.jsonl")
	s := SummarizeBench(&res.Run, res.Seconds, NewThresholds())
	// tpmC counts the New-Orders completed in the window, the 123 rolled
	// back by design with the 10,004 committed (TPC-C clause 5.4: they are
	// completed business transactions, as go-tpc counts them); tpmTotal the 22,385 committed operations of every kind and
	// those 123.
	if *s.TpmC != 10127 || *s.TpmTotal != 22508 || s.WindowSeconds != 60 || !s.SteadyState || s.Steady.Verdict != "steady" {
		t.Errorf("tpmC %v, tpmTotal %v, window %d, steady %v %q", *s.TpmC, *s.TpmTotal, s.WindowSeconds, s.SteadyState, s.Steady.Verdict)
	}
	want := []struct {
		name                                   string
		committed, rolledBack, conflicts, errs int64
	}{
		{"new_order", 10004, 123, 1904, 0}, {"payment", 9680, 0, 6544, 0}, {"order_status", 900, 0, 0, 0},
		{"delivery", 897, 0, 387, 0}, {"stock_level", 904, 0, 0, 0},
	}
	for i, w := range want {
		tx := s.Transactions[i]
		if tx.Name != w.name || tx.Committed != w.committed || tx.RolledBack != w.rolledBack || tx.Conflicts != w.conflicts || tx.Errors != w.errs {
			t.Errorf("%+v, want %+v", tx, w)
		}
	}
	// tpmC is the completed New-Orders × 60 / window seconds, and the
	// New-Orders' per minute and share say the same.
	no := s.Transactions[0]
	if *s.TpmC != float64(no.Committed+no.RolledBack)*60/60 || no.PerMinute != *s.TpmC || no.Share != 100*10127.0/22508 {
		t.Errorf("tpmC %v, new_order per minute %v, share %v", *s.TpmC, no.PerMinute, no.Share)
	}
	if pay := s.Transactions[1]; pay.PerMinute != 9680 || pay.Share != 100*9680.0/22508 {
		t.Errorf("payment per minute %v, share %v", pay.PerMinute, pay.Share)
	}
	// Percentiles never pass the maximum and grow with the rank; every
	// kind committed hundreds, so each has all four.
	for _, tx := range s.Transactions {
		l := tx.LatencyMs
		if l.P50 == nil || l.P90 == nil || l.P95 == nil || l.P99 == nil {
			t.Fatalf("%s: a percentile missing: %+v", tx.Name, *l)
		}
		if !(*l.P50 <= *l.P90 && *l.P90 <= *l.P95 && *l.P95 <= *l.P99 && *l.P99 <= l.Max) {
			t.Errorf("%s: %+v", tx.Name, *l)
		}
	}
	if s.Transactions[1].GaveUp != 2 {
		t.Errorf("payments given up: %d", s.Transactions[1].GaveUp)
	}
	if s.CacheHit == nil || s.IOWindow.PageReads != 324138-44075 || s.IOWindow.PageFetches != 25916892-1628627 {
		t.Errorf("io %+v, hit %v", s.IOWindow, s.CacheHit)
	}
	// What the run printed on its first line.
	var printed struct {
		TpmC         float64            `json:"tpmc"`
		Steady       SteadyTest         `json:"steady"`
		Transactions []BenchTransaction `json:"transactions"`
		CacheHit     float64            `json:"cache_hit"`
	}
	line1, _, _ := bytes.Cut(b, []byte("\n"))
	if err := json.Unmarshal(line1, &printed); err != nil {
		t.Fatal(err)
	}
	// The file was written before 2026-12-06, when tpmC, the rates and
	// shares left the rolled-back New-Orders out: its tpmc is the 10,004
	// committed. The counts and latencies are the same.
	for i := range printed.Transactions {
		p, r := printed.Transactions[i], s.Transactions[i]
		p.Share, p.PerMinute, r.Share, r.PerMinute = 0, 0, 0, 0
		if !reflect.DeepEqual(p, r) {
			t.Errorf("recomputed figures differ from the printed ones:\n%+v\n%+v", p, r)
		}
	}
	if printed.TpmC != 10004 || printed.Steady.Verdict != s.Steady.Verdict || printed.CacheHit != *s.CacheHit {
		t.Errorf("printed tpmC %v, steady %q, cache hit %v", printed.TpmC, printed.Steady.Verdict, printed.CacheHit)
	}
}

// The first 512 page buffers run of the buffers sweep: the machine's other
// work (load average 9) cut throughput to a quarter in the window's
// middle.
func TestSteadyStateFalls(t *testing.T) {
	res, _ := benchSample(t, "page_buffers-512-run1.jsonl")
	s := SummarizeBench(&res.Run, res.Seconds, NewThresholds())
	st := s.Steady
	if s.SteadyState || st.Blocks != 10 || st.BlockSeconds != 2 || len(st.Rates) != 10 || st.Rates[0] != 210 || st.Rates[5] != 47.5 ||
		st.Verdict != "not steady: throughput rose by 32.2% of its mean across the window (more than 10%)" {
		t.Errorf("%+v", st)
	}
	// A window too short to judge.
	short := res.Run
	short.Window = [2]int{10, 14}
	if st := SummarizeBench(&short, res.Seconds, NewThresholds()).Steady; st.Drift != nil ||
		st.Verdict != "not judged: a window of 4 s makes 4 blocks, fewer than 5" {
		t.Errorf("short window: %+v", st)
	}
	// An empty window (interrupted in the warm-up): no tpmC.
	empty := res.Run
	empty.Window = [2]int{10, 10}
	if e := SummarizeBench(&empty, res.Seconds, NewThresholds()); e.TpmC != nil || e.Transactions[0].LatencyMs != nil {
		t.Errorf("empty window: %v", e.TpmC)
	}
}

// A percentile of fewer operations than it needs is their slowest: a
// run of 1 s (testdata/bench/run-w1-t1-1s.jsonl, one terminal) committed
// 92 New-Orders, 9 Order-Status calls: the 99th of 92 and the 90th of 9
// are left out (null), the median of 9 and the 95th of 92 are given.
func TestBenchPercentilesNeedOperations(t *testing.T) {
	res, _ := benchSample(t, "run-w1-t1-1s.jsonl")
	s := SummarizeBench(&res.Run, res.Seconds, NewThresholds())
	got := map[string]string{}
	for _, tx := range s.Transactions {
		l := tx.LatencyMs
		f := func(p *float64) string {
			if p == nil {
				return "-"
			}
			return "x"
		}
		got[tx.Name] = fmt.Sprintf("%d %s%s%s%s", tx.Committed, f(l.P50), f(l.P90), f(l.P95), f(l.P99))
	}
	want := map[string]string{"new_order": "92 xxx-", "payment": "86 xxx-", "order_status": "9 x---", "delivery": "9 x---", "stock_level": "8 x---"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
}

// Every key of a bench run's summary (what bench run --format json prints
// and its result file's first line holds) is documented in
// docs/bench-json.md.
func TestBenchSummaryDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", "bench-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, name := range []string{"run-w1-t4.jsonl", "run-w1-t1-1s.jsonl"} {
		res, _ := benchSample(t, name)
		b, err := json.Marshal(SummarizeBench(&res.Run, res.Seconds, NewThresholds()))
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
	}
	keys := testutil.JSONKeys(t, out.String())
	for k := range keys {
		if !testutil.Documented(string(doc), k) {
			t.Errorf("JSON key %q is not documented in docs/bench-json.md", k)
		}
	}
	if len(keys) < 40 {
		t.Errorf("only %d keys seen", len(keys))
	}
}

// The steady-state blocks cover the whole window: the seconds left over
// when the window is not a whole number of blocks go to the last block.
// They were left out: the live run's 60 steady seconds followed by a
// 5-second stall, in a 65 s window (blocks of 6 s), were judged steady,
// the stall unseen, while tpmC counted it.
func TestSteadyStateSeesTheWindowsEnd(t *testing.T) {
	res, _ := benchSample(t, "run-w1-t4.jsonl")
	seconds := append([]parse.BenchSecond{}, res.Seconds[:70]...)
	for s := 70; s < 75; s++ {
		seconds = append(seconds, parse.BenchSecond{T: s, Phase: parse.PhaseWindow})
	}
	run := res.Run
	run.Window = [2]int{10, 75}
	s := SummarizeBench(&run, seconds, NewThresholds())
	st := s.Steady
	if st.Blocks != 10 || st.BlockSeconds != 6 || len(st.Rates) != 10 || s.SteadyState || st.Verdict != "not steady: throughput fell by 31.1% of its mean across the window (more than 10%)" {
		t.Errorf("%d blocks of %d s, rates %v, steady %v: %s", st.Blocks, st.BlockSeconds, st.Rates, s.SteadyState, st.Verdict)
	}
	// The last block: seconds 64 to 74, 6 of work, 5 of nothing.
	var last int64
	for _, sec := range seconds[64:75] {
		for _, c := range sec.Kinds {
			last += c.Completed()
		}
	}
	if got := st.Rates[9]; got != float64(last)/11 {
		t.Errorf("last block %v/s, want %d over 11 s", got, last)
	}
}

// A window whose completed mix falls under the spec's minimums because
// operations were given up or failed is flagged: the terminals that give
// up a Payment go on with the next card, more of them New-Orders, and
// tpmC rises on a mix TPC-C does not allow (clause 5.2.3). Live, 10
// terminals on one warehouse with --retries 2 gave up 1,174 Payments for
// 1,909 completed: Payment 35.4 % of the window, tpmC 8,040 against some
// 5,238 with 4 terminals. Here the testdata run's window with half its
// Payments turned into give-ups.
func TestBenchMixShort(t *testing.T) {
	res, _ := benchSample(t, "run-w1-t4.jsonl")
	s := SummarizeBench(&res.Run, res.Seconds, NewThresholds())
	if len(s.MixShort) != 0 {
		t.Errorf("the live run's mix: %+v", s.MixShort)
	}
	seconds := append([]parse.BenchSecond{}, res.Seconds...)
	for i := range seconds {
		p := &seconds[i].Kinds[1]
		half := p.Committed / 2
		p.Committed -= half
		p.GaveUp += half
	}
	s = SummarizeBench(&res.Run, seconds, NewThresholds())
	pay := s.Transactions[1]
	if len(s.MixShort) != 1 || s.MixShort[0].Name != "payment" || s.MixShort[0].Share != pay.Share ||
		s.MixShort[0].Minimum != 43 || s.MixShort[0].GaveUp != pay.GaveUp || pay.Share > 28 {
		t.Errorf("mix short %+v; payment %+v", s.MixShort, pay)
	}
	// Under the minimum with nothing given up or failed is the deck's cut
	// at the window's edges, not flagged (live: Payment 42.96 %).
	seconds = append([]parse.BenchSecond{}, res.Seconds...)
	for i := range seconds {
		seconds[i].Kinds[1].GaveUp = 0
		seconds[i].Kinds[3].Committed = 0
	}
	if s = SummarizeBench(&res.Run, seconds, NewThresholds()); len(s.MixShort) != 0 {
		t.Errorf("no give-ups: %+v", s.MixShort)
	}
}
