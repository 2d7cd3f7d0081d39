package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestReportStdinStreamed: standard input is streamed once, neither held
// in memory nor copied to a temporary file, and read like a file (200
// appended runs: the last shown with a note); detect reads it the same
// way. The 200 runs share one execution time: their history would be the
// last run's tables again, so its charts are not drawn (3 charts, not 5).
func TestReportStdinStreamed(t *testing.T) {
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out := filepath.Join(t.TempDir(), "r")
	var stdout, stderr bytes.Buffer
	code := run([]string{"fbdiag", "report", "--out", out, "-"}, bytes.NewReader(bytes.Repeat(b, 200)), &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String(), "1 input, 1 section, 3 charts;") {
		t.Fatalf("exit %d, out %q, err %q", code, stdout.String(), stderr.String())
	}
	_, _, text := reportDoc(t, filepath.Join(out, "index.html"))
	if !strings.Contains(text, "<stdin>: 200 runs; the report reads 51 of them") ||
		!strings.Contains(text, "Tables and indices of <stdin>#200") {
		t.Error("the report does not show the last of the 200 runs of <stdin>")
	}
	stdout.Reset()
	code = run([]string{"fbdiag", "detect", "-"}, bytes.NewReader(b), &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String(), "<stdin>  gstat") {
		t.Fatalf("detect: exit %d, out %q", code, stdout.String())
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "fbdiag-stdin-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
