package analyze

import (
	"fmt"
	"math"

	"github.com/fbdiag/fbdiag/parse"
)

// BenchSummary is a fbdiag bench run's figures: the run as recorded and
// what its measured window's seconds add up to. It is the JSON contract of
// docs/bench-json.md (bench run --format json, and the first line of
// --out), computed the same way from a live run or a file.
type BenchSummary struct {
	*parse.BenchRun
	// TpmC is the New-Orders completed in the window per minute of it:
	// (committed + rolled back by design) × 60 / window seconds, as TPC-C
	// counts them (clause 5.4; go-tpc alike, BenchmarkSQL logs them as
	// executed New-Orders flagged rolled back): a New-Order that names an
	// unused item is a business transaction the terminal completed.
	// TpmTotal counts every kind so. Conflicts given up and errors are not
	// counted. Null when the window is empty (a run interrupted in its
	// warm-up).
	TpmC          *float64 `json:"tpmc"`
	TpmTotal      *float64 `json:"tpm_total"`
	WindowSeconds int      `json:"window_seconds"`
	// SteadyState says whether throughput stayed level through the
	// window (Steady says how it was judged).
	SteadyState  bool               `json:"steady_state"`
	Steady       SteadyTest         `json:"steady"`
	Transactions []BenchTransaction `json:"transactions"`
	// MixShort are the kinds whose share of the window's completed
	// operations is under the spec's minimum (rule bench-mix) while some
	// of them were given up or failed; empty when the mix held.
	MixShort []BenchMixShort `json:"mix_short"`
	// TerminalsPerWarehouse is the run's terminals over its warehouses
	// (0 without warehouses); TerminalsOverSpec is set when that is more
	// than TPC-C's population of terminals a warehouse (rule
	// bench-terminals): the extra terminals queue on the warehouse's and
	// districts' rows, contention the spec does not measure, and tpmC
	// compares only with runs of as many terminals a warehouse.
	TerminalsPerWarehouse float64 `json:"terminals_per_warehouse"`
	TerminalsOverSpec     bool    `json:"terminals_over_spec"`
	// IOWindow is the page I/O during the window (the edges' difference)
	// and CacheHit 1 − reads / fetches in it; null without both edges.
	IOWindow *parse.BenchIO `json:"io_window"`
	CacheHit *float64       `json:"cache_hit"`
}

// BenchTransaction is one kind's figures in the window.
type BenchTransaction struct {
	Name       string `json:"name"`
	Committed  int64  `json:"committed"`
	RolledBack int64  `json:"rolled_back"`
	Conflicts  int64  `json:"conflicts"`
	GaveUp     int64  `json:"gave_up"`
	Errors     int64  `json:"errors"`
	// Share and PerMinute count the completed operations (committed and
	// rolled back by design): Share of every kind's, percent.
	Share     float64 `json:"share"`
	PerMinute float64 `json:"per_minute"`
	// LatencyMs are the committed operations' times, from the first
	// attempt's start to the commit (retries included); null when none
	// committed. Percentiles are read from 2%-wide histogram buckets: the
	// bucket's upper bound, never above the maximum.
	LatencyMs *LatencySummary `json:"latency_ms"`
}

// BenchMixShort is a kind completed under its minimum share (percent) in
// the window, with its operations given up and failed there.
type BenchMixShort struct {
	Name    string  `json:"name"`
	Share   float64 `json:"share"`
	Minimum float64 `json:"minimum"`
	GaveUp  int64   `json:"gave_up"`
	Errors  int64   `json:"errors"`
}

// mixShort checks the kinds' shares against the spec's minimums (clause
// 5.2.3; New-Order has none). A share under its minimum with nothing
// given up or failed is the decks cut at the window's edges (each
// terminal deals 100 cards in the spec's proportions), not flagged.
func mixShort(tx []BenchTransaction, th Thresholds) []BenchMixShort {
	out := []BenchMixShort{}
	var total int64
	for _, t := range tx {
		total += t.Committed + t.RolledBack
	}
	if total == 0 {
		return out
	}
	for _, t := range tx[1:] {
		m := th.Get("bench-mix", "min_"+t.Name)
		if t.Share < m && t.GaveUp+t.Errors > 0 {
			out = append(out, BenchMixShort{Name: t.Name, Share: t.Share, Minimum: m, GaveUp: t.GaveUp, Errors: t.Errors})
		}
	}
	return out
}

// terminalsOverSpec is terminals over warehouses and whether that is
// more than the spec's terminals a warehouse (rule bench-terminals).
func terminalsOverSpec(terminals, warehouses int, th Thresholds) (float64, bool) {
	if warehouses <= 0 {
		return 0, false
	}
	per := float64(terminals) / float64(warehouses)
	return per, per > th.Get("bench-terminals", "max_per_warehouse")
}

