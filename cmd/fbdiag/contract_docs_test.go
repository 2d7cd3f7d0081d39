package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// docKeys reads a contract document of docs/ and returns, for each
// heading, the backticked keys of the first cell of its table rows, and
// for a heading without a table (a paragraph that lists the keys), every
// backticked snake_case word of its text.
func docKeys(t *testing.T, name string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([a-z0-9_]+)(?:\\[\\])?`") // (`steps[]` is the key steps)
	out := map[string][]string{}
	prose := map[string][]string{}
	head := ""
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
			head = strings.TrimSpace(strings.TrimLeft(l, "#"))
		case strings.HasPrefix(l, "|"):
			cells := strings.Split(l, "|")
			if len(cells) < 3 || strings.Trim(cells[1], " -:") == "" {
				continue
			}
			for _, m := range tick.FindAllStringSubmatch(cells[1], -1) {
				out[head] = append(out[head], m[1])
			}
		default:
			for _, m := range tick.FindAllStringSubmatch(l, -1) {
				prose[head] = append(prose[head], m[1])
			}
		}
	}
	for h, keys := range prose {
		if _, ok := out[h]; !ok {
			out[h] = keys
		}
	}
	return out
}

// jsonDocs decodes the stream of JSON documents a command wrote.
func jsonDocs(t *testing.T, out string) []any {
	t.Helper()
	var docs []any
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return docs
		} else if err != nil {
			t.Fatalf("%v in %.200q", err, out)
		}
		docs = append(docs, v)
	}
}

// keysAt adds to seen the keys of the objects at path ("tables[].indices[]"
// is every index of every table; "" the document itself).
func keysAt(v any, path string, seen map[string]bool) {
	if path == "" {
		if o, ok := v.(map[string]any); ok {
			for k := range o {
				seen[k] = true
			}
		}
		return
	}
	step, rest, _ := strings.Cut(path, ".")
	name, list := strings.CutSuffix(step, "[]")
	o, ok := v.(map[string]any)
	if !ok {
		return
	}
	if !list {
		keysAt(o[name], rest, seen)
		return
	}
	items, _ := o[name].([]any)
	for _, x := range items {
		keysAt(x, rest, seen)
	}
}

// contractCase is one object of a JSON contract: the heading that lists
// its keys, where it is in the documents, and the documented keys no
// sample of testdata/ has (an other server's, Firebird 6's).
type contractCase struct {
	heading, path string
	absent        []string
}

// checkContract holds the keys of the JSON documents against the keys
// their contract lists: a key written but not listed is undocumented, one
// listed but in no document is a misspelling or a key that went away.
func checkContract(t *testing.T, doc string, docs []any, cases []contractCase) {
	t.Helper()
	keys := docKeys(t, doc)
	for _, c := range cases {
		listed, ok := keys[c.heading]
		if !ok {
			t.Errorf("%s: no heading %q", doc, c.heading)
			continue
		}
		seen := map[string]bool{}
		for _, d := range docs {
			keysAt(d, c.path, seen)
		}
		if len(seen) == 0 {
			t.Errorf("%s: no sample has an object at %q", doc, c.path)
			continue
		}
		for k := range seen {
			if !slices.Contains(listed, k) {
				t.Errorf("%s, %s: key %q of %q is written but not documented", doc, c.heading, k, c.path)
			}
		}
		for _, k := range listed {
			if !seen[k] && !slices.Contains(c.absent, k) {
				t.Errorf("%s, %s: documented key %q is in no sample's %q", doc, c.heading, k, c.path)
			}
		}
		for _, k := range c.absent {
			if seen[k] {
				t.Errorf("%s, %s: %q is written now: drop it from the test's absent keys", doc, c.heading, k)
			}
		}
	}
}

// Every key of fbdiag gstat's JSON, on the gstat samples of testdata/,
// is documented in docs/gstat-json.md under its object's heading, and
// every key documented there is written for some sample.
func TestGstatJSONKeysDocumented(t *testing.T) {
	var files []string
	for _, g := range []string{"fb30/shop-gstat-*.txt", "gstat/*.txt", "growth/*.txt", "mixed/*.txt"} {
		m, err := filepath.Glob(testutil.Testdata(t, g))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v, %d files", g, err, len(m))
		}
		files = append(files, m...)
	}
	var docs []any
	for _, f := range files {
		out, errs, code := runCLI(t, nil, "gstat", "--format", "json", "--architecture", "classic",
			"--connections", "10", "--ram", "8GB", f)
		if code > exitError {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		docs = append(docs, jsonDocs(t, out)...)
	}
	checkContract(t, "gstat-json.md", docs, []contractCase{
		{"Top level", "", nil},
		{"`header`", "header", []string{"server"}}, // RedDatabase's
		{"`totals`", "totals", nil},
		{"`tables[]`", "tables[]", nil},
		{"`tables[].indices[]`", "tables[].indices[]", nil},
		{"`warnings[]`", "warnings[]", nil},
	})
}

// The same for gstat diff and gstat trend against
// docs/gstat-history-json.md, on the fb30 snapshots and the growth series.
func TestGstatHistoryJSONKeysDocumented(t *testing.T) {
	fb30 := func(n string) string { return testutil.Testdata(t, "fb30", n) }
	growth, err := filepath.Glob(testutil.Testdata(t, "growth", "*.txt"))
	if err != nil || len(growth) < 5 {
		t.Fatalf("growth: %v, %d files", err, len(growth))
	}
	run := func(args ...string) []any {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return jsonDocs(t, out)
	}
	var diffs []any
	for _, pair := range [][2]string{
		{fb30("shop-gstat-a-r.txt"), fb30("shop-gstat-r-later.txt")},
		{fb30("shop-gstat-h.txt"), fb30("shop-gstat-a-r.txt")},
		{growth[0], growth[len(growth)-1]},
	} {
		diffs = append(diffs, run("gstat", "diff", "--format", "json", pair[0], pair[1])...)
	}
	schema := []string{"schema"} // Firebird 6's
	checkContract(t, "gstat-history-json.md", diffs, []contractCase{
		{"`diff` top level", "", nil},
		{"snapshot (`before`, `after`, `trend.snapshots[]`)", "before", nil},
		{"`tables[]`", "tables[]", schema},
		{"`indices[]`", "indices[]", []string{"table_schema"}},
	})
	trends := run(append([]string{"gstat", "trend", "--format", "json", "--until", "1MB"}, growth...)...)
	trends = append(trends, run(append([]string{"gstat", "trend", "--format", "json"}, growth...)...)...)
	checkContract(t, "gstat-history-json.md", trends, []contractCase{
		{"`trend` top level", "", nil},
		{"snapshot (`before`, `after`, `trend.snapshots[]`)", "snapshots[]", nil},
		{"`transactions`", "transactions", nil},
		{"growth (`database`, `tables[]`)", "tables[]", schema},
		{"fit", "tables[].linear", nil},
		{"forecast", "tables[].forecast", nil},
	})
}

// The same for fbdiag throughput against docs/throughput-json.md, in each
// mode, on the seed's tables and fbdiag bench's results.
func TestThroughputJSONKeysDocumented(t *testing.T) {
	var docs []any
	for _, args := range [][]string{
		{"--knee", "16GB", "--predict", "2TB", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")},
		{testutil.Testdata(t, "seeds", "degradation-load-sata.csv")},
		{testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv")},
		{testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")},
		{testutil.Testdata(t, "bench", "sizes.csv")},
		{testutil.Testdata(t, "bench", "buffers.csv")},
		{testutil.Testdata(t, "bench", "run-w1-t4.jsonl")}, // one run: a series warning
	} {
		out, errs, code := runCLI(t, nil, append([]string{"throughput", "--format", "json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		docs = append(docs, jsonDocs(t, out)...)
	}
	checkContract(t, "throughput-json.md", docs, []contractCase{
		{"Top level", "", nil},
		{"Series", "series[]", nil},
		{"Model (degradation)", "series[].models[]", nil},
	})
}

// The same for the top level of fbdiag gbak's JSON against
// docs/gbak-json.md, on the fb30 restore and backup, the cut restore,
// the seed's logs and the public backup that failed (07).
func TestGbakJSONKeysDocumented(t *testing.T) {
	var docs []any
	for _, f := range []string{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"),
		testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"), testutil.Testdata(t, "gbak", "shop-restore-cut.log"),
		testutil.Testdata(t, "seeds", "restore-balanced.log"),
		// failed after its last timestamp: total_lower_bound
		testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log")} {
		out, errs, code := runCLI(t, nil, "gbak", "--format", "json", f)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		docs = append(docs, jsonDocs(t, out)...)
	}
	checkContract(t, "gbak-json.md", docs, []contractCase{{"`fbdiag gbak LOG`", "", nil}})
}

// Every column of every CSV table of gstat diff and gstat trend is named
// in docs/gstat-history-json.md, whose CSV section says where a column's
// name is not JSON's key: the snapshots' dated_by, ods and firebird, the
// warning changes' severity_old, value_old and value_new, the fields'
// only_in and the indices' *_change were named nowhere.
func TestGstatHistoryCSVColumnsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", "gstat-history-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z0-9_]+)`").FindAllStringSubmatch(string(b), -1) {
		named[m[1]] = true
	}
	fb30 := func(n string) string { return testutil.Testdata(t, "fb30", n) }
	// Two snapshots with warnings that appear, resolve and change, and
	// fields only one prints (a -h run against an -a -r run).
	diffs := [][]string{{fb30("shop-gstat-a-r.txt"), fb30("shop-gstat-r-later.txt")}, {fb30("shop-gstat-h.txt"), fb30("shop-gstat-a-r.txt")}}
	check := func(args []string, tables ...string) {
		for _, table := range tables {
			out, errs, code := runCLI(t, nil, append([]string{"gstat"}, append(append([]string{}, args[0], "--format", "csv", "--table", table), args[1:]...)...)...)
			if code != exitOK {
				t.Fatalf("%v --table %s: exit %d: %s", args, table, code, errs)
			}
			head, _, _ := strings.Cut(out, "\n")
			for _, col := range strings.Split(head, ",") {
				if !named[col] {
					t.Errorf("gstat %s --table %s: column %q is not in docs/gstat-history-json.md", args[0], table, col)
				}
			}
		}
	}
	for _, pair := range diffs {
		check(append([]string{"diff"}, pair...), "snapshots", "counts", "counters", "tables", "indices", "warning_changes", "fields_only", "summary", "warnings")
	}
	check([]string{"trend", testutil.Testdata(t, "growth")}, "snapshots", "tables", "left_out", "summary", "warnings")
}

