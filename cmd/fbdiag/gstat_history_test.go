package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func is64(p *int64, v int64) bool { return p != nil && *p == v }

func shopAR(t *testing.T) string { return testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt") }

func laterPath(t *testing.T) string {
	return testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")
}

// checkWidth fails when a text line does not fit a 100-column terminal.
func checkHistWidth(t *testing.T, out string) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
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

// row finds the text line starting with the given fields.
func row(out string, first ...string) []string {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= len(first) && strings.Join(f[:len(first)], " ") == strings.Join(first, " ") {
			return f
		}
	}
	return nil
}

func TestGstatDiffTextShop(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "diff", shopAR(t), laterPath(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkHistWidth(t, out)
	wantLines(t, out,
		"Between     4 min 38 s, 8 transactions (103.6 per hour)\n",
		"OAT age     before: at most 10 s (the database was created 10.000 s before; the rate estimate,\n"+
			"                    34.750 s, is longer than that: left out)\n"+
			"            after:  0 s, at most 4 min 38 s\n",
		"Size        61.1 MiB -> 60.6 MiB (-472.0 KiB)\n",
		"Tables      3 changed, 0 added, 0 dropped, 3 unchanged\n",
		"Indices     3 changed, 0 added, 0 dropped, 7 unchanged\n",
		"3 unchanged tables not shown",
		"per day: not shown for snapshots less than an hour apart")
	// table status records change back-versions data-pages size-change per-day
	if r := strings.Join(row(out, "ORDERS", "changed"), " "); r != "ORDERS changed 95000 -5000 5000 -> 0 collected 808 -> 768 -320.0 KiB" {
		t.Errorf("ORDERS row %q", r)
	}
	if r := strings.Join(row(out, "CUSTOMER", "changed"), " "); r != "CUSTOMER changed 30000 0 10000 -> 0 collected 392 0 B" {
		t.Errorf("CUSTOMER row %q", r)
	}
	if r := strings.Join(row(out, "Next", "transaction"), " "); r != "Next transaction 18 26 +8" {
		t.Errorf("Next row %q", r)
	}
	if r := strings.Join(row(out, "ORDERS_DATE_D"), " "); r != "ORDERS_DATE_D ORDERS changed 2 190 -> 181 100000 -> 95000 0" {
		t.Errorf("ORDERS_DATE_D row %q", r)
	}
	if errs != "" {
		t.Errorf("stderr %q", errs)
	}
	// --all lists the unchanged ones.
	all, _, _ := runCLI(t, nil, "gstat", "diff", "--all", shopAR(t), laterPath(t))
	if r := strings.Join(row(all, "DOCS"), " "); r != "DOCS unchanged 2000 0 0 328 0 B" {
		t.Errorf("DOCS row with --all %q", r)
	}
}

// diffJSON is the documented contract of docs/gstat-history-json.md, as
// far as tests check it.
type diffJSON struct {
	Before              struct{ File string }
	SecondsBetween      *float64   `json:"seconds_between"`
	TransactionsBetween *int64     `json:"transactions_between"`
	TransactionsPerHour *float64   `json:"transactions_per_hour"`
	OATAgeHours         []*float64 `json:"oat_age_hours"`
	Tables              []struct {
		Name         string   `json:"name"`
		Status       string   `json:"status"`
		Records      []*int64 `json:"records"`
		Versions     []*int64 `json:"versions"`
		DataPages    []*int64 `json:"data_pages"`
		SizeBytes    []*int64 `json:"size_bytes"`
		BackVersions *string  `json:"back_versions"`
	} `json:"tables"`
	Indices []struct {
		Name      string   `json:"name"`
		Table     string   `json:"table"`
		Status    string   `json:"status"`
		Depth     []*int64 `json:"depth"`
		DepthGrew bool     `json:"depth_grew"`
	} `json:"indices"`
	FieldsOnlyBefore []string `json:"fields_only_before"`
	FieldsOnlyAfter  []string `json:"fields_only_after"`
	Warnings         []string `json:"warnings"`
}

// jsonOf prints a value as JSON, for messages about pointers.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func pairIs(p []*int64, before, after int64) bool {
	return len(p) == 2 && is64(p[0], before) && is64(p[1], after)
}

