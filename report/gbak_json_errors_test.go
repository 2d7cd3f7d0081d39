package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The errors of a log are written a line at a time: the error lines of
// Firebird issue 8263's failed restore repeated to 16 MiB (176,604 of
// them) took 148 MB and 0.83 s as one array encoded and indented whole,
// 38 MB and 0.38 s so. 60,000 lines here (5.7 MB): reading and writing
// them allocates under three times the input (10.5 MB: the lines are
// kept for the document's end); the whole array took ten times (58.6 MB).
func TestGbakJSONErrorLinesStreamed(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(log, 20000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sum, err := WriteGbakJSON(io.Discard, bytes.NewReader(in), "restore-errors.log", analyze.GbakStream{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Outcome != "failed" {
		t.Fatalf("outcome %q", sum.Outcome)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes of log, %d allocated", len(in), alloc)
	if alloc > 3*uint64(len(in)) {
		t.Errorf("%d bytes allocated for a log of %d", alloc, len(in))
	}
}
