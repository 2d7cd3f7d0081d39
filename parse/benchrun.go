package parse

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// BenchFormat marks the first line of a fbdiag bench run's result file
// (JSON Lines: the run, then one line per second), docs/bench-json.md.
const BenchFormat = "fbdiag-bench-run/1"

// BenchKinds are the five TPC-C transactions, in the spec's order; the
// per-kind arrays of BenchSecond follow it.
var BenchKinds = []string{"new_order", "payment", "order_status", "delivery", "stock_level"}

// The phases of a run's seconds.
const (
	PhaseWarmup = "warmup"
	PhaseWindow = "window"
	PhaseDrain  = "drain"
)

// BenchRun is what fbdiag bench run set up and measured: the settings,
// the server, and the facts read at the measured window's edges. The
// figures drawn from the seconds (tpmC, percentiles, steady state) are not
// part of it: analyze computes them, from a live run or a file alike.
type BenchRun struct {
	Format   string    `json:"format"`
	Tool     string    `json:"tool"` // "fbdiag <version>"
	Database string    `json:"database"`
	Started  time.Time `json:"started"`
	// Mode is "sp" (one stored procedure call a transaction) or "client"
	// (plain SQL statements from fbdiag).
	Mode       string `json:"mode"`
	Terminals  int    `json:"terminals"`
	Warehouses int    `json:"warehouses"`
	// Home is the terminals' warehouse policy: "fixed" (terminal i works
	// on warehouse i mod W + 1) or "random" (a warehouse per transaction).
	Home      string `json:"home"`
	Isolation string `json:"isolation"`
	// Retries is how many times a transaction that met a conflict is
	// retried (after a jittered back-off) before it is given up.
	Retries int `json:"retries"`
	// Mix is the share of each kind in the terminals' decks, percent.
	Mix             []BenchShare `json:"mix"`
	WarmupSeconds   int          `json:"warmup_seconds"`
	DurationSeconds int          `json:"duration_seconds"` // asked for
	// Window is the measured window in seconds since Started: [start,
	// end). It is shorter than asked when the run was interrupted.
	Window  [2]int `json:"window"`
	Partial bool   `json:"partial"`
	// Stopped says why a partial run ended: "interrupted", or an error.
	Stopped string       `json:"stopped,omitempty"`
	Server  BenchServer  `json:"server"`
	Size    [2]*int64    `json:"size_bytes"` // pages × page size at the window's start and end
	IO      [2]*BenchIO  `json:"io"`         // MON$IO_STATS of the database at the window's edges
	Client  BenchClient  `json:"client"`
	Sweep   *BenchSweep  `json:"sweep,omitempty"`
	Errors  []BenchError `json:"error_messages"`
}

// BenchShare is one kind's share of the mix, percent.
type BenchShare struct {
	Name    string  `json:"name"`
	Percent float64 `json:"percent"`
}

// BenchServer is what the server says of itself and the database.
type BenchServer struct {
	Version string `json:"version"` // the Services API's banner, e.g. "LI-V3.0.11.33637 Firebird 3.0"
	Engine  string `json:"engine"`  // RDB$GET_CONTEXT('SYSTEM', 'ENGINE_VERSION')
	// Architecture is Super, SuperClassic or Classic where the server
	// says so (RDB$CONFIG, Firebird 4+); on Firebird 3 only the process
	// model shows: "Classic" when the terminals' attachments have
	// different server processes, else "Super or SuperClassic".
	Architecture       string `json:"architecture"`
	ArchitectureSource string `json:"architecture_source"` // rdb$config or server processes
	PageSize           int64  `json:"page_size"`
	PageBuffers        int64  `json:"page_buffers"` // MON$PAGE_BUFFERS: the cache the database runs with
	ForcedWrites       bool   `json:"forced_writes"`
	ODS                string `json:"ods"`
}

// BenchIO is the database's page I/O since the server opened it.
type BenchIO struct {
	PageReads   int64 `json:"page_reads"`
	PageWrites  int64 `json:"page_writes"`
	PageFetches int64 `json:"page_fetches"`
	PageMarks   int64 `json:"page_marks"`
}

// BenchClient is fbdiag's own share of the machine in the window: its
// CPU time (getrusage of the process) against the window's wall time, and
// the host's load average at the window's edges (Linux; null elsewhere).
type BenchClient struct {
	CPUs          int         `json:"cpus"`
	UserSeconds   *float64    `json:"cpu_user_seconds"`
	SystemSeconds *float64    `json:"cpu_system_seconds"`
	CPUShare      *float64    `json:"cpu_share"` // (user + system) / window seconds: 1 is one core busy
	LoadAverage   [2]*float64 `json:"load_average"`
}

