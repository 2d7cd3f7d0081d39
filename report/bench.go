package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
)

// WriteBenchText prints a bench run as go-tpc prints its summary: one
// line per transaction kind with its count of completed operations (the
// New-Orders rolled back by design among them, as go-tpc counts them and
// tpmC does), rate and latency percentiles (of the committed ones), a
// _ERR line for the kinds' failures (conflicts, given up, errors), then
// tpmC and tpmTotal; the run's settings and the server's facts follow as
// a table.
func WriteBenchText(w io.Writer, s *analyze.BenchSummary) error {
	var b strings.Builder
	few := false
	for _, t := range s.Transactions {
		name := strings.ToUpper(t.Name)
		fmt.Fprintf(&b, "[Summary] %-12s - Takes(s): %d, Count: %d, TPM: %.1f", name, s.WindowSeconds, t.Committed+t.RolledBack, t.PerMinute)
		if t.RolledBack > 0 {
			fmt.Fprintf(&b, ", Rolled back by design: %d", t.RolledBack)
		}
		if l := t.LatencyMs; l != nil {
			fmt.Fprintf(&b, ", Avg(ms): %s, 50th(ms): %s, 90th(ms): %s, 95th(ms): %s, 99th(ms): %s, Max(ms): %s",
				ms(l.Mean), msOr(l.P50, "-"), msOr(l.P90, "-"), msOr(l.P95, "-"), msOr(l.P99, "-"), ms(l.Max))
			few = few || l.P99 == nil
		}
		b.WriteByte('\n')
		if t.Conflicts+t.GaveUp+t.Errors > 0 {
			fmt.Fprintf(&b, "[Summary] %-12s - Conflicts: %d, Gave up: %d, Errors: %d\n",
				name+"_ERR", t.Conflicts, t.GaveUp, t.Errors)
		}
	}
	if s.TpmC != nil {
		fmt.Fprintf(&b, "tpmC: %.1f, tpmTotal: %.1f, window: %d s", *s.TpmC, *s.TpmTotal, s.WindowSeconds)
	} else {
		fmt.Fprintf(&b, "tpmC: -, tpmTotal: -, window: empty")
	}
	if s.Partial {
		fmt.Fprintf(&b, " (partial: %s)", s.Stopped)
	}
	b.WriteString("\n")
	if few {
		b.WriteString(fewPercentiles + "\n")
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if _, err := fmt.Fprintln(w, printable.String(l)); err != nil {
			return err
		}
	}
	return WriteTables(w, Text, BenchRunTable(s))
}

