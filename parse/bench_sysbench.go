package parse

import (
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
)

// sysbench 1.0 (and the 0.5 interval form). See benchmark-formats.md §2.
var (
	sbIntervalRe = lazyre.New(`^\[\s*(\d+(?:\.\d+)?)s\s*\] (?:thds|threads): \d+,? (tps|eps): ([0-9.]+)`)
	sbTransRe    = lazyre.New(`^transactions:\s+(\d+)\s+\(([0-9.]+) per sec\.\)$`)
	sbEventsRe   = lazyre.New(`^events/s \(eps\):\s+([0-9.]+)$`)
	sbLatencyRe  = lazyre.New(`^(min|avg|max|95th percentile|99th percentile):\s+([0-9.]+)$`)
	sbThreadsRe  = lazyre.New(`^Number of threads: (\d+)$`)
)

func (br *BenchReader) sysbenchLine(s, t string) bool {
	if strings.HasPrefix(s, "sysbench ") && len(s) > 9 && s[9] >= '0' && s[9] <= '9' {
		br.start("sysbench").Config["version"] = strings.Fields(s)[1]
		return true
	}
	if m := sbIntervalRe().FindStringSubmatch(t); m != nil {
		r := br.cur
		if r == nil || r.Tool != "sysbench" {
			r = br.start("sysbench")
		}
		tt, _ := strconv.ParseFloat(m[1], 64)
		v, _ := strconv.ParseFloat(m[3], 64)
		r.Intervals = append(r.Intervals, Interval{T: tt, Value: v})
		return true
	}
	r := br.cur
	if r == nil || r.Tool != "sysbench" {
		return false
	}
	if m := sbThreadsRe().FindStringSubmatch(t); m != nil {
		r.Config["threads"] = m[1]
		return true
	}
	if m := sbTransRe().FindStringSubmatch(t); m != nil {
		v, _ := strconv.ParseFloat(m[2], 64)
		n, _ := strconv.ParseFloat(m[1], 64)
		r.Value, r.Unit, r.Line = v, rateWords["tps"], br.lr.Line()
		r.Metrics["transactions"] = n
		return true
	}
	if m := sbEventsRe().FindStringSubmatch(t); m != nil && r.Unit.IsZero() {
		v, _ := strconv.ParseFloat(m[1], 64)
		r.Value, r.Unit, r.Line = v, rateWords["eps"], br.lr.Line()
		return true
	}
	if m := sbLatencyRe().FindStringSubmatch(t); m != nil {
		v, _ := strconv.ParseFloat(m[2], 64)
		key := strings.ReplaceAll(strings.TrimSuffix(m[1], " percentile"), " ", "_")
		r.Metrics["latency_"+key+"_ms"] = v
		return true
	}
	if rest, ok := strings.CutPrefix(t, "queries:"); ok {
		if f := strings.Fields(rest); len(f) >= 2 {
			if v, err := strconv.ParseFloat(strings.TrimPrefix(f[1], "("), 64); err == nil {
				r.Metrics["qps"] = v
			}
		}
		return true
	}
	return false
}
