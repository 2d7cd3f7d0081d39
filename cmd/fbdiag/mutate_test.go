package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/report"
)

// The mutation run (issue 12's acceptance): every input of the shared
// corpus and of testdata/, mutated (cut short, garbage, huge numbers,
// line-end and encoding variants, long names, appended twice, grown to
// 8 MB…), given to every subcommand with --png, each run a process of
// its own (the test binary as fbdiag, TestMain) so that its wall time
// and peak memory are its own. A run passes when it ends with exit 0 to
// 3, prints no panic, takes at most 10 s and at most 500 MB RSS, a
// report's page is at most report.MaxPageBytes, and its output shows no
// int64 that wrapped (wrapWatch).
//
//	FBDIAG_MUTATE=1 go test ./cmd/fbdiag -run Mutation -v -timeout 0   # a sample
//	FBDIAG_MUTATE=full …                      # every file × mutation × command
//	FBDIAG_MUTATE_RUNS=N  the sample's size (default 1000; at least one run
//	                      per file, each mutation and command among them)
//	FBDIAG_MUTATE_SEED=S  the sample (default 1); FBDIAG_MUTATE_JOBS=J (2)
//	FBDIAG_MUTATE_LOG=F   one TSV line per run into F
//	FBDIAG_MUTATE_ONLY=big,lone-cr  only these mutations
const (
	mutateMaxWall  = 10 * time.Second
	mutateMaxRSS   = 500 << 20 // bytes
	mutateHangKill = 60 * time.Second
	mutateBigSize  = 8 << 20
)

// mutation turns an input into a variant; rnd is seeded per input.
type mutation struct {
	name string
	fn   func(data []byte, rnd *rand.Rand) []byte
}

var (
	reDigits = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	reUpper  = regexp.MustCompile(`\b[A-Z][A-Z0-9_$]{3,}\b`)
)

var mutations = []mutation{
	{"as-is", func(d []byte, _ *rand.Rand) []byte { return d }},
	{"empty", func([]byte, *rand.Rand) []byte { return nil }},
	{"cut-half", func(d []byte, _ *rand.Rand) []byte { return d[:len(d)/2] }},
	{"cut-mid-line", func(d []byte, r *rand.Rand) []byte { return d[:r.Intn(len(d)+1)] }},
	{"cut-100", func(d []byte, _ *rand.Rand) []byte { return d[:min(len(d), 100)] }},
	{"garbage", func(d []byte, r *rand.Rand) []byte {
		out := slices.Clone(d)
		for range 3 {
			g := make([]byte, 64)
			r.Read(g)
			at := r.Intn(len(out) + 1)
			out = slices.Insert(out, at, g...)
		}
		return out
	}},
	{"flip", func(d []byte, r *rand.Rand) []byte {
		out := slices.Clone(d)
		for range len(out)/100 + 1 {
			if len(out) > 0 {
				out[r.Intn(len(out))] ^= byte(1 << r.Intn(8))
			}
		}
		return out
	}},
	{"binary-tail", func(d []byte, r *rand.Rand) []byte {
		g := make([]byte, 1024)
		r.Read(g)
		return append(slices.Clone(d), g...)
	}},
	{"huge-numbers", func(d []byte, _ *rand.Rand) []byte {
		return reDigits.ReplaceAll(d, []byte("184467440737095516150"))
	}},
	{"extreme-numbers", func(d []byte, _ *rand.Rand) []byte {
		vals := []string{"-1", "1e308", "0", "99999999999999999999", "NaN", "-9223372036854775808", "100000000000000", "0.0000001"}
		i := 0
		return reDigits.ReplaceAllFunc(d, func([]byte) []byte {
			i++
			return []byte(vals[i%len(vals)])
		})
	}},
	{"crlf", func(d []byte, _ *rand.Rand) []byte { return bytes.ReplaceAll(d, []byte("\n"), []byte("\r\n")) }},
	{"lone-cr", func(d []byte, _ *rand.Rand) []byte { return bytes.ReplaceAll(d, []byte("\n"), []byte("\r")) }},
	{"utf16le", func(d []byte, _ *rand.Rand) []byte { return utf16Of(d, binary.LittleEndian, []byte{0xFF, 0xFE}) }},
	{"utf16be", func(d []byte, _ *rand.Rand) []byte { return utf16Of(d, binary.BigEndian, []byte{0xFE, 0xFF}) }},
	{"utf8-bom", func(d []byte, _ *rand.Rand) []byte { return append([]byte("\xEF\xBB\xBF"), d...) }},
	{"long-names", func(d []byte, _ *rand.Rand) []byte {
		return reUpper.ReplaceAllFunc(d, func(n []byte) []byte {
			return append(slices.Clone(n), bytes.Repeat([]byte("X"), max(300-len(n), 0))...)
		})
	}},
	{"hostile-names", func(d []byte, _ *rand.Rand) []byte {
		return reUpper.ReplaceAllFunc(d, func(n []byte) []byte {
			return append([]byte("\x1b]0;x\x07=\u202e"), n...)
		})
	}},
	{"long-line", func(d []byte, r *rand.Rand) []byte {
		at := r.Intn(len(d) + 1)
		return slices.Insert(slices.Clone(d), at, bytes.Repeat([]byte("x"), 3<<19)...)
	}},
	{"twice", func(d []byte, _ *rand.Rand) []byte { return append(slices.Clone(d), d...) }},
	// Named with 70 'a's, and a copy of that name in another folder is
	// the second input (issue 12 A.1).
	{"long-file-name", func(d []byte, _ *rand.Rand) []byte { return d }},
	{"big", func(d []byte, _ *rand.Rand) []byte {
		if len(d) == 0 {
			return d
		}
		return bytes.Repeat(d, mutateBigSize/len(d)+1)[:mutateBigSize]
	}},
}

