package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/view"
)

func shopPath(t *testing.T) string { return testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt") }

// readShop is the bytes of shopPath.
func readShop(t *testing.T) []byte { return testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt") }

// TestGstatTextShop: the command prints what view.Gstat lays out, the
// same bytes as the view's golden files of the shop sample, in every
// format but JSON (go test ./view -update rewrites them).
func TestGstatTextShop(t *testing.T) {
	root := testutil.Root(t)
	t.Chdir(root)
	for format, ext := range map[string]string{"text": "txt", "markdown": "md", "csv": "csv", "openmetrics": "om"} {
		out, errs, code := runCLI(t, nil, "gstat", "--format", format, "testdata/fb30/shop-gstat-a-r.txt")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %s", format, code, errs)
		}
		want, err := os.ReadFile(filepath.Join(root, "view", "testdata", "golden", "gstat-shop-gstat-a-r."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("fbdiag gstat --format %s differs from view/testdata/golden/gstat-shop-gstat-a-r.%s:\n%s", format, ext, out)
		}
		if format != "text" {
			continue
		}
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 100 {
				t.Errorf("line %d is %d columns: %q", i+1, n, line)
			}
		}
	}
}

// gstatJSON mirrors the contract fields of docs/gstat-json.md.
type gstatJSON struct {
	File   string `json:"file"`
	Header *struct {
		PageSize          *int64  `json:"page_size"`
		ODSVersion        *string `json:"ods_version"`
		OldestTransaction *int64  `json:"oldest_transaction"`
		OldestActive      *int64  `json:"oldest_active"`
		OldestSnapshot    *int64  `json:"oldest_snapshot"`
		NextTransaction   *int64  `json:"next_transaction"`
	} `json:"header"`
	Tables []struct {
		Name        string `json:"name"`
		ID          int64  `json:"id"`
		Records     *int64 `json:"records"`
		Versions    *int64 `json:"versions"`
		MaxVersions *int64 `json:"max_versions"`
		DataPages   *int64 `json:"data_pages"`
		SizeBytes   *int64 `json:"size_bytes"`
		Indices     []struct {
			Name        string `json:"name"`
			Depth       *int64 `json:"depth"`
			LeafBuckets *int64 `json:"leaf_buckets"`
			Nodes       *int64 `json:"nodes"`
			TotalDup    *int64 `json:"total_dup"`
			MaxDup      *int64 `json:"max_dup"`
		} `json:"indices"`
	} `json:"tables"`
	Warnings []struct {
		Rule     string  `json:"rule"`
		Severity string  `json:"severity"`
		Object   string  `json:"object"`
		Value    float64 `json:"value"`
	} `json:"warnings"`
	Notices []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"notices"`
}

func decodeStream(t *testing.T, s string) []gstatJSON {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	var out []gstatJSON
	for dec.More() {
		var g gstatJSON
		if err := dec.Decode(&g); err != nil {
			t.Fatalf("bad JSON: %v", err)
		}
		out = append(out, g)
	}
	return out
}

func eq(p *int64, v int64) bool { return p != nil && *p == v }

func TestGstatJSONContract(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "--format", "json", shopPath(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	docs := decodeStream(t, out)
	if len(docs) != 1 {
		t.Fatalf("%d JSON documents, want 1", len(docs))
	}
	g := docs[0]
	h := g.Header
	if h == nil || !eq(h.PageSize, 8192) || h.ODSVersion == nil || *h.ODSVersion != "12.0" ||
		!eq(h.OldestTransaction, 16) || !eq(h.OldestActive, 17) || !eq(h.OldestSnapshot, 17) || !eq(h.NextTransaction, 18) {
		t.Errorf("header %+v", h)
	}
	if len(g.Tables) != 6 {
		t.Fatalf("%d tables, want 6", len(g.Tables))
	}
	found := false
	for _, tb := range g.Tables {
		if tb.Name != "CUSTOMER" {
			continue
		}
		found = true
		if tb.ID != 129 || !eq(tb.Records, 30000) || !eq(tb.Versions, 10000) || !eq(tb.MaxVersions, 1) ||
			!eq(tb.DataPages, 392) || !eq(tb.SizeBytes, 392*8192) {
			t.Errorf("CUSTOMER %+v", tb)
		}
		if len(tb.Indices) != 2 || tb.Indices[0].Name != "CUSTOMER_LAST" {
			t.Fatalf("CUSTOMER indices %+v", tb.Indices)
		}
		ix := tb.Indices[0]
		if !eq(ix.Depth, 2) || !eq(ix.LeafBuckets, 23) || !eq(ix.Nodes, 30000) || !eq(ix.TotalDup, 29000) || !eq(ix.MaxDup, 29) {
			t.Errorf("CUSTOMER_LAST %+v", ix)
		}
	}
	if !found {
		t.Error("no CUSTOMER table")
	}
	if len(g.Warnings) != 9 {
		t.Errorf("%d warnings, want 9", len(g.Warnings))
	}
	if w := g.Warnings[0]; w.Rule != "index-low-selectivity" || w.Severity != "warning" || w.Object != "ORDERS_CARRIER" || w.Value != 1.0/11 {
		t.Errorf("first warning %+v", w)
	}
	if g.Notices == nil {
		t.Error("notices is null, want []")
	}
	// The raw text must hold every contract key, null or not.
	for _, key := range []string{`"page_size"`, `"ods_version"`, `"oldest_transaction"`, `"oldest_active"`, `"oldest_snapshot"`,
		`"next_transaction"`, `"size_bytes"`, `"leaf_buckets"`, `"total_dup"`, `"max_dup"`, `"notices"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestGstatFailOn(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "--fail-on", "warning", shopPath(t))
	if code != 3 {
		t.Errorf("--fail-on warning: exit %d, want 3", code)
	}
	// Five of the nine are warnings: ORDERS_CARRIER's selectivity, three
	// sparse indices, CUSTOMER's fragments; the other four are information.
	if !strings.Contains(out, "Warnings (9)") || !strings.Contains(errs, "5 warnings at warning level or above") {
		t.Errorf("output not printed or no message: %q", errs)
	}
	// The shop sample has no critical warning.
	if _, _, code := runCLI(t, nil, "gstat", "--fail-on", "critical", shopPath(t)); code != 0 {
		t.Errorf("--fail-on critical: exit %d, want 0", code)
	}
	if _, _, code := runCLI(t, nil, "gstat", "--fail-on", "info", shopPath(t)); code != 2 {
		t.Errorf("--fail-on info: exit %d, want 2", code)
	}
	// The indices' CSV, which runs no table rule without --fail-on,
	// counts CUSTOMER's fragments with it.
	_, errs, code = runCLI(t, nil, "gstat", "--format", "csv", "--table", "indices", "--fail-on", "warning", shopPath(t))
	if code != 3 || !strings.Contains(errs, "5 warnings at warning level or above") {
		t.Errorf("csv --table indices --fail-on warning: exit %d, %q; want 3, 5 warnings", code, errs)
	}
}

func TestGstatErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	_, errs, code := runCLI(t, nil, "gstat", missing)
	if code != 1 || !strings.Contains(errs, "nope.txt") || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "gstat", "--no-such-flag", shopPath(t)); code != 2 {
		t.Errorf("bad flag: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "gstat", "--sort", "name", shopPath(t)); code != 2 || !strings.Contains(errs, "--sort") {
		t.Errorf("bad sort: exit %d, stderr %q", code, errs)
	}
	if _, _, code := runCLI(t, nil, "gstat"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	_, errs, code = runCLI(t, []byte("hello\nworld\n"), "gstat", "-")
	if code != 1 || !strings.Contains(errs, "no gstat output found") {
		t.Errorf("not gstat: exit %d, stderr %q", code, errs)
	}
}

// Standard input works, and the same report as UTF-16LE with BOM and CRLF
// gives byte-identical JSON (both are read as "-", so the file names in
// the output agree).
func TestGstatStdinAndUTF16(t *testing.T) {
	data := readShop(t)
	plain, errs, code := runCLI(t, data, "gstat", "--format", "json", "-")
	if code != 0 {
		t.Fatalf("stdin: exit %d %s", code, errs)
	}
	if g := decodeStream(t, plain); len(g) != 1 || g[0].File != "<stdin>" || len(g[0].Tables) != 6 {
		t.Fatalf("stdin analysis: %d docs", len(g))
	}
	crlf := strings.ReplaceAll(string(data), "\n", "\r\n")
	u16 := utf16.Encode([]rune(crlf))
	wide := []byte{0xFF, 0xFE}
	for _, u := range u16 {
		wide = append(wide, byte(u), byte(u>>8))
	}
	converted, errs, code := runCLI(t, wide, "gstat", "--format", "json", "-")
	if code != 0 {
		t.Fatalf("utf-16: exit %d %s", code, errs)
	}
	if converted != plain {
		t.Errorf("UTF-16LE+CRLF JSON differs from UTF-8 JSON")
	}
}

// Two runs appended in one file are two snapshots, both analysed: the
// real pair of shop snapshots, before and after garbage collection.
func TestGstatTwoSnapshots(t *testing.T) {
	a := readShop(t)
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	both := append(append([]byte{}, a...), b...)
	out, errs, code := runCLI(t, both, "gstat", "--format", "json", "-")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	docs := decodeStream(t, out)
	if len(docs) != 2 {
		t.Fatalf("%d snapshots, want 2", len(docs))
	}
	versions := func(g gstatJSON) int64 {
		for _, tb := range g.Tables {
			if tb.Name == "CUSTOMER" && tb.Versions != nil {
				return *tb.Versions
			}
		}
		return -1
	}
	if v1, v2 := versions(docs[0]), versions(docs[1]); v1 != 10000 || v2 != 0 {
		t.Errorf("CUSTOMER versions %d then %d, want 10000 then 0", v1, v2)
	}
	// Two files on the command line: one document each, in order.
	out, _, code = runCLI(t, nil, "gstat", "--format", "json", shopPath(t), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if docs := decodeStream(t, out); code != 0 || len(docs) != 2 || versions(docs[0]) != 10000 || versions(docs[1]) != 0 {
		t.Errorf("two files: exit %d, %d documents", code, len(docs))
	}
	text, _, code := runCLI(t, both, "gstat", "-")
	if code != 0 || !strings.Contains(text, "gstat analysis of <stdin>, snapshot 2") {
		t.Errorf("text of two snapshots: exit %d", code)
	}
}

func TestGstatTopSortFormats(t *testing.T) {
	out, _, code := runCLI(t, nil, "gstat", "--top", "2", "--sort", "versions", shopPath(t))
	if code != 0 || !strings.Contains(out, "\n2 of 6 tables shown (--all shows them)\n") || !strings.Contains(out, "\n2 of 10 indices shown (--all shows them)\n") ||
		!strings.Contains(out, "\n2 of 9 warnings shown (--all shows them); not shown: 3 warning, 4 info\n") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	tables := out[strings.Index(out, "Tables by versions"):strings.Index(out, "2 of 6 tables")]
	if !strings.Contains(tables, "\nSTOCK ") || !strings.Contains(tables, "\nCUSTOMER ") || strings.Contains(tables, "ORDER_LINE") {
		t.Errorf("top 2 by versions:\n%s", tables)
	}
	// Indices: those with warnings first (warning before info), then by
	// nodes with --sort versions, then by name.
	ixs := out[strings.Index(out, "Indices, those"):strings.Index(out, "2 of 10 indices")]
	if !strings.Contains(ixs, "\nORDERS_CARRIER  ORDERS  ?         2    75  100000   0.0909  99.9 %    33333   600 KiB\nORDERS_DATE_D ") {
		t.Errorf("top 2 indices:\n%s", ixs)
	}
	all, _, code := runCLI(t, nil, "gstat", "--top", "2", "--all", shopPath(t))
	if code != 0 || strings.Contains(all, "shown") || strings.Count(all, "\nWARNING ") != 5 || strings.Count(all, "\nINFO ") != 4 {
		t.Errorf("--all: exit %d\n%s", code, all)
	}
	for table, want := range map[string]string{
		"":         "CUSTOMER,30000,10000,0.3333333333333333,1,0.10416666666666667,392,0.84,3211264,491520\n",
		"summary":  "\nnext_transaction,18\n",
		"warnings": "\ninfo,index-max-dup,index ORDERS_CARRIER on ORDERS,33333,10000,keys,",
		"indices":  "\nCUSTOMER_LAST,CUSTOMER,unknown,2,23,30000,0.001,0.9666666666666667,29,188416\n",
	} {
		args := []string{"gstat", "--format", "csv", shopPath(t)}
		if table != "" {
			args = []string{"gstat", "--format", "csv", "--table", table, shopPath(t)}
		}
		csv, _, code := runCLI(t, nil, args...)
		if code != 0 || !strings.Contains(csv, want) {
			t.Errorf("csv --table %q: exit %d, lacks %q:\n%s", table, code, want, csv)
		}
	}
	_, errs, code := runCLI(t, nil, "gstat", "--format", "csv", "--table", "header", shopPath(t))
	if code != exitUsage || !strings.Contains(errs, `--table: no table "header" (want one of tables, indices, encryption, problems, summary, warnings)`) {
		t.Errorf("--table header: exit %d, %s", code, errs)
	}
	// The shop database printed no -e counts and no problem lines: the
	// tables are empty, not unknown, so that an export scheduled on every
	// database does not fail on the healthy one.
	for table, want := range map[string]string{"problems": "line,kind,table,text,page,from_page\n", "encryption": "pages,total,encrypted,non_crypted,db_problem\n"} {
		csv, errs, code := runCLI(t, nil, "gstat", "--format", "csv", "--table", table, shopPath(t))
		if code != 0 || csv != want {
			t.Errorf("csv --table %s: exit %d %s\n%q, want %q", table, code, errs, csv, want)
		}
	}
	_, errs, code = runCLI(t, nil, "gstat", "--table", "indices", shopPath(t))
	if code != exitUsage || !strings.Contains(errs, "--table chooses the CSV table: give --format csv too") {
		t.Errorf("--table without csv: exit %d, %s", code, errs)
	}
	md, _, code := runCLI(t, nil, "gstat", "--format", "markdown", shopPath(t))
	if code != 0 || !strings.Contains(md, "\n| CUSTOMER_LAST | CUSTOMER | ? | 2 | 23 | 30000 | 0.001 | 96.7 % | 29 | 184 KiB |\n") {
		t.Errorf("markdown output:\n%s", md)
	}
}

func TestGstatNoticesOnStderr(t *testing.T) {
	p := testutil.Corpus(t, "public", "gstat", "03_fb5_2plus_table_blob_stats_new_format_pr8394.txt")
	_, errs, code := runCLI(t, nil, "gstat", p)
	if code != 0 || !strings.Contains(errs, p+":24: ") {
		t.Errorf("exit %d, stderr %q: want the skipped line 24 as file:line", code, errs)
	}
}

func TestGstatHelp(t *testing.T) {
	out, _, _ := runCLI(t, nil, "gstat", "--help")
	for _, want := range []string{"gstat -a -r DB > stats.txt", "fbstat", "fbsvcmgr", "action_db_stats", "--fail-on", "docs/gstat-json.md"} {
		if !strings.Contains(out, want) {
			t.Errorf("gstat --help lacks %q", want)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	out, _, code := runCLI(t, nil, "rules")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden, err := os.ReadFile(filepath.Join(testutil.Root(t), "view", "testdata", "golden", "rules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(golden) {
		t.Errorf("fbdiag rules differs from view/testdata/golden/rules.txt")
	}
	for _, r := range analyze.Rules {
		if !strings.Contains(out, "\n"+r.ID+"  "+r.Kind+"  ") {
			t.Errorf("rules output lacks %s", r.ID)
		}
	}
	if !strings.Contains(out, "\nindex-deep.min_depth  3  levels\n") || !strings.Contains(out, "gem-00000012") ||
		!strings.Contains(out, "    applies to: Firebird 3.0+ (ODS 12); gstat -r\n") {
		t.Errorf("threshold or source missing:\n%s", out[:min(len(out), 600)])
	}
	csv, _, code := runCLI(t, nil, "rules", "--format", "csv", "--table", "thresholds")
	if want := "rule,key,value,unit,source\nindex-deep,index-deep.min_depth,3,levels,"; code != 0 || !strings.Contains(csv, "\nindex-deep,index-deep.min_depth,3,levels,") || !strings.HasPrefix(csv, want[:27]) {
		t.Errorf("rules --table thresholds: exit %d\n%s", code, csv[:min(len(csv), 300)])
	}
	if _, errs, code := runCLI(t, nil, "rules", "--format", "csv", "--table", "nope"); code != 2 || !strings.Contains(errs, "thresholds") {
		t.Errorf("rules --table nope: exit %d, %q", code, errs)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "site.rules")
	os.WriteFile(good, []byte("# ours\nindex-deep.min_depth = 2\n"), 0o644)
	out, _, code = runCLI(t, nil, "rules", "--format", "json", "--rules", good)
	var doc struct {
		Rules []struct {
			ID         string              `json:"id"`
			Thresholds []analyze.Threshold `json:"thresholds"`
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	deep := -1
	for i, r := range doc.Rules {
		if r.ID == "index-deep" {
			deep = i
		}
	}
	if len(doc.Rules) != len(analyze.Rules) || deep < 0 || doc.Rules[deep].Thresholds[0].Value != 2 {
		t.Errorf("rules JSON with override: %d rules, index-deep at %d: %+v", len(doc.Rules), deep, doc.Rules)
	}
	// With the stricter file, gstat judges the nine depth-2 shop indices:
	// information, as their size explains their depth.
	out, _, code = runCLI(t, nil, "gstat", "--rules", good, "--format", "csv", "--table", "warnings", shopPath(t))
	if code != 0 || strings.Count(out, "\ninfo,index-deep,") != 9 {
		t.Errorf("gstat --rules: exit %d, %d index-deep warnings", code, strings.Count(out, "\ninfo,index-deep,"))
	}
	bad := filepath.Join(dir, "bad.rules")
	os.WriteFile(bad, []byte("index-deep.min_depth = 2\nindex-depth.warning = 2\n"), 0o644)
	_, errs, code := runCLI(t, nil, "gstat", "--rules", bad, shopPath(t))
	if code != 1 || !strings.Contains(errs, bad+":2: unknown threshold \"index-depth.warning\"") {
		t.Errorf("bad rules: exit %d, stderr %q", code, errs)
	}
	// Nonsense is refused in plain words, before any output.
	for src, want := range map[string]string{
		"{":                              ":1: the file ends inside the JSON object; want {\"rule.key\": value, ...}",
		"{\"oat-stuck.warning\": 1e999}": ":1: oat-stuck.warning: 1e999 is out of range (a threshold is a finite number)",
		"index-deep.min_depth = -3\n":    ":1: index-deep.min_depth: -3 is negative; a threshold in levels is 0 or more",
		"oat-stuck.critical = 5000\n":    ":1: oat-stuck.critical = 5000 is below oat-stuck.warning = 20000: a critical limit is at least its warning",
	} {
		os.WriteFile(bad, []byte(src), 0o644)
		out, errs, code := runCLI(t, nil, "gstat", "--rules", bad, shopPath(t))
		if code != 1 || out != "" || errs != "fbdiag: "+bad+want+"\n" {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q", src, code, len(out), errs)
		}
	}
	// A file that cannot be read names the flag: "open x: no such file
	// or directory", and "adir: read adir: is a directory" of a folder.
	for name, want := range map[string]string{
		filepath.Join(dir, "nosuch.rules"): ": no such file or directory",
		dir:                                ": is a folder, not a file",
	} {
		out, errs, code := runCLI(t, nil, "gstat", "--rules", name, shopPath(t))
		if code != 1 || out != "" || errs != "fbdiag: --rules "+name+want+"\n" {
			t.Errorf("--rules %s: exit %d, stdout %d bytes, stderr %q", name, code, len(out), errs)
		}
	}
}

// Every gstat output of the corpus goes through the text output: exit 0
// and 100 columns, except lines that carry a path (file or database).
func TestGstatCorpusText(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	fb30, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "fb30", "*gstat*"))
	files = append(files, fb30...)
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, ".md") {
			continue
		}
		n++
		out, errs, code := runCLI(t, nil, "gstat", "--top", "0", p)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", filepath.Base(p), code, errs)
			continue
		}
		for i, line := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(line) > 100 && !strings.HasPrefix(line, "gstat analysis of ") && !strings.HasPrefix(line, "Database ") {
				t.Errorf("%s: line %d is %d columns: %q", filepath.Base(p), i+1, utf8.RuneCountInString(line), line)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d corpus files", n)
	}
}

// Every key the JSON output has is documented in docs/gstat-json.md, so
// the contract and the code cannot drift apart.
func TestGstatJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", "gstat-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The shop report, plus a run with a corruption line and a skipped
	// line, so that findings and notices have elements.
	data := readShop(t)
	damaged := strings.Replace(string(data), "    Pointer pages: 1, data page slots: 392\n",
		"    Pointer pages: 1, data page slots: 392\nExpected data on page 400\n", 1)
	out, _, _ := runCLI(t, []byte("# saved by cron\n"+damaged), "gstat", "--format", "json", "-")
	keys := testutil.JSONKeys(t, out)
	for k := range keys {
		if !bytes.Contains(doc, []byte("`"+k+"`")) {
			t.Errorf("JSON key %q is not documented in docs/gstat-json.md", k)
		}
	}
	if !keys["from_page"] || !keys["message"] {
		t.Errorf("the input gave no finding or no notice")
	}
	if len(keys) < 60 {
		t.Errorf("only %d keys seen", len(keys))
	}
}

// --architecture, --connections and --ram make page-buffers a verdict:
// the Firebird 5.0 header of 16 KB pages with its buffers edited from 0
// to 2048, on a Classic server with 200 connections and 8 GiB.
func TestGstatServerSetup(t *testing.T) {
	b, err := os.ReadFile(testutil.Corpus(t, "public", "gstat", "02_fb5_header_remote_issue8282.txt"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "Page buffers            0", "Page buffers            2048", 1)
	p := filepath.Join(t.TempDir(), "horses-h.txt")
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "--architecture", "classic", "--connections", "200", "--ram", "8GiB", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"\nPage cache            32.0 MiB per connection, 200 connections (classic)\n",
		"\nPage caches           6.25 GiB of 8.00 GiB RAM\n",
		"\nWARNING  page-buffers  database: 78.1 % > 50.0 % of RAM\n",
		"1311 pages keep them",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, c := range []struct{ args []string }{
		{[]string{"--architecture", "embedded"}}, {[]string{"--connections", "-1"}}, {[]string{"--ram", "8"}},
	} {
		if _, errs, code := runCLI(t, nil, append(append([]string{"gstat"}, c.args...), p)...); code != 2 || !strings.Contains(errs, c.args[0]) {
			t.Errorf("%v: exit %d, %q", c.args, code, errs)
		}
	}
}

// docs/rules.md holds the list exactly as `fbdiag rules` prints it.
func TestRulesDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "```text\n")
	end := strings.LastIndex(doc, "```")
	if start < 0 || end <= start {
		t.Fatal("docs/rules.md has no ```text block")
	}
	out, _, code := runCLI(t, nil, "rules")
	if got := doc[start+len("```text\n") : end]; code != 0 || got != out {
		t.Errorf("docs/rules.md differs from fbdiag rules (exit %d); regenerate its text block", code)
	}
}

// Text that holds no gstat output gives every format the same answer:
// the error, exit 1, nothing on standard output (JSON wrote a document
// of an empty run and its skipped-lines notice first).
func TestGstatNotGstatEveryFormat(t *testing.T) {
	const want = "fbdiag: <stdin>: no gstat output found (expected the text of gstat -a -r or gstat -h)\n"
	for _, format := range [][]string{{"text"}, {"markdown"}, {"json"}, {"csv"}, {"csv", "--table", "indices"},
		{"csv", "--table", "warnings"}, {"openmetrics"}} {
		args := append([]string{"gstat", "--format"}, format...)
		out, errs, code := runCLI(t, []byte("hello\nworld\n"), append(args, "-")...)
		if code != 1 || out != "" || errs != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", format, code, out, errs)
		}
	}
}

