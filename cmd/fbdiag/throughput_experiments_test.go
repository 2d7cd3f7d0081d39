package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Inputs of different experiments are not one analysis: the seeds'
// page-buffer sweep beside their degradation had its page buffers read
// as sizes (256 GiB to 2.00 TiB), a load table beside a degradation
// made the whole a load analysis without the degradation's rows, and a
// second load table replaced the first. Each table that is not of the
// first input's experiment is left out with a notice at its header line.
func TestThroughputOtherExperimentsLeftOut(t *testing.T) {
	seed := func(name string) string { return testutil.Testdata(t, "seeds", name) }
	deg, sweep, load, ab := seed("degradation-throughput-sata.csv"), seed("page-buffers-1.7tb.csv"), seed("degradation-load-sata.csv"), seed("power-plan-tpcc.tsv")
	const then = ": another experiment; analyse it on its own, or every file with fbdiag report (a section each)"
	out, errs, code := runCLI(t, nil, "throughput", "--format", "json", deg, sweep, load, ab)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Mode    string   `json:"mode"`
		Inputs  []string `json:"inputs"`
		Notices []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"notices"`
		Series []struct {
			Name   string `json:"name"`
			Points []struct {
				X      float64 `json:"x"`
				Source string  `json:"source"`
			} `json:"points"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	first := "the first input, " + deg + ", is throughput against size_gb (a size)"
	want := []string{
		sweep + ":1: left out: throughput against page_buffers (a number), where " + first + then,
		load + ":1: left out: a load table (a size and a load time), where " + first + then,
		ab + ":1: left out: throughput against power_plan (names), where " + first + then,
	}
	var got []string
	for _, n := range doc.Notices {
		got = append(got, n.File+":"+itoa(n.Line)+": "+n.Message)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if doc.Mode != "degradation" || len(doc.Inputs) != 1 || doc.Inputs[0] != deg || len(doc.Series) != 1 || len(doc.Series[0].Points) != 12 {
		t.Fatalf("mode %s, inputs %q, series %+v", doc.Mode, doc.Inputs, doc.Series)
	}
	if last := doc.Series[0].Points[11]; last.X != 1813.969025 || last.Source != deg+":13" {
		t.Errorf("largest point %+v", last)
	}
	// Text: the same notices on stderr, file:line first.
	// The title names the file analysed, not "+3" for those left out.
	text, errs, code := runCLI(t, nil, "throughput", deg, sweep, load, ab)
	if code != 0 || errs != strings.Join(want, "\n")+"\n" {
		t.Errorf("exit %d, stderr\n%s", code, errs)
	}
	if !strings.HasPrefix(text, "degradation-throughput-sata.csv (degradation): ops_per_s against size_gb (GiB)\n") {
		t.Errorf("title: %.80q", text)
	}

	// A load table first: the rest are left out, a second load table too.
	b := testutil.ReadTestdata(t, "seeds", "degradation-load-sata.csv")
	dir := t.TempDir()
	for name, data := range map[string]string{"load-sata.csv": string(b), "load-ssd.csv": strings.Replace(string(b), "1,9.04,2535,", "1,9.04,1535,", 1)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, code = runCLI(t, nil, "throughput", filepath.Join(dir, "load-sata.csv"), filepath.Join(dir, "load-ssd.csv"), deg)
	wantErr := filepath.Join(dir, "load-ssd.csv") + ":1: left out: a second load table (the first input, " + filepath.Join(dir, "load-sata.csv") +
		", is one): fbdiag throughput analyses one at a time; analyse it on its own, or every file with fbdiag report (a section each)\n" +
		deg + ":1: left out: throughput against size_gb (a size), where the first input, " + filepath.Join(dir, "load-sata.csv") +
		", is a load table (a size and a load time)" + then + "\n"
	if code != 0 || errs != wantErr {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, errs, wantErr)
	}
	// The first table's rows, not the second's (its 9.04 GiB row loaded at
	// 6.03 MiB/s).
	if !strings.Contains(out, "\nload speed       9.04 GiB                3.65  "+filepath.Join(dir, "load-sata.csv")+":2\n") || strings.Contains(out, "load-ssd.csv:2") {
		t.Errorf("load rows:\n%s", out)
	}
}

// An article that holds its result tables and two gbak excerpts (the
// Spanish seed): throughput reads its tables, and says which lines it
// leaves to fbdiag gbak, instead of refusing the whole file as gbak
// output. A gbak log alone is still refused.
func TestThroughputArticleWithGbak(t *testing.T) {
	article := testutil.Testdata(t, "mixed", "003_f44fd1243848db85.txt")
	out, errs, code := runCLI(t, nil, "throughput", "--input-table", "1", article)
	wantErr := article + ":35: gbak output (lines 35–39) left out: 'fbdiag gbak' reads it\n" +
		article + ":45: gbak output (lines 45–52) left out: 'fbdiag gbak' reads it\n"
	if code != 0 || errs != wantErr {
		t.Fatalf("exit %d, stderr\n%s", code, errs)
	}
	if !strings.HasPrefix(out, "003_f44fd1243848db85.txt (ab): Rendimiento TPC-C (cuanto más alto, mejor) against Plan de energía\n"+
		"Alto rendimiento vs Equilibrado  +24.6 % (×1.25, faster; 1 run each, no test)\n") {
		t.Errorf("output:\n%s", out)
	}
	_, errs, code = runCLI(t, nil, "throughput", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if code != 1 || !strings.Contains(errs, "not for 'fbdiag throughput': use 'fbdiag gbak'") {
		t.Errorf("gbak log: exit %d, %s", code, errs)
	}
}
