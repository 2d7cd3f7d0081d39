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

// One file named twice, a folder and a file in it ("report dir
// dir/a.txt") or the same file twice, is read once, with a line on
// stderr: the shop database's section read "not analysed: internal error
// in the gstat analysis: runtime error: invalid memory address or nil
// pointer dereference" (exit status 0, none of its findings), and a gbak
// log named twice was shown twice, compared with itself and listed twice
// in report.json's runs.
func TestReportSameFileTwice(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join(dir, "snaps", "shop-gstat-a-r.txt")
	if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(snap, testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	for i, c := range []struct {
		args     []string
		summary  string
		again    string
		runs     int
		fragment string
	}{
		{[]string{filepath.Dir(snap), snap}, "1 input, 1 section, 3 charts; 0 critical, 5 warnings", snap, 0, "ORDERS_CARRIER"},
		{[]string{snap, snap}, "1 input, 1 section, 3 charts; 0 critical, 5 warnings", snap, 0, "ORDERS_CARRIER"},
		{[]string{log, log}, "1 input, 1 section, 1 chart; 0 critical, 0 warnings", log, 1, "ORDER_LINE"},
	} {
		out := filepath.Join(dir, "r", string(rune('a'+i)))
		stdout, errs, code := runCLI(t, nil, append([]string{"report", "--out", out}, c.args...)...)
		want := "fbdiag: report: skipped " + c.again + ": the same file as " + c.again + ", read once\n"
		if code != exitOK || errs != want || !strings.Contains(stdout, c.summary) {
			t.Errorf("%v: exit %d, stderr %q\n%s", c.args, code, errs, stdout)
			continue
		}
		page, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(page); strings.Contains(s, "internal error") || !strings.Contains(s, c.fragment) || strings.Contains(s, "Comparison:") {
			t.Errorf("%v: the page has an internal error or a comparison, or lacks %s", c.args, c.fragment)
		}
		if n := strings.Count(string(js), `"outcome"`); n != c.runs {
			t.Errorf("%v: report.json lists %d runs, want %d", c.args, n, c.runs)
		}
	}
}
