package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// linkFolder is a folder of a snapshot (a.txt), a link to one kept
// elsewhere (b.txt), a latest.txt linking to a.txt, a link to a folder,
// one to nothing and two linking to each other.
func linkFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o666); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{
		"b.txt":      testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
		"latest.txt": "a.txt",
		"bench":      testutil.Testdata(t, "bench"),
		"gone.txt":   "nowhere.txt",
		"loop1":      "loop2",
		"loop2":      "loop1",
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Skip(err)
		}
	}
	return dir
}

// report, detect and throughput passed over every symbolic link in a
// folder without a word ('fbdiag detect DIR' listed a.txt alone, exit
// 0). A link to a file is read as the file; one to a file read already,
// or to a folder, is named on stderr; one to nothing or in a loop is an
// error naming it.
func TestFolderLinksDetect(t *testing.T) {
	dir := linkFolder(t)
	out, errs, code := runCLI(t, nil, "detect", dir)
	p := func(n string) string { return filepath.Join(dir, n) }
	wantErr := "fbdiag: detect: skipped " + p("bench") + ": a symbolic link to a folder (not walked; give it as an input to read it)\n" +
		"fbdiag: detect: skipped " + p("latest.txt") + ": a symbolic link to " + p("a.txt") + ", read once\n" +
		"fbdiag: detect: " + p("gone.txt") + ": a symbolic link to nowhere.txt, which does not exist\n" +
		"fbdiag: detect: " + p("loop1") + ": a symbolic link to loop2, in a loop of links\n" +
		"fbdiag: detect: " + p("loop2") + ": a symbolic link to loop1, in a loop of links\n"
	if code != 1 || errs != wantErr {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, errs, wantErr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], p("a.txt")+"  gstat") || !strings.HasPrefix(lines[2], p("b.txt")+"  gstat") {
		t.Errorf("stdout:\n%s", out)
	}
}

// gstat trend reads a folder as report does: the link to a snapshot kept
// elsewhere is a snapshot, latest.txt is not read twice.
func TestFolderLinksTrend(t *testing.T) {
	dir := linkFolder(t)
	out, errs, code := runCLI(t, nil, "gstat", "trend", dir)
	p := func(n string) string { return filepath.Join(dir, n) }
	wantErr := "skipped: " + p("bench") + ": a symbolic link to a folder (not walked; give it as an input to read it)\n" +
		"skipped: " + p("latest.txt") + ": a symbolic link to " + p("a.txt") + ", read once\n" +
		"skipped: " + p("gone.txt") + ": a symbolic link to nowhere.txt, which does not exist\n" +
		"skipped: " + p("loop1") + ": a symbolic link to loop2, in a loop of links\n" +
		"skipped: " + p("loop2") + ": a symbolic link to loop1, in a loop of links\n"
	if code != 0 || errs != wantErr || !strings.HasPrefix(out, "gstat trend over 2 snapshots of /var/lib/firebird/data/shop.fdb\n") {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s\n%s", code, errs, wantErr, out)
	}
}

// throughput DIR reads a link to a result table once.
func TestFolderLinksThroughput(t *testing.T) {
	dir := t.TempDir()
	for link, to := range map[string]string{"buffers.csv": testutil.Testdata(t, "bench", "buffers.csv"), "latest.csv": "buffers.csv"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Skip(err)
		}
	}
	out, errs, code := runCLI(t, nil, "throughput", dir)
	if want := "fbdiag: throughput: skipped " + filepath.Join(dir, "latest.csv") + ": a symbolic link to " + filepath.Join(dir, "buffers.csv") + ", read once\n" +
		filepath.Join(dir, "buffers.csv") + ":1: " + oldSweepNotice + "\n"; code != 0 || errs != want ||
		!strings.Contains(out, "best page_buffers                  512 (median 5178)\n") {
		t.Errorf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if err := os.Symlink("nowhere.csv", filepath.Join(dir, "gone.csv")); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "throughput", dir)
	if want := filepath.Join(dir, "gone.csv") + ": a symbolic link to nowhere.csv, which does not exist\n"; code == 0 || !strings.HasSuffix(errs, want) {
		t.Errorf("dangling: exit %d, stderr %q", code, errs)
	}
}