// LatencySummary are latency percentiles and extremes in milliseconds. A
// percentile of fewer operations than it needs (percentileOf) is null:
// the 99th of 6 Order-Status calls is their slowest, which Max says.
type LatencySummary struct {
	Mean float64  `json:"mean"`
	P50  *float64 `json:"p50"`
	P90  *float64 `json:"p90"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	Max  float64  `json:"max"`
}

// percentileOf is the q-quantile of a histogram of n operations, nil
// when n < 1/(1−q): with fewer, ⌈n·q⌉ = n and the quantile is the
// largest value (2 operations for the median, 10 for the 90th, 20 for
// the 95th, 100 for the 99th).
func percentileOf(hist map[int]int64, n int64, q, maxMs float64) *float64 {
	if float64(n)*(1-q) < 1-1e-9 {
		return nil
	}
	v := histQuantile(hist, n, q, maxMs)
	return &v
}

// SteadyTest is how the steady state was judged: the window cut into
// Blocks blocks of BlockSeconds (the last one also takes the seconds left
// over), the completed operations per second of each, a straight line
// through them. Drift is the line's change across
// the window as a share of the mean, CV the blocks' coefficient of
// variation; steady means |Drift| ≤ MaxDrift and CV ≤ MaxCV, with at
// least MinBlocks blocks.
type SteadyTest struct {
	Blocks       int       `json:"blocks"`
	BlockSeconds int       `json:"block_seconds"`
	Rates        []float64 `json:"rates"` // completed operations per second, per block
	Drift        *float64  `json:"drift"`
	CV           *float64  `json:"cv"`
	MaxDrift     float64   `json:"max_drift"`
	MaxCV        float64   `json:"max_cv"`
	MinBlocks    int       `json:"min_blocks"`
	Verdict      string    `json:"verdict"`
}

// SummarizeBench computes the figures of a run from its seconds.
func SummarizeBench(run *parse.BenchRun, seconds []parse.BenchSecond, th Thresholds) *BenchSummary {
	s := &BenchSummary{BenchRun: run, Transactions: []BenchTransaction{}, MixShort: []BenchMixShort{}}
	s.WindowSeconds = max(0, run.Window[1]-run.Window[0])
	var hist [5]map[int]int64
	var sumMs [5]float64
	var maxMs [5]float64
	tx := make([]BenchTransaction, len(parse.BenchKinds))
	for k, name := range parse.BenchKinds {
		tx[k].Name = name
		hist[k] = map[int]int64{}
	}
	for _, sec := range seconds {
		if sec.T < run.Window[0] || sec.T >= run.Window[1] {
			continue
		}
		for k := range tx {
			c := sec.Kinds[k]
			tx[k].Committed += c.Committed
			tx[k].RolledBack += c.RolledBack
			tx[k].Conflicts += c.Conflicts
			tx[k].GaveUp += c.GaveUp
			tx[k].Errors += c.Errors
			sumMs[k] += c.SumMs
			maxMs[k] = max(maxMs[k], c.MaxMs)
			for _, b := range c.Latency {
				hist[k][int(b[0])] += int64(b[1])
			}
		}
	}
	var total int64
	for k := range tx {
		total += tx[k].Committed + tx[k].RolledBack
	}
	for k := range tx {
		t := &tx[k]
		done := t.Committed + t.RolledBack
		if total > 0 {
			t.Share = 100 * float64(done) / float64(total)
		}
		if s.WindowSeconds > 0 {
			t.PerMinute = float64(done) * 60 / float64(s.WindowSeconds)
		}
		if t.Committed > 0 {
			l := &LatencySummary{Mean: sumMs[k] / float64(t.Committed), Max: maxMs[k]}
			l.P50 = percentileOf(hist[k], t.Committed, 0.50, maxMs[k])
			l.P90 = percentileOf(hist[k], t.Committed, 0.90, maxMs[k])
			l.P95 = percentileOf(hist[k], t.Committed, 0.95, maxMs[k])
			l.P99 = percentileOf(hist[k], t.Committed, 0.99, maxMs[k])
			t.LatencyMs = l
		}
	}
	s.Transactions = tx
	s.MixShort = mixShort(tx, th)
	s.TerminalsPerWarehouse, s.TerminalsOverSpec = terminalsOverSpec(run.Terminals, run.Warehouses, th)
	if s.WindowSeconds > 0 {
		c := float64(tx[0].Committed+tx[0].RolledBack) * 60 / float64(s.WindowSeconds)
		a := float64(total) * 60 / float64(s.WindowSeconds)
		s.TpmC, s.TpmTotal = &c, &a
	}
	s.Steady = steadyTest(seconds, run.Window, th)
	s.SteadyState = s.Steady.Verdict == "steady"
	if a, b := run.IO[0], run.IO[1]; a != nil && b != nil {
		d := parse.BenchIO{PageReads: b.PageReads - a.PageReads, PageWrites: b.PageWrites - a.PageWrites,
			PageFetches: b.PageFetches - a.PageFetches, PageMarks: b.PageMarks - a.PageMarks}
		s.IOWindow = &d
		if d.PageFetches > 0 {
			h := 1 - float64(d.PageReads)/float64(d.PageFetches)
			s.CacheHit = &h
		}
	}
	return s
}

// histQuantile is the q quantile of a histogram of n values: the upper
// bound of the bucket that holds it, capped at the largest value seen.
func histQuantile(h map[int]int64, n int64, q float64, maxMs float64) float64 {
	rank := int64(math.Ceil(q * float64(n)))
	rank = max(rank, 1)
	var cum int64
	for b := 0; b < parse.BenchBuckets; b++ {
		cum += h[b]
		if cum >= rank {
			_, hi := parse.BenchBucketBounds(b)
			return math.Min(hi, maxMs)
		}
	}
	return maxMs
}

// steadyTest judges whether the window's throughput is level.
func steadyTest(seconds []parse.BenchSecond, window [2]int, th Thresholds) SteadyTest {
	st := SteadyTest{
		MaxDrift:  th.Get("bench-steady-state", "max_drift"),
		MaxCV:     th.Get("bench-steady-state", "max_cv"),
		MinBlocks: int(th.Get("bench-steady-state", "min_blocks")),
		Rates:     []float64{},
	}
	n := window[1] - window[0]
	const wantBlocks = 10
	st.BlockSeconds = max(1, n/wantBlocks)
	st.Blocks = n / st.BlockSeconds
	if st.Blocks < st.MinBlocks || st.Blocks < 2 {
		st.Blocks = max(st.Blocks, 0)
		st.Verdict = fmt.Sprintf("not judged: a window of %d s makes %d blocks, fewer than %d", n, st.Blocks, st.MinBlocks)
		return st
	}
	// The last block also takes the seconds left over (n mod
	// BlockSeconds): left out, a stall in the window's last seconds went
	// unseen by the verdict while tpmC counted it.
	per := map[int]int64{}
	for _, sec := range seconds {
		if sec.T < window[0] || sec.T >= window[1] {
			continue
		}
		for _, c := range sec.Kinds {
			per[min((sec.T-window[0])/st.BlockSeconds, st.Blocks-1)] += c.Completed()
		}
	}
	for b := range st.Blocks {
		secs := st.BlockSeconds
		if b == st.Blocks-1 {
			secs += n - st.Blocks*st.BlockSeconds
		}
		st.Rates = append(st.Rates, float64(per[b])/float64(secs))
	}
	if !st.level(fmt.Sprintf("the %d-second blocks", st.BlockSeconds), "the window") {
		st.Verdict = "not steady: nothing committed"
	}
	return st
}

// level judges st.Rates, one a block: a straight line through them
// drifts by Drift of their mean across them, and they vary by CV of it.
// blocks and across name them in the verdict. False when the mean is
// not positive (no verdict then).
func (st *SteadyTest) level(blocks, across string) bool {
	xs := make([]float64, len(st.Rates))
	for b := range xs {
		xs[b] = float64(b)
	}
	mean, sd := meanSD(st.Rates)
	if !(mean > 0) {
		return false
	}
	slope := olsSlope(xs, st.Rates)
	drift := slope * float64(len(st.Rates)) / mean
	cv := sd / mean
	st.Drift, st.CV = &drift, &cv
	switch {
	case math.Abs(drift) > st.MaxDrift:
		dir := "rose"
		if drift < 0 {
			dir = "fell"
		}
		st.Verdict = fmt.Sprintf("not steady: throughput %s by %.1f%% of its mean across %s (more than %.0f%%)", dir, math.Abs(drift)*100, across, st.MaxDrift*100)
	case cv > st.MaxCV:
		st.Verdict = fmt.Sprintf("not steady: %s vary by %.1f%% of the mean (more than %.0f%%)", blocks, cv*100, st.MaxCV*100)
	default:
		st.Verdict = "steady"
	}
	return true
}

func meanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)-1))
}

func olsSlope(x, y []float64) float64 {
	mx, _ := meanSD(x)
	my, _ := meanSD(y)
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}
