package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The errors of a log are spooled as they come and written a line at a
// time: the error lines of Firebird issue 8263's failed restore repeated
// to 100 MiB (1,103,766 of them) took 137 MB and 1.07 s kept in the
// timeline, 22 MB and 0.38 s so (16 MiB as one array encoded whole: 148
// MB). 60,000 lines here (5.7 MB): five sixths in, the live heap has
// grown by 1.2 MB, less than the spool's memory and two megabytes (by 4.5 MB
// with the errors kept), and the document lists all 60,000.
func TestGbakJSONErrorLinesStreamed(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(log, 20000)
	var before, at runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var out bytes.Buffer
	r := &measuredReader{r: bytes.NewReader(in), at: len(in) * 5 / 6, stats: &at}
	sum, err := WriteGbakJSON(&out, r, "restore-errors.log", analyze.GbakStream{})
	if err != nil {
		t.Fatal(err)
	}
	grown := int64(at.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d bytes of log, %d bytes of output; live heap grown by %d five sixths in", len(in), out.Len(), grown)
	if grown > int64(spoolMem)+2<<20 {
		t.Errorf("live heap grown by %d bytes five sixths in", grown)
	}
	if sum.Outcome != "failed" || sum.ErrorCount != 60000 || len(sum.Errors) != 0 {
		t.Fatalf("outcome %q, %d errors counted, %d kept", sum.Outcome, sum.ErrorCount, len(sum.Errors))
	}
	var doc struct{ Errors []string }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Errors) != 60000 ||
		doc.Errors[59999] != "Exiting before completion due to errors" {
		t.Errorf("%v: %d errors in the document", err, len(doc.Errors))
	}
}

// measuredReader reads r and, once at bytes have been read, collects the
// garbage and reads the memory statistics into stats.
type measuredReader struct {
	r     io.Reader
	n, at int
	stats *runtime.MemStats
}

func (m *measuredReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if m.n < m.at && m.n+n >= m.at {
		runtime.GC()
		runtime.ReadMemStats(m.stats)
	}
	m.n += n
	return n, err
}
