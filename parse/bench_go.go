package parse

import (
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
)

// Go benchmark format (golang.org/design/14313-benchmark-format), the
// interchange format benchstat reads:
//
//	dbsize: 10GiB
//	BenchmarkOLTP/dbsize=10GiB/clients=16-8  1  812.5 tps  2.95 ms-lat
//
// A "key: value" line sets a config key for the results after it; each
// result line is one run.
var goConfigRe = lazyre.New(`^([a-z][^\s:A-Z]*): ?(.*)$`)

func (br *BenchReader) goLine(s string) bool {
	if strings.HasPrefix(s, "Benchmark") {
		return br.goResult(s)
	}
	if strings.HasPrefix(s, "Unit ") {
		return true // unit metadata: not needed for one figure per run
	}
	if br.cur != nil {
		return false // inside a pgbench/sysbench run, "duration: 15 s" is theirs
	}
	if m := goConfigRe().FindStringSubmatch(s); m != nil {
		if m[2] == "" {
			delete(br.config, m[1])
		} else {
			br.config[m[1]] = strings.TrimSpace(m[2])
		}
		return true
	}
	return false
}

func (br *BenchReader) goResult(s string) bool {
	f := strings.Fields(s)
	if len(f) == 1 {
		return true // "go test -v" start marker
	}
	if len(f) < 4 || len(f)%2 != 0 {
		br.notices = append(br.notices, br.lr.Notice("Go benchmark line with %d fields (want name, iterations and value/unit pairs): skipped", len(f)))
		return true
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		br.notices = append(br.notices, br.lr.Notice("Go benchmark line: iteration count %q is not a number: skipped", f[1]))
		return true
	}
	br.finish()
	name := strings.TrimPrefix(f[0], "Benchmark")
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	r := &Run{File: br.lr.Name(), Line: br.lr.Line(), Tool: "go", Name: name, Config: br.configCopy(),
		Metrics: map[string]float64{}}
	for _, part := range strings.Split(name, "/")[1:] {
		if k, v, ok := strings.Cut(part, "="); ok {
			r.Config[k] = v
		}
	}
	chosen := false
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			br.notices = append(br.notices, br.lr.Notice("Go benchmark line: value %q is not a number: skipped", f[i]))
			return true
		}
		unit := f[i+1]
		r.Metrics[unit] = v
		u, ok := ParseUnit(unit)
		// The run's figure is its first rate (tps, ops/s); failing that,
		// its first metric.
		if ok && u.Kind == KindRate && !chosen {
			r.Value, r.Unit, chosen = v, u, true
		}
	}
	if !chosen {
		r.Value = r.Metrics[f[3]]
		r.Unit = Unit{Kind: KindNone, Symbol: f[3], Factor: 1}
		if u, ok := ParseUnit(strings.TrimSuffix(f[3], "/op")); ok && u.Kind == KindTime {
			r.Unit = Unit{Kind: KindTime, Symbol: f[3], Factor: u.Factor}
		}
	}
	br.emit(r)
	return true
}
