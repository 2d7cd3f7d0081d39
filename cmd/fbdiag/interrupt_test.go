package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// tmpFiles lists the temporary files of atomicfile in dir.
func tmpFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// Issue 12 A.5: a report interrupted before its page was written (killed,
// disk full) left marked charts and no index.html; the next report into
// the folder refused "R/x.png: exists and was not written by fbdiag",
// and the half-written ".index.html.tmp-*" stayed. The folder is reused:
// marked charts replaced, the killed run's temporary files removed. A
// chart name held by a file fbdiag did not write still stops it, and
// files of other names stay.
func TestReportFolderReusedAfterInterrupt(t *testing.T) {
	out := filepath.Join(t.TempDir(), "R")
	in := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	args := []string{"report", "--out", out, "--width", "400", "--height", "300", "--dpi", "72", in}
	if _, errs, code := runCLI(t, nil, args...); code != 0 {
		t.Fatalf("first report: exit %d: %s", code, errs)
	}
	// What a run killed while writing its page leaves.
	if err := os.Remove(filepath.Join(out, "index.html")); err != nil {
		t.Fatal(err)
	}
	left := map[string]string{
		".index.html.tmp-2718281828":                "<!DOCTYPE html>\n<html lang=\"en\">\n<he",
		".tables-shop-gstat-a-r.txt.png.tmp-314159": "\x89PNG\r\n",
		".report.json.tmp-1618033988":               "{\n  \"generator\": \"fbdiag",
		// Not fbdiag's names: kept.
		".notes.txt.tmp-1": "mine",
		"index.html.tmp-1": "mine",
		".index.html.tmp-": "mine",
	}
	for name, data := range left {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, errs, code := runCLI(t, nil, args...)
	if code != 0 || !strings.Contains(stdout, "1 input, 1 section, 3 charts;") {
		t.Fatalf("second report: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if got, want := tmpFiles(t, out), []string{".index.html.tmp-", ".notes.txt.tmp-1", "index.html.tmp-1"}; !slices.Equal(got, want) {
		t.Errorf("temporary files %q, want only the user's %q", got, want)
	}
	// A chart's name held by a user's picture still stops the report
	// before anything is written.
	os.Remove(filepath.Join(out, "index.html"))
	foreign := filepath.Join(out, "fill-db-shop.fdb.png")
	if err := os.WriteFile(foreign, []byte("\x89PNG\r\n\x1a\nnot fbdiag's"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, args...)
	if want := "fbdiag: report: " + foreign + ": exists and was not written by fbdiag (choose another --out folder)\n"; code != 1 || errs != want {
		t.Errorf("foreign chart: exit %d, stderr %q; want %q", code, errs, want)
	}
}

// Issue 12 A.5: Ctrl-C (SIGINT) or SIGTERM while a report or --png
// writes removes the temporary files: the process is stopped while it
// holds one, ends by the signal, and leaves none; the next report into
// the folder succeeds.
func TestReportInterruptLeavesNoTemp(t *testing.T) {
	t.Parallel() // (processes of their own)
	if testing.Short() {
		t.Skip("renders large charts")
	}
	in := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		caught := 0
		attempts := 0
		for ; attempts < 8 && caught < 1; attempts++ {
			out := filepath.Join(t.TempDir(), "R")
			// Big charts: writing the page takes long enough to be caught.
			args := []string{"report", "--out", out, "--width", "3000", "--height", "3000", "--dpi", "300", in}
			cmd := fbdiagCommand(t, args...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			seen := false
		poll:
			for {
				select {
				case err = <-done:
					break poll
				default:
				}
				if len(tmpFiles(t, out)) > 0 {
					seen = true
					cmd.Process.Signal(sig)
					err = <-done
					break
				}
				time.Sleep(200 * time.Microsecond)
			}
			if seen {
				caught++
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Errorf("%v: the report ended normally (%v)", sig, err)
				} else if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
					t.Errorf("%v: ended with %v, not by the signal", sig, err)
				}
			}
			if left := tmpFiles(t, out); len(left) > 0 {
				t.Errorf("%v: temporary files left: %q", sig, left)
			}
			_, errs, code := runCLI(t, nil, "report", "--out", out, "--width", "400", "--height", "300", "--dpi", "72", in)
			if code != 0 {
				t.Errorf("%v: the next report: exit %d: %s", sig, code, errs)
			}
		}
		if caught == 0 {
			t.Errorf("%v: no run was caught writing in %d attempts", sig, attempts)
		}
		t.Logf("%v: caught writing at attempt %d", sig, attempts)
	}
}

// Ctrl-C while 'fbdiag report' wrote the report.json of a big database
// (16 MiB of gstat: seconds of JSON) into the folder of an earlier report
// left the new charts and index.html beside the earlier report.json: the
// page and report.json described different runs. Every file is now
// complete under its temporary name before any is renamed, and the
// earlier report stays whole.
func TestReportInterruptKeepsEarlierReport(t *testing.T) {
	// Processes of their own; a big input, skipped with -short.
	t.Parallel()
	big, _ := bigGstatFile(t, 16<<20)
	out := filepath.Join(t.TempDir(), "R")
	small := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	// Writing report.json takes some milliseconds: on a loaded machine
	// the poll may miss them, and the report then ends whole. A run that
	// was not caught is tried again (it replaced the earlier report, made
	// again first); the test fails only if none was caught.
	const attempts = 4
	for attempt := 1; attempt <= attempts; attempt++ {
		if _, errs, code := runCLI(t, nil, "report", "--out", out, "--width", "400", "--height", "300", "--dpi", "72", small); code != 0 {
			t.Fatalf("the earlier report: exit %d: %s", code, errs)
		}
		before := folderFiles(t, out)
		if len(before) != 5 || before["index.html"] == "" || before["report.json"] == "" {
			t.Fatalf("the earlier report: %d files", len(before))
		}
		if interruptWritingJSON(t, out, big) {
			if after := folderFiles(t, out); after["report.json"] != before["report.json"] {
				// The signal came as the files were renamed: it waits for
				// them (atomicfile.Together), and the new report is whole.
				// It once left report.json new beside the earlier page.
				if after["index.html"] == before["index.html"] {
					t.Error("report.json is the interrupted report's, index.html the earlier one's")
				}
				if tmp := tmpFiles(t, out); len(tmp) != 0 {
					t.Errorf("temporary files left: %q", tmp)
				}
				return
			}
			sameFiles(t, out, before, "report")
			return
		}
		t.Logf("attempt %d: the report ended before its report.json was seen being written", attempt)
	}
	t.Errorf("no report was caught writing its report.json in %d attempts", attempts)
}

// interruptWritingJSON runs a report of in into out and sends it SIGINT
// once its report.json is being written (its temporary file seen); false
// when the report ended first.
func interruptWritingJSON(t *testing.T, out, in string) bool {
	t.Helper()
	cmd := fbdiagCommand(t, "report", "--out", out, "--width", "400", "--height", "300", "--dpi", "72", in)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case <-done:
			return false
		default:
		}
		for _, name := range tmpFiles(t, out) {
			if strings.HasPrefix(filepath.Base(name), ".report.json.tmp-") {
				cmd.Process.Signal(syscall.SIGINT)
				<-done
				return true
			}
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// sameFiles checks that dir holds the files of before, each unchanged,
// and no other, after the interrupted what.
func sameFiles(t *testing.T, dir string, before map[string]string, what string) {
	t.Helper()
	after := folderFiles(t, dir)
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("%s was changed by the interrupted %s", name, what)
		}
	}
	if len(after) != len(before) {
		t.Errorf("files after the interrupted %s: %d, before %d", what, len(after), len(before))
	}
}

