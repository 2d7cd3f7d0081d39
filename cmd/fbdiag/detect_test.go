package main

import (
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// detect's CSV is one table with the JSON's keys; its JSON the list.
func TestDetectFormats(t *testing.T) {
	tsv := testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")
	out, errs, code := runCLI(t, nil, "detect", "--format", "csv", tsv)
	want := "file,kind,reason\n" + tsv + `,throughput,"tab-separated table with 2 columns, header line 1: ""power_plan      tpcc_score"""` + "\n"
	if code != 0 || errs != "" || out != want {
		t.Errorf("csv: exit %d %q:\n%s\nwant\n%s", code, errs, out, want)
	}
	out, _, code = runCLI(t, nil, "detect", "--format", "json", tsv)
	want = "[\n  {\n    \"file\": \"" + tsv + "\",\n    \"kind\": \"throughput\",\n" +
		"    \"reason\": \"tab-separated table with 2 columns, header line 1: \\\"power_plan      tpcc_score\\\"\"\n  }\n]\n"
	if code != 0 || out != want {
		t.Errorf("json: exit %d:\n%s\nwant\n%s", code, out, want)
	}
	if _, errs, code := runCLI(t, nil, "detect", "--format", "yaml", tsv); code != 2 || errs == "" {
		t.Errorf("yaml: exit %d %q", code, errs)
	}
}