// sectionKeys is every snake_case word a section of a contract document
// names as a key: in backticks (`runs[]`, `steps[].name`, `{"file",
// "line"}`), and the quoted keys of its JSON example.
func sectionKeys(t *testing.T, doc, heading string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	text, found := "", false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "#") {
			if found {
				break
			}
			found = strings.TrimSpace(strings.TrimLeft(l, "#")) == heading
			continue
		}
		if found && !strings.HasPrefix(l, "```") {
			text += l + "\n"
		}
	}
	if !found {
		t.Fatalf("%s: no heading %q", doc, heading)
	}
	keys := map[string]bool{}
	word := regexp.MustCompile(`[a-z][a-z0-9_]*`)
	for _, m := range regexp.MustCompile("`[^`]+`").FindAllString(text, -1) {
		for _, w := range word.FindAllString(m, -1) {
			keys[w] = true
		}
	}
	for _, m := range regexp.MustCompile(`"([a-z][a-z0-9_]*)":`).FindAllStringSubmatch(text, -1) {
		keys[m[1]] = true
	}
	return keys
}

// allKeys adds every key of every object in v, at any depth, to seen.
func allKeys(v any, seen map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			seen[k] = true
			allKeys(e, seen)
		}
	case []any:
		for _, e := range x {
			allKeys(e, seen)
		}
	}
}

