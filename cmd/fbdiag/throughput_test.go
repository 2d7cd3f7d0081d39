package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/internal/units"
)

// tputJSON is the part of fbdiag throughput --format json the tests read.
type tputJSON struct {
	Mode           string   `json:"mode"`
	XUnit          *string  `json:"x_unit"`
	YUnit          *string  `json:"y_unit"`
	PredictAt      *float64 `json:"predict_at"`
	KneeAt         *float64 `json:"knee_at"`
	PredictDefault bool     `json:"predict_default"`
	KneeDefault    bool     `json:"knee_default"`
	Notices        []any    `json:"notices"`
	Series         []struct {
		Name   string `json:"name"`
		Points []struct {
			X *float64 `json:"x"`
			Y float64  `json:"y"`
		} `json:"points"`
		Best   struct{ X, Y float64 }
		Models []struct {
			Name              string           `json:"name"`
			Params            []map[string]any `json:"params"`
			LeaveLastOutError float64          `json:"leave_last_out_error"`
			Prediction        *struct {
				X, Y, Lo, Hi float64
			} `json:"prediction"`
			NoPrediction *string `json:"no_prediction"`
		} `json:"models"`
		Knee *struct {
			Significant  bool    `json:"significant"`
			Cliff        bool    `json:"cliff"`
			MinCliff     float64 `json:"min_cliff"`
			StepFraction float64 `json:"step_fraction"`
			P            float64 `json:"p"`
			HighLeverage []any   `json:"high_leverage"`
			Verdict      string  `json:"verdict"`
		} `json:"knee"`
		AB []struct {
			Baseline  string  `json:"baseline"`
			Label     string  `json:"label"`
			Ratio     float64 `json:"ratio"`
			Change    float64 `json:"change"`
			Direction string  `json:"direction"`
		} `json:"ab"`
		Sweep *struct {
			Noise *float64 `json:"noise"`
		} `json:"sweep"`
	} `json:"series"`
}