func TestGstatDiffJSONContract(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "json", shopAR(t), laterPath(t))
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
				tb.BackVersions == nil || *tb.BackVersions != "collected" {
				t.Errorf("ORDERS %+v", tb)
			}
		case "CUSTOMER":
			if !pairIs(tb.Versions, 10000, 0) || !pairIs(tb.Records, 30000, 30000) {
				t.Errorf("CUSTOMER %+v", tb)
			}
		case "WAREHOUSE":
			if tb.Status != "unchanged" || !pairIs(tb.Records, 5, 5) {
				t.Errorf("WAREHOUSE %+v", tb)
			}
		}
	}
	for _, ix := range d.Indices {
		if ix.Name == "RDB$PRIMARY1" && (ix.Table != "WAREHOUSE" || !pairIs(ix.Depth, 1, 1) || ix.Status != "unchanged") {
			t.Errorf("RDB$PRIMARY1 %+v", ix)
		}
	}
	// Empty lists are [], never null.
	if d.FieldsOnlyBefore == nil || d.FieldsOnlyAfter == nil || d.Warnings == nil {
		t.Errorf("null lists in %s", out[:200])
	}
	if !strings.Contains(out, `"fields_only_before": []`) {
		t.Errorf("fields_only_before not an empty list")
	}
}

