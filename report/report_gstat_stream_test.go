package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// bigGstat writes the real shop gstat -a -r output appended n times (a
// cron job's file) and returns its path.
func bigGstat(t *testing.T, n int) string {
	t.Helper()
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	p := filepath.Join(t.TempDir(), "big-gstat.txt")
	if err := os.WriteFile(p, bytes.Repeat(b, n), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKeepGstatRuns: of 2,400 runs, the first, the last and every 64th
// are kept (39 runs), each analysed.
func TestKeepGstatRuns(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	ins, _, errs := Inputs([]string{bigGstat(t, 2400)})
	if len(errs) > 0 || len(ins) != 1 {
		t.Fatal(errs)
	}
	runs, err := KeepGstatRuns(ins[0], GstatRunsKept)
	if err != nil {
		t.Fatal(err)
	}
	if runs.Total != 2400 || len(runs.Kept) != 39 {
		t.Fatalf("total %d, kept %d; want 2400 and 39", runs.Total, len(runs.Kept))
	}
	for i, r := range runs.Kept {
		want := i * 64
		if i == len(runs.Kept)-1 {
			want = 2399
		}
		if r.Report.Index != want || r.Analysis.Report != want || len(r.Analysis.Tables) != 6 {
			t.Errorf("kept[%d]: run %d, analysis of run %d with %d tables; want run %d, 6 tables",
				i, r.Report.Index, r.Analysis.Report, len(r.Analysis.Tables), want)
		}
	}
}

// TestReportBigGstatBounded: a 20 MB file of 2,400 appended runs gives
// the section of the last run, with a note, and a History of the 39 kept
// runs; the report keeps a few MB, not a copy of every run (it made
// 2,400 sections before).
// (Not parallel: it measures the heap the test holds.)
func TestReportBigGstatBounded(t *testing.T) {
	ins, _, errs := Inputs([]string{bigGstat(t, 2400)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := Build("big", "fbdiag test", ins)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(r.Sections) != 1 {
		t.Fatalf("%d sections, want 1 (one database)", len(r.Sections))
	}
	s := r.Sections[0]
	if s.Title != "Database /var/lib/firebird/data/shop.fdb" ||
		!slices.Contains(s.Text, "big-gstat.txt: 2400 runs; the report reads 39 of them (the first, the last, evenly spaced).") {
		t.Errorf("section %q, text %q", s.Title, s.Text)
	}
	// The runs are copies of one (the same execution time, counters and
	// sizes): one run, counted once, has no history.
	if s.Kind != KindDatabase || s.Database == nil || len(s.Database.Snapshots) != 39 || s.ShownFrom != "big-gstat.txt#2400" ||
		len(s.Text) != 2 || s.Text[0] != "The 39 snapshots are one gstat run (the same execution time, counters and sizes), so no history is drawn." {
		t.Errorf("database section %q (%s), shown %q, text %q", s.Title, s.Kind, s.ShownFrom, s.Text)
	}
	// The last run's charts.
	if len(s.Figures) != 3 || len(s.Findings) != 9 {
		t.Errorf("%d figures, %d findings; want 3 and 9 (those of one run, each once)", len(s.Figures), len(s.Findings))
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if grown > 16<<20 {
		t.Errorf("report holds %d MB after reading a 20 MB file", grown>>20)
	}
	runtime.KeepAlive(r)
	if !strings.HasSuffix(s.Sources[0], "big-gstat.txt") {
		t.Errorf("sources %q", s.Sources)
	}
}

// BenchmarkKeepGstatRuns measures the report's read of a file of 240
// appended runs of the real shop output (MB/s of gstat text).
func BenchmarkKeepGstatRuns(b *testing.B) {
	data := testutil.ReadTestdata(b, "fb30", "shop-gstat-a-r.txt")
	big := bytes.Repeat(data, 240)
	in := BytesInput("big-gstat.txt", big)
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	for b.Loop() {
		runs, err := KeepGstatRuns(in, GstatRunsKept)
		if err != nil || runs.Total != 240 {
			b.Fatalf("%v, %d runs", err, runs.Total)
		}
	}
}

// A file of many runs is read again rather than held (eachKeptGstatRun):
// its first run streamed and the others counted, then each kept run
// streamed as the second read comes to it.
// The runs passed are those KeepGstatRuns keeps, whatever their number,
// and a pipe, read once, gets the same.
func TestEachKeptGstatRun(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	for _, n := range []int{1, 2, 63, 64, 65, 130, 2400} {
		ins, _, errs := Inputs([]string{bigGstat(t, n)})
		if len(errs) > 0 || len(ins) != 1 {
			t.Fatal(errs)
		}
		runs, err := KeepGstatRuns(ins[0], GstatRunsKept)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for _, r := range runs.Kept {
			want = append(want, r.Report.Index)
		}
		set := keptRunSet(n, GstatRunsKept)
		var got, piped []int
		total, err := eachKeptGstatRun(ins[0], GstatRunsKept, new(analyze.TrendSamples), func(r GstatRun) {
			// Streamed: the tables counted, the 6 the view and charts show kept.
			i := r.Analysis.Report
			if r.streamed == nil || r.Report != nil || !set[i] || r.Analysis.Totals.Tables != 6 || len(r.Analysis.Tables) != 0 ||
				len(r.streamed.view.Tables) != 6 || len(r.streamed.charts.Tables.Tables) != 6 || r.Analysis.File != ins[0].Name {
				t.Errorf("%d runs: run %d passed, %d tables, file %s", n, i, r.Analysis.Totals.Tables, r.Analysis.File)
			}
			got = append(got, i)
		})
		data, _ := os.ReadFile(ins[0].Name)
		pipe, _ := StreamInput("<stdin>", io.NopCloser(bytes.NewReader(data)))
		ptotal, perr := eachKeptGstatRun(pipe[0], GstatRunsKept, new(analyze.TrendSamples), func(r GstatRun) { piped = append(piped, r.Report.Index) })
		if err != nil || perr != nil || total != n || ptotal != n || len(set) != len(want) ||
			!slices.Equal(got, want) || !slices.Equal(piped, want) {
			t.Errorf("%d runs: kept %v; passed %v (%d, %v), piped %v (%d, %v), set of %d", n, want, got, total, err, piped, ptotal, perr, len(set))
		}
	}
}

// A gstat output piped in is copied to a temporary file and read as a
// file, its runs as streams (spoolPipe): the fb30 sample and its later
// run, twice (4 runs of one database), give the page and report.json of
// the same pipe held whole, and the temporary file is gone once the
// sections are made.
func TestReportSpoolsPipe(t *testing.T) {
	data := slices.Concat(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt"))
	data = slices.Concat(data, data)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	build := func() (page, js []byte, streamed int) {
		ins, err := StreamInput("<stdin>", io.NopCloser(bytes.NewReader(data)))
		if err != nil || len(ins) != 1 {
			t.Fatal(ins, err)
		}
		if spoolPipes {
			in, done, err := spoolPipe(ins[0])
			if err != nil || in.closer != nil {
				t.Fatalf("spool: %v", err)
			}
			n, err := eachKeptGstatRun(in, GstatRunsKept, new(analyze.TrendSamples), func(r GstatRun) {
				if r.streamed != nil {
					streamed++
				}
			})
			done()
			if err != nil || n != 4 {
				t.Fatalf("%d runs, %v", n, err)
			}
			if ins, err = StreamInput("<stdin>", io.NopCloser(bytes.NewReader(data))); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "report")
		if _, err := WriteDir(out, Build("pipe", "fbdiag test", ins), smallCharts); err != nil {
			t.Fatal(err)
		}
		page, _ = os.ReadFile(filepath.Join(out, IndexFile))
		js, _ = os.ReadFile(filepath.Join(out, "report.json"))
		return page, js, streamed
	}
	page, js, streamed := build()
	if left, _ := os.ReadDir(tmp); streamed != 4 || len(left) != 0 {
		t.Fatalf("%d runs streamed, %d files left in TMPDIR; want 4 and none", streamed, len(left))
	}
	spoolPipes = false
	defer func() { spoolPipes = true }()
	wantPage, wantJSON, _ := build()
	if len(page) < 10000 || !bytes.Equal(page, wantPage) || !bytes.Equal(js, wantJSON) {
		t.Errorf("the report of the spooled pipe differs from the pipe held whole: page %d bytes (want %d), report.json %d (want %d)",
			len(page), len(wantPage), len(js), len(wantJSON))
	}
	if !bytes.Contains(page, []byte("<h3>The latest snapshot and the one before (fbdiag gstat diff)</h3>")) {
		t.Error("page lacks the history's diff")
	}
}

// A history diffs runs read again (historySnapshots): when a file is gone
// by then, the database's section says so instead of diffing samples.
func TestReportHistoryFileGone(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), testutil.ReadTestdata(t, "fb30", f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ins, _, errs := Inputs([]string{dir})
	if len(errs) > 0 || len(ins) != 2 {
		t.Fatal(ins, errs)
	}
	g := readGstatRuns(ins)
	if len(g.all) != 2 || g.all[0].streamed == nil || g.all[1].streamed == nil {
		t.Fatalf("%d runs kept, want 2 streamed", len(g.all))
	}
	if err := os.Remove(filepath.Join(dir, "shop-gstat-r-later.txt")); err != nil {
		t.Fatal(err)
	}
	secs := databaseSections(g.all, g.fleet)
	if len(secs) != 1 || !slices.ContainsFunc(secs[0].Text, func(s string) bool {
		return strings.HasPrefix(s, "No history is drawn: open ") && strings.HasSuffix(s, "shop-gstat-r-later.txt: no such file or directory.")
	}) || strings.Contains(string(secs[0].Fragment), "<h3>History</h3>") {
		t.Fatalf("sections %d, text %q", len(secs), secs[0].Text)
	}
}

// One input twice (report.Build of the same Input, as the walker gave a
// file named twice before it read it once) is one run in two places: both
// are read again for the history, which panicked on the one left nil.
func TestReportHistorySameInputTwice(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shop-gstat-a-r.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	ins, _, errs := Inputs([]string{dir})
	if len(errs) > 0 || len(ins) != 1 {
		t.Fatal(ins, errs)
	}
	g := readGstatRuns(append(ins, ins[0]))
	if len(g.all) != 2 || g.all[0].streamed == nil || g.all[1].streamed == nil {
		t.Fatalf("%d runs kept, want 2 streamed", len(g.all))
	}
	secs := databaseSections(g.all, g.fleet)
	if len(secs) != 1 || !slices.Contains(secs[0].Text,
		"The 2 snapshots are one gstat run (the same execution time, counters and sizes), so no history is drawn.") {
		t.Fatalf("sections %d, text %q", len(secs), secs[0].Text)
	}
}
