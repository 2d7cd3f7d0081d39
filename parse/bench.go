package parse

import (
	"bufio"
	"bytes"
	"io"
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
)

// Run is one benchmark run: what one pgbench or sysbench invocation, one
// HammerDB test or one Go benchmark result line measured. One run becomes
// one point of a throughput curve; its size (the x) comes from Config.
type Run struct {
	File string `json:"file"`
	Line int    `json:"line"` // line of the result (the tps line, the TEST RESULT line…)
	Tool string `json:"tool"` // pgbench, sysbench, hammerdb, go
	// Name is the workload: "TPC-B (sort of)", "select only", a Go
	// benchmark name without its GOMAXPROCS suffix.
	Name string `json:"name"`
	// Config holds key=value lines of the file ("scale=10 db_bytes=…",
	// Go "key: value" lines), the run's own settings (scale, clients,
	// threads, duration) and a Go benchmark's "/key=value" sub-names.
	Config map[string]string `json:"config"`
	// Value is the run's throughput in Unit (tps, NOPM, or a Go metric).
	Value float64 `json:"value"`
	Unit  Unit    `json:"-"`
	// Metrics are the other figures reported: latency_avg_ms, tpm…
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Intervals are the per-interval reports (pgbench progress:, sysbench
	// [ Ns ] lines, pgbench aggregate log lines).
	Intervals []Interval `json:"intervals,omitempty"`
	// Steady is what a fbdiag bench result says of its window: whether
	// its throughput held steady (nil when the run does not say).
	Steady *bool `json:"steady,omitempty"`
	// Kinds are a fbdiag bench result's window counts per transaction
	// kind, in BenchKinds order (nil for other tools and for a file
	// without them), for analyze to check the mix (rule bench-mix).
	Kinds []BenchCount `json:"-"`
}

// Interval is one periodic report inside a run.
type Interval struct {
	T     float64 `json:"t"`     // seconds since start (or epoch for logs)
	Value float64 `json:"value"` // tps in the interval
	// Partial marks an interval the run's figure leaves out: the first
	// and last of pgbench's aggregate log, which the run did not fill.
	Partial bool `json:"partial,omitempty"`
}

// Pos is where the run's result was read.
func (r *Run) Pos() (string, int) { return r.File, r.Line }

// Key looks a setting up in the run's config, then in the file name
// ("pgbench-rw-scale10.txt" gives scale=10).
func (r *Run) Key(k string) (string, bool) {
	want := normName(k)
	for key, v := range r.Config {
		if normName(key) == want {
			return v, true
		}
	}
	for key, v := range FileNameKeys(r.File) {
		if normName(key) == want {
			return v, true
		}
	}
	return "", false
}

var fileKeyRe = lazyre.New(`^([A-Za-z]+)[=]?(\d+(?:[.,]\d+)?(?:[KMGTkmgt]i?[Bb])?)$`)

// FileNameKeys reads settings written in a file name, such as
// "pgbench-rw-scale10.txt" (scale=10) or "oltp_size=10GB.txt".
func FileNameKeys(name string) map[string]string {
	base := filepath.Base(name)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	keys := map[string]string{}
	for _, part := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == ',' }) {
		if m := fileKeyRe().FindStringSubmatch(part); m != nil {
			keys[strings.ToLower(m[1])] = m[2]
		}
	}
	return keys
}

// BenchReader reads benchmark tool output and returns one Run at a time.
// It knows pgbench (final summaries of 13, 14 and 15+, progress lines,
// aggregate logs), sysbench 1.0 and 0.5 (final report, interval lines),
// HammerDB TEST RESULT lines and the Go benchmark format. Lines it does not
// know are ignored, as benchfmt ignores PASS and ok lines: these files are
// often shell traces or logs around the tool's output.
type BenchReader struct {
	lr      *LineReader
	config  map[string]string // file-level key=value settings
	cur     *Run              // run being read
	ready   []*Run            // complete runs not yet returned
	run     *Run
	notices []Notice
	agg     aggState
	txn     txnState
}

// NewBenchReader returns a reader over r; name is used in messages.
func NewBenchReader(r io.Reader, name string) *BenchReader {
	return &BenchReader{lr: NewLineReader(r, name), config: map[string]string{}}
}

// Run is the run returned by the last successful Next.
func (br *BenchReader) Run() *Run { return br.run }

// Notices lists what was skipped or guessed.
func (br *BenchReader) Notices() []Notice { return br.notices }

// Err is the first read error.
func (br *BenchReader) Err() error { return br.lr.Err() }