// Every key of gbak compare's JSON, of report.json and of detect's JSON,
// at any depth, on the samples, is named in its section of the contract
// (their sections list keys in prose, which docKeys does not read).
func TestCompareReportDetectJSONKeysDocumented(t *testing.T) {
	check := func(doc, heading string, docs []any) {
		t.Helper()
		named := sectionKeys(t, doc, heading)
		seen := map[string]bool{}
		for _, d := range docs {
			allKeys(d, seen)
		}
		if len(seen) == 0 {
			t.Fatalf("%s: no keys", heading)
		}
		for k := range seen {
			if !named[k] {
				t.Errorf("%s, %s: key %q is written but not documented", doc, heading, k)
			}
		}
	}
	run := func(args ...string) []any {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return jsonDocs(t, out)
	}
	seed := func(n string) string { return testutil.Testdata(t, "seeds", n) }
	restores, err := filepath.Glob(testutil.Testdata(t, "restores", "*.log"))
	if err != nil || len(restores) < 10 {
		t.Fatalf("restores: %v, %d logs", err, len(restores))
	}
	var cmp []any
	for _, args := range [][]string{
		{seed("restore-balanced.log"), seed("restore-high-performance.log")},
		restores, // 5 + 5 runs: spreads, tests, within_clock
		{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"), testutil.Testdata(t, "gbak", "shop-restore-cut.log"),
			testutil.Corpus(t, "public", "gbak", "07_backup_service_stats_error_issue7803.log")},
	} {
		cmp = append(cmp, run(append([]string{"gbak", "compare", "--format", "json"}, args...)...)...)
	}
	check("gbak-json.md", "`fbdiag gbak compare A.log B.log …`", cmp)

	out := filepath.Join(t.TempDir(), "r")
	runCLI(t, nil, "report", "--out", out, testutil.Testdata(t, "fb30"), testutil.Testdata(t, "seeds"), testutil.Testdata(t, "mixed"),
		testutil.Testdata(t, "bench"))
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	check("report.md", "report.json", jsonDocs(t, string(b)))
	check("report.md", "fbdiag detect", run("detect", "--format", "json", testutil.Testdata(t, "mixed"), testutil.Testdata(t, "fb30")))
}