// A gstat view of every table keeps what it reads and backs a heap of
// four times its input with huge pages; the others hold a bounded heap.
func TestGstatOutKeepsAll(t *testing.T) {
	cases := []struct {
		out  gstatOut
		want bool
	}{
		{gstatOut{format: view.Text, vopt: view.GstatOptions{Top: 20}}, false},
		{gstatOut{format: view.Text, vopt: view.GstatOptions{Top: 20}, opt: view.Options{All: true}}, true},
		{gstatOut{format: view.Markdown, vopt: view.GstatOptions{Top: 0}}, true},
		{gstatOut{format: view.CSV, opt: view.Options{All: true}}, false},
		{gstatOut{format: view.Text, json: true, opt: view.Options{All: true}}, false},
		{gstatOut{format: view.OpenMetrics}, false},
	}
	for i, c := range cases {
		if got := c.out.keepsAll(); got != c.want {
			t.Errorf("case %d (%v, all %v, top %d, json %v): keepsAll = %v, want %v", i, c.out.format, c.out.opt.All, c.out.vopt.Top, c.out.json, got, c.want)
		}
	}
}

// Tables without index blocks: gstat -d, or -a on tables with no index
// (the text cannot tell which), so the note does not tell a user who ran
// gstat -a to run it; a header alone is told to.
func TestGstatNoIndexBlocksNote(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"shop-gstat-d.txt", "\n(no index blocks: gstat -d prints none, nor does -a where no table has an index; gstat -a lists\n  each index)\n"},
		{"shop-gstat-h.txt", "\n(no index blocks: run gstat -a for index statistics)\n"},
	} {
		out, errs, code := runCLI(t, nil, "gstat", testutil.Testdata(t, "fb30", c.file))
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, %s\n%s", c.file, code, errs, out)
		}
	}
}

