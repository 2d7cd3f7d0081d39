package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
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

// Seed 003 holds two tables and two gbak excerpts in its prose: detect
// lists the four parts with their lines, in every format.
func TestDetectMixed(t *testing.T) {
	p := testutil.Testdata(t, "mixed", "003_f44fd1243848db85.txt")
	tsv := testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")
	out, errs, code := runCLI(t, nil, "detect", "--format", "csv", p, tsv)
	want := "file,kind,first_line,last_line,reason\n" +
		p + `#table-1,throughput,15,17,"tab-separated table with 2 columns, header line 15: ""Plan de energía Rendimiento TPC-C (cuan…"""` + "\n" +
		p + `#table-2,throughput,23,25,"tab-separated table with 2 columns, header line 23: ""Plan de energía Tiempo de restauración …"""` + "\n" +
		p + `#gbak-1,gbak,35,39,"line 35: ""gbak: 9529.339 1230.343 5028900 346529 …"""` + "\n" +
		p + `#gbak-2,gbak,45,52,"line 45: ""gbak: 5301.785 615.045 5028900 346529 a…"""` + "\n" +
		tsv + `,throughput,,,"tab-separated table with 2 columns, header line 1: ""power_plan      tpcc_score"""` + "\n"
	if code != 0 || errs != "" || out != want {
		t.Errorf("csv: exit %d %q:\n%s\nwant\n%s", code, errs, out, want)
	}
	out, _, code = runCLI(t, nil, "detect", "--format", "json", p, tsv)
	var got []parse.Detected
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got) != 5 {
		t.Fatalf("json: exit %d, %v:\n%s", code, err, out)
	}
	if g := got[3]; g.File != p+"#gbak-2" || g.Kind != parse.InputGbak || g.Source != p || g.FirstLine != 45 || g.LastLine != 52 ||
		g.SkippedLines == nil || *g.SkippedLines != 22 {
		t.Errorf("json part: %+v", g)
	}
	// A whole file's object is as before: file, kind, reason.
	if !strings.HasSuffix(out, "  {\n    \"file\": \""+tsv+"\",\n    \"kind\": \"throughput\",\n"+
		"    \"reason\": \"tab-separated table with 2 columns, header line 1: \\\"power_plan      tpcc_score\\\"\"\n  }\n]\n") {
		t.Errorf("json whole file:\n%s", out)
	}
	// The note under the table, wrapped at 100 columns.
	out, _, _ = runCLI(t, nil, "detect", p)
	if !strings.HasSuffix(strings.ReplaceAll(out, "\n  ", " "), "\n"+p+": 4 parts of 2 kinds; 22 lines of prose around them skipped (blank lines not counted).\n") {
		t.Errorf("text:\n%s", out)
	}
}
