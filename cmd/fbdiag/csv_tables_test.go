package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A CSV table a command can write is written for any input, as its header
// row when the input has nothing for it: a nightly export of gbak
// compare's steps found on one side only stopped with exit status 2 ("no
// table \"only\"") on the 5 + 5 restores, whose every step is on both
// sides, and so did --table ranges of two single runs and gbak --table
// indices of a backup, which builds no index. gstat's problems and
// encryption tables already did this.
func TestCSVTableWithoutRowsIsItsHeader(t *testing.T) {
	restores, err := filepath.Glob(testutil.Testdata(t, "restores", "restore-*.log"))
	if err != nil || len(restores) != 10 {
		t.Fatalf("restores: %v, %d logs", err, len(restores))
	}
	seeds := []string{testutil.Testdata(t, "seeds", "restore-balanced.log"),
		testutil.Testdata(t, "seeds", "restore-high-performance.log")}
	backup := testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")
	sizes, oneRun := testutil.Testdata(t, "bench", "sizes.csv"), testutil.Testdata(t, "bench", "run-w1-t4.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"gbak", "compare", "--format", "csv", "--table", "only"}, restores...), "side,step\n"},
		{append([]string{"gbak", "compare", "--format", "csv", "--table", "ranges"}, seeds...),
			"step,side,runs,min_seconds,median_seconds,max_seconds,spread\n"},
		{[]string{"gbak", "--format", "csv", "--table", "indices", backup}, "index,seconds,reads,writes,state,failed\n"},
		// throughput: a degradation without a cliff test or a point of
		// high leverage (they exited 2, "no table"), and one of a single
		// bench run, on which nothing is fitted (every fit's table).
		{[]string{"throughput", "--format", "csv", "--table", "knee", sizes}, "series,at_bytes,model,below,above,step,step_change,p,significant,cliff\n"},
		{[]string{"throughput", "--format", "csv", "--table", "leverage", sizes}, "series,fit,size_bytes,leverage,limit\n"},
		{[]string{"throughput", "--format", "csv", "--table", "models", oneRun}, "series,model,formula,r2,slope_p,loss_per_doubling_share,no_loss_per_doubling\n"},
		{[]string{"throughput", "--format", "csv", "--table", "prediction", oneRun}, "series,model,at_bytes,predicted,lo,hi\n"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != exitOK || out != c.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and %q", strings.Join(c.args[:5], " "), code, out, errs, c.want)
		}
	}
	out, _, _ := runCLI(t, nil, "throughput", sizes)
	if strings.Contains(out, "Cliff test") || strings.Contains(out, "High leverage") {
		t.Errorf("throughput text shows an empty table:\n%s", out)
	}
	// Text leaves the empty tables out, as before.
	out, _, _ = runCLI(t, nil, append([]string{"gbak", "compare"}, seeds...)...)
	if strings.Contains(out, "Ranges of the sides") || strings.Contains(out, "one side only") {
		t.Errorf("gbak compare text of two single runs shows an empty table:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "gbak", backup)
	if strings.Contains(out, "Index builds") {
		t.Errorf("gbak text of a backup shows an empty index builds table:\n%s", out)
	}
}

// Every CSV table a command accepts is named in its --help: gbak compare's
// --table line left out findings. The names are the ones the command
// itself lists for an unknown --table, on inputs that have every table of
// their kind. rules and throughput also accept findings, always empty
// (their verdicts are in their tables), which their help need not name.
func TestCSVTablesNamedInHelp(t *testing.T) {
	fb30 := func(name string) string { return testutil.Testdata(t, "fb30", name) }
	restores := []string{testutil.Testdata(t, "restores", "restore-remote-run1.log"),
		testutil.Testdata(t, "restores", "restore-remote-run2.log"), testutil.Testdata(t, "restores", "restore-service-run1.log")}
	wantOne := regexp.MustCompile(`want one of ([a-z_, ]+)\)`)
	for _, c := range []struct {
		cmd, args []string
	}{
		{[]string{"gstat"}, []string{fb30("shop-gstat-a-r.txt")}},
		{[]string{"gstat", "diff"}, []string{fb30("shop-gstat-a-r.txt"), fb30("shop-gstat-r-later.txt")}},
		{[]string{"gstat", "trend"}, []string{testutil.Testdata(t, "growth")}},
		{[]string{"rules"}, nil},
		{[]string{"gbak"}, []string{fb30("shop-gbak-restore-v-st.log")}},
		{[]string{"gbak", "compare"}, restores},
		{[]string{"throughput"}, []string{"--knee", "16GB", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")}},
		{[]string{"throughput"}, []string{testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv")}},
		{[]string{"throughput"}, []string{testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")}},
	} {
		args := append(append(append([]string{}, c.cmd...), "--format", "csv", "--table", "nosuch"), c.args...)
		_, errs, code := runCLI(t, nil, args...)
		m := wantOne.FindStringSubmatch(errs)
		if code != exitUsage || m == nil {
			t.Fatalf("%v --table nosuch: exit %d, stderr %q", c.cmd, code, errs)
		}
		help, _, _ := runCLI(t, nil, append(append([]string{}, c.cmd...), "--help")...)
		for _, name := range strings.Split(m[1], ", ") {
			if name == "findings" && (c.cmd[0] == "rules" || c.cmd[0] == "throughput") {
				continue
			}
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(help) {
				t.Errorf("fbdiag %s --help does not name the CSV table %q (it accepts %s)", strings.Join(c.cmd, " "), name, m[1])
			}
		}
	}
}

// A gbak log of errors alone (Firebird issue 8263's failed restore: no
// step, three errors) has every list of docs/gbak-json.md as a JSON array:
// phases was null, where steps, tables and indices were [], and a script
// iterating the phases of a failed restore met a null.
func TestGbakJSONListsOfALogWithoutSteps(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gbak", "--format", "json",
		testutil.Corpus(t, "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"steps", "errors", "warnings", "phases", "tables", "indices", "notices"} {
		if _, ok := doc[key].([]any); !ok {
			t.Errorf("%s is %#v, want a JSON array", key, doc[key])
		}
	}
	errors, _ := doc["errors"].([]any)
	phases, _ := doc["phases"].([]any)
	if doc["outcome"] != "failed" || len(errors) != 3 || len(phases) != 0 ||
		errors[0] != "cannot commit index PK_XYZ: invalid database handle (no active connection)" {
		t.Errorf("outcome %v, phases %v, errors %q", doc["outcome"], doc["phases"], errors)
	}
}
