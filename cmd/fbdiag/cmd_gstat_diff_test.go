package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func is64(p *int64, v int64) bool { return p != nil && *p == v }

// jsonOf prints a value as JSON, for messages about pointers.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// wantLines fails for each text out does not contain.
func wantLines(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// historyGolden runs fbdiag from the repository root on testdata paths
// and compares its output with a golden file of the view, which go test
// ./view -update writes: the command prints the view, nothing else.
func historyGolden(t *testing.T, golden string, args ...string) string {
	t.Helper()
	root := testutil.Root(t)
	t.Chdir(root)
	out, errs, code := runCLI(t, nil, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	want, err := os.ReadFile(filepath.Join(root, "view", "testdata", "golden", golden))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("fbdiag %s differs from view/testdata/golden/%s:\n%s", strings.Join(args, " "), golden, out)
	}
	return out
}

// csvRows reads one CSV table, which must be rectangular.
func csvRows(t *testing.T, out string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not one CSV table: %v\n%s", err, out)
	}
	return recs
}

// csvRow is the record whose first field is key.
func csvRow(recs [][]string, key string) string {
	for _, r := range recs {
		if r[0] == key {
			return strings.Join(r, ",")
		}
	}
	return ""
}

// gstat diff prints the diff view: the same bytes as its golden files on
// the fb30 pair (278 s apart) and testdata/growth (0:29:34 apart), in
// text, markdown, CSV and one CSV table by name.
func TestGstatDiffPrintsTheView(t *testing.T) {
	pair := []string{"testdata/fb30/shop-gstat-a-r.txt", "testdata/fb30/shop-gstat-r-later.txt"}
	for format, ext := range map[string]string{"text": "txt", "markdown": "md", "csv": "csv"} {
		historyGolden(t, "history-diff-fb30."+ext, append([]string{"gstat", "diff", "--format", format}, pair...)...)
	}
	out := historyGolden(t, "history-diff-growth.txt", "gstat", "diff", "testdata/growth/grow-00-a-r.txt", "testdata/growth/grow-30-a-r.txt")
	assertWidth(t, out)
	out = historyGolden(t, "history-diff-fb30-warning_changes.csv", append([]string{"gstat", "diff", "--format", "csv", "--table", "warning_changes"}, pair...)...)
	// The figures of the rules that resolved: ORDERS' versions were
	// 1.047 of its record length, CUSTOMER had a back version for 3 records.
	recs := csvRows(t, out)
	if got := csvRow(recs, "resolved"); got != "resolved,info,,table-version-length,table ORDERS,1.0470682090147587,,0.8,version/record length" {
		t.Errorf("first resolved row %q", got)
	}
}

// The figures of the fb30 pair, in the one CSV table of the tables: plain
// numbers with the unit in the column name, a relative change from the
// old snapshot, no rate a day from 278 s.
func TestGstatDiffTablesCSV(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "csv", testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs := csvRows(t, out)
	if h := strings.Join(recs[0], ","); h != "table,status,records,records_change,versions,back_versions,size_change_bytes,size_change,size_bytes_per_day" {
		t.Errorf("header %q", h)
	}
	// ORDERS: 808 -> 768 pages of 8 KiB, -40/808.
	if got := csvRow(recs, "ORDERS"); got != fmt.Sprintf("ORDERS,changed,95000,-5000,0,collected,-327680,%v,", -40.0/808) {
		t.Errorf("ORDERS %q", got)
	}
	if len(recs) != 7 {
		t.Errorf("%d rows, want the header and 6 tables", len(recs))
	}
}

// diffJSON is the documented contract of docs/gstat-history-json.md, as
// far as tests check it.
type diffJSON struct {
	SecondsBetween      *float64   `json:"seconds_between"`
	TransactionsBetween *int64     `json:"transactions_between"`
	TransactionsPerHour *float64   `json:"transactions_per_hour"`
	PerDayReliable      *bool      `json:"per_day_reliable"`
	OATAgeHours         []*float64 `json:"oat_age_hours"`
	Tables              []struct {
		Name            string   `json:"name"`
		Status          string   `json:"status"`
		Records         []*int64 `json:"records"`
		Versions        []*int64 `json:"versions"`
		DataPages       []*int64 `json:"data_pages"`
		SizeBytes       []*int64 `json:"size_bytes"`
		SizeBytesPerDay *float64 `json:"size_bytes_per_day"`
		BackVersions    *string  `json:"back_versions"`
	} `json:"tables"`
	Indices []struct {
		Name   string   `json:"name"`
		Table  string   `json:"table"`
		Status string   `json:"status"`
		Depth  []*int64 `json:"depth"`
	} `json:"indices"`
	FieldsOnlyBefore []string `json:"fields_only_before"`
	FieldsOnlyAfter  []string `json:"fields_only_after"`
	Warnings         []string `json:"warnings"`
}

