package parse

import (
	"math"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
	"github.com/fbdiag/fbdiag/internal/units"
)

// pgbench final summary and progress lines (PostgreSQL 13 to 17). See
// /work/shared/reference/benchmark-formats.md §1 for the variants.
var (
	pgTPSRe      = lazyre.New(`^tps = ([0-9.]+) \((.*)\)$`)
	pgProgressRe = lazyre.New(`^progress: ([0-9.]+) s, ([0-9.]+) tps, lat ([0-9.]+|NaN) ms`)
	pgLatencyRe  = lazyre.New(`^latency (average|stddev) = ([0-9.]+) ms$`)
	pgLagRe      = lazyre.New(`^rate limit schedule lag: avg ([0-9.]+) \(max ([0-9.]+)\) ms$`)
	pgIntRe      = lazyre.New(`^(scaling factor|number of clients|number of threads|duration|number of transactions actually processed|number of failed transactions|number of transactions per client): (\d+)`)
)

var pgKeys = map[string]string{
	"scaling factor":    "scale",
	"number of clients": "clients",
	"number of threads": "threads",
	"duration":          "duration_s",
	"number of transactions actually processed": "transactions",
	"number of failed transactions":             "failed",
	"number of transactions per client":         "transactions_per_client",
}

func (br *BenchReader) pgbench() *Run {
	if br.cur == nil || br.cur.Tool != "pgbench" {
		br.start("pgbench")
	}
	return br.cur
}

func (br *BenchReader) pgbenchLine(s, t string) bool {
	switch {
	case strings.HasPrefix(s, "pgbench (") || strings.HasPrefix(s, "pgbench: "):
		if strings.HasPrefix(s, "pgbench (") {
			br.start("pgbench").Config["version"] = strings.TrimSuffix(strings.TrimPrefix(s, "pgbench ("), ")")
		}
		return true
	case strings.HasPrefix(s, "progress: "):
		m := pgProgressRe().FindStringSubmatch(s)
		if m == nil {
			br.notices = append(br.notices, br.lr.Notice("unreadable pgbench progress line: skipped"))
			return true
		}
		r := br.pgbench()
		tt, _ := strconv.ParseFloat(m[1], 64)
		v, _ := strconv.ParseFloat(m[2], 64)
		r.Intervals = append(r.Intervals, Interval{T: tt, Value: v})
		return true
	case strings.HasPrefix(s, "transaction type: "):
		r := br.pgbench()
		name := strings.TrimPrefix(s, "transaction type: ")
		name = strings.TrimSuffix(strings.TrimPrefix(name, "<builtin: "), ">")
		r.Name = name
		return true
	case strings.HasPrefix(s, "tps = "):
		m := pgTPSRe().FindStringSubmatch(s)
		if m == nil {
			br.notices = append(br.notices, br.lr.Notice("unreadable pgbench tps line: skipped"))
			return true
		}
		r := br.pgbench()
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			br.notices = append(br.notices, br.lr.Notice("unreadable pgbench tps %q: skipped", m[1]))
			return true
		}
		switch {
		case strings.HasPrefix(m[2], "including"):
			// PG ≤ 13 prints this first, then the figure without
			// connection time, which is the one to keep.
			r.Metrics["tps_including_connections"] = v
			if r.Unit.IsZero() {
				r.Value, r.Unit, r.Line = v, rateWords["tps"], br.lr.Line()
			}
		default:
			r.Value, r.Unit, r.Line = v, rateWords["tps"], br.lr.Line()
			br.emit(r)
		}
		return true
	}
	if br.cur == nil || br.cur.Tool != "pgbench" {
		return false
	}
	if m := pgIntRe().FindStringSubmatch(s); m != nil {
		br.cur.Config[pgKeys[m[1]]] = m[2]
		return true
	}
	if m := pgLatencyRe().FindStringSubmatch(s); m != nil {
		v, _ := strconv.ParseFloat(m[2], 64)
		br.cur.Metrics["latency_"+strings.Replace(m[1], "average", "avg", 1)+"_ms"] = v
		return true
	}
	// pgbench prints the schedule lag only when throttled (-R/--rate):
	// the run's tps is then the rate asked for, not what the server can do.
	if m := pgLagRe().FindStringSubmatch(s); m != nil {
		br.cur.Config[RateLimitKey] = "yes"
		v, _ := strconv.ParseFloat(m[1], 64)
		br.cur.Metrics["schedule_lag_avg_ms"] = v
		return true
	}
	if v, ok := strings.CutPrefix(s, "query mode: "); ok {
		br.cur.Config["query_mode"] = v
		return true
	}
	return false
}

// RateLimitKey is the Config key of a pgbench run made under a rate
// limit (-R/--rate), "yes" when it was.
const RateLimitKey = "rate_limited"

// aggState follows a pgbench aggregate log (--aggregate-interval): one
// line per interval, 6 to 16 numeric columns depending on the version and
// options, so it is read by column count.
type aggState struct {
	run   *Run
	lines int
	txns  []float64
	start []float64
	// lagged is true when a line's schedule lag (columns 7 to 10: sum,
	// sum of squares, min, max) is not zero: pgbench.c's doLog writes
	// them only under --rate (up to 14) or zeros without it (15 on).
	lagged bool
}

