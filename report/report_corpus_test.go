package report

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// corpusInputs are the acceptance command's inputs:
// fbdiag report ../shared/corpus/seeds ../shared/corpus/fb30.
func corpusInputs(t testing.TB) ([]Input, int64) {
	dir := testutil.CorpusDir(t)
	ins, _, errs := Inputs([]string{filepath.Join(dir, "seeds"), filepath.Join(dir, "fb30")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var size int64
	for _, in := range ins {
		st, err := os.Stat(in.Name)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	return ins, size
}

// TestReportCorpus builds the whole report of the seeds and the Firebird
// 3.0 outputs, folders walked, and times it (acceptance: under 2 s).
func TestReportCorpus(t *testing.T) {
	start := time.Now()
	ins, _ := corpusInputs(t)
	// 6 seed files and 10 fb30 files.
	if len(ins) != 16 {
		t.Fatalf("%d inputs", len(ins))
	}
	r := Build("corpus", "fbdiag test", ins)
	if err := r.Render(plot.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(io.Discard, r, plot.DefaultWidth, plot.DefaultHeight); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Logf("%d sections, %d charts in %v", len(r.Sections), len(r.Figures()), elapsed)
	var ids []string
	for _, s := range r.Sections {
		ids = append(ids, s.ID)
		if s.Err != "" {
			t.Errorf("section %s: %s", s.ID, s.Err)
		}
	}
	for _, want := range []string{"shop-gbak-restore-v-st.log", "compare-restore-balanced.log-restore-high-performance.log",
		"degradation-throughput-sata.csv", "page-buffers-1.7tb.csv", "power-plan-tpcc.tsv", "degradation-load-sata.csv"} {
		if !slices.Contains(ids, want) {
			t.Errorf("section %s missing from %v", want, ids)
		}
	}
	kinds := r.ChartKinds()
	// The seeds and the fb30 outputs hold every input kind fbdiag charts
	// but fbdiag bench's own results (testdata/bench, report_bench_test.go)
	// and two backups to compare (one backup log).
	for _, k := range plot.Kinds {
		if k == plot.KindBenchTimeline || k == plot.KindBenchLatency || k == plot.KindBackupComparison {
			continue
		}
		if !slices.Contains(kinds, k) {
			t.Errorf("no %s chart (have %v)", k, kinds)
		}
	}
	if elapsed > 2*time.Second {
		t.Logf("slow: %v (acceptance is 2 s; the machine may be busy)", elapsed)
	}
}

func BenchmarkReportCorpus(b *testing.B) {
	ins, size := corpusInputs(b)
	b.SetBytes(size)
	for i := 0; i < b.N; i++ {
		r := Build("corpus", "fbdiag bench", ins)
		if err := r.Render(plot.Options{}); err != nil {
			b.Fatal(err)
		}
		if err := WriteHTML(io.Discard, r, plot.DefaultWidth, plot.DefaultHeight); err != nil {
			b.Fatal(err)
		}
	}
}

// countWriter counts the bytes written through it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// The whole corpus (public outputs, benchmarks, seeds, fb30) makes a page
// of at most 4 MB (issue 15; it was 12.5 MB, then 5.9 MB with palette
// PNGs), its database sections first, worst first.
func TestReportCorpusSize(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	ins, _, errs := Inputs([]string{testutil.CorpusDir(t)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := Build("corpus", "fbdiag test", ins)
	if err := r.Render(plot.Options{}); err != nil {
		t.Fatal(err)
	}
	var n countWriter
	if err := WriteHTML(&n, r, plot.DefaultWidth, plot.DefaultHeight); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d inputs, %d sections (%d databases), %d charts: %d bytes", len(ins), len(r.Sections), len(r.Databases), len(r.Figures()), n)
	if n > 4_000_000 {
		t.Errorf("corpus report %d bytes, over 4 MB", n)
	}
	rank := map[string]int{"critical": 2, "attention": 1, "healthy": 0}
	for i, s := range r.Sections {
		if i < len(r.Databases) != (s.Database != nil) {
			t.Fatalf("section %d %s: databases do not come first", i, s.ID)
		}
		if i > 0 && s.Database != nil && rank[s.Database.Verdict] > rank[r.Sections[i-1].Database.Verdict] {
			t.Errorf("section %s (%s) after a better one", s.ID, s.Database.Verdict)
		}
	}
}