func TestGstatDiffCSVAndMarkdown(t *testing.T) {
	out, errs, code := runCLI(t, nil, "gstat", "diff", "--format", "csv", shopAR(t), laterPath(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var orders, secs []string
	for _, block := range strings.Split(out, "\n\n") {
		recs, err := csv.NewReader(strings.NewReader(block)).ReadAll()
		if err != nil {
			t.Fatalf("bad CSV block %q: %v", block, err)
		}
		for _, r := range recs {
			if len(r) > 1 && r[0] == "tables" && r[1] == "ORDERS" {
				orders = r
			}
			if len(r) > 1 && r[0] == "summary" && r[1] == "seconds_between" {
				secs = r
			}
		}
	}
	// "-320.0 KiB" is text to a spreadsheet, which would run it as a
	// formula (#NAME?) without the quote; -5000 is a number.
	if strings.Join(orders, "|") != "tables|ORDERS|changed|95000|-5000|5000 -> 0 collected|808 -> 768|'-320.0 KiB|" {
		t.Errorf("ORDERS CSV row %q", orders)
	}
	if strings.Join(secs, "|") != "summary|seconds_between||278" {
		t.Errorf("seconds_between CSV row %q", secs)
	}
	out, _, code = runCLI(t, nil, "gstat", "diff", "--format", "markdown", shopAR(t), laterPath(t))
	if code != 0 || !strings.Contains(out, "| ORDERS | changed | 95000 | -5000 | 5000 -&gt; 0 collected | 808 -&gt; 768 |") {
		t.Errorf("markdown (exit %d):\n%s", code, out)
	}
}

// Two runs appended in one file (a cron job doing gstat >> stats.txt)
// compare first against last.
func TestGstatDiffOneFileTwoRuns(t *testing.T) {
	a, err := os.ReadFile(shopAR(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(laterPath(t))
	if err != nil {
		t.Fatal(err)
	}
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
	// Given as OLD and NEW, the file counts as its last run: a notice
	// says so, and the diff against the later file is empty of changes.
	out, errs, code = runCLI(t, nil, "gstat", "diff", "--format", "json", path, laterPath(t))
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
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gstat", "diff", shopAR(t)}, 2, "holds one gstat run"},
		{[]string{"gstat", "diff"}, 2, "want two snapshots"},
		{[]string{"gstat", "diff", shopAR(t), laterPath(t), shopAR(t)}, 2, "want two snapshots"},
		{[]string{"gstat", "diff", shopAR(t), filepath.Join(t.TempDir(), "missing.txt")}, 1, "missing.txt"},
		{[]string{"gstat", "diff", "--format", "xml", shopAR(t), laterPath(t)}, 2, "unknown format"},
		{[]string{"gstat", "trend"}, 2, "no snapshots"},
		{[]string{"gstat", "trend", "--until", "lots", shopAR(t)}, 2, "--until"},
	} {
		_, errs, code := runCLI(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args[1:], code, errs, tc.code, tc.msg)
		}
	}
	// Not gstat text: a file:line-free error naming the file, exit 1.
	junk := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(junk, []byte("hello\n"), 0o644)
	if _, errs, code := runCLI(t, nil, "gstat", "diff", junk, laterPath(t)); code != 1 || !strings.Contains(errs, "notes.txt") {
		t.Errorf("junk input: exit %d, %q", code, errs)
	}
}

// Across a restore to a newer ODS (the public fdb 2.5 and 3.0 samples):
// the fields only one version prints are named, the rest compared.
func TestGstatDiffAcrossVersions(t *testing.T) {
	old := testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-r.out")
	cur := testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-r.out")
	out, errs, code := runCLI(t, nil, "gstat", "diff", old, cur)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkHistWidth(t, out)
	wantLines(t, out, "ODS 11.2 (Firebird 2.5)", "ODS 12.0 (Firebird 3.0)",
		"Fields only one snapshot prints", "header.bumped_transaction", "table.total_formats")
	wantLines(t, out, "warning: ODS 11.2 and 12.0: only the fields both print are compared\n")
	if r := strings.Join(row(out, "T5"), " "); !strings.HasPrefix(r, "T5 added") {
		t.Errorf("T5 row %q", r)
	}
	out, _, _ = runCLI(t, nil, "gstat", "diff", "--format", "csv", old, cur)
	wantLines(t, out, "fields_only,before,header.checksum\n", "fields_only,after,table.total_formats\n")
}

// writeGrowingShop writes daily snapshots built from the real gstat -a -r
// output: execution time moved one day per file and ORDERS' data pages
// set to pages[i] (nothing else edited, so only ORDERS grows).
func writeGrowingShop(t *testing.T, dir string, pages ...int) {
	t.Helper()
	raw, err := os.ReadFile(shopAR(t))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)
	for i, p := range pages {
		s := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026",
			"Gstat execution time "+start.AddDate(0, 0, i).Format(time.ANSIC), 1)
		s = strings.Replace(s, "Data pages: 808, average fill: 67%", fmt.Sprintf("Data pages: %d, average fill: 67%%", p), 1)
		// Named so that the file order is not the time order.
		name := filepath.Join(dir, fmt.Sprintf("snap-%c.txt", 'z'-i))
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type trendJSON struct {
	Snapshots []struct {
		File string     `json:"file"`
		Time *time.Time `json:"time"`
	} `json:"snapshots"`
	UntilBytes *int64 `json:"until_bytes"`
	Database   struct {
		BytesPerDay *float64 `json:"bytes_per_day"`
		Best        *string  `json:"best"`
		Forecast    *struct {
			Status   string     `json:"status"`
			Date     *time.Time `json:"date"`
			Earliest *time.Time `json:"earliest"`
			Latest   *time.Time `json:"latest"`
		} `json:"forecast"`
	} `json:"database"`
	Tables []struct {
		Name        string   `json:"name"`
		BytesPerDay *float64 `json:"bytes_per_day"`
		Fastest     bool     `json:"fastest"`
	} `json:"tables"`
}

func TestGstatTrendFolder(t *testing.T) {
	dir := t.TempDir()
	// ORDERS +100 pages (800 KiB) a day, exactly.
	writeGrowingShop(t, dir, 808, 908, 1008, 1108)
	os.WriteFile(filepath.Join(dir, "README"), []byte("snapshots of shop.fdb\n"), 0o644)
	pngDir := filepath.Join(t.TempDir(), "charts")
	// The database is 64069632 bytes on the first day (tables + indices);
	// 65 MiB = 68157440 is (68157440 − 64069632)/819200 = 4.99 days on,
	// 2 days after the last snapshot: within the 3 days observed (100 MiB,
	// 46.8 days after the last, would be unreliable).
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", "--until", "65MiB", "--png", pngDir, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var tr trendJSON
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Snapshots) != 4 || !strings.HasSuffix(tr.Snapshots[0].File, "snap-z.txt") || !strings.HasSuffix(tr.Snapshots[3].File, "snap-w.txt") {
		t.Fatalf("snapshots %+v", tr.Snapshots)
	}
	if !is64(tr.UntilBytes, 65<<20) {
		t.Errorf("until_bytes %v", tr.UntilBytes)
	}
	db := tr.Database
	if db.BytesPerDay == nil || math.Abs(*db.BytesPerDay-819200) > 1e-6 || db.Best == nil || *db.Best != "linear" {
		t.Errorf("database bytes/day %s best %s", jsonOf(db.BytesPerDay), jsonOf(db.Best))
	}
	want := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC).Add(time.Duration((68157440.0 - 64069632) / 819200 * 24 * float64(time.Hour)))
	if fc := db.Forecast; fc == nil || fc.Status != "forecast" || fc.Date == nil || fc.Date.Sub(want).Abs() > time.Minute {
		t.Errorf("forecast %+v, want %s", db.Forecast, want)
	}
	if len(tr.Tables) != 6 || tr.Tables[0].Name != "ORDERS" || !tr.Tables[0].Fastest || tr.Tables[1].Fastest {
		t.Errorf("tables %+v", tr.Tables)
	}
	if !strings.Contains(errs, "skipped: "+filepath.Join(dir, "README")+": no gstat output found") {
		t.Errorf("stderr %q", errs)
	}
	for _, name := range []string{"history-size.png", "history-versions.png", "history-forecast.png"} {
		f, err := os.Open(filepath.Join(pngDir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 675 {
			t.Errorf("%s is %v", name, b)
		}
	}
	ents, _ := os.ReadDir(pngDir)
	if len(ents) != 3 {
		t.Errorf("%d files in the chart folder, want 3 (no temporary files left)", len(ents))
	}

	// The text form: the forecast line and the growing table flagged.
	out, _, code = runCLI(t, nil, "gstat", "trend", "--until", "65MiB", dir)
	if code != 0 {
		t.Fatalf("text exit %d", code)
	}
	checkHistWidth(t, out)
	wantLines(t, out,
		"Growth      +800.0 KiB per day (+1.25%/day), best fit linear, R² 1.0000\n",
		"Forecast    65.0 MiB: 2026-12-07, in 47.8 hours (95%: 2026-12-07 to 2026-12-07)\n",
		"            exponential fit: 2026-12-07\n",
		"Rate        0 transactions per day (Next transaction)\n",
		"Fastest     ORDERS\n")
	if r := strings.Join(row(out, "1", "2026-12-02"), " "); !strings.HasPrefix(r, "1 2026-12-02 14:09:54 6 61.1 MiB 17 18 ") ||
		!strings.HasSuffix(r, "snap-z.txt") {
		t.Errorf("first snapshot row %q", r)
	}
	// ORDERS would need 2027-04-01 to reach 65 MiB: 39 times the 3 days.
	if r := strings.Join(row(out, "*", "ORDERS"), " "); r != "* ORDERS 8.7 MiB +2.3 MiB +800.0 KiB +10.44 linear 1.0000 unreliable" {
		t.Errorf("ORDERS row %q", r)
	}

	// Diff of the first and last day: 300 pages in 3 days, shown per day.
	out, errs, code = runCLI(t, nil, "gstat", "diff", filepath.Join(dir, "snap-z.txt"), filepath.Join(dir, "snap-w.txt"))
	if code != 0 {
		t.Fatalf("diff exit %d: %s", code, errs)
	}
	if r := strings.Join(row(out, "ORDERS"), " "); r != "ORDERS changed 100000 0 5000 808 -> 1108 +2.3 MiB +800.0 KiB" {
		t.Errorf("ORDERS diff row %q", r)
	}
	wantLines(t, out, "Between     3.0 days, 0 transactions (0 per hour)\n")
}

// Header-only snapshots (gstat -h) have counters but no sizes: they are
// placed in time with null sizes, nothing is fitted on one size, and no
// chart is drawn from no values.
func TestGstatTrendHeaderOnly(t *testing.T) {
	h := testutil.Testdata(t, "fb30", "shop-gstat-h.txt")
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", h, laterPath(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var tr struct {
		Snapshots []struct {
			SizeBytes *int64 `json:"size_bytes"`
		} `json:"snapshots"`
		Days     float64 `json:"days"`
		Database struct {
			SizeChange  *int64   `json:"size_change"`
			BytesPerDay *float64 `json:"bytes_per_day"`
		} `json:"database"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	// 14:14:21 (-h) and 14:14:32 (-r): 11 s apart.
	if len(tr.Snapshots) != 2 || tr.Snapshots[0].SizeBytes != nil || !is64(tr.Snapshots[1].SizeBytes, 63586304) ||
		math.Abs(tr.Days*86400-11) > 1e-6 {
		t.Errorf("snapshots %s, days %v", jsonOf(tr.Snapshots), tr.Days)
	}
	if tr.Database.SizeChange != nil || tr.Database.BytesPerDay != nil {
		t.Errorf("database change %s per day %s, want null", jsonOf(tr.Database.SizeChange), jsonOf(tr.Database.BytesPerDay))
	}
	pngDir := t.TempDir()
	_, errs, code = runCLI(t, nil, "gstat", "trend", "--png", pngDir, h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"no history-size chart", "no history-versions chart"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q: %q", w, errs)
		}
	}
	if out, _, _ := runCLI(t, nil, "gstat", "trend", h); !strings.Contains(out, "warning: a trend needs at least 2 snapshots with an execution time\n") {
		t.Errorf("text lacks the warning:\n%s", out)
	}
	if _, errs, _ := runCLI(t, nil, "gstat", "trend", "--format", "json", h); !strings.Contains(errs, "warning: a trend needs at least 2 snapshots") {
		t.Errorf("JSON: stderr lacks the warning: %q", errs)
	}
	if ents, _ := os.ReadDir(pngDir); len(ents) != 0 {
		t.Errorf("%d files written from a header-only snapshot", len(ents))
	}
}

// An excerpt without the "Gstat execution time" line is dated by its
// file's modification time, and says so.
func TestGstatTrendFileTime(t *testing.T) {
	raw, err := os.ReadFile(laterPath(t))
	if err != nil {
		t.Fatal(err)
	}
	// The real later snapshot with its execution time line removed.
	text := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:14:32 2026\n", "", 1)
	if text == string(raw) {
		t.Fatal("execution time line not found")
	}
	path := filepath.Join(t.TempDir(), "later-no-time.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 12, 3, 14, 9, 54, 0, time.UTC)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", shopAR(t), path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, path+": run 1 has no execution time; dated by the file's modification time 2026-12-03 14:09:54") {
		t.Errorf("stderr %q", errs)
	}
	var tr struct {
		Snapshots []struct {
			Time       *time.Time `json:"time"`
			TimeSource string     `json:"time_source"`
		} `json:"snapshots"`
		Days float64 `json:"days"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Snapshots) != 2 || tr.Snapshots[1].TimeSource != "file_mtime" || !tr.Snapshots[1].Time.Equal(mtime) ||
		tr.Snapshots[0].TimeSource != "execution_time" || tr.Days != 1 {
		t.Errorf("snapshots %s days %v", jsonOf(tr.Snapshots), tr.Days)
	}
	out, _, _ = runCLI(t, nil, "gstat", "trend", shopAR(t), path)
	if r := strings.Join(row(out, "2"), " "); !strings.HasPrefix(r, "2 2026-12-03 14:09:54* 6 60.6 MiB 26 26 ") {
		t.Errorf("second snapshot row %q", r)
	}
	wantLines(t, out, "* no execution time in the file: dated by its modification time\n")
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"100GB": 100 << 30, "100 GiB": 100 << 30, "100g": 100 << 30, "512MiB": 512 << 20,
		"2T": 2 << 40, "1e9": 1e9, "1,5G": 3 << 29, "64069632": 64069632, "8k": 8192,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1GB", "GB", "lots", "1e30T", "NaN"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}