func tputRun(t *testing.T, stdin []byte, args ...string) tputJSON {
	t.Helper()
	out, errs, code := runCLI(t, stdin, append([]string{"throughput", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var doc tputJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// The text is the view's (its goldens: view/testdata/golden); here the
// command's part: --knee and --predict read as GiB and shown as such,
// every line within 100 columns.
func TestThroughputTextSATA(t *testing.T) {
	// A path as a user types it, relative, as the source column shows it.
	rel := filepath.Join("..", "..", "testdata", "seeds", "degradation-throughput-sata.csv")
	out, errs, code := runCLI(t, nil, "throughput", "--knee", "16GB", "--predict", "2TB", rel)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"degradation-throughput-sata.csv (degradation): ops_per_s against size_gb (GiB)\n",
		"predicted at 2.00 TiB   167 (95 % interval 158–176, power fit; extrapolated 1.13× past the largest\n" +
			"                        size, which alone sets the curve (leverage 0.929); its leave-last-out check\n" +
			"                        missed by +14.2 %, outside its 95 % interval)\n",
		"step at 16.0 GiB        +0.8 % (no cliff, p=0.541)\n",
		"\nPrediction at 2.00 TiB\n",
		"ops_per_s  power      2.00 TiB        167        158  176\n",
		"ops_per_s  16.0 GiB  power      4      8  3.53        +0.8 %  0.541  no           no\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
		}
	}
}

func TestThroughputJSON(t *testing.T) {
	doc := tputRun(t, nil, "--knee", "16GB", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	if doc.Mode != "degradation" || *doc.XUnit != "GiB" || *doc.YUnit != "ops/s" || doc.Notices == nil || len(doc.Series) != 1 {
		t.Fatalf("doc = %+v", doc)
	}
	// No --predict: twice the largest size, and the JSON says it chose it.
	if *doc.PredictAt != 2*1813.969025 || !doc.PredictDefault || *doc.KneeAt != 16 || doc.KneeDefault {
		t.Errorf("predict %v (default %v), knee %v (default %v)", *doc.PredictAt, doc.PredictDefault, *doc.KneeAt, doc.KneeDefault)
	}
	s := doc.Series[0]
	if s.Name != "ops_per_s" || len(s.Points) != 12 || *s.Points[11].X != 1813.969025 || s.Points[11].Y != 169.33 {
		t.Errorf("series = %+v", s)
	}
	if s.Best.X != 9.04 || s.Best.Y != 494.73 || len(s.Models) != 3 || s.Models[1].Name != "loglinear" ||
		s.Models[2].Params[1]["name"] != "k" || s.Knee == nil || s.Knee.Significant {
		t.Errorf("best %+v models %+v knee %+v", s.Best, s.Models, s.Knee)
	}
	if e := s.Models[2].LeaveLastOutError; e < 0.1418 || e > 0.1419 {
		t.Errorf("power leave-last-out error = %v", e)
	}
	if p := s.Models[2].Prediction; p == nil || math.Abs(p.Y-148.0077) > 0.0001 {
		t.Errorf("power prediction at 3.54 TiB = %+v", p)
	}
}

// The first configuration is the baseline: High performance against
// Balanced is ×1.25 (other / base), +24.6 %, faster, in every format.
func TestThroughputAB(t *testing.T) {
	data := testutil.ReadTestdata(t, "seeds", "power-plan-tpcc.tsv")
	doc := tputRun(t, data, "-")
	e := doc.Series[0].AB[0]
	if e.Baseline != "Balanced" || e.Label != "High performance" || e.Ratio != 21226.0/17029 ||
		math.Abs(e.Change-(21226.0-17029)/17029) > 1e-15 || e.Direction != "faster" {
		t.Errorf("ab %+v", e)
	}
	out, _, code := runCLI(t, data, "throughput", "--format", "markdown", "-")
	if code != 0 || !strings.Contains(out, "| tpcc_score | High performance | 1 | 21226 | 21226 | 21226 |  | ×1.25 | +24.6 % | faster |  |\n") ||
		!strings.Contains(out, "- **High performance vs Balanced**: +24.6 % (×1.25, faster; 1 run each, no test)\n") {
		t.Errorf("markdown exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, data, "throughput", "--format", "csv", "--table", "ab", "-")
	want := "series,configuration,n,median,min,max,spread_share,ratio,change,direction,p_adjusted\n" +
		"tpcc_score,Balanced,1,17029,17029,17029,,,,baseline,\n" +
		"tpcc_score,High performance,1,21226,21226,21226,,1.2464619179047507,0.2464619179047507,faster,\n"
	if code != 0 || out != want {
		t.Errorf("csv exit %d:\n%s\nwant\n%s", code, out, want)
	}
}

// CSV is one rectangular table of plain numbers, points by default,
// sizes in bytes; an unknown table is a usage error naming the valid
// ones; --table is for CSV only, and a number there is the old
// --input-table.
func TestThroughputCSVTables(t *testing.T) {
	csv := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	out, errs, code := runCLI(t, nil, "throughput", "--format", "csv", csv)
	lines := strings.Split(out, "\n")
	if code != 0 || errs != "" || len(lines) != 14 || lines[0] != "series,size_bytes,ops_per_s,source" ||
		lines[12] != "ops_per_s,1947734409583,169.33,"+csv+":13" {
		t.Errorf("exit %d %q:\n%s", code, errs, out)
	}
	out, _, code = runCLI(t, nil, "throughput", "--format", "csv", "--table", "prediction", csv)
	if code != 0 || !strings.HasPrefix(out, "series,model,at_bytes,predicted,lo,hi\n") ||
		!strings.Contains(out, "\nops_per_s,power,3895468819166,148.00766375663426,") {
		t.Errorf("prediction exit %d:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--format", "csv", "--table", "settings"}, `fbdiag: --table: no table "settings" (want one of points, series, models, params, holdout, prediction, leverage, knee, summary, findings)`},
		{[]string{"--table", "models"}, `--table "models": names the one table of CSV output (--format csv)`},
		{[]string{"--format", "csv", "--table", "1"}, `--table "1": --table names the CSV table to write`},
		{[]string{"--input-table", "2"}, `fbdiag: --input-table "2": ` + csv + ` has 1 table` + "\n"},
	} {
		_, errs, code := runCLI(t, nil, append(append([]string{"throughput"}, c.args...), csv)...)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, errs, c.msg)
		}
	}
}

func TestThroughputSweepAndLoad(t *testing.T) {
	// --noise is a percentage with or without its sign.
	for _, n := range []string{"1.5%", "1.5"} {
		doc := tputRun(t, nil, "--noise", n, testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv"))
		if s := doc.Series[0].Sweep; s == nil || s.Noise == nil || *s.Noise != 0.015 {
			t.Errorf("--noise %s: sweep %+v", n, s)
		}
	}
	out, _, code := runCLI(t, nil, "throughput", "--noise", "1.5%", testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv"))
	if code != 0 || !strings.Contains(out, "superclassic_points: best 1500 (392, 1 run); worst 2048 (27.6 % off the best); as good within the\n  assumed 1.5 % noise: 1024; 512 reads 359") ||
		!strings.Contains(out, "classic_points: best 1500 (390, 1 run); worst 2048 (26.9 % off the best); 1024 reads 312 between\n") ||
		!strings.Contains(out, "test: one run per setting: the best is the highest value, not tested; as good: within 1.5 % of the\n  best, a noise assumed by --noise, not measured\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	doc := tputRun(t, nil, testutil.Testdata(t, "seeds", "degradation-load-sata.csv"))
	if doc.Mode != "load" || *doc.YUnit != "MiB/s" || math.Abs(doc.Series[0].Points[0].Y-3.65166075) > 1e-6 {
		t.Errorf("load %+v", doc)
	}
}

func TestThroughputArticleAndRuns(t *testing.T) {
	out, errs, code := runCLI(t, nil, "throughput", "--input-table", "1", testutil.SeedArticle(t, "000"))
	if code != 0 || !strings.Contains(out, "load speed median 3.36 MiB/s") || !strings.Contains(errs, "table continues the table of line 23") {
		t.Errorf("exit %d:\n%s\n%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales", "pgbench-select-*.txt"))
	doc := tputRun(t, nil, files...)
	if len(doc.Series) != 1 || doc.Series[0].Name != "pgbench select only" || *doc.XUnit != "MiB" {
		t.Errorf("pgbench %+v", doc)
	}
}

func TestThroughputErrors(t *testing.T) {
	csv := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	buffers := testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "give one file or more"},
		{[]string{"--mode", "fast", csv}, 2, `--mode "fast"`},
		{[]string{"--x", "nosuch", csv}, 2, `fbdiag: --x "nosuch": no such column in ` + csv + `:1 (columns: db, size_gb, ops_per_s)`},
		{[]string{"--y", "db,nosuch", csv}, 2, `fbdiag: --y "nosuch": no such column`},
		{[]string{"--knee", "big", csv}, 2, `fbdiag: --knee: size "big": no number (want a size such as 100GB, 512MiB or 2T)`},
		{[]string{"--predict", "2XB", csv}, 2, `unknown unit "XB" (want B, KiB, MiB, GiB, TiB or PiB; GB means GiB)`},
		{[]string{"--format", "yaml", csv}, 2, `fbdiag: throughput: unknown format "yaml" (want text, json, csv or markdown)`},
		{[]string{"--format", "html", csv}, 2, `unknown format "html"`},
		{[]string{filepath.Join(t.TempDir(), "missing.csv")}, 1, "no such file"},
		{[]string{"--predict", "2TB", buffers}, 2, `fbdiag: --predict "2TB": the x values (page_buffers) are not sizes`},
		{[]string{"--knee", "16gib", buffers}, 2, `fbdiag: --knee "16gib": the x values (page_buffers) are not sizes`},
		// A bare number under 1 was a fraction: --noise 1 read 1 % and
		// 0.99 read 99 %, 0.5 (half a percent?) 50 %.
		{[]string{"--noise", "0.5", buffers}, 2, `fbdiag: --noise "0.5": a percentage, give its % sign: 0.5% (or 50%, the fraction 0.5)`},
		{[]string{"--noise", "100", buffers}, 2, `fbdiag: --noise "100": want a percentage under 100%, such as 2%`},
	}
	for _, c := range cases {
		_, errs, code := runCLI(t, nil, append([]string{"throughput"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
	_, errs, code := runCLI(t, []byte("just words, no table\n"), "throughput", "-")
	if code != 1 || !strings.Contains(errs, "<stdin>: no table and no benchmark result found") {
		t.Errorf("prose: exit %d %q", code, errs)
	}
	// No column to plot: the input's fault (exit 1), with a hint.
	_, errs, code = runCLI(t, []byte("size_gb,name\n1,a\n2,b\n3,c\n"), "throughput", "-")
	if code != 1 || errs != "fbdiag: <stdin>:1: no column to use as y: none holds numbers (columns: size_gb, name); --x and --y name the columns\n" {
		t.Errorf("names only: exit %d %q", code, errs)
	}
	// A column of 1, 2, 3… is a row counter, not a y: the message says
	// so. It read "none holds numbers (columns: db, elapsed_s)" of a
	// table whose every column holds numbers.
	_, errs, code = runCLI(t, []byte("db,elapsed_s\n1,500\n2,510\n3,505\n"), "throughput", "-")
	if code != 1 || errs != "fbdiag: <stdin>:1: no column to use as y: the numbers of \"db\" count the rows (1, 2, 3…) and \"elapsed_s\" is x (columns: db, elapsed_s); --x and --y name the columns\n" {
		t.Errorf("row counter: exit %d %q", code, errs)
	}
	out, errs, code := runCLI(t, []byte("db,elapsed_s\n1,500\n2,510\n3,505\n"), "throughput", "--x", "db", "--y", "elapsed_s", "-")
	if code != 0 || !strings.Contains(out, "elapsed_s") {
		t.Errorf("row counter with --x and --y: exit %d %q\n%s", code, errs, out)
	}
	// A prediction asked of a sweep is a warning: CSV has no room for
	// it, so it goes to standard error.
	_, errs, code = runCLI(t, nil, "throughput", "--format", "csv", "--predict", "2048", buffers)
	if code != 0 || errs != "fbdiag: warning: a prediction and a cliff test apply to the degradation mode only, not sweep\n" {
		t.Errorf("sweep with --predict: exit %d %q", code, errs)
	}
}

func TestThroughputHelpFits(t *testing.T) {
	out, _, code := runCLI(t, nil, "throughput", "--help")
	if code != 0 || !strings.Contains(out, "degradation  throughput against database size") ||
		!strings.Contains(out, "GB means GiB") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("help line of %d columns: %q", n, line)
		}
	}
}

// TestThroughputFolder: a folder argument is its result files in natural
// order, the same analysis as naming them one by one; files of other
// kinds in it are skipped with a line each.
func TestThroughputFolder(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales", "pgbench-select-*.txt"))
	if len(files) != 6 {
		t.Fatalf("want the 6 pgbench select runs, found %d", len(files))
	}
	dir := t.TempDir()
	for _, f := range append(files, testutil.Testdata(t, "fb30", "shop-gstat-h.txt")) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("runs of 2026-11-30 on the SATA box\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden.csv"), []byte("a,b\n1,2\n"), 0o644)

	fromDir, errs, code := runCLI(t, nil, "throughput", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "fbdiag: throughput: skipped " + filepath.Join(dir, "notes.txt") + ": not a result table or benchmark output\n" +
		"fbdiag: throughput: skipped " + filepath.Join(dir, "shop-gstat-h.txt") + ": gstat output\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	// The folder is walked in natural order: scale4 before scale10.
	var copies []string
	for _, f := range files {
		copies = append(copies, filepath.Join(dir, filepath.Base(f)))
	}
	slices.SortFunc(copies, units.Compare)
	if filepath.Base(copies[1]) != "pgbench-select-scale4.txt" {
		t.Fatalf("natural order: %v", copies)
	}
	fromFiles, _, _ := runCLI(t, nil, append([]string{"throughput", "--format", "json"}, copies...)...)
	if fromDir != fromFiles {
		t.Errorf("the folder and its six files named one by one differ:\n%s\n---\n%s", fromDir, fromFiles)
	}
	if !strings.Contains(fromDir, `"name": "pgbench select only"`) {
		t.Errorf("no pgbench series:\n%s", fromDir)
	}

	fb30 := testutil.Testdata(t, "fb30")
	_, errs, code = runCLI(t, nil, "throughput", fb30)
	if code != 1 || !strings.HasSuffix(errs, "fbdiag: "+fb30+": no result table or benchmark output in this folder\n") ||
		!strings.Contains(errs, "shop-gbak-restore-v-st.log: gbak output\n") {
		t.Errorf("fb30 folder: exit %d, stderr %q", code, errs)
	}
}

// Issue 13: on the seed's 9–30 GB (the CSV without its 1.7 TB row) the
// step at 16 GB is significant but 4.3 % of the trend: no cliff, the same
// in the text and the JSON (the chart's label: view's goldens).
func TestThroughputKneeNoCliffEverywhere(t *testing.T) {
	data := testutil.ReadTestdata(t, "seeds", "degradation-throughput-sata.csv")
	lines := strings.SplitAfter(string(data), "\n")
	upTo30 := strings.Join(lines[:12], "")
	if !strings.HasSuffix(upTo30, "11,30.30,407.97\n") {
		t.Fatalf("the CSV changed: %q", upTo30)
	}
	png := filepath.Join(t.TempDir(), "png")
	args := []string{"--knee", "16GB", "-"}
	out, errs, code := runCLI(t, []byte(upTo30), append([]string{"throughput", "--png", png}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"step at 16.0 GiB        -4.3 % (no cliff, p=0.002)\n",
		"ops_per_s  16.0 GiB  loglinear      4      7  -19.8        -4.3 %  0.002  yes          no\n",
		"no cliff at 16.0 GiB: a step of -4.3 % beyond the loglinear trend is significant (p=0.002) but\n" +
			"  smaller than the 10.0 % a cliff needs\n",
		"cliff: a significant step for the worse of at least 10.0 % of the trend\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "High leverage") {
		t.Errorf("9–30 GB has no dominating size:\n%s", out)
	}
	doc := tputRun(t, []byte(upTo30), args...)
	k := doc.Series[0].Knee
	if k == nil || !k.Significant || k.Cliff || k.MinCliff != 0.1 || math.Abs(k.StepFraction+0.0434) > 0.0001 ||
		math.Abs(k.P-0.00167) > 0.00001 || k.HighLeverage == nil || len(k.HighLeverage) != 0 {
		t.Errorf("knee %+v", k)
	}
	charts, err := os.ReadDir(png)
	if err != nil || len(charts) != 1 {
		t.Fatalf("charts %v %v", charts, err)
	}
}

// Issue 13: a sweep of 25 real restores (5 per setting) tests each
// setting against a best picked after the fact; the p are Holm-adjusted
// and the table says so, with each setting's range. The A/B mode on the
// same runs adjusts its four comparisons with the baseline alike, and a
// time that falls is faster.
func TestThroughputSweepAdjusted(t *testing.T) {
	csv := testutil.Testdata(t, "restores", "restore-page-buffers.csv")
	out, errs, code := runCLI(t, nil, "throughput", "--x", "page_buffers", "--y", "restore_seconds", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"series           page_buffers  n  median   min   max  vs best  p (adjusted)\n" +
			"restore_seconds            64  5    3.54  3.35  4.77  +14.8 %         0.127  not told apart\n",
		"restore_seconds          4096  5    3.08  2.33   3.4   +0.0 %                best\n",
		"test: Mann-Whitney U of each setting against the best, p Holm-adjusted, alpha 0.05; the best was\n" +
			"  picked from these data after the fact, which favours finding the others worse",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep lacks %q:\n%s", want, out)
		}
	}
	out, errs, code = runCLI(t, nil, "throughput", "--mode", "ab", "--x", "page_buffers", "--y", "restore_seconds", csv)
	if code != 0 {
		t.Fatalf("ab exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"restore_seconds  64             5    3.54  3.35  4.77                      baseline\n",
		"restore_seconds  4096           5    3.08  2.33   3.4     ×0.871  -12.9 %  1.15× as fast         0.127\n",
		"4096 vs 64: ×0.871, time -12.9 % (1.15× as fast), not significant (p=0.127 adjusted, n=5+5);",
		"p (adjusted): holm over the 4 comparisons with the baseline\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ab lacks %q:\n%s", want, out)
		}
	}
	// The CSV's direction is JSON's word, for a script testing
	// direction == "faster"; "1.15× as fast" is the text's.
	out, errs, code = runCLI(t, nil, "throughput", "--mode", "ab", "--x", "page_buffers", "--y", "restore_seconds", "--format", "csv", "--table", "ab", csv)
	if code != 0 {
		t.Fatalf("ab csv exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"series,configuration,n,median,min,max,spread_share,ratio,change,direction,p_adjusted\n",
		"restore_seconds,64,5,3.538,3.347,4.766,,,,baseline,\n",
		"restore_seconds,4096,5,3.083,2.331,3.398,,0.8713962690785756,-0.1286037309214244,faster,0.12698412698412698\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ab csv lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "as fast") {
		t.Errorf("ab csv has the text's words:\n%s", out)
	}
}

// Issue 14: the report and fbdiag throughput analyse a file alike. On the
// seed degradation both predict at twice the largest size (3.54 TiB) with
// the same figures, and neither tests a knee: the one 4× jump (30 GB to
// 1.8 TB) has one size above it.
func TestThroughputCLIAndReportAgree(t *testing.T) {
	file := testutil.Corpus(t, "seeds", "degradation-throughput-sata.csv")
	doc := tputRun(t, nil, file)
	if doc.PredictAt == nil || *doc.PredictAt != 2*1813.969025 || !doc.PredictDefault || doc.KneeAt != nil || doc.Series[0].Knee != nil {
		t.Fatalf("CLI: predict %v (default %v), knee %v", doc.PredictAt, doc.PredictDefault, doc.KneeAt)
	}
	dir := filepath.Join(t.TempDir(), "r")
	if _, errs, code := runCLI(t, nil, "report", "--out", dir, file); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	i := strings.Index(page, `<table data-table="prediction">`)
	if i < 0 || strings.Contains(page, `data-table="knee"`) {
		t.Fatalf("report: prediction table at %d, knee table %v", i, strings.Contains(page, `data-table="knee"`))
	}
	table := page[i : i+strings.Index(page[i:], "</table>")]
	if !strings.Contains(table, "<caption>Prediction at 3.54 TiB</caption>") ||
		!strings.Contains(page, `<div class="headline" data-key="predicted_ops_per_s"><span class="v">148 (95 % interval 140–157, power fit; extrapolated 2× past the largest size, which alone sets the curve (leverage 0.929); its leave-last-out check missed by +14.2 %, outside its 95 % interval)</span><span class="l">predicted at 3.54 TiB</span></div>`) {
		t.Errorf("report does not name 3.54 TiB:\n%s", table)
	}
	// Each model's row: at (bytes), predicted, lo, hi as the JSON has them.
	rows := regexp.MustCompile(`<tr><td><bdi>ops_per_s</bdi></td><td><bdi>(\w+)</bdi></td><td class="num" data-sort="(\d+)">[^<]*</td>`+
		`<td class="num" data-sort="([^"]*)">[^<]*</td><td class="num" data-sort="([^"]*)">[^<]*</td><td class="num" data-sort="([^"]*)">`).FindAllStringSubmatch(table, -1)
	if len(rows) != 3 {
		t.Fatalf("%d prediction rows in the report:\n%s", len(rows), table)
	}
	for i, m := range doc.Series[0].Models {
		r, p := rows[i], m.Prediction
		at := strconv.FormatInt(int64(math.Round(*doc.PredictAt*(1<<30))), 10)
		if p == nil {
			// The linear fit's -112 ops/s is none: empty cells, a reason in JSON.
			if r[1] != m.Name || r[2] != at || r[3]+r[4]+r[5] != "" || m.NoPrediction == nil || *m.NoPrediction != "the linear fit reaches 0 before 3.54 TiB" {
				t.Errorf("%s: report %q, CLI no prediction %v", m.Name, r[1:], m.NoPrediction)
			}
			continue
		}
		if r[1] != m.Name || r[2] != at || r[3] != strconv.FormatFloat(p.Y, 'f', -1, 64) ||
			r[4] != strconv.FormatFloat(p.Lo, 'f', -1, 64) || r[5] != strconv.FormatFloat(p.Hi, 'f', -1, 64) {
			t.Errorf("%s: report %q, CLI %+v at %s", m.Name, r[1:], p, at)
		}
	}
}

// Every key of throughput's JSON, over its modes (a degradation with a
// cliff test, a sweep of bench runs with their steadiness, an A/B, a
// load speed, two sizes with nothing left to fit), is documented in
// docs/throughput-json.md.
func TestThroughputJSONDocumented(t *testing.T) {
	keys := documentedJSON(t, "throughput-json.md", [][]string{
		{"throughput", "--format", "json", "--knee", "20GiB", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")},
		{"throughput", "--format", "json", testutil.Testdata(t, "bench", "buffers.csv")},
		{"throughput", "--format", "json", testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv")},
		{"throughput", "--format", "json", testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")},
		{"throughput", "--format", "json", testutil.Testdata(t, "seeds", "degradation-load-sata.csv")},
		{"throughput", "--format", "json", testutil.Testdata(t, "bench", "sizes-w1-w2.csv")},
	})
	if !keys["steady"] || !keys["knee"] || !keys["ab"] || !keys["noise_contradicted"] || len(keys) < 80 {
		t.Errorf("%d keys seen, steady %v, knee %v, ab %v, noise_contradicted %v", len(keys), keys["steady"], keys["knee"], keys["ab"], keys["noise_contradicted"])
	}
}

// documentedJSON runs each command line, which must succeed, and checks
// that every key of their JSON is documented in docs/doc; it returns
// the keys seen.
func documentedJSON(t *testing.T, doc string, runs [][]string) map[string]bool {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, args := range runs {
		o, errs, code := runCLI(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		out.WriteString(o)
	}
	keys := testutil.JSONKeys(t, out.String())
	for k := range keys {
		if !testutil.Documented(string(text), k) {
			t.Errorf("JSON key %q is not documented in docs/%s", k, doc)
		}
	}
	return keys
}

// A result file named twice, or a folder and a file in it, is read once:
// its run counted twice weighed double in the fits ("pgbench TPC-B (sort
// of): 7 runs at 6 sizes") and one file twice read "tps 1468
// (pgbench-rw-scale, median of 2 runs…)".
func TestThroughputSameFileTwice(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales")
	one := filepath.Join(dir, "pgbench-rw-scale1.txt")
	alone, _, code := runCLI(t, nil, "throughput", "--format", "csv", dir)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	both, errs, code := runCLI(t, nil, "throughput", "--format", "csv", dir, one)
	if want := "fbdiag: throughput: skipped " + one + ": the same file as " + one + ", read once\n"; code != exitOK || both != alone || !strings.HasPrefix(errs, want) {
		t.Errorf("folder and a file in it: exit %d, same CSV as the folder %v, stderr %q", code, both == alone, errs)
	}
	out, errs, code := runCLI(t, nil, "throughput", one, one)
	if code != exitOK || !strings.Contains(out, "tps  1468 (1 run at 22.4 MiB; one size, nothing to compare)\n") ||
		errs != "fbdiag: throughput: skipped "+one+": the same file as "+one+", read once\n" {
		t.Errorf("one file twice: exit %d, stderr %q\n%s", code, errs, out)
	}
}

// The seed's 1.77 TiB point has leverage 0.99984 in the linear fit: the
// high-leverage table printed it "1", a point that sets its own fitted
// value exactly, beside the JSON's 0.9998396714323068.
func TestThroughputLeverageNearOne(t *testing.T) {
	out, errs, code := runCLI(t, nil, "throughput", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	wantLines(t, out,
		"ops_per_s  linear     1.77 TiB    0.9998    0.5\n",
		"ops_per_s  loglinear  1.77 TiB     0.929    0.5\n")
}

// Two configurations 0.02 % apart: the headline, the table and the
// verdict read "×1.00, -0.0 %" beside "slower" (a time: "1.00× as
// fast"); the figures now show which way, as the words do.
func TestThroughputABNearTie(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"tps.csv":  "plan,tps\nBalanced,1000\nHigh performance,999.8\n",
		"time.csv": "plan,restore_s\nBalanced,1000\nHigh performance,999.8\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, wants := range map[string][]string{
		"tps.csv": {"High performance vs Balanced  -0.02 % (×0.9998, slower; 1 run each, no test)\n",
			"×0.9998  -0.02 %  slower\n",
			"High performance vs Balanced: ×0.9998, -0.02 % slower (n=1+1, no test)\n"},
		"time.csv": {"High performance vs Balanced  -0.02 % (time ×0.9998: 1.0002× as fast; 1 run each, no test)\n",
			"×0.9998  -0.02 %  1.0002× as fast\n"},
	} {
		out, errs, code := runCLI(t, nil, "throughput", filepath.Join(dir, name))
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errs)
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", name, want, out)
			}
		}
	}
}
