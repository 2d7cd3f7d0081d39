package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func TestOptionsFirst(t *testing.T) {
	app := newApp(&env{})
	for _, c := range []struct{ in, want string }{
		{"fbdiag report DIR -o out", "fbdiag report -o out -- DIR"},
		{"fbdiag report DIR --title -x", "fbdiag report --title -x -- DIR"},
		{"fbdiag gstat diff A B --format json --all", "fbdiag gstat diff --format json --all -- A B"},
		{"fbdiag gstat --format=json A - --sort records", "fbdiag gstat --format=json --sort records -- A -"},
		{"fbdiag gstat A -- -odd --format", "fbdiag gstat -- A -odd --format"},
		{"fbdiag gstat --format json A", "fbdiag gstat --format json A"},
		{"fbdiag gstat A --no-such", "fbdiag gstat --no-such -- A"},
		{"fbdiag gstat A -h", "fbdiag gstat -h"},
		{"fbdiag gbak compare A B --format csv", "fbdiag gbak compare --format csv -- A B"},
		{"fbdiag", "fbdiag"},
		{"fbdiag nosuch --help", "fbdiag nosuch --help"},
		{"fbdiag gstat A --generate-bash-completion", "fbdiag gstat A --generate-bash-completion"},
		{"fbdiag report DIR -o", "fbdiag report -o"},
		{"fbdiag gstat A --format json --sort", "fbdiag gstat --format json --sort"},
	} {
		got := strings.Join(optionsFirst(app, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// An option written after the files does what it does before them, in
// every command that reads files: "fbdiag report DIR -o out" wrote the
// report to ./fbdiag-report and took "-o" and "out" for inputs that do
// not exist; gbak said "wants one log file, got 3", throughput
// "open --format".
func TestOptionsAfterFiles(t *testing.T) {
	restore := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	tput := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	for _, c := range [][]string{
		{"gstat", "--format", "json", shopPath(t)},
		{"gstat", "diff", "--format", "csv", shopPath(t), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")},
		{"gbak", "--format", "json", restore},
		{"gbak", "compare", "--format", "markdown", restore, restore},
		{"throughput", "--format", "json", tput},
		{"detect", "--format", "json", restore, tput},
	} {
		n := slices.Index(c, "--format")
		var after []string
		after = append(after, c[:n]...)
		after = append(after, c[n+2:]...)
		after = append(after, c[n:n+2]...)
		want, errs, code := runCLI(t, nil, c...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c, code, errs)
		}
		got, errs, code := runCLI(t, nil, after...)
		if code != 0 || got != want {
			t.Errorf("%v: exit %d, stderr %q, same output %v", after, code, errs, got == want)
		}
	}

	shop, dir := shopPath(t), t.TempDir()
	out := filepath.Join(dir, "out")
	t.Chdir(dir)
	if _, errs, code := runCLI(t, nil, "report", shop, "-o", out, "--title", "shop"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), "<title>shop</title>") {
		t.Errorf("report FILE -o DIR --title shop: %v, title in page %v", err, strings.Contains(string(page), "<title>shop</title>"))
	}
	if _, err := os.Stat(filepath.Join(dir, defaultReportDir)); err == nil {
		t.Errorf("report FILE -o DIR also wrote ./%s", defaultReportDir)
	}
}

// Tab after a file (the completion script runs 'fbdiag gstat FILE
// --generate-bash-completion') offered gstat's subcommands; once options
// after the files moved, it printed "flag provided but not defined:
// -generate-bash-completion" with exit 2, and completion offered nothing.
func TestCompletionAfterAFile(t *testing.T) {
	// (A process of its own: cli reads os.Args when it completes.)
	cmd := fbdiagCommand(t, "gstat", shopPath(t), "--generate-bash-completion")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.String() != "" || !strings.HasPrefix(string(out), "diff\ntrend\n") {
		t.Errorf("%v, stdout %q, stderr %q; want gstat's subcommands", err, out, stderr.String())
	}
}

// An option after the files whose value was forgotten is named as such:
// 'fbdiag report FILE -o' wrote the report into ./-- with exit 0 (the
// "--" put before the files was taken for -o's value), and 'fbdiag gstat
// FILE --format' said 'unknown format "--"'.
func TestOptionAfterFilesWithoutValue(t *testing.T) {
	shop := shopPath(t)
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report", shop, "-o"}, "fbdiag: flag needs an argument: -o\n"},
		{[]string{"gstat", shop, "--format"}, "fbdiag: flag needs an argument: -format\n"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, out, errs, exitUsage, c.want)
		}
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("the folder holds %d entries (%s…), want none", len(ents), ents[0].Name())
	}
}