func utf16Of(d []byte, order binary.AppendByteOrder, bom []byte) []byte {
	out := slices.Clone(bom)
	for _, u := range utf16.Encode([]rune(string(d))) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// mutateCommands are the subcommands run on each variant: F is the
// variant, G a second input (the original, or the variant's namesake in
// another folder), D a fresh output folder; "<F" gives F on standard
// input.
var mutateCommands = [][]string{
	{"gstat", "--png", "D", "F"},
	{"gstat", "--png", "D", "-", "<F"},
	{"gstat", "diff", "F", "G"},
	{"gstat", "trend", "--png", "D", "F", "G"},
	{"gbak", "--png", "D", "F"},
	{"gbak", "compare", "--png", "D", "F", "G"},
	{"throughput", "--png", "D", "F"},
	{"detect", "F"},
	{"report", "--out", "D", "F", "G"},
	{"report", "--out", "D", "-", "<F"},
}

type mutateRun struct {
	file string // the input, relative to its root
	root string
	mut  int
	cmd  int
}

type mutateResult struct {
	run  mutateRun
	args []string
	code int
	wall time.Duration
	rss  int64 // bytes
	size int
	bad  string
}

func TestMutationRun(t *testing.T) {
	mode := os.Getenv("FBDIAG_MUTATE")
	if mode == "" {
		t.Skip("the mutation run: set FBDIAG_MUTATE=1 (a sample) or FBDIAG_MUTATE=full")
	}
	seed := envInt(t, "FBDIAG_MUTATE_SEED", 1)
	jobs := envInt(t, "FBDIAG_MUTATE_JOBS", 2)
	var files []mutateRun
	for _, root := range []string{testutil.CorpusDir(t), filepath.Join(testutil.Root(t), "testdata")} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			files = append(files, mutateRun{file: rel, root: root})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	muts := make([]int, 0, len(mutations))
	only := os.Getenv("FBDIAG_MUTATE_ONLY")
	for i, m := range mutations {
		if only == "" || slices.Contains(strings.Split(only, ","), m.name) {
			muts = append(muts, i)
		}
	}
	if len(muts) == 0 {
		t.Fatalf("FBDIAG_MUTATE_ONLY=%q: no such mutation", only)
	}
	var runs []mutateRun
	if mode == "full" {
		for _, f := range files {
			for _, m := range muts {
				for c := range mutateCommands {
					runs = append(runs, mutateRun{f.file, f.root, m, c})
				}
			}
		}
	} else {
		// Every file once, the mutations and commands taken in turn so
		// that each is among them; then random ones up to the size.
		n := envInt(t, "FBDIAG_MUTATE_RUNS", 1000)
		rnd := rand.New(rand.NewSource(int64(seed)))
		for i, f := range files {
			// 7 is prime to the 10 commands: each comes in turn.
			runs = append(runs, mutateRun{f.file, f.root, muts[(i+seed)%len(muts)], (7*i + seed) % len(mutateCommands)})
		}
		for len(runs) < n {
			f := files[rnd.Intn(len(files))]
			runs = append(runs, mutateRun{f.file, f.root, muts[rnd.Intn(len(muts))], rnd.Intn(len(mutateCommands))})
		}
	}
	t.Logf("%d runs over %d inputs, %d mutations, %d commands (mode %s, seed %d, %d jobs)",
		len(runs), len(files), len(muts), len(mutateCommands), mode, seed, jobs)

	work := t.TempDir()
	var inputsMu sync.Mutex
	inputs := map[[2]string]string{} // file, mutation: the variant's path
	variant := func(r mutateRun) (f, g string, size int, err error) {
		inputsMu.Lock()
		defer inputsMu.Unlock()
		orig := filepath.Join(r.root, r.file)
		m := mutations[r.mut]
		key := [2]string{orig, m.name}
		dir := filepath.Join(work, "in", strconv.Itoa(len(inputs)))
		name := filepath.Base(r.file)
		if m.name == "long-file-name" {
			name = strings.Repeat("a", 70) + filepath.Ext(r.file)
		}
		if p, ok := inputs[key]; ok {
			f = p
		} else {
			data, err := os.ReadFile(orig)
			if err != nil {
				return "", "", 0, err
			}
			rnd := rand.New(rand.NewSource(int64(len(orig)*31 + r.mut + seed)))
			data = m.fn(data, rnd)
			f = filepath.Join(dir, "a", name)
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				return "", "", 0, err
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				return "", "", 0, err
			}
			if m.name == "long-file-name" {
				g := filepath.Join(dir, "b", name)
				os.MkdirAll(filepath.Dir(g), 0o755)
				if err := os.WriteFile(g, data, 0o644); err != nil {
					return "", "", 0, err
				}
			}
			inputs[key] = f
		}
		g = orig
		if m.name == "long-file-name" {
			g = filepath.Join(filepath.Dir(filepath.Dir(f)), "b", name)
		}
		st, err := os.Stat(f)
		if err != nil {
			return "", "", 0, err
		}
		return f, g, int(st.Size()), nil
	}

	results := make([]mutateResult, len(runs))
	// The log is written as the runs end: a run stopped half-way keeps
	// what it measured.
	var log *os.File
	if p := os.Getenv("FBDIAG_MUTATE_LOG"); p != "" {
		var err error
		if log, err = os.Create(p); err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		fmt.Fprintln(log, "file\tmutation\tbytes\tcommand\texit\twall_s\trss_mb\tproblem")
	}
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(runs) {
					return
				}
				r := runMutation(t, runs[i], i, work, variant)
				results[i] = r
				if log != nil {
					mu.Lock()
					fmt.Fprintf(log, "%s\t%s\t%d\t%s\t%d\t%.3f\t%.1f\t%s\n", r.run.file, mutations[r.run.mut].name, r.size,
						strings.Join(mutateCommands[r.run.cmd][:2], " "), r.code, r.wall.Seconds(), float64(r.rss)/(1<<20), r.bad)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	codes := map[int]int{}
	var maxWall, maxRSS mutateResult
	bad := 0
	for _, r := range results {
		codes[r.code]++
		if r.wall > maxWall.wall {
			maxWall = r
		}
		if r.rss > maxRSS.rss {
			maxRSS = r
		}
		if r.bad != "" {
			bad++
			if bad <= 50 {
				t.Errorf("%s (%s, %d bytes): fbdiag %s: %s", r.run.file, mutations[r.run.mut].name, r.size, strings.Join(r.args, " "), r.bad)
			}
		}
	}
	t.Logf("%d runs in %s; %d failed; exit codes %v", len(results), elapsed.Round(time.Second), bad, codes)
	t.Logf("longest: %.2f s, fbdiag %s (%s, %s, %d bytes)", maxWall.wall.Seconds(), strings.Join(mutateCommands[maxWall.run.cmd], " "),
		maxWall.run.file, mutations[maxWall.run.mut].name, maxWall.size)
	t.Logf("most memory: %.1f MB RSS, fbdiag %s (%s, %s, %d bytes)", float64(maxRSS.rss)/(1<<20), strings.Join(mutateCommands[maxRSS.run.cmd], " "),
		maxRSS.run.file, mutations[maxRSS.run.mut].name, maxRSS.size)
}

// runMutation runs one command on one variant as a process of its own.
func runMutation(t *testing.T, r mutateRun, i int, work string, variant func(mutateRun) (string, string, int, error)) mutateResult {
	res := mutateResult{run: r}
	f, g, size, err := variant(r)
	if err != nil {
		res.bad = err.Error()
		return res
	}
	res.size = size
	out := filepath.Join(work, "out", strconv.Itoa(i))
	var stdin string
	for _, a := range mutateCommands[r.cmd] {
		switch a {
		case "F":
			a = f
		case "G":
			a = g
		case "D":
			a = out
		case "<F":
			stdin = f
			continue
		}
		res.args = append(res.args, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), mutateHangKill)
	defer cancel()
	cmd := fbdiagCommand(t, res.args...)
	cmd = withContext(ctx, cmd)
	peak := filepath.Join(work, "rss", strconv.Itoa(i))
	os.MkdirAll(filepath.Dir(peak), 0o755)
	cmd.Env = append(cmd.Env, peakRSSEnv+"="+peak)
	cmd.Dir = work
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	watch := &wrapWatch{}
	cmd.Stdout = watch // (not kept: its size is not what is measured)
	if stdin != "" {
		in, err := os.Open(stdin)
		if err != nil {
			res.bad = err.Error()
			return res
		}
		defer in.Close()
		cmd.Stdin = in
	}
	start := time.Now()
	err = cmd.Run()
	res.wall = time.Since(start)
	// A report's page has a bound of its own, whatever the input.
	var page int64
	if st, err := os.Stat(filepath.Join(out, report.IndexFile)); err == nil {
		page = st.Size()
	}
	os.RemoveAll(out) // the charts are not kept: the disk stays small
	if cmd.ProcessState == nil {
		res.bad = "not run: " + err.Error()
		return res
	}
	res.code = cmd.ProcessState.ExitCode()
	// The run's own peak (VmHWM), else the rusage's, which on Linux
	// also counts the test process's memory at the exec (68.8 MB for
	// every small run): an upper bound.
	if b, err := os.ReadFile(peak); err == nil {
		if kb, err := strconv.ParseInt(strings.TrimSuffix(string(b), " kB"), 10, 64); err == nil {
			res.rss = kb * 1024
		}
	}
	if res.rss == 0 {
		res.rss = maxRSS(cmd.ProcessState)
	}
	os.Remove(peak)
	text := stderr.String()
	var problems []string
	if ctx.Err() != nil {
		problems = append(problems, fmt.Sprintf("killed after %s (a hang)", mutateHangKill))
	}
	if res.code < 0 || res.code > 3 {
		problems = append(problems, fmt.Sprintf("exit %d (%v)", res.code, err))
	}
	for _, p := range []string{"panic:", "goroutine ", "runtime error", "fatal error:"} {
		if strings.Contains(text, p) {
			problems = append(problems, "stderr: "+clipOut(text))
			break
		}
	}
	if res.wall > mutateMaxWall && size < 10<<20 {
		problems = append(problems, fmt.Sprintf("%.1f s, over %s", res.wall.Seconds(), mutateMaxWall))
	}
	if page > report.MaxPageBytes {
		problems = append(problems, fmt.Sprintf("a page of %d bytes, over report.MaxPageBytes", page))
	}
	if watch.found != "" && !inputHolds(f, g, "9223372036854775808") {
		problems = append(problems, fmt.Sprintf("stdout shows %q, an int64 that wrapped", watch.found))
	}
	if res.rss > mutateMaxRSS {
		problems = append(problems, fmt.Sprintf("%.0f MB RSS, over %d MB", float64(res.rss)/(1<<20), mutateMaxRSS>>20))
	}
	res.bad = strings.Join(problems, "; ")
	return res
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, s)
	}
	return n
}

