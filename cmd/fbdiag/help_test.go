package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Every --help fits a 100-column terminal: gstat's usage line was 130
// columns, gstat trend's description had a 128-column line and bench
// sweep's a 121-column one.
func TestHelpFits100(t *testing.T) {
	for _, cmd := range [][]string{{}, {"gstat"}, {"gstat", "diff"}, {"gstat", "trend"}, {"rules"},
		{"gbak"}, {"gbak", "compare"}, {"throughput"}, {"report"}, {"detect"}, {"collect"}, {"backup"},
		{"restore"}, {"bench"}, {"bench", "init"}, {"bench", "run"}, {"bench", "sweep"}} {
		out, errs, code := runCLI(t, nil, append(cmd, "--help")...)
		if code != 0 || errs != "" || !strings.Contains(out, "USAGE:") {
			t.Errorf("%v --help: exit %d, stderr %q", cmd, code, errs)
		}
		for i, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 100 {
				t.Errorf("%v --help line %d is %d columns: %q", cmd, i+1, n, l)
			}
			// A flag says its default once: bench's --seed said "(default:
			// random) (default: 0)".
			if strings.Count(l, "(default: ") > 1 {
				t.Errorf("%v --help line %d: %q", cmd, i+1, l)
			}
		}
	}
	out, _, _ := runCLI(t, nil, "gstat", "--help")
	if !strings.Contains(out, "   fbdiag gstat [--format F] [--top N|--all] [--sort K] [--table T] [--fail-on SEV] [PNG] FILE|-...\n") {
		t.Errorf("gstat usage line:\n%s", out)
	}
}