func pairIs(p []*int64, before, after int64) bool {
	return len(p) == 2 && is64(p[0], before) && is64(p[1], after)
}

func TestGstatDiffJSONContract(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "json", testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d diffJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.SecondsBetween == nil || *d.SecondsBetween != 278 || !is64(d.TransactionsBetween, 8) {
		t.Errorf("seconds_between %v, transactions_between %v", d.SecondsBetween, d.TransactionsBetween)
	}
	if d.TransactionsPerHour == nil || fmt.Sprintf("%.3f", *d.TransactionsPerHour) != "103.597" {
		t.Errorf("transactions_per_hour %v", d.TransactionsPerHour)
	}
	// 278 s: the rates a day are kept, and said not to be shown.
	if d.PerDayReliable == nil || *d.PerDayReliable {
		t.Errorf("per_day_reliable %v, want false", jsonOf(d.PerDayReliable))
	}
	if len(d.OATAgeHours) != 2 || d.OATAgeHours[1] == nil || *d.OATAgeHours[1] != 0 {
		t.Errorf("oat_age_hours %v", d.OATAgeHours)
	}
	if len(d.Tables) != 6 || len(d.Indices) != 10 {
		t.Fatalf("%d tables %d indices", len(d.Tables), len(d.Indices))
	}
	for _, tb := range d.Tables {
		switch tb.Name {
		case "ORDERS":
			if tb.Status != "changed" || !pairIs(tb.Records, 100000, 95000) || !pairIs(tb.Versions, 5000, 0) ||
				!pairIs(tb.DataPages, 808, 768) || !pairIs(tb.SizeBytes, 808*8192, 768*8192) ||
				tb.BackVersions == nil || *tb.BackVersions != "collected" || tb.SizeBytesPerDay == nil ||
				fmt.Sprintf("%.0f", *tb.SizeBytesPerDay) != fmt.Sprintf("%.0f", -327680/(278.0/86400)) {
				t.Errorf("ORDERS %s", jsonOf(tb))
			}
		case "CUSTOMER":
			if !pairIs(tb.Versions, 10000, 0) || !pairIs(tb.Records, 30000, 30000) {
				t.Errorf("CUSTOMER %s", jsonOf(tb))
			}
		case "WAREHOUSE":
			if tb.Status != "unchanged" || !pairIs(tb.Records, 5, 5) {
				t.Errorf("WAREHOUSE %s", jsonOf(tb))
			}
		}
	}
	for _, ix := range d.Indices {
		if ix.Name == "RDB$PRIMARY1" && (ix.Table != "WAREHOUSE" || !pairIs(ix.Depth, 1, 1) || ix.Status != "unchanged") {
			t.Errorf("RDB$PRIMARY1 %s", jsonOf(ix))
		}
	}
	// Empty lists are [], never null.
	if d.FieldsOnlyBefore == nil || d.FieldsOnlyAfter == nil || d.Warnings == nil || !strings.Contains(out, `"fields_only_before": []`) {
		t.Errorf("null lists in %.300s", out)
	}
}