func ms(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// msOr is ms of *v, or none when v is nil.
func msOr(v *float64, none string) string {
	if v == nil {
		return none
	}
	return ms(*v)
}

// fewPercentiles says why a percentile is left out (analyze.LatencySummary).
const fewPercentiles = "-: a percentile of fewer operations than it needs is their slowest, which Max says " +
	"(the 99th needs 100, the 95th 20, the 90th 10, the median 2)"

// BenchTables lays a bench run out as tables (CSV, markdown): the
// transactions, then the run.
func BenchTables(s *analyze.BenchSummary) []*Table {
	return []*Table{benchTransactions(s, ms), BenchRunTable(s)}
}

// benchTransactions is the transactions table, each share, rate and
// latency written by num: one decimal for people (ms), JSON's float in
// full for CSV.
func benchTransactions(s *analyze.BenchSummary, num func(float64) string) *Table {
	tx := &Table{Name: "transactions", Title: "Transactions in the measured window",
		Columns: Cols("transaction", ">committed", ">share %", ">per minute", ">rolled back", ">conflicts", ">gave up", ">errors",
			">mean ms", ">p50 ms", ">p90 ms", ">p95 ms", ">p99 ms", ">max ms")}
	numOr := func(v *float64) string {
		if v == nil {
			return ""
		}
		return num(*v)
	}
	for _, t := range s.Transactions {
		row := []string{t.Name, itoa64(t.Committed), num(t.Share), num(t.PerMinute),
			itoa64(t.RolledBack), itoa64(t.Conflicts), itoa64(t.GaveUp), itoa64(t.Errors)}
		if l := t.LatencyMs; l != nil {
			row = append(row, num(l.Mean), numOr(l.P50), numOr(l.P90), numOr(l.P95), numOr(l.P99), num(l.Max))
		} else {
			row = append(row, "", "", "", "", "", "")
		}
		tx.Add(row...)
	}
	for _, t := range s.Transactions {
		if t.RolledBack > 0 {
			// (new_order's 10004 committed read 10127 per minute over 60 s,
			// its share and rate counting the 123 beside them, unsaid)
			tx.Notes = append(tx.Notes, "share % and per minute count the committed and the rolled back by design, as tpmC does")
			break
		}
	}
	if s.TpmC != nil {
		tx.Notes = append(tx.Notes, fmt.Sprintf("tpmC %.1f, tpmTotal %.1f over a window of %d s", *s.TpmC, *s.TpmTotal, s.WindowSeconds))
	}
	return tx
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

// BenchCSVTables are BenchTables for CSV: every figure JSON's, unrounded
// (the transactions' share, rate and latencies), and the run table's
// rows for people followed by the figures a script reads, keyed and
// valued as in JSON (tpmc, tpm_total, window_seconds, steady_state,
// cache_hit, …).
func BenchCSVTables(s *analyze.BenchSummary) []*Table {
	full := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	fullOr := func(v *float64) string {
		if v == nil {
			return ""
		}
		return full(*v)
	}
	tables := []*Table{benchTransactions(s, full), BenchRunTable(s)}
	run := tables[1]
	run.Add("tpmc", fullOr(s.TpmC))
	run.Add("tpm_total", fullOr(s.TpmTotal))
	run.Add("window_seconds", strconv.Itoa(s.WindowSeconds))
	run.Add("steady_state", strconv.FormatBool(s.SteadyState))
	run.Add("cache_hit", fullOr(s.CacheHit))
	run.Add("terminals", strconv.Itoa(s.Terminals))
	run.Add("warehouses", strconv.Itoa(s.Warehouses))
	run.Add("page_buffers", itoa64(s.Server.PageBuffers))
	run.Add("partial", strconv.FormatBool(s.Partial))
	return tables
}

// BenchRunTable is the run's settings, the server's facts and the
// figures read at the window's edges.
func BenchRunTable(s *analyze.BenchSummary) *Table {
	t := &Table{Name: "run", Title: "Run", Columns: Cols("item", "value")}
	t.Add("database", s.Database)
	t.Add("workload", fmt.Sprintf("%s on %s, home %s, mode %s, %s, %s",
		units.Count(s.Terminals, "terminal"), units.Count(s.Warehouses, "warehouse"), s.Home, s.Mode, s.Isolation, units.Count(s.Retries, "retry")))
	t.Add("window", fmt.Sprintf("%d s after a %d s warm-up (seconds %d to %d)", s.WindowSeconds, s.WarmupSeconds, s.Window[0], s.Window[1]))
	if s.Partial {
		t.Add("partial", s.Stopped)
	}
	steady := "yes"
	if !s.SteadyState {
		steady = "no"
	}
	t.Add("steady state", steady+": "+s.Steady.Verdict)
	if w := MixShortWords(s); w != "" {
		t.Add("mix off the spec", w)
	}
	if w := TerminalsOverWords(s); w != "" {
		t.Add("terminals off the spec", w)
	}
	sv := s.Server
	t.Add("server", fmt.Sprintf("%s (%s), %s", sv.Version, sv.Engine, sv.Architecture))
	fw := "off"
	if sv.ForcedWrites {
		fw = "on"
	}
	t.Add("database setup", fmt.Sprintf("page size %d, %d page buffers, forced writes %s, ODS %s", sv.PageSize, sv.PageBuffers, fw, sv.ODS))
	if s.Size[0] != nil && s.Size[1] != nil {
		t.Add("size", fmt.Sprintf("%s → %s", benchMiB(*s.Size[0]), benchMiB(*s.Size[1])))
	}
	if io := s.IOWindow; io != nil {
		v := fmt.Sprintf("%d reads, %d writes, %d fetches, %d marks", io.PageReads, io.PageWrites, io.PageFetches, io.PageMarks)
		if s.CacheHit != nil {
			v += fmt.Sprintf("; cache hit %.2f%%", *s.CacheHit*100)
		}
		t.Add("page I/O in the window", v)
	}
	c := s.Client
	if c.CPUShare != nil {
		t.Add("fbdiag CPU", fmt.Sprintf("%.2f s user + %.2f s system = %.1f%% of one core over the window (%d CPUs)",
			*c.UserSeconds, *c.SystemSeconds, *c.CPUShare*100, c.CPUs))
	}
	if c.LoadAverage[0] != nil && c.LoadAverage[1] != nil {
		t.Add("load average", fmt.Sprintf("%.2f at the window's start, %.2f at its end", *c.LoadAverage[0], *c.LoadAverage[1]))
	}
	if s.Sweep != nil {
		t.Add("sweep", fmt.Sprintf("%s = %d, run %d", s.Sweep.Axis, s.Sweep.Value, s.Sweep.Run))
	}
	// The messages are counted over the whole run, the table's errors in
	// the window: "new_order error ×5" beside 3 errors read as a
	// contradiction.
	for _, e := range s.Errors {
		t.Notes = append(t.Notes, fmt.Sprintf("%s error ×%d in the whole run (warm-up and drain too): %s", e.Kind, e.Count, e.Message))
	}
	return t
}

// MixShortWords says which kinds the window completed under the spec's
// minimum share, and why (analyze.BenchMixShort), or "".
func MixShortWords(s *analyze.BenchSummary) string {
	if len(s.MixShort) == 0 {
		return ""
	}
	parts := make([]string, len(s.MixShort))
	for i, m := range s.MixShort {
		parts[i] = fmt.Sprintf("%s %.1f %% of the completed operations, under the spec's %.0f %% (%d given up, %d failed)",
			m.Name, m.Share, m.Minimum, m.GaveUp, m.Errors)
	}
	return strings.Join(parts, "; ") + ": tpmC counts a mix TPC-C does not allow (rule bench-mix)"
}

// TerminalsOverWords says that the run had more terminals a warehouse
// than the spec's (analyze.BenchSummary.TerminalsOverSpec), or "".
func TerminalsOverWords(s *analyze.BenchSummary) string {
	if !s.TerminalsOverSpec {
		return ""
	}
	return fmt.Sprintf("%s terminals a warehouse, over the spec's %s (TPC-C clause 4.2.2): tpmC includes contention TPC-C does not measure (rule bench-terminals)",
		units.Figure(s.TerminalsPerWarehouse), units.Figure(analyze.NewThresholds().Get("bench-terminals", "max_per_warehouse")))
}

func benchMiB(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MiB" }