func (br *BenchReader) aggLine(t string) bool {
	f := strings.Fields(t)
	if br.txnLine(f) {
		return true
	}
	if len(f) < 6 || len(f) > 16 {
		return false
	}
	vals := make([]float64, len(f))
	for i, w := range f {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return false
		}
		vals[i] = v
	}
	// interval_start is a Unix time; the per-transaction log (-l) has it
	// in column 5 and a small client id in column 1.
	if vals[0] < 1e8 {
		return false
	}
	if br.txn.run != nil {
		return false
	}
	a := &br.agg
	if a.run == nil {
		br.finish()
		a.run = &Run{File: br.lr.Name(), Line: br.lr.Line(), Tool: "pgbench", Name: "aggregate log",
			Config: br.configCopy(), Metrics: map[string]float64{}}
	}
	a.lines++
	if len(vals) >= 10 && (vals[6] != 0 || vals[7] != 0 || vals[8] != 0 || vals[9] != 0) {
		a.lagged = true
	}
	a.start = append(a.start, vals[0])
	a.txns = append(a.txns, vals[1])
	return true
}

// flushAgg turns an aggregate log into a run: tps per interval, the first
// and last (partial) intervals dropped.
func (br *BenchReader) flushAgg() {
	a := &br.agg
	r := a.run
	if r == nil {
		return
	}
	starts, txns := a.start, a.txns
	if a.lagged {
		r.Config[RateLimitKey] = "yes"
	}
	*a = aggState{}
	if len(starts) >= 2 {
		step := starts[1] - starts[0]
		if step <= 0 {
			step = 1
		}
		for i := range starts {
			r.Intervals = append(r.Intervals, Interval{T: starts[i], Value: txns[i] / step, Partial: i == 0 || i == len(starts)-1})
		}
	}
	if len(starts) < 3 {
		br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
			Msg: sprintf("pgbench aggregate log with %s: need 3 (the first and last are partial): skipped", units.Count(len(starts), "interval"))})
		return
	}
	var sum float64
	for _, iv := range r.Intervals[1 : len(r.Intervals)-1] {
		sum += iv.Value
	}
	r.Value = sum / float64(len(r.Intervals)-2)
	r.Unit = rateWords["tps"]
	br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
		Msg: sprintf("pgbench aggregate log: tps is the mean of %s (first and last dropped as partial)", units.Count(len(r.Intervals)-2, "full interval"))})
	br.ready = append(br.ready, r)
}

// maxLogClients bounds the client ids a transaction log's run counts:
// pgbench's -c is at most a few thousand.
const maxLogClients = 1 << 16

// txnState follows a pgbench per-transaction log (-l): client_id
// transaction_no time script_no time_epoch time_us [schedule_lag]
// [retries], where time may be "skipped" or "failed".
type txnState struct {
	run         *Run
	done, other int
	clients     map[float64]bool // the client ids seen (column 1)
	base        float64          // epoch of the first line: times are kept relative to it
	first, last float64
}

func (br *BenchReader) txnLine(f []string) bool {
	if len(f) < 6 || len(f) > 8 || br.agg.run != nil {
		return false
	}
	var v [6]float64
	for i := 0; i < 6; i++ {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil && i != 2 {
			return false
		}
		v[i] = x
	}
	if v[0] >= 1e8 || v[4] < 1e8 {
		return false
	}
	a := &br.txn
	if a.run == nil {
		br.finish()
		a.run = &Run{File: br.lr.Name(), Line: br.lr.Line(), Tool: "pgbench", Name: "transaction log",
			Config: br.configCopy(), Metrics: map[string]float64{}}
		a.base = v[4]
		a.first = v[5] / 1e6
	}
	if a.clients == nil {
		a.clients = map[float64]bool{}
	}
	if len(a.clients) < maxLogClients {
		a.clients[v[0]] = true
	}
	if _, err := strconv.ParseFloat(f[2], 64); err != nil {
		a.other++ // skipped or failed
		return true
	}
	a.done++
	t := (v[4] - a.base) + v[5]/1e6
	a.last = math.Max(a.last, t)
	a.first = math.Min(a.first, t)
	return true
}

// flushTxn turns a transaction log into a run: completed transactions
// over the time between the first and the last completion.
func (br *BenchReader) flushTxn() {
	a := br.txn
	br.txn = txnState{}
	r := a.run
	if r == nil {
		return
	}
	span := a.last - a.first
	if a.done < 2 || span <= 0 {
		br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
			Msg: sprintf("pgbench transaction log with %s over %.3f s: too short, skipped", units.Count(a.done, "transaction"), span)})
		return
	}
	r.Value, r.Unit = float64(a.done-1)/span, rateWords["tps"]
	r.Metrics["transactions"] = float64(a.done)
	r.Metrics["skipped_or_failed"] = float64(a.other)
	// pgbench -l writes a log a thread (pgbench_log.PID, .PID.1…): a file
	// holds its thread's clients only, which its tps is of.
	if _, ok := r.Config["clients"]; !ok {
		r.Config["clients"] = sprintf("%d", len(a.clients))
	}
	br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
		Msg: sprintf("pgbench transaction log: tps is %d transactions of %s %s over %.3f s between the first and last completion (pgbench writes a log a thread: the other threads' clients are in their files)",
			a.done, r.Config["clients"], clientWord(r.Config["clients"]), span)})
	br.ready = append(br.ready, r)
}

// clientWord is "client" after a count of one, else "clients" (the count
// is the run's config value, a number pgbench or the log gave).
func clientWord(n string) string {
	if c, err := strconv.Atoi(n); err == nil {
		return units.Plural(c, "client")
	}
	return "clients"
}