// A Firebird 5.0 header read at 21:12:26 local prints its database
// created at 00:12:26 the next day: the creation date is UTC (4.0 and
// later), and the header table says so; a 3.0 header's is local.
func TestGstatCreationDateZone(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "gstat", testutil.Corpus(t, "public", "gstat", "fdcastel-PSFirebird__gstat-output.txt"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"gstat run             2026-07-26 21:12:26\n",
		"Created               2026-07-27 00:12:26 UTC (or restored)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, nil, "gstat", testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if want := "Created               2026-12-02 14:09:44 (or restored)\n"; !strings.Contains(out, want) {
		t.Errorf("3.0 header: missing %q in\n%s", want, out)
	}
}

// Firebird 6: ORDERS in the schemas PUBLIC and SALES are two tables in
// every format. OpenMetrics failed ("two samples with the same labels"),
// the warnings of SALES.ORDERS were folded into PUBLIC.ORDERS's (9 instead
// of 14), and text and CSV printed two identical rows.
func TestGstatTwoSchemas(t *testing.T) {
	in := []byte(testutil.SecondSchema(t))
	run := func(args ...string) string {
		t.Helper()
		out, errs, code := runCLI(t, in, append(append([]string{"gstat"}, args...), "-")...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		return out
	}
	om := run("--format", "openmetrics")
	for _, want := range []string{
		`fbdiag_table_records{database="/var/lib/firebird/data/shop.fdb",schema="SALES",table="ORDERS"} 100000`,
		`fbdiag_table_records{database="/var/lib/firebird/data/shop.fdb",schema="PUBLIC",table="ORDERS"} 100000`,
		`fbdiag_index_leaf_pages{database="/var/lib/firebird/data/shop.fdb",schema="SALES",table="ORDERS",index="ORDERS_DATE_D"} 190`,
	} {
		if !strings.Contains(om, want) {
			t.Errorf("openmetrics lacks %s", want)
		}
	}
	text := run("--all")
	// Names clipped from the left, where the schema every one starts with
	// is: "PUBLIC.RDB$PRIM…" told no index from another; and wide enough
	// that the two schemas' ORDERS_CARRIER do not both read
	// "….ORDERS_CARRIER", as they did until 2026-12-06.
	for _, want := range []string{"Warnings (14)", "\nSALES.ORDERS ", "index SALES.ORDERS_DATE_D on SALES.ORDERS: 99.5 % > 80.0 %",
		"\n…LIC.RDB$PRIMARY4  ….ORDER_LINE  pk ", "\n…C.ORDERS_CARRIER  …BLIC.ORDERS  ?  ", "\n…S.ORDERS_CARRIER  SALES.ORDERS  ?  "} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	csv := run("--format", "csv", "--table", "indices")
	if n := strings.Count(csv, "\nSALES.ORDERS_DATE_D,SALES.ORDERS,"); n != 1 {
		t.Errorf("csv: %d rows of SALES.ORDERS_DATE_D, want 1:\n%s", n, csv)
	}
	var g []gstatJSON
	if g = decodeStream(t, run("--format", "json")); len(g) != 1 || len(g[0].Warnings) != 14 {
		t.Fatalf("json: %d documents, want 1 with 14 warnings", len(g))
	}
}

// A header-only run (gstat -h) counted no tables: not "0 tables" but none
// printed, null in JSON, as its records are.
func TestGstatHeaderOnlyTotals(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "--format", "json", testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	var doc struct {
		Totals map[string]any `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tables", "indices", "records"} {
		if v, ok := doc.Totals[k]; !ok || v != nil {
			t.Errorf("totals.%s = %v (present %v), want null", k, v, ok)
		}
	}
	out, _, _ = runCLI(t, nil, "gstat", "--format", "json", shopPath(t))
	if !strings.Contains(out, "\"tables\": 6,") || !strings.Contains(out, "\"indices\": 10,") {
		t.Error("a -a -r run's totals lost their counts")
	}
}

// With --format openmetrics, of several runs of a database only the last
// is written, and --fail-on judges that one: a file where the shop's -a -r
// run (5 warnings) is followed by its -h run exited 3 while its
// fbdiag_warnings read 0. The other formats print every run and judge
// them all.
func TestGstatFailOnOpenMetricsJudgesTheLastRun(t *testing.T) {
	ar, h := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-h.txt")
	dir := t.TempDir()
	later, earlier := filepath.Join(dir, "ar-then-h.txt"), filepath.Join(dir, "h-then-ar.txt")
	if err := os.WriteFile(later, append(append([]byte{}, ar...), h...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(earlier, append(append([]byte{}, h...), ar...), 0o644); err != nil {
		t.Fatal(err)
	}
	const db = `database="/var/lib/firebird/data/shop.fdb"`
	out, errs, code := runCLI(t, nil, "gstat", "--format", "openmetrics", "--fail-on", "warning", later)
	if code != exitOK || errs != "" || !strings.Contains(out, "\nfbdiag_warnings{"+db+`,severity="warning"} 0`+"\n") {
		t.Errorf("-a -r then -h: exit %d, stderr %q", code, errs)
	}
	out, errs, code = runCLI(t, nil, "gstat", "--format", "openmetrics", "--fail-on", "warning", earlier)
	if code != exitFailOn || errs != "fbdiag: gstat: 5 warnings at warning level or above\n" ||
		!strings.Contains(out, "\nfbdiag_warnings{"+db+`,severity="warning"} 5`+"\n") {
		t.Errorf("-h then -a -r: exit %d, stderr %q", code, errs)
	}
	for _, f := range []string{"text", "json", "csv"} {
		_, errs, code = runCLI(t, nil, "gstat", "--format", f, "--fail-on", "warning", later)
		if code != exitFailOn || errs != "fbdiag: gstat: 5 warnings at warning level or above\n" {
			t.Errorf("%s, -a -r then -h: exit %d, stderr %q", f, code, errs)
		}
	}
}

// The fb30 sample with CUSTOMER's block printed again before DOCS: text,
// JSON and CSV list the table twice, and OpenMetrics failed with "two
// samples with the same labels" and no line, writing nothing a scraper
// takes. Its exposition now has one sample of each series, the first
// block's, and stderr says where the block came again.
func TestGstatOpenMetricsTablePrintedTwice(t *testing.T) {
	s := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	start, end := strings.Index(s, "CUSTOMER (129)\n"), strings.Index(s, "DOCS (133)\n")
	dup := filepath.Join(t.TempDir(), "dup.txt")
	if err := os.WriteFile(dup, []byte(s[:end]+s[start:end]+s[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "--format", "openmetrics", dup)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := dup + `:77: {table="CUSTOMER"} printed again (first at line 33): OpenMetrics keeps the samples of line 33, one per series; text, JSON, CSV and the totals count both` + "\n"
	if !strings.Contains(errs, want) {
		t.Errorf("stderr %q lacks %q", errs, want)
	}
	for _, sample := range []string{
		`fbdiag_table_records{database="/var/lib/firebird/data/shop.fdb",table="CUSTOMER"} 30000` + "\n",
		`fbdiag_index_nodes{database="/var/lib/firebird/data/shop.fdb",table="CUSTOMER",index="CUSTOMER_LAST"} 30000` + "\n",
	} {
		if n := strings.Count(out, sample); n != 1 {
			t.Errorf("%d samples %q, want 1", n, sample)
		}
	}
	if !strings.HasSuffix(out, "# EOF\n") {
		t.Errorf("exposition does not end with # EOF: %.200q", out[max(0, len(out)-200):])
	}
	// JSON lists both blocks, as text and CSV do.
	js, _, _ := runCLI(t, nil, "gstat", "--format", "json", dup)
	if n := strings.Count(js, `"name": "CUSTOMER",`); n != 2 {
		t.Errorf("JSON lists CUSTOMER %d times, want 2", n)
	}
}