// Two runs appended in one file (a cron job doing gstat >> stats.txt)
// compare first against last.
func TestGstatDiffOneFileTwoRuns(t *testing.T) {
	a := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	path := filepath.Join(t.TempDir(), "stats.txt")
	if err := os.WriteFile(path, append(a, b...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d diffJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if !is64(d.TransactionsBetween, 8) || d.SecondsBetween == nil || *d.SecondsBetween != 278 {
		t.Errorf("transactions %v seconds %v", d.TransactionsBetween, d.SecondsBetween)
	}
	// The runs of one file are told apart by their number.
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "snapshots", path)
	if recs := csvRows(t, out); csvRow(recs, "old") != "old,stats.txt#1,2026-12-02T14:09:54,gstat,12.0,6,64069632,10,3.0" ||
		csvRow(recs, "new") != "new,stats.txt#2,2026-12-02T14:14:32,gstat,12.0,6,63586304,10,3.0" {
		t.Errorf("snapshots\n%s", out)
	}
	// Given as OLD and NEW, the file counts as its last run: a notice
	// says so, and the diff against the later file is empty of changes.
	out, errs, code = runCLI(t, nil, "gstat", "diff", "--format", "json", path, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 || !strings.Contains(errs, path+" holds 2 gstat runs; comparing the last") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	for _, tb := range d.Tables {
		if tb.Status != "unchanged" {
			t.Errorf("%s %s, want unchanged", tb.Name, tb.Status)
		}
	}
}

func TestGstatDiffErrors(t *testing.T) {
	a, b := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gstat", "diff", a}, 2, "holds one gstat run"},
		{[]string{"gstat", "diff"}, 2, "want two snapshots"},
		{[]string{"gstat", "diff", a, b, a}, 2, "want two snapshots"},
		{[]string{"gstat", "diff", a, filepath.Join(t.TempDir(), "missing.txt")}, 1, "missing.txt"},
		{[]string{"gstat", "diff", "--format", "xml", a, b}, 2, `unknown format "xml"`},
		{[]string{"gstat", "diff", "--format", "openmetrics", a, b}, 2, `unknown format "openmetrics" (want text, json, csv or markdown)`},
		{[]string{"gstat", "diff", "--format", "csv", "--table", "bogus", a, b}, 2,
			`--table: no table "bogus" (want one of snapshots, counts, counters, tables, indices, warning_changes, fields_only, summary, warnings)`},
		{[]string{"gstat", "diff", "-", "-"}, 2, "standard input (-) can be read only once"},
	} {
		_, errs, code := runCLI(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args[1:], code, errs, tc.code, tc.msg)
		}
	}
	// Not gstat text: an error naming the file and why, exit 1.
	junk := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(junk, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, nil, "gstat", "diff", junk, b); code != 1 ||
		errs != "fbdiag: "+junk+": not gstat output (no gstat, gbak, benchmark, bench run or table lines in the first 6 bytes)\n" {
		t.Errorf("junk input: exit %d, %q", code, errs)
	}
}