// A usage error named "fbdiag --help" whatever the command, and a bad
// flag named no help at all.
func TestUsageErrorPointsAtCommandHelp(t *testing.T) {
	file := testutil.Testdata(t, "fb30", "shop-gstat-h.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gstat", "trend", "--until", "x", file}, "fbdiag: gstat trend: --until: size \"x\": no number (want a size such as 100GB, 512MiB or 2T)\nRun 'fbdiag gstat trend --help' for usage.\n"},
		{[]string{"gstat", "--bogus", file}, "fbdiag: flag provided but not defined: -bogus\nRun 'fbdiag gstat --help' for usage.\n"},
		{[]string{"gbak", "compare", file}, "fbdiag: gbak compare wants at least two logs, got 1\nRun 'fbdiag gbak compare --help' for usage.\n"},
		{[]string{"nosuch"}, "fbdiag: unknown command \"nosuch\"\nRun 'fbdiag --help' for usage.\n"},
		// cli answered these "No help topic for 'nosuch'" with exit 3,
		// --fail-on's status.
		{[]string{"bench", "nosuch"}, "fbdiag: unknown command \"nosuch\"\nRun 'fbdiag bench --help' for usage.\n"},
		{[]string{"bench", "help", "nosuch"}, "fbdiag: unknown command \"nosuch\"\nRun 'fbdiag bench --help' for usage.\n"},
		{[]string{"gstat", "help", "nosuch"}, "fbdiag: unknown command \"nosuch\"\nRun 'fbdiag gstat --help' for usage.\n"},
	} {
		_, errs, code := runCLI(t, nil, c.args...)
		if code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// "fbdiag help CMD…" prints what "fbdiag CMD… --help" prints.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range [][]string{{}, {"gstat"}, {"gstat", "trend"}, {"gbak", "compare"}} {
		out, errs, code := runCLI(t, nil, append([]string{"help"}, cmd...)...)
		want, _, wcode := runCLI(t, nil, append(cmd, "--help")...)
		if code != 0 || wcode != 0 || errs != "" || out != want || !strings.Contains(out, "USAGE:") {
			t.Errorf("help %v: exit %d, stderr %q, output %d bytes; --help gives %d bytes", cmd, code, errs, len(out), len(want))
		}
	}
	_, errs, code := runCLI(t, nil, "help", "nosuch")
	if want := "fbdiag: unknown command \"nosuch\"\nRun 'fbdiag --help' for usage.\n"; code != 2 || errs != want {
		t.Errorf("help nosuch: exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}

// An option after the files is read as one (see optionsFirst): the flag
// parser stops at the first file, so throughput opened a file named
// --format (exit 1, "open --format: no such file or directory"), gstat
// diff counted --format=json as a snapshot ("want two snapshots, OLD and
// NEW (got 3)") and gbak compare read the seed's log, then failed on
// opening --label. Each now does what the options before the files do.
func TestOptionAfterFilesIsAnOption(t *testing.T) {
	tsv := testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")
	h, ar := testutil.Testdata(t, "fb30", "shop-gstat-h.txt"), testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	seed := testutil.Testdata(t, "seeds", "restore-balanced.log")
	for _, c := range []struct{ after, before []string }{
		{[]string{"throughput", tsv, "--format", "json"}, []string{"throughput", "--format", "json", tsv}},
		{[]string{"gstat", "diff", h, ar, "--format=json"}, []string{"gstat", "diff", "--format=json", h, ar}},
		{[]string{"gbak", "compare", seed, "--label", "x=" + seed}, []string{"gbak", "compare", "--label", "x=" + seed, seed}},
		{[]string{"gstat", ar, "-top", "3"}, []string{"gstat", "-top", "3", ar}},
	} {
		want, werrs, wcode := runCLI(t, nil, c.before...)
		got, errs, code := runCLI(t, nil, c.after...)
		if wcode != exitOK || code != exitOK || got != want || errs != werrs {
			t.Errorf("%v: exit %d, stderr %q; %v: exit %d, stderr %q; same output %v", c.after, code, errs, c.before, wcode, werrs, got == want)
		}
	}
}

// --table names the one table of CSV output: with another format it is a
// usage error on every command that takes it. gstat diff, gstat trend and
// rules printed their text (or JSON) with exit 0, so that a script that
// forgot --format csv read a report as its table.
func TestTableWithoutCSVIsUsageError(t *testing.T) {
	h, ar := testutil.Testdata(t, "fb30", "shop-gstat-h.txt"), testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gstat", "--table", "indices", ar}, "fbdiag: gstat: --table chooses the CSV table: give --format csv too\nRun 'fbdiag gstat --help' for usage.\n"},
		{[]string{"gstat", "diff", "--table", "indices", h, ar}, "fbdiag: diff: --table chooses the CSV table: give --format csv too\nRun 'fbdiag gstat diff --help' for usage.\n"},
		{[]string{"gstat", "diff", "--format", "json", "--table", "indices", h, ar}, "fbdiag: diff: --table chooses the CSV table: give --format csv too\nRun 'fbdiag gstat diff --help' for usage.\n"},
		{[]string{"gstat", "trend", "--table", "tables", h, ar}, "fbdiag: trend: --table chooses the CSV table: give --format csv too\nRun 'fbdiag gstat trend --help' for usage.\n"},
		{[]string{"gstat", "trend", "--format", "markdown", "--table", "tables", h, ar}, "fbdiag: trend: --table chooses the CSV table: give --format csv too\nRun 'fbdiag gstat trend --help' for usage.\n"},
		{[]string{"rules", "--table", "thresholds"}, "fbdiag: rules: --table chooses the CSV table: give --format csv too\nRun 'fbdiag rules --help' for usage.\n"},
		{[]string{"rules", "--format", "json", "--table", "thresholds"}, "fbdiag: rules: --table chooses the CSV table: give --format csv too\nRun 'fbdiag rules --help' for usage.\n"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != exitUsage || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, %d bytes out, stderr %q; want 2, nothing, %q", c.args, code, len(out), errs, c.want)
		}
	}
	// With --format csv the table is written.
	out, errs, code := runCLI(t, nil, "rules", "--format", "csv", "--table", "thresholds")
	if code != exitOK || errs != "" || !strings.HasPrefix(out, "rule,key,") {
		t.Errorf("rules --format csv --table thresholds: exit %d, %q, %.80q", code, errs, out)
	}
}

// backup and restore check --top with their other flags, before the
// password is asked or the server attached, and name no --all, which
// they do not have: "restore --top 0" without ISC_PASSWORD read "no
// password: set ISC_PASSWORD" (exit 1), and with it "--top must be 1 or
// more (--all shows every step)" once attached.
func TestGbakServiceTopIsAUsageError(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "")
	for _, cmd := range []string{"backup", "restore"} {
		out, errs, code := runCLI(t, nil, cmd, "--top", "0", "/nonexistent/a", "/nonexistent/b")
		want := "fbdiag: --top must be 1 or more, got 0\nRun 'fbdiag " + cmd + " --help' for usage.\n"
		if code != exitUsage || out != "" || errs != want {
			t.Errorf("%s --top 0: exit %d, %q, stderr %q; want 2 and %q", cmd, code, out, errs, want)
		}
	}
	// A bad number names its own flag: "--buffers -5 / --parallel 0:
	// want 1 or more" named both.
	for _, c := range []struct{ flag, want string }{
		{"--buffers", "fbdiag: --buffers -5: want 1 or more\nRun 'fbdiag restore --help' for usage.\n"},
		{"--parallel", "fbdiag: --parallel -5: want 1 or more\nRun 'fbdiag restore --help' for usage.\n"},
	} {
		_, errs, code := runCLI(t, nil, "restore", c.flag, "-5", "/nonexistent/a", "/nonexistent/b")
		if code != exitUsage || errs != c.want {
			t.Errorf("restore %s -5: exit %d, stderr %q; want 2 and %q", c.flag, code, errs, c.want)
		}
	}
	_, errs, code := runCLI(t, nil, "gbak", "--top", "0", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if want := "fbdiag: --top must be 1 or more (--all shows every step), got 0\nRun 'fbdiag gbak --help' for usage.\n"; code != exitUsage || errs != want {
		t.Errorf("gbak --top 0: exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}

// Every CSV table a command writes is named in its --help: the tables an
// unknown --table lists (the document's own) against the help text.
// throughput's help left out findings.
func TestHelpNamesEveryCSVTable(t *testing.T) {
	seed := func(n string) string { return testutil.Testdata(t, "seeds", n) }
	fb30 := func(n string) string { return testutil.Testdata(t, "fb30", n) }
	for _, c := range []struct{ cmd, args []string }{
		{[]string{"gstat"}, []string{fb30("shop-gstat-a-r.txt")}},
		{[]string{"gstat", "diff"}, []string{fb30("shop-gstat-a-r.txt"), fb30("shop-gstat-r-later.txt")}},
		{[]string{"gstat", "trend"}, []string{testutil.Testdata(t, "growth")}},
		{[]string{"rules"}, nil},
		{[]string{"gbak"}, []string{fb30("shop-gbak-restore-v-st.log")}},
		{[]string{"gbak", "compare"}, []string{seed("restore-balanced.log"), seed("restore-high-performance.log")}},
		{[]string{"throughput"}, []string{"--knee", "16GB", seed("degradation-throughput-sata.csv")}},
		{[]string{"throughput"}, []string{seed("page-buffers-1.7tb.csv")}},
		{[]string{"throughput"}, []string{seed("power-plan-tpcc.tsv")}},
		{[]string{"throughput"}, []string{seed("degradation-load-sata.csv")}},
	} {
		help, _, _ := runCLI(t, nil, append(c.cmd, "--help")...)
		help = strings.Join(strings.Fields(help), " ")
		_, errs, code := runCLI(t, nil, append(append(append([]string{}, c.cmd...), "--format", "csv", "--table", "nosuch"), c.args...)...)
		_, list, ok := strings.Cut(errs, "(want one of ")
		list, _, _ = strings.Cut(list, ")")
		if code != exitUsage || !ok {
			t.Fatalf("%v --table nosuch: exit %d, %q", c.cmd, code, errs)
		}
		for _, table := range strings.Split(list, ", ") {
			if !regexp.MustCompile(`\b` + table + `\b`).MatchString(help) {
				t.Errorf("%v --help does not name the CSV table %q", c.cmd, table)
			}
		}
	}
}
