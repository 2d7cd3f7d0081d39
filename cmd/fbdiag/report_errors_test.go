package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestReportErrorPrefix: one "fbdiag:" prefix, like the other commands.
func TestReportErrorPrefix(t *testing.T) {
	// An empty --out (a script's unset variable) is a usage error: it
	// read "fbdiag: mkdir : no such file or directory", exit 1.
	_, errs, code := runCLI(t, nil, "report", "--out=", testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	if want := "fbdiag: --out: empty, want a folder name\nRun 'fbdiag report --help' for usage.\n"; code != exitUsage || errs != want {
		t.Errorf("--out '': exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
	empty := t.TempDir()
	_, errs, code = runCLI(t, nil, "report", "--out", filepath.Join(t.TempDir(), "r"), empty)
	if code != exitError || errs != "fbdiag: report: no readable input in "+empty+"\n" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out := filepath.Join(t.TempDir(), "pd")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "index.html"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "report", "--out", out, testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	want := "fbdiag: report: " + filepath.Join(out, "index.html") + ": exists and was not written by fbdiag"
	if code != exitError || !strings.HasPrefix(errs, want) || strings.Count(errs, "fbdiag") != 2 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// TestReportNothingAnalysable: a binary and an empty file give exit 1
// and one line naming both; with one real input beside them the report
// is written (exit 0) and both are listed as skipped.
func TestReportNothingAnalysable(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	bin := filepath.Join(dir, "prog")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r")
	stdout, errs, code := runCLI(t, nil, "report", "--out", out, bin, empty)
	if code != exitError || stdout != "" || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, bin+" (binary data") || !strings.Contains(errs, empty+" (empty)") {
		t.Fatalf("exit %d, out %q, err %q", code, stdout, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Fatal("a report was written from nothing")
	}
	stdout, errs, code = runCLI(t, nil, "report", "--out", out, bin, empty, testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	if code != exitOK {
		t.Fatalf("exit %d, err %q", code, errs)
	}
	if !strings.Contains(stdout, "3 inputs, 2 sections, 1 chart; 0 critical, 2 warnings") ||
		!strings.Contains(stdout, "warning  empty.txt: not analysed: empty") ||
		!strings.Contains(errs, "fbdiag: report: "+empty+": not analysed: empty\n") ||
		!strings.Contains(errs, "fbdiag: report: "+bin+": not analysed: binary data") {
		t.Fatalf("out %q, err %q", stdout, errs)
	}
	_, _, text := reportDoc(t, filepath.Join(out, "index.html"))
	if !strings.Contains(text, "empty.txt: not analysed: empty") {
		t.Fatal("the report's summary does not list empty.txt")
	}
	stdout, _, code = runCLI(t, nil, "report", "--out", out, testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	if code != exitOK || !strings.Contains(stdout, "1 input, 1 section, 1 chart;") {
		t.Fatalf("exit %d, out %q", code, stdout)
	}
}

// TestDetectFailures: an empty folder is an error, and a failed file
// alone prints nothing on stdout.
func TestDetectFailures(t *testing.T) {
	empty := t.TempDir()
	out, errs, code := runCLI(t, nil, "detect", empty)
	if code != exitError || out != "" || errs != "fbdiag: detect: no file in "+empty+"\n" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
	out, errs, code = runCLI(t, nil, "detect", "/nonexistent/x.txt")
	if code != exitError || out != "" || errs != "fbdiag: detect: stat /nonexistent/x.txt: no such file or directory\n" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
}

// TestReportEveryReaderFailed: an input recognised but not analysable
// (the seed page-buffers table without its x column) alone writes no
// report: exit 1, one line with the reader's reason.
func TestReportEveryReaderFailed(t *testing.T) {
	b := testutil.ReadTestdata(t, "seeds", "page-buffers-1.7tb.csv")
	var cut []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		_, rest, _ := strings.Cut(l, ",")
		cut = append(cut, rest)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "points.csv")
	if err := os.WriteFile(in, []byte(strings.Join(cut, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r")
	stdout, errs, code := runCLI(t, nil, "report", "--out", out, in)
	want := "fbdiag: report: nothing to analyse: " + in + " (" + in +
		":1: no column to use as x (columns: classic_points, superclassic_points))\n"
	if code != exitError || stdout != "" || errs != want {
		t.Fatalf("exit %d, out %q, err %q", code, stdout, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report folder was written")
	}
}

// One gstat output named twice, a folder and a file in it ("report dir
// dir/a.txt") or the same file twice, is one run seen twice, as under two
// names: the report said of the shop database "not analysed: internal
// error in the gstat analysis: runtime error: invalid memory address or
// nil pointer dereference", with exit status 0 and none of its findings.
func TestReportSameGstatFileTwice(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "snaps", "shop-gstat-a-r.txt")
	if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(snap, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{filepath.Dir(snap), snap}, {snap, snap}} {
		out := filepath.Join(dir, "r", string(rune('a'+i)))
		stdout, errs, code := runCLI(t, nil, append([]string{"report", "--out", out}, args...)...)
		if code != exitOK || errs != "" || !strings.Contains(stdout, "2 inputs, 1 section, 3 charts; 0 critical, 5 warnings") {
			t.Fatalf("%v: exit %d, stderr %q\n%s", args, code, errs, stdout)
		}
		page, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(page); strings.Contains(s, "internal error") ||
			!strings.Contains(s, "The 2 snapshots are one gstat run (the same execution time, counters and sizes), so no history is drawn.") {
			t.Errorf("%v: the page does not say the snapshots are one run", args)
		}
	}
}
