package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/view"
)

func checkWidth(t *testing.T, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, l)
		}
	}
}

// golden is a golden file of package view: what the CLI prints is the
// view's bytes (after the title, which names the file as it was given).
func golden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "view", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func afterTitle(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// `fbdiag gbak` prints the gbak view: the same bytes as its golden file
// in text, markdown and CSV.
func TestGbakCLIIsTheView(t *testing.T) {
	path := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	for _, c := range []struct{ format, golden string }{
		{"text", "gbak-shop-restore.txt"},
		{"markdown", "gbak-shop-restore.md"},
		{"csv", "gbak-shop-restore.csv"},
	} {
		out, errs, code := runCLI(t, nil, "gbak", "--format", c.format, path)
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", c.format, code, errs)
		}
		if afterTitle(out) != afterTitle(golden(t, c.golden)) {
			t.Errorf("%s differs from view/testdata/golden/%s:\n%s", c.format, c.golden, out)
		}
	}
	out, _, _ := runCLI(t, nil, "gbak", path)
	checkWidth(t, out)
	if !strings.HasPrefix(out, "gbak restore: "+path+"\n") {
		t.Errorf("title %q", strings.SplitN(out, "\n", 2)[0])
	}
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
		Phases       []struct {
			Name    string   `json:"name"`
			Seconds *float64 `json:"seconds"`
			Share   *float64 `json:"share"`
		} `json:"phases"`
		Tables []struct {
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
	// the data phase: 34.207 of 35.170 s
	if p := v.Phases[2]; p.Name != "data" || *p.Seconds != 34.207 || math.Abs(*p.Share-34.207/35.17) > 1e-12 {
		t.Errorf("data phase %+v", p)
	}
	if len(v.Tables) != 6 || v.Tables[2].Name != "ORDER_LINE" || v.Tables[2].Records != 500000 || v.Tables[2].Seconds != 24.882 {
		t.Errorf("tables %+v", v.Tables)
	}
	if ix := v.Indices[2]; ix.Name != "RDB$PRIMARY4" || *ix.Seconds != 0.287 || *ix.Reads != 4569 {
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

// CSV is one rectangular table: the steps by default, another with
// --table; an unknown name is a usage error that lists the valid ones.
func TestGbakCLIStdinAndTables(t *testing.T) {
	data := testutil.ReadTestdata(t, "seeds", "restore-balanced.log")
	out, errs, code := runCLI(t, data, "gbak", "--format", "csv", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if errs != "<stdin>:1: no statistics header line: read 4 leading numbers as the columns TDRW, guessed from their form\n" {
		t.Errorf("stderr %q", errs)
	}
	if want := "line,step,phase,start_seconds,seconds,reads,writes,bound,kind,object,name\n" +
		"1,index INDMF_TAG_PLC_DATA_DT_D (build),indices,9529.339,1258.271,5028909,233365,false,activate_index,index,INDMF_TAG_PLC_DATA_DT_D\n" +
		"2,index INDMF_TAG_PLC_DATA_TAG_D (build),indices,10787.61,1036.719,5028907,216488,false,activate_index,index,INDMF_TAG_PLC_DATA_TAG_D\n" +
		"3,index INDMF_TAG_PLC_DATA_LU_D (build),indices,11824.329,746.683,5028907,265160,false,activate_index,index,INDMF_TAG_PLC_DATA_LU_D\n" +
		"4,index INDMF_TAG_PLC_DATA_C1 (build),indices,12571.012,733.322,5028908,359393,false,activate_index,index,INDMF_TAG_PLC_DATA_C1\n" +
		"5,index PKMNF2_DOC_DOWNTIME (build),indices,13304.334,,,,false,activate_index,index,PKMNF2_DOC_DOWNTIME\n"; out != want {
		t.Errorf("csv:\n%s\nwant:\n%s", out, want)
	}
	out, _, code = runCLI(t, data, "gbak", "--format", "csv", "--table", "summary", "-")
	if code != 0 || out != "field,value\noutcome,incomplete\ntotal_seconds,\nlast_time_seconds,13304.334\ntotal_reads,\ntotal_writes,\nstatistics,TDRW\n" {
		t.Errorf("summary (exit %d):\n%s", code, out)
	}
	_, errs, code = runCLI(t, data, "gbak", "--format", "csv", "--table", "slowest", "-")
	if code != 2 || !strings.Contains(errs, `--table: no table "slowest" (want one of phases, indices, steps, tables, summary, findings)`) {
		t.Errorf("unknown table: exit %d, %q", code, errs)
	}
	_, errs, code = runCLI(t, data, "gbak", "--table", "steps", "-")
	if code != 2 || !strings.Contains(errs, "--table chooses the table of --format csv") {
		t.Errorf("--table with text: exit %d, %q", code, errs)
	}
}

func TestGbakCLIBackupMarkdown(t *testing.T) {
	out, _, code := runCLI(t, nil, "gbak", "--format", "markdown", "--top", "2", testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"## gbak backup: ",
		"| ORDER_LINE | 500000 |  | 1.189 s | 420521 | 4557 | 151 |  |",
		"| 85 | data ORDER_LINE | data | 0.615 s | 1.189 s | 4557 | 151 |  |\n| 73 | data DOCS |",
		"2 of 164 steps shown (--all shows them)",
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
		"Outcome      failed\n",
		"Errors and warnings (2)\n" +
			"CRITICAL gbak-error  restore\n" +
			"         cannot commit index RDB$FOREIGN394: unsuccessful metadata update; partner index segment no\n" +
			"         1 has incompatible data type\n" +
			// fbdiag's advice: gbak went on (2.x): fix, activate, online
			"         do: gbak went on without RDB$FOREIGN394 and left the database offline: in it (SYSDBA or the\n" +
			"         owner, one connection), remove the cause gbak gives (partner index segment no 1 has\n" +
			"         incompatible data type), then ALTER INDEX RDB$FOREIGN394 ACTIVE; when every index gbak\n" +
			"         names is active, gfix -online (gfix -online alone brings it online with the index inactive)\n" +
			"CRITICAL gbak-error  restore\n" +
			"         Database is not online due to failure to activate one or more indices.; Run gfix -online to\n" +
			"         bring database online without active indices.\n",
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

// Issue 14: the first log is the baseline (ratio = other / base), the
// labels are what sets the file names apart, durations are h:mm:ss; the
// text and the JSON say the same.
func TestGbakCLICompare(t *testing.T) {
	a := testutil.Testdata(t, "seeds", "restore-balanced.log")
	b := testutil.Testdata(t, "seeds", "restore-high-performance.log")
	out, _, code := runCLI(t, nil, "gbak", "compare", a, b)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if out != golden(t, "gbak-compare-seeds.txt") {
		t.Errorf("text differs from view/testdata/golden/gbak-compare-seeds.txt:\n%s", out)
	}
	checkWidth(t, out)

	out, _, code = runCLI(t, nil, "gbak", "compare", "--format", "json", a, b)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var v struct {
		Base string `json:"base"`
		Runs []struct {
			Label           string   `json:"label"`
			TotalSeconds    *float64 `json:"total_seconds"`
			LastTimeSeconds float64  `json:"last_time_seconds"`
			SpanSeconds     float64  `json:"span_seconds"`
		} `json:"runs"`
		Totals []struct {
			Key        string   `json:"key"`
			Ratio      *float64 `json:"ratio"`
			Change     *float64 `json:"change"`
			Difference *float64 `json:"difference"`
			Direction  string   `json:"direction"`
			Verdict    string   `json:"verdict"`
		} `json:"totals"`
		Steps []struct {
			Name    string     `json:"name"`
			Seconds []*float64 `json:"seconds"`
			Ratio   *float64   `json:"ratio"`
			Versus  []struct {
				Side  string   `json:"side"`
				Ratio *float64 `json:"ratio"`
			} `json:"versus"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Base != "balanced" || len(v.Runs) != 2 || v.Runs[0].Label != "balanced" || v.Runs[1].Label != "high-performance" ||
		v.Runs[0].SpanSeconds != 3774.995 || v.Runs[1].SpanSeconds != 2592.555 || v.Runs[1].TotalSeconds != nil || v.Runs[1].LastTimeSeconds != 7894.34 {
		t.Errorf("base %q runs %+v", v.Base, v.Runs)
	}
	// The span of the matched steps: 2592.555 / 3774.995 = 0.687.
	if span := v.Totals[2]; span.Key != "span" || math.Abs(*span.Ratio-0.687) > 0.0005 || math.Abs(*span.Change+0.313) > 0.0005 ||
		*span.Difference != -1182.44 || span.Direction != "faster" || span.Verdict != "-31.32% (n=1+1, no test)" {
		t.Errorf("span %+v", span)
	}
	dt := v.Steps[0]
	if len(v.Steps) != 5 || dt.Name != "index INDMF_TAG_PLC_DATA_DT_D (build)" || *dt.Seconds[0] != 1258.271 || *dt.Seconds[1] != 622.882 ||
		math.Abs(*dt.Ratio-622.882/1258.271) > 1e-12 || len(dt.Versus) != 1 || dt.Versus[0].Side != "high-performance" || *dt.Versus[0].Ratio != *dt.Ratio ||
		v.Steps[4].Name != "index PKMNF2_DOC_DOWNTIME (build)" || v.Steps[4].Seconds[0] != nil || v.Steps[4].Ratio != nil {
		t.Errorf("steps %+v", v.Steps)
	}

	// --base chooses the baseline: the balanced run is then 1.46 times
	// as long over the matched steps.
	out, _, code = runCLI(t, nil, "gbak", "compare", "--base", "high-performance", a, b)
	if code != 0 || !strings.Contains(out, "Span of matched steps, balanced / high-performance  ×1.46 (+45.6 %, slower)\n") {
		t.Errorf("--base (exit %d):\n%s", code, out)
	}
	_, errs, code := runCLI(t, nil, "gbak", "compare", "--base", "fast", a, b)
	if code != 2 || !strings.Contains(errs, `--base "fast": no run has that label (the labels are balanced, high-performance)`) {
		t.Errorf("unknown base: exit %d, %q", code, errs)
	}
}

func TestGbakCLIErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gbak"}, 2, "gbak wants one log file"},
		{[]string{"gbak", "--format", "xml", "x.log"}, 2, `gbak: unknown format "xml" (want text, json, csv or markdown)`},
		{[]string{"gbak", "--format", "openmetrics", "x.log"}, 2, `unknown format "openmetrics"`},
		{[]string{"gbak", "--top", "0", "x.log"}, 2, "--top must be 1 or more (--all shows every step), got 0"},
		{[]string{"gbak", "compare", "x.log"}, 2, "at least two logs"},
		{[]string{"gbak", "compare", "--label", "nolabel", "x.log"}, 2, "--label wants NAME=FILE"},
		{[]string{"gbak", "compare", "-", "-"}, 2, "standard input (-) can be read only once"},
		{[]string{"gbak", "/nonexistent/restore.log"}, 1, "open /nonexistent/restore.log"},
		{[]string{"gbak", testutil.Testdata(t, "fb30", "shop-gstat-h.txt")}, 1, "not for 'fbdiag gbak': use 'fbdiag gstat'"},
		{[]string{"gbak", testutil.Testdata(t, "fb30", "shop-schema.sql")}, 1, "no gbak output found"},
	}
	// the first line of the shop restore alone, as a gbak still attaching
	// (or killed then) leaves its -y log: it was "no line starts with gbak:"
	head := filepath.Join(t.TempDir(), "restore.log")
	first, _, _ := strings.Cut(string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")), "\n")
	if err := os.WriteFile(head, []byte(first+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		args []string
		code int
		msg  string
	}{[]string{"gbak", head}, 1, head + ":1: the statistics header line and nothing after it: gbak printed no step, error or total " +
		"(still running, stopped before its first message, or the log was cut)\n"})
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
	out, _, code = runCLI(t, nil, "gbak", "compare", "--help")
	if code != 0 || !strings.Contains(out, "is the baseline: ratio = other / baseline") {
		t.Errorf("exit %d, compare help:\n%s", code, out)
	}
}

// Positional files are one run each, even with the same name: the second
// is told apart with #2, and a log against itself is the same.
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
			Ratio     *float64 `json:"ratio"`
			Direction string   `json:"direction"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 2 || v.Runs[0].Label != "restore-balanced" || v.Runs[1].Label != "restore-balanced#2" ||
		*v.Totals[1].Ratio != 1 || v.Totals[1].Direction != "same" {
		t.Errorf("runs %+v totals %+v", v.Runs, v.Totals)
	}
}

// Three runs given one by one, each its own label: three sides, three
// columns, each compared with the first (it compared the first two and
// said "seconds lists every run"). (Named only by their files, the two
// numbered remote runs would be the repeats of one side.)
func TestGbakCLICompareThree(t *testing.T) {
	var args []string
	for _, r := range []string{"remote-run1", "remote-run2", "service-run1"} {
		args = append(args, "--label", r+"="+testutil.Testdata(t, "restores", "restore-"+r+".log"))
	}
	out, _, code := runCLI(t, nil, append([]string{"gbak", "compare", "--top", "3", "--format", "csv"}, args...)...)
	if code != 0 || out != golden(t, "gbak-compare-three.csv") {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
	out, _, code = runCLI(t, nil, append([]string{"gbak", "compare", "--top", "3"}, args...)...)
	if code != 0 || out != golden(t, "gbak-compare-three.txt") {
		t.Errorf("text (exit %d):\n%s", code, out)
	}
	dir := t.TempDir()
	_, errs, code := runCLI(t, nil, append([]string{"gbak", "compare", "--png", dir}, args...)...)
	if code != 0 || !strings.Contains(errs, "restore-comparison-compare.png") {
		t.Errorf("png (exit %d): %s", code, errs)
	}
}

// Issue 13: five restores a side (testdata/restores). The steps' p are
// adjusted for their number, the method is named, and the five-run sides
// show their range where benchstat would print "± ∞"; the text and the
// JSON give the same figures. Issue 14: the remote side is the baseline.
func TestGbakCLICompareAdjusted(t *testing.T) {
	var args []string
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			args = append(args, "--label", fmt.Sprintf("%s=%s", side, testutil.Testdata(t, "restores", fmt.Sprintf("restore-%s-run%d.log", side, i))))
		}
	}
	out, _, code := runCLI(t, nil, append([]string{"gbak", "compare", "--top", "5"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if out != golden(t, "gbak-compare-restores.txt") {
		t.Errorf("text differs from view/testdata/golden/gbak-compare-restores.txt:\n%s", out)
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
	if v.Tests != 25 || v.Adjustment != "benjamini-hochberg" {
		t.Errorf("tests %d adjustment %q", v.Tests, v.Adjustment)
	}
	for _, s := range v.Steps {
		switch s.Key {
		case "data|table|ORDER_LINE":
			if s.Median[0] != 37.843 || *s.Range[0] != [2]float64{33.408, 40.178} || s.Spread[0] != nil ||
				math.Abs(*s.PAdjusted-0.02834) > 0.00001 || !s.Sig || s.Verdict != "-95.91% (p_adj=0.028 n=5+5)" {
				t.Errorf("ORDER_LINE %+v", s)
			}
		case "metadata|privilege for user|SYSDBA#54":
			if math.Abs(*s.P-0.0238) > 0.0001 || math.Abs(*s.PAdjusted-0.0744) > 0.0001 || s.Sig {
				t.Errorf("privilege %+v", s)
			}
		}
	}
}

// A restore whose server died while ORDER_LINE was loading (the fb30 log
// cut there): the table took at least the 5.375 s its progress lines
// cover.
func TestGbakCLICutMidTable(t *testing.T) {
	cut := testutil.Testdata(t, "gbak", "shop-restore-cut.log")
	out, _, code := runCLI(t, nil, "gbak", cut)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if afterTitle(out) != afterTitle(golden(t, "gbak-shop-restore-cut.txt")) {
		t.Errorf("text differs from view/testdata/golden/gbak-shop-restore-cut.txt:\n%s", out)
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

	out, _, code = runCLI(t, nil, "gbak", "--format", "csv", "--table", "tables", cut)
	if code != 0 || !strings.Contains(out, "\nORDER_LINE,90000,,5.375,16744.18604651163,0,0,true\n") {
		t.Errorf("csv (exit %d):\n%s", code, out)
	}
}

// --fail-on failed: exit 3 for a failed or incomplete run, after the
// analysis, as gstat --fail-on does; a completed restore passes.
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
		if code != c.code || !strings.HasSuffix(errs, c.stderr) || !strings.Contains(out, "\nOutcome ") {
			t.Errorf("%s: exit %d, stderr %q, stdout %d bytes", c.path, code, errs, len(out))
		}
	}
	_, errs, code := runCLI(t, nil, "gbak", "--fail-on", "warning", testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	if code != 2 || !strings.Contains(errs, `--fail-on "warning": want failed`) {
		t.Errorf("--fail-on warning: exit %d, %q", code, errs)
	}
}

// --all matters to the human formats only: CSV keeps the rows of its one
// table, so --all keeps no more (and sorts the steps on disk only for the
// steps table), and prints the same bytes.
func TestGbakCSVAllKeepsItsTable(t *testing.T) {
	for _, c := range []struct {
		table                 string
		steps, list, messages int
	}{
		{"", -1, 0, 0}, {"steps", -1, 0, 0}, {"tables", 0, -1, 0}, {"indices", 0, -1, 0},
		{"phases", 0, 0, 0}, {"summary", 0, 0, 0}, {"findings", 0, 0, -1},
	} {
		for _, all := range []bool{false, true} {
			o := gbakOutput{format: view.CSV, top: 10, opt: view.Options{All: all, Table: c.table}}
			if steps, list, messages := o.keepLimits(); steps != c.steps || list != c.list || messages != c.messages {
				t.Errorf("--table %q, --all %v: keeps %d steps, %d tables and indices, %d errors and warnings; want %d, %d, %d",
					c.table, all, steps, list, messages, c.steps, c.list, c.messages)
			}
		}
	}
	o := gbakOutput{format: view.Text, top: 10, opt: view.Options{All: true}}
	if steps, list, messages := o.keepLimits(); steps != -1 || list != -1 || messages != -1 {
		t.Errorf("text --all keeps %d steps, %d tables and indices, %d errors and warnings; want all", steps, list, messages)
	}
	o.opt.All = false
	if steps, list, messages := o.keepLimits(); steps != 10 || list != view.GbakListTop || messages != view.GbakFindingsTop {
		t.Errorf("text keeps %d steps, %d tables and indices, %d errors and warnings; want 10, %d, %d",
			steps, list, messages, view.GbakListTop, view.GbakFindingsTop)
	}
	path := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	for _, table := range []string{"steps", "tables", "indices", "phases", "summary", "findings"} {
		want, _, code := runCLI(t, nil, "gbak", "--format", "csv", "--table", table, path)
		got, errs, code2 := runCLI(t, nil, "gbak", "--format", "csv", "--all", "--table", table, path)
		if code != 0 || code2 != 0 || got != want {
			t.Errorf("--table %s: --all (exit %d, %q) printed\n%s\nwithout (exit %d):\n%s", table, code2, errs, got, code, want)
		}
	}
}

// A log of thousands of error lines (those of Firebird issue 8263's
// failed restore, 2000 times: 6000 errors) prints the first
// view.GbakFindingsTop in text and markdown and counts the rest; --all
// and the CSV findings table list every one, the other CSV tables none.
// The first 100 MiB of them took 8.5 s and 1.14 GB in text (every error
// printed and each one kept three times), 0.23 s and 22 MB so.
func TestGbakErrorLinesBounded(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(log, 2000)
	const note = "100 of 6000 errors and warnings shown (--all shows them); not shown: 5900 critical"
	for _, c := range []struct {
		args      []string
		errors    int    // error findings printed
		has       string // a line of the output
		shownOnly bool   // the note on those not shown
	}{
		{[]string{"gbak", "-"}, 100, "Errors and warnings (6000)", true},
		{[]string{"gbak", "--format", "markdown", "-"}, 100, "## Errors and warnings (6000)", true},
		{[]string{"gbak", "--all", "-"}, 6000, "Errors and warnings (6000)", false},
		{[]string{"gbak", "--format", "csv", "--table", "findings", "-"}, 6000, "severity,rule,object", false},
		{[]string{"gbak", "--format", "csv", "-"}, 0, "line,step,phase,start_seconds,seconds,reads,writes,bound", false},
	} {
		out, errs, code := runCLI(t, in, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", c.args, code, errs)
		}
		n := strings.Count(out, "gbak-error")
		if n != c.errors || !strings.Contains(out, c.has) || strings.Contains(out, note) != c.shownOnly {
			t.Errorf("%v: %d errors printed, want %d; has %q: %v; the note: %v\n%s", c.args, n, c.errors, c.has,
				strings.Contains(out, c.has), strings.Contains(out, note), out[max(0, len(out)-1500):])
		}
	}
}

// The ten restores of testdata/restores named on the command line, as a
// shell glob gives them: the numbered runs are the repeats of their side,
// five remote against five service-manager restores, with a test, not
// ten sides of one run each.
func TestGbakCLICompareNumberedRuns(t *testing.T) {
	var args []string
	for _, side := range []string{"remote", "service"} {
		for i := 1; i <= 5; i++ {
			args = append(args, testutil.Testdata(t, "restores", fmt.Sprintf("restore-%s-run%d.log", side, i)))
		}
	}
	out, errs, code := runCLI(t, nil, append([]string{"gbak", "compare", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Sides []struct {
			Label string `json:"label"`
			Runs  int    `json:"runs"`
		} `json:"sides"`
		Totals []struct {
			Key     string `json:"key"`
			Verdict string `json:"verdict"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(v.Sides) != "[{remote 5} {service 5}]" || len(v.Totals) == 0 || v.Totals[0].Key != "total" || v.Totals[0].Verdict != "-94.20% (p=0.008 n=5+5)" {
		t.Errorf("sides %v, totals %+v", v.Sides, v.Totals)
	}
}

// Every key of gbak's JSON (a restore, a backup with its notes, the
// corpus's failed and cut logs, a comparison) is documented in
// docs/gbak-json.md, as `key`, `key[]` or under its parent
// (`steps[].only`).
func TestGbakJSONDocumented(t *testing.T) {
	restore := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	keys := documentedJSON(t, "gbak-json.md", [][]string{
		{"gbak", "--format", "json", restore},
		{"gbak", "--format", "json", testutil.Testdata(t, "bench", "backup-w1-after-runs.log")},
		{"gbak", "--format", "json", testutil.Corpus(t, "public", "gbak", "10_fb3010_restore_index_fail_not_online_issue7465.log")},
		{"gbak", "--format", "json", testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log")},
		{"gbak", "--format", "json", testutil.Corpus(t, "public", "gbak", "03_core1999_sample_restore_stat_tdrw_paulbeach_blog.log")},
		{"gbak", "--format", "json", testutil.Testdata(t, "gbak", "shop-restore-cut.log")},
		{"gbak", "compare", "--format", "json", restore, testutil.Testdata(t, "seeds", "restore-balanced.log")},
	})
	if !keys["versus"] || !keys["notes"] || !keys["lower_bound"] || len(keys) < 50 {
		t.Errorf("%d keys seen, versus %v, notes %v, lower_bound %v", len(keys), keys["versus"], keys["notes"], keys["lower_bound"])
	}
}

// A gbak log whose time column held hundreds of digits (a damaged line,
// found by FuzzGbakTimeline) parsed as +Inf seconds: 'fbdiag gbak
// --format json' failed with "fbdiag: json: unsupported value: +Inf",
// no file, no line. The number is not a time: the line is read as a
// message, with a notice at its line.
func TestGbakTimeTooLongForAFloat(t *testing.T) {
	lines := strings.SplitAfter(string(testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")), "\n")
	lines[8] = "gbak: " + strings.Repeat("9", 400) + "  0.000      0      0 restoring domain RDB$3\n"
	out, errs, code := runCLI(t, []byte(strings.Join(lines, "")), "gbak", "--format", "json", "-")
	want := "<stdin>:9: 99999999999999999999999… is not a time; read as a message without statistics\n"
	if code != 0 || errs != want || !strings.Contains(out, `"outcome": "completed"`) {
		t.Errorf("exit %d, stderr %q; want 0 and %q\n%.300s", code, errs, want, out)
	}
}

// gbak compare's runs table gave the public 07 backup's total, 558.685 s
// of a run that failed after its last timestamp, as a figure like the
// whole fb30 backup's 2.194 s: text and markdown "0:09:19", JSON's
// runs[] and the runs CSV without the lower bound that 'fbdiag gbak'
// gives it ("at least", total_lower_bound, total_seconds_caveat). They
// now say it: "at least 0:09:19", "total_lower_bound": true, and a
// total_lower_bound column (true, false) in the CSV.
func TestGbakCompareFailedTotalAtLeast(t *testing.T) {
	whole := testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")
	failed := testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log")
	out, errs, code := runCLI(t, nil, "gbak", "compare", whole, failed)
	row := "07_backup_servi…  07_backup_service_stats…  failed     at least  0:09:19    0:09:19        0          1\n"
	if code != exitOK || !strings.Contains(out, row) || !strings.Contains(out, "completed            2.194 s") {
		t.Errorf("exit %d %s; text lacks %q:\n%s", code, errs, row, out)
	}
	out, _, _ = runCLI(t, nil, "gbak", "compare", "--format", "markdown", whole, failed)
	if !strings.Contains(out, "| failed | at least | 0:09:19 | 0:09:19 |") {
		t.Errorf("markdown:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "gbak", "compare", "--format", "csv", "--table", "runs", whole, failed)
	want := "label,file,outcome,total_seconds,last_time_seconds,matched_steps,unmatched_steps,kind,span_seconds,total_lower_bound\n" +
		"shop-gbak-backup-v-st," + whole + ",completed,2.194,2.194,0,164,backup,,false\n" +
		"07_backup_service_stats_error_issue7803," + failed + ",failed,558.685,558.685,0,1,backup,,true\n"
	if out != want {
		t.Errorf("runs CSV:\n%s\nwant:\n%s", out, want)
	}
	out, _, _ = runCLI(t, nil, "gbak", "compare", "--format", "json", whole, failed)
	var doc struct {
		Runs []struct {
			TotalSeconds    float64 `json:"total_seconds"`
			TotalLowerBound *bool   `json:"total_lower_bound"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 2 || doc.Runs[0].TotalLowerBound != nil || doc.Runs[1].TotalLowerBound == nil || !*doc.Runs[1].TotalLowerBound ||
		doc.Runs[1].TotalSeconds != 558.685 {
		t.Errorf("runs %+v", doc.Runs)
	}
}

// A restore that stopped on a primary key's duplicate (this machine's
// Firebird 3.0.11) had no advice in any format; each now gives the same
// one on the index's error: text's "do:", markdown's "Do:", the CSV
// findings' advice column, JSON's advice[], the report's summary.
func TestGbakIndexAdviceEveryFormat(t *testing.T) {
	path := testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log")
	const advice = `gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269), ` +
		`and the database file it left is unfinished: restore again with every index inactive (gbak -rep -i pk.fbk localhost:/tmp/h-radvice/db/pk.fdb), ` +
		`delete or change the rows of A3 that repeat the key ("ID" = 305419896), then ALTER INDEX PK_A3 ACTIVE, ` +
		`then the other indices -i left inactive, foreign keys last (they need their primary key active)`
	text, _, _ := runCLI(t, nil, "gbak", path)
	if got := strings.Join(strings.Fields(text), " "); !strings.Contains(got, `("ID" = 305419896) do: `+advice+" CRITICAL") {
		t.Errorf("text lacks the advice:\n%s", text)
	}
	md, _, _ := runCLI(t, nil, "gbak", "--format", "markdown", path)
	if !strings.Contains(md, `("ID" = 305419896). Do: `+advice+"\n") {
		t.Errorf("markdown lacks the advice:\n%s", md)
	}
	csv, _, _ := runCLI(t, nil, "gbak", "--format", "csv", "--table", "findings", path)
	if !strings.Contains(csv, `,"`+strings.ReplaceAll(advice, `"`, `""`)+`",`) {
		t.Errorf("CSV lacks the advice:\n%s", csv)
	}
	js, _, _ := runCLI(t, nil, "gbak", "--format", "json", path)
	var doc struct{ Advice []analyze.GbakAdvice }
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Advice) != 1 || doc.Advice[0].Advice != advice {
		t.Errorf("JSON advice %+v (%v)", doc.Advice, err)
	}
}
