package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// bench's --out is checked before the server is asked anything, so that
// a run is never measured only for its result to be lost: a folder that
// is not there failed after the run, with the temporary file's name
// ("open nodir/.x.jsonl.tmp-3690942578: no such file or directory"), the
// summary unprinted, and a sweep said of that folder's table "holds the 1
// run completed"; an earlier sweep's run file in --runs-dir ended a sweep
// after its first run. The server here is a closed port: a check that
// waited for the run would say it cannot connect.
func TestBenchOutChecked(t *testing.T) {
	serverlessCredentials(t)
	addr := testutil.ClosedAddr(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "nodir")
	file := filepath.Join(dir, "a-file")
	runs := filepath.Join(dir, "runs")
	for _, p := range []string{file, filepath.Join(runs, "page_buffers-1024-run2.jsonl")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeUserFile(t, p, "the user's\n")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "init", "--out", filepath.Join(missing, "load.csv"), "tpcc"},
			"bench init: --out " + filepath.Join(missing, "load.csv") + ": no folder " + missing + " (make it first)"},
		{[]string{"bench", "run", "--out", filepath.Join(missing, "run.jsonl"), "tpcc"},
			"bench run: --out " + filepath.Join(missing, "run.jsonl") + ": no folder " + missing + " (make it first)"},
		{[]string{"bench", "sweep", "--buffers", "256,1024", "--runs", "2", "--out", filepath.Join(missing, "sweep.csv"), "tpcc"},
			"bench sweep: --out " + filepath.Join(missing, "sweep.csv") + ": no folder " + missing + " (make it first)"},
		{[]string{"bench", "run", "--force", "--out", filepath.Join(file, "run.jsonl"), "tpcc"},
			"bench run: --out " + filepath.Join(file, "run.jsonl") + ": " + file + " is not a folder"},
		{[]string{"bench", "sweep", "--buffers", "256,1024", "--runs", "2", "--out", filepath.Join(dir, "sweep.csv"), "--runs-dir", runs, "tpcc"},
			"bench sweep: " + filepath.Join(runs, "page_buffers-1024-run2.jsonl") + " exists; not replaced (--force replaces it)"},
		// (it read "mkdir …/a-file: not a directory")
		{[]string{"bench", "sweep", "--buffers", "256,1024", "--out", filepath.Join(dir, "sweep.csv"), "--runs-dir", file, "tpcc"},
			"bench sweep: --runs-dir " + file + ": is a file, not a folder"},
	} {
		args := append(c.args[:2:2], append([]string{"--server", addr}, c.args[2:]...)...)
		out, errs, code := runCLI(t, nil, args...)
		if want := "fbdiag: " + c.want + "\n"; code != exitError || out != "" || errs != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.args[:2], code, out, errs, want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("%s made: %v", missing, err)
	}
	checkUnchanged(t, "runs-dir", filepath.Join(runs, "page_buffers-1024-run2.jsonl"), "the user's\n")
	if _, err := os.Stat(filepath.Join(dir, "sweep.csv")); !os.IsNotExist(err) {
		t.Errorf("sweep.csv written: %v", err)
	}
}

// bench sweep --buffers 256,10: Firebird takes no fewer than 50 page
// buffers, and refused 10 only when the sweep came to it, after the runs
// at 256 ("bad parameters on attach or create database; Attempt to set
// in database number of buffers which is out of acceptable range
// [50:2147483646]"). It is a usage error now, before connecting.
func TestBenchSweepBuffersRange(t *testing.T) {
	serverlessCredentials(t)
	addr := testutil.ClosedAddr(t)
	out, errs, code := runCLI(t, nil, "bench", "sweep", "--server", addr, "--buffers", "256,10", "--out", filepath.Join(t.TempDir(), "b.csv"), "tpcc")
	if code != exitUsage || out != "" || !strings.HasPrefix(errs, "fbdiag: bench sweep: --buffers 10: Firebird takes 50 page buffers or more\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