// wrapWatch is a command's standard output scanned, not kept, for what a
// figure past an int64 turns into when converted anyway: the smallest
// int64, or the size it prints as (a size of 1.8e20 bytes was shown as
// -8.00 EiB, 2026-12-05). found is the first seen.
type wrapWatch struct {
	tail  []byte // the end of the last write, for a mark cut in two
	found string
}

var wrapMarks = []string{"-9223372036854775808", "-8.00 EiB"}

func (w *wrapWatch) Write(p []byte) (int, error) {
	if w.found == "" {
		b := append(w.tail, p...)
		for _, m := range wrapMarks {
			if bytes.Contains(b, []byte(m)) {
				w.found = m
			}
		}
		keep := min(len(b), 24)
		w.tail = append(w.tail[:0], b[len(b)-keep:]...)
	}
	return len(p), nil
}

// inputHolds says whether file f or g (either may be "") holds s: an
// output may then show the figure as read.
func inputHolds(f, g, s string) bool {
	for _, name := range []string{f, g} {
		if name == "" {
			continue
		}
		found := false
		filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(s)) {
					found = true
					return filepath.SkipAll
				}
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}

// A mark is found whole or cut across writes; other output is not one.
func TestWrapWatch(t *testing.T) {
	for _, c := range []struct {
		writes []string
		want   string
	}{
		{[]string{"size -8.00 EiB\\n"}, "-8.00 EiB"},
		{[]string{"a,-92233720", "36854775808,b"}, "-9223372036854775808"},
		{[]string{"-8", ".00 E", "iB"}, "-8.00 EiB"},
		{[]string{"-8.00 GiB, 9223372036854775807, -922337203685477580"}, ""},
	} {
		w := &wrapWatch{}
		for _, s := range c.writes {
			w.Write([]byte(s))
		}
		if w.found != c.want {
			t.Errorf("%q: found %q, want %q", c.writes, w.found, c.want)
		}
	}
}