// BenchSweep says which setting of a sweep a run measured.
type BenchSweep struct {
	Axis  string `json:"axis"` // page_buffers, terminals or warehouses
	Value int    `json:"value"`
	Run   int    `json:"run"` // 1..R
}

// BenchError is one error message the terminals met, with how often.
type BenchError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// BenchSecond is one second of a run, [T, T+1) seconds after Started, per
// kind in BenchKinds order.
type BenchSecond struct {
	T     int           `json:"t"`
	Phase string        `json:"phase"`
	Kinds [5]BenchCount `json:"-"`
}

// BenchCount is what one kind did in one second: operations are counted
// when they end. Conflicts are failed attempts (each retried or given
// up); an operation is committed, rolled back (the spec's 1% of
// New-Orders), given up after Retries conflicts, or an error. Latency is
// the histogram of the committed operations' times, from the first
// attempt's start to the commit: sparse [bucket, count] pairs (see
// BenchBucket).
type BenchCount struct {
	Committed  int64       `json:"committed"`
	RolledBack int64       `json:"rolled_back"`
	Conflicts  int64       `json:"conflicts"`
	GaveUp     int64       `json:"gave_up"`
	Errors     int64       `json:"errors"`
	SumMs      float64     `json:"sum_ms"`
	MaxMs      float64     `json:"max_ms"`
	Latency    [][2]uint32 `json:"latency"`
}

// Completed is the operations that ended as the spec's business
// transactions: committed, or rolled back by design (the New-Orders that
// name an unused item, TPC-C clause 2.4.1.4). TPC-C counts both in its
// throughput (tpmC is the New-Orders completed per minute); conflicts
// given up and errors are not completed.
func (c BenchCount) Completed() int64 { return c.Committed + c.RolledBack }

// MarshalJSON writes a second as {"t", "phase", "new_order": {...}, ...}.
func (s BenchSecond) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `{"t":%d,"phase":%q`, s.T, s.Phase)
	for i, k := range BenchKinds {
		c := s.Kinds[i]
		if c.Latency == nil {
			c.Latency = [][2]uint32{}
		}
		j, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `,%q:%s`, k, j)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// UnmarshalJSON reads a second written by MarshalJSON.
func (s *BenchSecond) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if err := json.Unmarshal(m["t"], &s.T); err != nil {
		return fmt.Errorf("t: %v", err)
	}
	if err := json.Unmarshal(m["phase"], &s.Phase); err != nil {
		return fmt.Errorf("phase: %v", err)
	}
	for i, k := range BenchKinds {
		if raw, ok := m[k]; ok {
			if err := json.Unmarshal(raw, &s.Kinds[i]); err != nil {
				return fmt.Errorf("%s: %v", k, err)
			}
		}
	}
	return nil
}

// Latency histogram buckets: bucket 0 holds everything under 1 µs; bucket
// b ≥ 1 holds [1 µs·g^(b-1), 1 µs·g^b) with g = 1.02, so a percentile
// read from it is within 2% of the true value; the last bucket
// (BenchBuckets-1, from about 9.7 minutes) holds everything above.
const (
	BenchBuckets     = 1200
	benchBucketGrow  = 1.02
	benchBucketFirst = 0.001 // ms
)

var logGrow = math.Log(benchBucketGrow)

// BenchBucket is the bucket of a latency in milliseconds.
func BenchBucket(ms float64) int {
	if !(ms >= benchBucketFirst) {
		return 0
	}
	// Compared as a float: past 1e305 ms the quotient is +Inf, and an int
	// of +Inf is the smallest int (an index below 0).
	f := math.Floor(math.Log(ms/benchBucketFirst) / logGrow)
	if !(f < BenchBuckets-2) {
		return BenchBuckets - 1
	}
	return int(f) + 1
}

// BenchBucketBounds is the range [lo, hi) of bucket b in milliseconds.
func BenchBucketBounds(b int) (lo, hi float64) {
	if b <= 0 {
		return 0, benchBucketFirst
	}
	lo = benchBucketFirst * math.Pow(benchBucketGrow, float64(b-1))
	if b >= BenchBuckets-1 {
		return lo, math.Inf(1)
	}
	return lo, benchBucketFirst * math.Pow(benchBucketGrow, float64(b))
}

// BenchResult is a bench run's result file read back: the run and its
// seconds.
type BenchResult struct {
	File    string
	Run     BenchRun
	Seconds []BenchSecond
}