// folderFiles maps each file name in dir, temporary ones included, to
// its content.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

// Ctrl-C while 'fbdiag gstat --png DIR' drew its third chart left the
// first two of this run beside the third of the earlier one. The charts
// are renamed into place together, once all are drawn. (Caught writing
// the second: the third, drawn after it, takes long at this size.)
func TestPNGInterruptKeepsEarlierCharts(t *testing.T) {
	t.Parallel() // (processes of their own)
	if testing.Short() {
		t.Skip("renders large charts")
	}
	in := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	out := filepath.Join(t.TempDir(), "P")
	if _, errs, code := runCLI(t, nil, "gstat", "--png", out, "--width", "400", "--height", "300", "--dpi", "72", in); code != 0 {
		t.Fatalf("the earlier charts: exit %d: %s", code, errs)
	}
	before := folderFiles(t, out)
	if len(before) != 3 || before["fill-shop-gstat-a-r.txt.png"] == "" {
		t.Fatalf("the earlier charts: %d files", len(before))
	}
	// Big charts: each takes long enough to draw.
	cmd := fbdiagCommand(t, "gstat", "--png", out, "--width", "3000", "--height", "3000", "--dpi", "300", in)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for caught := false; !caught; time.Sleep(200 * time.Microsecond) {
		select {
		case err := <-done:
			t.Fatalf("gstat ended (%v) before its second chart was seen being written", err)
		default:
		}
		for _, name := range tmpFiles(t, out) {
			caught = caught || strings.HasPrefix(filepath.Base(name), ".indices-shop-gstat-a-r.txt.png.tmp-")
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	<-done
	sameFiles(t, out, before, "run")
}