// report DIR reads the linked snapshot (its history is of two runs) and
// names the links it does not read.
func TestFolderLinksReport(t *testing.T) {
	dir := linkFolder(t)
	out := filepath.Join(t.TempDir(), "rep")
	_, errs, code := runCLI(t, nil, "report", "-o", out, dir)
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, want := range []string{
		"fbdiag: report: skipped " + p("latest.txt") + ": a symbolic link to " + p("a.txt") + ", read once\n",
		"fbdiag: report: " + p("gone.txt") + ": a symbolic link to nowhere.txt, which does not exist\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	js, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(string(js), p("b.txt")) {
		t.Errorf("exit %d; report.json names b.txt: %v", code, strings.Contains(string(js), p("b.txt")))
	}
}

// A folder named on the command line by a link (/backup/logs to a disk
// of its own) was not walked: 'detect LINK' said "no file in LINK".
func TestFolderGivenByLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o666); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "logs")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	out, errs, code := runCLI(t, nil, "detect", link)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || errs != "" || len(lines) != 2 || !strings.HasPrefix(lines[1], filepath.Join(link, "a.txt")+"  gstat") {
		t.Errorf("exit %d, stderr %q\n%s", code, errs, out)
	}
}

// A link in one folder to a file another input brings ('fbdiag report
// logs latest', latest/shop.txt a link to logs/2026-12-02.txt) was read
// twice, the folders being read one by one: the report's history had 3
// snapshots of 2, and its diff compared the latest with itself ("both
// snapshots have the same execution time"). It is read once, in either
// order, and the one left out is named.
func TestFolderLinksAcrossInputs(t *testing.T) {
	dir := t.TempDir()
	logs, latest := filepath.Join(dir, "logs"), filepath.Join(dir, "latest")
	for _, d := range []string{logs, latest} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	for name, from := range map[string]string{"2026-12-01.txt": "shop-gstat-a-r.txt", "2026-12-02.txt": "shop-gstat-r-later.txt"} {
		if err := os.WriteFile(filepath.Join(logs, name), testutil.ReadTestdata(t, "fb30", from), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	file, link := filepath.Join(logs, "2026-12-02.txt"), filepath.Join(latest, "shop.txt")
	if err := os.Symlink(filepath.Join("..", "logs", "2026-12-02.txt"), link); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		args          []string
		read, skipped string
		files         int
	}{
		{[]string{logs, latest}, file, link + ": a symbolic link to " + file + ", read once", 2},
		{[]string{file, latest}, file, link + ": a symbolic link to " + file + ", read once", 1},
		{[]string{latest, logs}, link, file + ": the file " + link + " links to, read once", 2},
	} {
		out, errs, code := runCLI(t, nil, append([]string{"detect"}, c.args...)...)
		want := "fbdiag: detect: skipped " + c.skipped + "\n"
		if code != 0 || errs != want {
			t.Errorf("detect %v: exit %d, stderr %q; want 0, %q", c.args, code, errs, want)
		}
		read := 0
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, c.read+" ") {
				read++
			}
		}
		if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != c.files+1 || read != 1 {
			t.Errorf("detect %v:\n%s", c.args, out)
		}
	}
	out, _, code := runCLI(t, nil, "report", "-o", filepath.Join(dir, "r"), logs, latest)
	if code != 0 || !strings.HasPrefix(out, "wrote ") || !strings.Contains(out, "\n2 inputs, 1 section") {
		t.Errorf("report: exit %d\n%s", code, out)
	}
}

// oldSweepNotice is throughput's notice on testdata/bench/buffers.csv, a
// sweep table written before tpmc counted the rolled-back New-Orders.
const oldSweepNotice = "a fbdiag bench sweep table written before 2026-12-06 (no rolled_back column): its tpmc leaves out the New-Orders rolled back by design, " +
	"so it reads about 1 % under the tpmC of bench results and of newer tables, which count them; the runs' result files (--runs-dir) give that tpmC"