// Across a restore to a newer ODS (the public fdb 2.5 and 3.0 samples):
// the fields only one version prints are named, the rest compared; 39
// indices are bounded to 20 in text, in natural name order among equals
// (RDB$FOREIGN9 before RDB$FOREIGN10), every one in CSV.
func TestGstatDiffAcrossVersions(t *testing.T) {
	old := testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-r.out")
	cur := testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-r.out")
	out, errs, code := runCLI(t, nil, "gstat", "diff", old, cur)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	assertWidth(t, out)
	wantLines(t, out,
		"old  gstat25   2018-04-04 15:31:28  gstat  11.2      15  220 KiB       39  2.5\n",
		"new  gstat30   2018-04-04 15:42:35  gstat  12.0      16  480 KiB       39  3.0\n",
		"Size change            260 KiB (not comparable: see the warnings)\n",
		"T5                added            0                    0\n",
		"RDB$FOREIGN9    EMPLOYEE      unchanged      1        0     1       0     42        0        4\n"+
			"RDB$FOREIGN10   DEPARTMENT    unchanged      1        0     1       0     21        0        3\n",
		"20 of 40 indices shown (--all shows them)\n",
		"old      header.bumped_transaction\n",
		"20 of 35 fields shown (--all shows them)\n",
		"         ODS 11.2 and 12.0 (Firebird 2.5 and 3.0): another Firebird version, or an upgrade in\n"+
			"         between; only the fields both print are compared\n")
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "indices", old, cur)
	var names []string
	for _, r := range csvRows(t, out)[1:] {
		if strings.HasPrefix(r[0], "RDB$PRIMARY") && r[2] == "unchanged" {
			names = append(names, r[0])
		}
	}
	if want := []string{"RDB$PRIMARY2", "RDB$PRIMARY5", "RDB$PRIMARY7", "RDB$PRIMARY12", "RDB$PRIMARY14", "RDB$PRIMARY17",
		"RDB$PRIMARY20", "RDB$PRIMARY22", "RDB$PRIMARY24"}; !slices.Equal(names, want) {
		t.Errorf("unchanged primary keys in CSV %v", names)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--all", old, cur)
	if strings.Contains(out, "indices shown") || !strings.Contains(out, "SALESTATX       SALES         unchanged") {
		t.Errorf("--all does not list every index:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "fields_only", old, cur)
	if recs := csvRows(t, out); len(recs) != 36 || csvRow(recs, "old") != "old,header.bumped_transaction" {
		t.Errorf("fields_only: %d rows, first %q", len(recs), csvRow(recs, "old"))
	}
}

// Issue 13 on testdata/growth: the first snapshot was taken 3 s after the
// database was created, so the rate's 0:01:24 for its OAT is left out; the
// later OAT (a snapshot transaction opened at 10:20:18, really 0:24:34
// old) is estimated at 0:22:32, within the 0:29:34 since the first
// snapshot (it started after it). The warnings that appeared are listed
// with their figures; against the -d run the sizes and the indices are
// not compared.
func TestGstatDiffOATBoundsAndWarnings(t *testing.T) {
	a, b := testutil.Testdata(t, "growth", "grow-00-a-r.txt"), testutil.Testdata(t, "growth", "grow-30-a-r.txt")
	out, errs, code := runCLI(t, nil, "gstat", "diff", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantLines(t, out,
		"OAT age, old           no estimate (at most 3.000 s; see the notes)\n",
		"OAT age, new           0:22:32 (at most 0:29:34)\n",
		"appeared  info           table-versions        table STOCK              0.6    0.2  versions/record\n",
		"OAT age, old: the database was created 3.000 s before; the rate estimate, 0:01:24, is longer than\n  that: left out.\n")
	out, _, code = runCLI(t, nil, "gstat", "diff", "--format", "json", a, b)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var d struct {
		OATAge [2]struct {
			EstimateHours *float64 `json:"estimate_hours"`
			MaxHours      *float64 `json:"max_hours"`
		} `json:"oat_age"`
		SizeComparable bool `json:"size_comparable"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.OATAge[0].EstimateHours != nil || fmt.Sprintf("%.1f", *d.OATAge[1].EstimateHours*3600) != "1351.6" || *d.OATAge[1].MaxHours*3600 != 1774 || !d.SizeComparable {
		t.Errorf("oat age %s, size comparable %v", jsonOf(d.OATAge), d.SizeComparable)
	}

	out, _, code = runCLI(t, nil, "gstat", "diff", testutil.Testdata(t, "growth", "grow-10-a-r.txt"), testutil.Testdata(t, "growth", "grow-15-d.txt"))
	if code != 0 {
		t.Fatalf("-d exit %d", code)
	}
	wantLines(t, out,
		"indices        0      0        0          0         10\n",
		"Size change            -1.22 MiB (not comparable: see the warnings)\n",
		"         sizes do not compare: the later snapshot has no index statistics (gstat -d): its size\n         counts the tables only\n")
}

// A file of many runs compares its first and last; the runs between are
// read one at a time and dropped (a year of a cron job's runs is not held
// in memory), yet counted and their notices said.
func TestGstatDiffOneFileManyRuns(t *testing.T) {
	a := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	mid := testutil.ReadTestdata(t, "fb30", "shop-gstat-d.txt")
	b := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	path := filepath.Join(t.TempDir(), "stats.txt")
	runs := slices.Concat(a, mid, mid, []byte("# a stray line\n"), mid, b)
	if err := os.WriteFile(path, runs, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "snapshots", path)
	if recs := csvRows(t, out); code != 0 || csvRow(recs, "old") != "old,stats.txt#1,2026-12-02T14:09:54,gstat,12.0,6,64069632,10,3.0" ||
		csvRow(recs, "new") != "new,stats.txt#5,2026-12-02T14:14:32,gstat,12.0,6,63586304,10,3.0" {
		t.Errorf("exit %d, snapshots\n%s", code, out)
	}
	if !strings.Contains(errs, "skipped a line that is not gstat output") {
		t.Errorf("stderr %q: the middle run's notice", errs)
	}
	_, errs, code = runCLI(t, nil, "gstat", "diff", "--format", "json", path, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 || !strings.Contains(errs, path+" holds 5 gstat runs; comparing the last") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// Two excerpts without an execution time (the public Firebird 1.5 and 2.1
// samples), written in the same second as a checkout or a copy writes
// them, 68 µs apart: the diff read "Between -0.000 s" and warned "the
// second snapshot is 0.000 s older than the first". gstat dates to the
// second; a file's time is now read to the second as well.
func TestGstatDiffFileTimesOfOneSecond(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, name := range []string{"06_fb15_header_long_running_issue_firebird_support_2005.txt", "05_fb21_doc_header_and_2x_table_index.txt"} {
		raw, err := os.ReadFile(testutil.Corpus(t, "public", "gstat", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		// The first written last: 15:51:22.842509459 and .842441562.
		when := time.Date(2026, 12, 6, 15, 51, 22, 842509459-67897*i, time.UTC)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "json", paths[0], paths[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d struct {
		Seconds  *float64 `json:"seconds_between"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	want := "both snapshots have the same file modification time (gstat printed no execution time) (2026-12-06 15:51:22): no time between them for a rate"
	if d.Seconds == nil || *d.Seconds != 0 || !slices.Contains(d.Warnings, want) {
		t.Errorf("seconds_between %v, warnings %q, want 0 and %q", jsonOf(d.Seconds), d.Warnings, want)
	}
	for _, w := range d.Warnings {
		if strings.Contains(w, "older than the first") {
			t.Errorf("warned %q", w)
		}
	}
}
