package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func checkWidth(t *testing.T, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, l)
		}
	}
}

func TestGbakCLIText(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gbak", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"outcome        completed",
		"total seconds  35.170",
		"page reads     10944",
		"page writes    8373",
		"ORDER_LINE   500000            24.882      20095      2    3322",
		"RDB$PRIMARY4      0.286   4569     420  ok",
		"OL_ITEM           0.243   4574     311  ok",
		"  77  data ORDER_LINE       data      3.747   24.882      2    3322",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkWidth(t, out)
}

func TestGbakCLIJSON(t *testing.T) {
	out, _, code := runCLI(t, nil, "gbak", "--format", "json", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var v struct {
		Kind         string   `json:"kind"`
		Outcome      string   `json:"outcome"`
		Errors       []string `json:"errors"`
		TotalSeconds float64  `json:"total_seconds"`
		TotalReads   int64    `json:"total_reads"`
		TotalWrites  int64    `json:"total_writes"`
		Tables       []struct {
			Name    string  `json:"name"`
			Records int64   `json:"records"`
			Seconds float64 `json:"seconds"`
			Reads   int64   `json:"reads"`
			Writes  int64   `json:"writes"`
		} `json:"tables"`
		Indices []struct {
			Name    string   `json:"name"`
			Seconds *float64 `json:"seconds"`
			Reads   *int64   `json:"reads"`
			Writes  *int64   `json:"writes"`
		} `json:"indices"`
		Steps []struct {
			Line    int      `json:"line"`
			Message string   `json:"message"`
			Start   *float64 `json:"start"`
			Seconds *float64 `json:"seconds"`
			Reads   *int64   `json:"reads"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Kind != "restore" || v.Outcome != "completed" || v.Errors == nil || len(v.Errors) != 0 ||
		v.TotalSeconds != 35.17 || v.TotalReads != 10944 || v.TotalWrites != 8373 {
		t.Errorf("summary %+v", v)
	}
	if len(v.Tables) != 6 || v.Tables[2].Name != "ORDER_LINE" || v.Tables[2].Records != 500000 || v.Tables[2].Seconds != 24.882 {
		t.Errorf("tables %+v", v.Tables)
	}
	if ix := v.Indices[2]; ix.Name != "RDB$PRIMARY4" || *ix.Seconds != 0.286 || *ix.Reads != 4569 {
		t.Errorf("index %+v", ix)
	}
	last := v.Steps[len(v.Steps)-1]
	if last.Line != 225 || last.Message != "adjusting the ONLINE and FORCED WRITES flags" || last.Seconds != nil || last.Start != nil {
		t.Errorf("last step %+v", last)
	}
	// null, not 0, for the unknown
	if !strings.Contains(out, `"seconds": null`) {
		t.Error("no null seconds in the JSON")
	}
}

func TestGbakCLIStdinAndNotices(t *testing.T) {
	data, err := os.ReadFile(testutil.Testdata(t, "seeds", "restore-balanced.log"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, data, "gbak", "--format", "csv", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if errs != "<stdin>:1: no statistics header line: read 4 leading numbers as the columns TDRW, guessed from their form\n" {
		t.Errorf("stderr %q", errs)
	}
	for _, want := range []string{
		"summary,outcome,incomplete",
		"indices,INDMF_TAG_PLC_DATA_DT_D,1258.270,5028909,233365,ok",
		"indices,PKMNF2_DOC_DOWNTIME,,,,ok",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("csv lacks %q:\n%s", want, out)
		}
	}
}

func TestGbakCLIBackupMarkdown(t *testing.T) {
	out, _, code := runCLI(t, nil, "gbak", "--format", "markdown", "--top", "2", testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"### gbak backup: ",
		"| ORDER_LINE | 500000 |  | 1.189 | 420521 | 4557 | 151 |",
		"### Slowest 2 steps",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestGbakCLIFailedLog(t *testing.T) {
	out, _, code := runCLI(t, nil, "gbak", testutil.Corpus(t, "public", "gbak", "17_fb2x_restore_index_error_gedemin1783_ru.log"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"outcome        failed",
		"error          cannot commit index RDB$FOREIGN394\n                 unsuccessful metadata update\n",
		"                 partner index segment no 1 has incompatible data type",
		"error          Database is not online due to failure to activate one or more indices.\n" +
			"                 Run gfix -online to bring database online without active indices.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Phases") {
		t.Errorf("empty phases table printed:\n%s", out)
	}
	checkWidth(t, out)
}

func TestGbakCLICompare(t *testing.T) {
	a := testutil.Testdata(t, "seeds", "restore-balanced.log")
	b := testutil.Testdata(t, "seeds", "restore-high-performance.log")
	out, _, code := runCLI(t, nil, "gbak", "compare", a, b)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"span of matched steps                  3774.995        2592.555  1.456  1182.440  +45.61%",
		"last timestamp (log incomplete)       13304.334        7894.340  1.685  5409.994  +68.53%",
		"incomplete logs (no closing line): restore-balanced.log, restore-high-performance.log; their last\n" +
			"  timestamps are when the last line shown was printed, not the run's total",
		"index INDMF_TAG_PLC_DATA_DT_D         1258.270         622.882  2.020  635.388  +102.01%",
		"cost unknown (last line, or lines missing): index PKMNF2_DOC_DOWNTIME",
		"one run per side: ratio only, no significance test",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkWidth(t, out)

	out, _, code = runCLI(t, nil, "gbak", "compare", "--format", "json", "--label", "balanced="+a, "--label", "high="+b)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var v struct {
		Runs []struct {
			Label           string   `json:"label"`
			TotalSeconds    *float64 `json:"total_seconds"`
			LastTimeSeconds float64  `json:"last_time_seconds"`
			SpanSeconds     float64  `json:"span_seconds"`
		} `json:"runs"`
		Steps []struct {
			Name    string     `json:"name"`
			Seconds []*float64 `json:"seconds"`
			Ratio   *float64   `json:"ratio"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 2 || v.Runs[0].Label != "balanced" || v.Runs[0].SpanSeconds != 3774.995 || v.Runs[1].SpanSeconds != 2592.555 ||
		v.Runs[1].TotalSeconds != nil || v.Runs[1].LastTimeSeconds != 7894.34 {
		t.Errorf("runs %+v", v.Runs)
	}
	if len(v.Steps) != 5 || *v.Steps[0].Seconds[0] != 1258.27 || *v.Steps[0].Seconds[1] != 622.882 ||
		v.Steps[4].Name != "index PKMNF2_DOC_DOWNTIME" || v.Steps[4].Seconds[0] != nil || v.Steps[4].Ratio != nil {
		t.Errorf("steps %+v", v.Steps)
	}
}

func TestGbakCLIErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gbak"}, 2, "gbak wants one log file"},
		{[]string{"gbak", "--format", "xml", "x.log"}, 2, "unknown format"},
		{[]string{"gbak", "--top", "-1", "x.log"}, 2, "--top must be 0 or more"},
		{[]string{"gbak", "compare", "x.log"}, 2, "at least two logs"},
		{[]string{"gbak", "compare", "--label", "nolabel", "x.log"}, 2, "--label wants NAME=FILE"},
		{[]string{"gbak", "compare", "-", "-"}, 2, "standard input (-) can be read only once"},
		{[]string{"gbak", "/nonexistent/restore.log"}, 1, "open /nonexistent/restore.log"},
		{[]string{"gbak", testutil.Testdata(t, "fb30", "shop-gstat-h.txt")}, 1, "no gbak output found"},
	}
	for _, c := range cases {
		_, errs, code := runCLI(t, nil, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

func TestGbakCLIHelp(t *testing.T) {
	out, _, code := runCLI(t, nil, "gbak", "--help")
	if code != 0 || !strings.Contains(out, "gbak -c -v -st tdrw -y restore.log backup.fbk") ||
		!strings.Contains(out, "res_stat tdrw verbose") {
		t.Errorf("exit %d, help:\n%s", code, out)
	}
}

// Positional files are one run each, even with the same base name.
func TestGbakCLIComparePositionalLabels(t *testing.T) {
	a := testutil.Testdata(t, "seeds", "restore-balanced.log")
	out, _, code := runCLI(t, nil, "gbak", "compare", "--format", "json", a, a)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var v struct {
		Runs []struct {
			Label string `json:"label"`
		} `json:"runs"`
		Totals []struct {
			Ratio *float64 `json:"ratio"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 2 || v.Runs[0].Label != "restore-balanced" || v.Runs[1].Label != "restore-balanced#2" || *v.Totals[1].Ratio != 1 {
		t.Errorf("runs %+v totals %+v", v.Runs, v.Totals)
	}
}

// Issue 13: five restores a side (testdata/restores). The steps' p are
// adjusted for their number, the method is named, and the five-run sides
// show their range where benchstat would print "± ∞"; the text and the
// JSON give the same figures.
func TestGbakCLICompareAdjusted(t *testing.T) {
	var args []string
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			args = append(args, "--label", fmt.Sprintf("%s=%s", side, testutil.Testdata(t, "restores", fmt.Sprintf("restore-%s-run%d.log", side, i))))
		}
	}
	out, _, code := runCLI(t, nil, append([]string{"gbak", "compare", "--top", "2"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"step                        remote      service   ratio  diff s  verdict, n=5+5\n" +
			"total seconds               52.371        3.036  17.250  49.335  +1625.00% (p=0.008)\n" +
			"  range                42.91–56.43  2.202–9.051\n",
		"data ORDER_LINE       37.843        1.549  24.431  36.294  +2343.06% (p_adj=0.025)\n" +
			"  range          33.41–40.18  1.073–4.466\n",
		"p_adj: p adjusted by Benjamini-Hochberg over the 22 step tests (of the steps called significant,\n" +
			"  at most 5% by chance); the totals are not adjusted",
		"range: the fastest and the slowest run of a side; below 6 runs the median has no 95% interval\n" +
			"  (benchstat prints ± ∞), ± x% is that interval",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "±"); n != 2 { // the range note's "± ∞" and "± x%" only
		t.Errorf("%d ± for 5 runs a side:\n%s", n, out)
	}
	checkWidth(t, out)
	out, _, code = runCLI(t, nil, append([]string{"gbak", "compare", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var v struct {
		Tests      int    `json:"tests"`
		Adjustment string `json:"adjustment"`
		Steps      []struct {
			Key       string        `json:"key"`
			P         *float64      `json:"p"`
			PAdjusted *float64      `json:"p_adjusted"`
			Spread    []*float64    `json:"spread"`
			Range     []*[2]float64 `json:"range"`
			Median    []float64     `json:"median"`
			Sig       bool          `json:"significant"`
			Verdict   string        `json:"verdict"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Tests != 22 || v.Adjustment != "benjamini-hochberg" {
		t.Errorf("tests %d adjustment %q", v.Tests, v.Adjustment)
	}
	for _, s := range v.Steps {
		switch s.Key {
		case "data|table|ORDER_LINE":
			if s.Median[0] != 37.843 || *s.Range[0] != [2]float64{33.408, 40.178} || s.Spread[0] != nil ||
				math.Abs(*s.PAdjusted-0.02494) > 0.00001 || !s.Sig || s.Verdict != "+2343.06% (p_adj=0.025 n=5+5)" {
				t.Errorf("ORDER_LINE %+v", s)
			}
		case "metadata|privilege for user|SYSDBA#54":
			if math.Abs(*s.P-0.0397) > 0.0001 || math.Abs(*s.PAdjusted-0.1091) > 0.0001 || s.Sig {
				t.Errorf("privilege %+v", s)
			}
		}
	}
}

// A restore whose server died while ORDER_LINE was loading (the fb30 log
// cut there): the table took at least the 5.375 s its progress lines
// cover. It was "?", and the slowest steps were led by STOCK.
func TestGbakCLICutMidTable(t *testing.T) {
	cut := testutil.Testdata(t, "gbak", "shop-restore-cut.log")
	out, _, code := runCLI(t, nil, "gbak", cut)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"outcome         incomplete\n",
		"total seconds   ?\n",
		"last timestamp  9.122 (log incomplete: no total)\n",
		"cut short       data ORDER_LINE: ≥ 5.375 s (incomplete), 90000 records logged\n",
		"data          3        0  ≥ 9.005      ?      0       0\n",
		"ORDER_LINE    90000           ≥ 5.375      16744      0       0\n",
		"  77  data ORDER_LINE                               data      3.747  ≥ 5.375      0       0\n" +
			"  68  data STOCK ",
		"≥: the log ends inside the step (a killed server, a cut log); it took at least that long.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkWidth(t, out)

	out, _, code = runCLI(t, nil, "gbak", "--format", "json", cut)
	var doc struct {
		Tables []struct {
			Name       string   `json:"name"`
			Seconds    *float64 `json:"seconds"`
			LowerBound *bool    `json:"lower_bound"`
		} `json:"tables"`
		Steps []struct {
			Name       string   `json:"name"`
			Seconds    *float64 `json:"seconds"`
			LowerBound *bool    `json:"lower_bound"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	ol, last := doc.Tables[2], doc.Steps[len(doc.Steps)-1]
	if ol.Name != "ORDER_LINE" || ol.Seconds == nil || *ol.Seconds != 5.375 || ol.LowerBound == nil || !*ol.LowerBound {
		t.Errorf("JSON table %+v", ol)
	}
	if last.Name != "ORDER_LINE" || last.Seconds == nil || *last.Seconds != 5.375 || last.LowerBound == nil || !*last.LowerBound {
		t.Errorf("JSON last step %+v", last)
	}
	if st := doc.Tables[1]; st.LowerBound != nil {
		t.Errorf("STOCK is whole, yet lower_bound is %v", *st.LowerBound)
	}

	out, _, code = runCLI(t, nil, "gbak", "--format", "csv", cut)
	if code != 0 || !strings.Contains(out, "tables,ORDER_LINE,90000,,≥ 5.375,16744,0,0\n") {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
}

// --fail-on failed: exit 3 for a failed or incomplete run, after the
// analysis, as gstat --fail-on does; a completed restore passes. It
// exited 0 whatever the outcome.
func TestGbakCLIFailOn(t *testing.T) {
	for _, c := range []struct {
		path, stderr string
		code         int
	}{
		{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"), "", 0},
		{testutil.Testdata(t, "gbak", "shop-restore-cut.log"), "fbdiag: gbak: the restore is incomplete: the log ends before gbak's closing line\n", 3},
		{testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"), "", 0},
		{testutil.Corpus(t, "public", "gbak", "17_fb2x_restore_index_error_gedemin1783_ru.log"), "fbdiag: gbak: the restore failed\n", 3},
	} {
		out, errs, code := runCLI(t, nil, "gbak", "--fail-on", "failed", c.path)
		if code != c.code || !strings.HasSuffix(errs, c.stderr) || !strings.Contains(out, "outcome ") {
			t.Errorf("%s: exit %d, stderr %q, stdout %d bytes", c.path, code, errs, len(out))
		}
	}
	_, errs, code := runCLI(t, nil, "gbak", "--fail-on", "warning", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if code != 2 || !strings.Contains(errs, `--fail-on "warning": want failed`) {
		t.Errorf("--fail-on warning: exit %d, %q", code, errs)
	}
}
