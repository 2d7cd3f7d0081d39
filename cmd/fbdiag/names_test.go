package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// longGstat writes a file named with 70 'a's holding two gstat runs.
func longGstat(t *testing.T, dir string) string {
	t.Helper()
	var two []byte
	for _, f := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		b := testutil.ReadTestdata(t, "fb30", f)
		two = append(two, b...)
	}
	p := filepath.Join(dir, strings.Repeat("a", 70)+".txt")
	if err := os.WriteFile(p, two, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runCLIWithin runs the CLI and fails the test when it has not ended
// within limit (the run is left behind: the test binary ends soon).
func runCLIWithin(t *testing.T, limit time.Duration, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		out, errs, code := runCLI(t, nil, args...)
		done <- result{code, out, errs}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(limit):
		t.Fatalf("%v did not end in %s", args, limit)
	}
	return 0, "", ""
}

// Issue 12 A.1: gstat --png said "wrote" six times and left three PNGs,
// the second run's charts replacing the first's.
func TestGstatPNGLongNameTwoRuns(t *testing.T) {
	dir := t.TempDir()
	in := longGstat(t, dir)
	out := filepath.Join(dir, "charts")
	code, _, errs := runCLIWithin(t, 30*time.Second, "gstat", "--png", out, "--width", "400", "--height", "300", "--dpi", "72", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	a60, a58 := strings.Repeat("a", 60), strings.Repeat("a", 58)
	want := []string{"fill-" + a58 + "-2.png", "fill-" + a60 + ".png", "indices-" + a58 + "-2.png",
		"indices-" + a60 + ".png", "tables-" + a58 + "-2.png", "tables-" + a60 + ".png"}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("files\n%q\nwant\n%q", got, want)
	}
	var wrote []string
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if p, ok := strings.CutPrefix(l, "wrote "); ok {
			wrote = append(wrote, filepath.Base(p))
		}
	}
	slices.Sort(wrote)
	if !slices.Equal(wrote, want) {
		t.Errorf("stderr names\n%q\nwant\n%q", wrote, want)
	}
}

// Issue 12 A.1: report never ended on two inputs of one long name (a
// file of two gstat runs; two gbak logs of one name in two folders).
func TestReportLongNamesEnds(t *testing.T) {
	dir := t.TempDir()
	ins := []string{longGstat(t, dir)}
	log := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	for _, sub := range []string{"x", "y"} {
		p := filepath.Join(dir, sub, strings.Repeat("b", 70)+".log")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, log, 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, p)
	}
	out := filepath.Join(dir, "R")
	args := append([]string{"report", "--out", out, "--width", "400", "--height", "300", "--dpi", "72"}, ins...)
	code, stdout, errs := runCLIWithin(t, 60*time.Second, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "3 inputs, 4 sections, 8 charts;") {
		t.Errorf("stdout %q", stdout)
	}
	pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
	// One database section (fill charts of its last run, the history's
	// two), two gbak logs and their comparison.
	if len(pngs) != 8 {
		t.Errorf("%d PNG files, want 8", len(pngs))
	}
}

// The mutation run found gstat --png on a file of thousands of appended
// runs (a cron job's, 8 MB) writing three charts a run for minutes. A
// file of more than report.GstatRunSections runs gets the charts of its
// last run, as the report shows it, and says so.
func TestGstatPNGManyRuns(t *testing.T) {
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	dir := t.TempDir()
	in := filepath.Join(dir, "cron.txt")
	if err := os.WriteFile(in, bytes.Repeat(b, 50), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "charts")
	_, errs, code := runCLI(t, nil, "gstat", "--png", out, "--width", "400", "--height", "300", "--dpi", "72", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ents, _ := os.ReadDir(out)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := []string{"fill-cron.txt.png", "indices-cron.txt.png", "tables-cron.txt.png"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	note := "fbdiag: --png: " + in + " holds 50 gstat runs: the charts of the last (run 50) only, as the report shows it (gstat trend --png charts them over time)\n"
	if !strings.Contains(errs, note) {
		t.Errorf("stderr lacks %q:\n%s", note, errs)
	}
}