// ReadBenchResult reads a fbdiag bench run result (JSON Lines). The first
// line must be the run (format BenchFormat); a bad second line is an
// error naming its line. Memory grows with the seconds, which is what the
// charts show.
func ReadBenchResult(r io.Reader, name string) (*BenchResult, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	res := &BenchResult{File: name}
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" {
			continue
		}
		if n == 1 {
			if err := json.Unmarshal([]byte(line), &res.Run); err != nil {
				return nil, fmt.Errorf("%s:1: not a fbdiag bench run: %v", name, err)
			}
			if res.Run.Format != BenchFormat {
				return nil, fmt.Errorf("%s:1: format %q, want %q", name, res.Run.Format, BenchFormat)
			}
			continue
		}
		var s BenchSecond
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if len(res.Seconds) > 0 && s.T <= res.Seconds[len(res.Seconds)-1].T {
			return nil, fmt.Errorf("%s:%d: second %d after second %d", name, n, s.T, res.Seconds[len(res.Seconds)-1].T)
		}
		res.Seconds = append(res.Seconds, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, n+1, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: empty", name)
	}
	return res, nil
}

// isBenchRunLine recognises a bench result's first line.
func isBenchRunLine(l string) bool {
	return strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "\ufeff")), `{"format":"`+BenchFormat+`"`)
}

// benchRunHead is the part of a bench result's first line that fbdiag
// throughput reads: the run and the figures fbdiag wrote with it.
type benchRunHead struct {
	BenchRun
	TpmC          *float64 `json:"tpmc"`
	TpmTotal      *float64 `json:"tpm_total"`
	WindowSeconds int      `json:"window_seconds"`
	SteadyState   *bool    `json:"steady_state"`
	// Transactions are the window's counts per kind (their latencies,
	// latency_ms there, are left unread).
	Transactions []BenchCount `json:"transactions"`
}

// completedRates puts in tpmC and tpmTotal the window's completed
// operations per minute (committed and rolled back by design, BenchCount's
// Completed) from the line's transaction counts: a file written before
// 2026-12-06 left the New-Orders rolled back by design out of both, and
// its runs would compare some 1 % low against newer ones.
func (h *benchRunHead) completedRates() {
	if h.TpmC == nil || h.WindowSeconds <= 0 || len(h.Transactions) != len(BenchKinds) {
		return
	}
	var all int64
	for _, t := range h.Transactions {
		all += t.Completed()
	}
	c := float64(h.Transactions[0].Completed()) * 60 / float64(h.WindowSeconds)
	a := float64(all) * 60 / float64(h.WindowSeconds)
	h.TpmC, h.TpmTotal = &c, &a
}

// readBenchRunAsRun reads a bench result's first line as one benchmark
// run for fbdiag throughput: tpmC is the value, and the size at the
// window's start (db_bytes), the warehouses, terminals and page buffers
// are its settings, so that several results make a degradation (by size)
// or a sweep (--x page_buffers).
func readBenchRunAsRun(r io.Reader, name string) ([]*Run, []Notice, error) {
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, nil, fmt.Errorf("%s:1: %v", name, err)
	}
	var h benchRunHead
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(line), "\ufeff")), &h); err != nil {
		return nil, nil, fmt.Errorf("%s:1: not a fbdiag bench run: %v", name, err)
	}
	if h.TpmC == nil {
		return nil, []Notice{{File: name, Line: 1, Msg: "bench run without a measured window (interrupted in its warm-up): skipped"}}, nil
	}
	h.completedRates()
	run := &Run{File: name, Line: 1, Tool: "fbdiag bench", Name: "TPC-C-like (" + h.Mode + ")",
		Config: map[string]string{
			"warehouses":   fmt.Sprint(h.Warehouses),
			"terminals":    fmt.Sprint(h.Terminals),
			"page_buffers": fmt.Sprint(h.Server.PageBuffers),
			"mode":         h.Mode,
			"home":         h.Home,
		},
		Value:   *h.TpmC,
		Unit:    rateWords["tpmc"],
		Metrics: map[string]float64{"window_seconds": float64(h.WindowSeconds)},
	}
	if h.Size[0] != nil {
		run.Config["db_bytes"] = fmt.Sprint(*h.Size[0])
	}
	if h.TpmTotal != nil {
		run.Metrics["tpm_total"] = *h.TpmTotal
	}
	run.Steady = h.SteadyState
	if len(h.Transactions) == len(BenchKinds) {
		run.Kinds = h.Transactions
	}
	var notes []Notice
	if h.Partial {
		notes = append(notes, Notice{File: name, Line: 1, Msg: fmt.Sprintf("partial bench run (%s): tpmC over a window of %d s", h.Stopped, h.WindowSeconds)})
	}
	return []*Run{run}, notes, nil
}
