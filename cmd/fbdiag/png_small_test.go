package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Issue 12 A.8: gstat --png into a folder holding a foreign PNG under a
// chart's name said "fbdiag: fbdiag: …".
func TestPNGForeignFileOnePrefix(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "tables-shop-gstat-a-r.txt.png")
	if err := os.WriteFile(foreign, []byte("\x89PNG\r\n\x1a\nmine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, nil, "gstat", "--png", dir, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	want := "fbdiag: " + foreign + ": exists and was not written by fbdiag (remove it or choose another --png folder)\n"
	if code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
	if b, _ := os.ReadFile(foreign); string(b) != "\x89PNG\r\n\x1a\nmine" {
		t.Error("the foreign PNG was replaced")
	}
}

// Issue 12 A.8: --png FILE, FILE a regular file, printed a whole JSON
// document and then failed (exit 1). The folder is checked before any
// input is read: nothing on stdout. report --out FILE likewise.
func TestPNGIntoRegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gstat := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	later := testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")
	log := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	csv := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		why := "is a file, not a folder"
		if out != file {
			why = "not a directory"
		}
		for _, args := range [][]string{
			{"gstat", "--format", "json", "--png", out, gstat},
			{"gstat", "trend", "--format", "json", "--png", out, gstat, later},
			{"gbak", "--format", "json", "--png", out, log},
			{"gbak", "compare", "--format", "json", "--png", out, log, log},
			{"throughput", "--format", "json", "--png", out, csv},
			{"report", "--out", out, gstat},
		} {
			stdout, errs, code := runCLI(t, nil, args...)
			flag := "--png"
			if args[0] == "report" {
				flag = "--out"
			}
			want := "fbdiag: " + flag + " " + out + ": " + why + "\n"
			if code != 1 || stdout != "" || errs != want {
				t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want 1, nothing, %q", strings.Join(args[:2], " "), code, len(stdout), errs, want)
			}
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "mine\n" {
		t.Error("the file was changed")
	}
}

// Issue 12 A.8: throughput --mode ab --png DIR with nothing to draw (one
// variant) says in one line that nothing was written into DIR, and why;
// the folder is not made.
func TestPNGNothingToDraw(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(in, []byte("name,tps\nA,100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "AB")
	stdout, errs, code := runCLI(t, nil, "throughput", "--mode", "ab", "--png", out, in)
	want := "fbdiag: --png " + out + ": no chart written: one configuration, nothing to compare\n"
	if code != 0 || errs != want || !strings.Contains(stdout, "one configuration, nothing to compare") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0, %q", code, errs, stdout, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s made: %v", out, err)
	}
}

// --png or --out in a place that takes no new file (here sysfs, which
// refuses root as well) printed the whole analysis, then failed naming a
// temporary file: "open /sys/.tables-gstat.txt.png.tmp-2456950564:
// permission denied". It is checked before any input is read, and the
// message names the flag and the folder; a folder still to be made is
// judged by the one it would be made in.
func TestPNGIntoFolderThatTakesNoFile(t *testing.T) {
	if st, err := os.Stat("/sys/kernel"); err != nil || !st.IsDir() {
		t.Skip("no /sys")
	}
	if f, err := os.CreateTemp("/sys", "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Skip("/sys takes files here")
	}
	gstat := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	log := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gstat", "--format", "json", "--png", "/sys", gstat}, "--png /sys: cannot write in /sys: permission denied"},
		{[]string{"gbak", "--png", "/sys/fbdiag/charts", log}, "--png /sys/fbdiag/charts: cannot write in /sys: permission denied"},
		{[]string{"report", "--out", "/sys/report", gstat}, "--out /sys/report: cannot write in /sys: permission denied"},
	} {
		stdout, errs, code := runCLI(t, nil, c.args...)
		if want := "fbdiag: " + c.want + "\n"; code != 1 || stdout != "" || errs != want {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 1, nothing, %q", c.args, code, len(stdout), errs, want)
		}
	}
}