// Next reads up to the next complete run.
func (br *BenchReader) Next() bool {
	for len(br.ready) == 0 {
		if !br.lr.Next() {
			br.finish()
			br.flushAgg()
			br.flushTxn()
			if len(br.ready) == 0 {
				return false
			}
			break
		}
		br.line(br.lr.Text())
	}
	br.run, br.ready = br.ready[0], br.ready[1:]
	return true
}

// start begins a new run, finishing the one being read.
func (br *BenchReader) start(tool string) *Run {
	br.finish()
	br.cur = &Run{File: br.lr.Name(), Line: br.lr.Line(), Tool: tool, Config: br.configCopy(),
		Metrics: map[string]float64{}}
	return br.cur
}

func (br *BenchReader) configCopy() map[string]string {
	c := make(map[string]string, len(br.config)+8)
	for k, v := range br.config {
		c[k] = v
	}
	return c
}

// finish queues the current run if it has a result, or says why not.
func (br *BenchReader) finish() {
	r := br.cur
	br.cur = nil
	if r == nil {
		return
	}
	if r.Unit.IsZero() && len(r.Intervals) > 0 {
		// Progress lines without a final summary (stderr kept, stdout
		// lost): the mean of the intervals stands in.
		var sum float64
		for _, iv := range r.Intervals {
			sum += iv.Value
		}
		r.Value = sum / float64(len(r.Intervals))
		r.Unit = rateWords["tps"]
		br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
			Msg: sprintf("%s run without a final summary: tps is the mean of %d interval reports", r.Tool, len(r.Intervals))})
	}
	if r.Unit.IsZero() {
		br.notices = append(br.notices, Notice{File: r.File, Line: r.Line,
			Msg: sprintf("%s run without a result (interrupted?): skipped", r.Tool)})
		return
	}
	br.ready = append(br.ready, r)
}

func (br *BenchReader) emit(r *Run) {
	if br.cur == r {
		br.cur = nil
	}
	br.ready = append(br.ready, r)
}

func (br *BenchReader) line(s string) {
	t := strings.TrimSpace(s)
	if t == "" {
		return
	}
	switch {
	case br.pgbenchLine(s, t):
	case br.sysbenchLine(s, t):
	case br.hammerdbLine(t):
	case br.goLine(s):
	case br.aggLine(t):
	case br.configLine(t):
	}
}

var kvRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_.-]*=\S*$`)

// configLine reads "scale=10 db_bytes=164650343": every word a key=value.
func (br *BenchReader) configLine(t string) bool {
	words := strings.Fields(t)
	for _, w := range words {
		if !kvRe().MatchString(w) {
			return false
		}
	}
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		br.config[k] = v
		if br.cur != nil {
			br.cur.Config[k] = v
		}
	}
	return true
}

// benchSniffRe finds the marks of benchmark tool output at the start of a
// line (benchmark-formats.md §6).
var benchSniffRe = lazyre.New(`^(pgbench \(|progress: [0-9.]+ s|tps = [0-9]|sysbench \d|SQL statistics:|Benchmark\S+\s+\d+\s|\d{9,}( \d+){5}|\d+ \d+ (\d+|skipped|failed) \d+ \d{9,} \d+)|TEST RESULT : System achieved`)

// sniffSize is how much of a file is looked at to tell benchmark output
// from a table.
const sniffSize = 64 << 10

// ReadThroughput reads one throughput input: benchmark tool output when
// its first 64 KB carry the marks of one, else result tables.
func ReadThroughput(r io.Reader, name string) ([]*Table, []*Run, []Notice, error) {
	br := bufio.NewReaderSize(r, sniffSize)
	head, _ := br.Peek(sniffSize)
	if first, _, _ := bytes.Cut(head, []byte("\n")); isBenchRunLine(string(first)) {
		runs, notes, err := readBenchRunAsRun(br, name)
		return nil, runs, notes, err
	}
	if looksLikeBench(head) {
		b := NewBenchReader(br, name)
		var runs []*Run
		for b.Next() {
			runs = append(runs, b.Run())
		}
		return nil, runs, b.Notices(), b.Err()
	}
	tables, notes, err := ReadTables(br, name)
	return tables, nil, notes, err
}

// looksLikeBench looks for benchSniffRe in the lines of head, split and
// decoded as the readers will (UTF-16, CRLF, lone CR).
func looksLikeBench(head []byte) bool {
	lr := NewLineReader(bytes.NewReader(head), "head")
	lr.KeepTabs()
	for lr.Next() {
		if benchSniffRe().Match(lr.Bytes()) {
			return true
		}
	}
	return false
}
