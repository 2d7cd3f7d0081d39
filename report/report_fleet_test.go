package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Four databases' gstat files make four database sections worst first,
// the fleet table in the summary and report.json listing them in the
// same order with their verdicts and findings.
func TestReportFleetFourDatabases(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
	var paths []string
	for _, f := range []string{"FirebirdSQL-fdb__gstat30-a.out", "FirebirdSQL-fdb__gstat25-a.out",
		"05_fb21_doc_header_and_2x_table_index.txt", "Delapro-DelaproImport__Firebird3oder4-fb3010-h.snippet.txt"} {
		paths = append(paths, filepath.Join(dir, f))
	}
	r, out := writeReportOf(t, "fleet", paths)
	b, err := os.ReadFile(filepath.Join(out, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Generator string `json:"generator"`
		Databases []struct {
			Database, Verdict, Reason, Latest, Section string
			Snapshots                                  []string
			Findings                                   []struct {
				Rule, Severity, Table, Object, Advice string
				Snapshots                             int
			}
		}
		Runs, Benchmarks, Skipped []json.RawMessage
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	want := []struct{ db, verdict, section string }{
		{"/opt/firebird/examples/empbuild/employee.fdb", "attention", "db-employee.fdb"},
		{"/home/fdb/test/fbtest25.fdb", "attention", "db-fbtest25.fdb"},
		{"/home/fdb/test/FBTEST30.FDB", "healthy", "db-fbtest30.fdb"},
		{`C:\TEMP\SOHOTECH.FDB`, "healthy", "db-sohotech.fdb"},
	}
	if s.Generator != "fbdiag test" || len(s.Databases) != len(want) || len(s.Runs) != 0 || len(s.Benchmarks) != 0 || len(s.Skipped) != 0 {
		t.Fatalf("report.json: %s", b)
	}
	for i, w := range want {
		d := s.Databases[i]
		if d.Database != w.db || d.Verdict != w.verdict || d.Section != w.section || len(d.Snapshots) != 1 || d.Latest != d.Snapshots[0] {
			t.Errorf("database %d: %+v, want %+v", i, d, w)
		}
	}
	if f := s.Databases[0].Findings; len(f) != 5 || f[0].Rule != "index-deep" || f[0].Table != "CONFIGREVISIONSTORE" ||
		f[0].Object != "PK_CONFIGREVISIONSTORE" || f[0].Snapshots != 1 || f[0].Advice == "" {
		t.Errorf("employee.fdb findings %+v", f)
	}
	if !strings.HasPrefix(s.Databases[1].Reason, "ods-old: ODS 11.2 is Firebird 2.5") {
		t.Errorf("fbtest25 reason %q", s.Databases[1].Reason)
	}
	// The page: the fleet table's rows in that order, linking to the
	// sections, which come in that order too.
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for _, w := range want {
		i := strings.Index(string(page), `<a href="#`+w.section+`">`)
		if i < at {
			t.Errorf("fleet row of %s out of order", w.db)
		}
		at = i
	}
	// A healthy database's row says what was checked, not "none".
	for _, cell := range []string{"<td>no warning (header only checked)</td>", "<td>no warning (16 tables, 39 indices checked)</td>"} {
		if !strings.Contains(string(page), cell) {
			t.Errorf("fleet table lacks %s", cell)
		}
	}
	if len(r.Sections) != 4 || r.Sections[0].ID != "db-employee.fdb" || r.Sections[3].ID != "db-sohotech.fdb" {
		t.Errorf("sections %v", r.Sections)
	}
	// The counts: employee.fdb's deep index is the one index warning.
	var counts []string
	for _, c := range r.Counts {
		counts = append(counts, c.Value+" "+c.Label)
	}
	if got := strings.Join(counts, "; "); got != "4 databases; 1 index with a warning; 1 deep index (index-deep); "+
		"1 table holding back versions; 0 critical findings; 5 warnings" {
		t.Errorf("counts %q", got)
	}
	// A report.json fbdiag did not write is not replaced.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, JSONFile), []byte(`{"mine": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(other, r, smallCharts); err == nil || !strings.Contains(err.Error(), "report.json: exists and was not written by fbdiag") {
		t.Errorf("user's report.json: %v", err)
	}
}

// Every key of report.json, over databases, runs, benchmarks and skipped
// files, is documented in docs/report.md.
func TestReportJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.Root(t), "docs", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{testutil.Testdata(t, "fb30"), testutil.Testdata(t, "bench", "run-w1-t4.jsonl"),
		testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"), testutil.Testdata(t, "seeds", "restore-balanced.log")}
	_, out := writeReportOf(t, "contract", paths)
	b, err := os.ReadFile(filepath.Join(out, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	keys := testutil.JSONKeys(t, string(b))
	for k := range keys {
		if !testutil.Documented(string(doc), k) {
			t.Errorf("report.json key %q is not documented in docs/report.md", k)
		}
	}
	for _, k := range []string{"databases", "runs", "benchmarks", "skipped", "verdict", "findings"} {
		if !keys[k] {
			t.Errorf("report.json has no %q: the inputs did not exercise it", k)
		}
	}
}

// With several databases the summary's counts and critical findings come
// before the fleet table, its warnings after: a failed restore beside
// four databases' gstat was listed under the table's rows, off the first
// screen of a fleet of 33.
func TestReportFleetCriticalFirst(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public")
	var paths []string
	for _, f := range []string{"gstat/FirebirdSQL-fdb__gstat30-a.out", "gstat/FirebirdSQL-fdb__gstat25-a.out",
		"gstat/05_fb21_doc_header_and_2x_table_index.txt", "gstat/Delapro-DelaproImport__Firebird3oder4-fb3010-h.snippet.txt",
		"gbak/09_restore_deferred_index_failure_issue7269.log"} {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(f)))
	}
	_, out := writeReportOf(t, "fleet", paths)
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	summary := page[strings.Index(page, `<section id="summary">`):]
	summary = summary[:strings.Index(summary, "</section>")]
	at := func(s string) int {
		t.Helper()
		i := strings.Index(summary, s)
		if i < 0 {
			t.Fatalf("summary lacks %q", s)
		}
		return i
	}
	counts := at(`<span class="l">critical finding</span>`)
	critical := at(`<li class="critical"><span class="sev">critical</span>09_restore_deferred_index_failure_issue7269.log: restore failed: cannot commit index PK_A3`)
	table := at(`<h3>Databases, worst first</h3>`)
	warning := at(`<li class="warning"><span class="sev">warning</span>employee.fdb: index PK_CONFIGREVISIONSTORE`)
	if !(counts < critical && critical < table && table < warning) {
		t.Errorf("summary order: counts %d, critical %d, fleet table %d, warning %d", counts, critical, table, warning)
	}
	if n := strings.Count(summary, `<li class="critical">`); n != 1 {
		t.Errorf("%d critical findings listed, want the one once", n)
	}
}

// A database's verdict line names its worst finding and, since
// 2026-12-06, what to do about it: the advice was only in the findings
// under the header block, off the first screen. A healthy database's
// line has none.
func TestReportVerdictAdvice(t *testing.T) {
	fb30 := testutil.Testdata(t, "fb30")
	_, out := writeReportOf(t, "one", []string{filepath.Join(fb30, "shop-gstat-r-later.txt")})
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := `<p class="verdict attention"><span class="sev">attention</span> index-low-selectivity, index ORDERS_CARRIER on ORDERS: 11 distinct values in 95000 keys: ` +
		`a lookup on one value returns 8636 rows on average (9.1% of the keys), on the most common value 31667, reading about 768 of the table&#39;s 768 data pages (clustering ratio 0.09); ` +
		`the index costs 75 leaf pages (600 KiB) and an entry written on every insert, delete and key update; a plain index or the index of a named constraint (the gstat text cannot tell; fbdiag collect reads the catalogue) (5 warning findings)` +
		`<br><strong>Do:</strong> if no query plan uses it: DROP INDEX ORDERS_CARRIER; (Firebird refuses if it serves a constraint: a foreign key keeps its index while the constraint exists)</p>`
	// The summary's and the section's.
	if n := strings.Count(string(b), want); n != 2 {
		t.Errorf("verdict line with its advice %d times, want 2", n)
	}
	healthy := filepath.Join(testutil.CorpusDir(t), "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out")
	_, out = writeReportOf(t, "healthy", []string{healthy})
	if b, err = os.ReadFile(filepath.Join(out, "index.html")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `<p class="verdict healthy">`) || strings.Contains(string(b), "<strong>Do:</strong>") {
		t.Errorf("healthy database: verdict line with advice, or none at all")
	}
}

// Every section's heading has a link back to the summary: from the 63rd
// section of the corpus's page the fleet table and the list of sections
// were a long scroll away.
func TestReportSectionsLinkToSummary(t *testing.T) {
	fb30 := testutil.Testdata(t, "fb30")
	r, out := writeReportOf(t, "up", []string{filepath.Join(fb30, "shop-gstat-r-later.txt"), filepath.Join(fb30, "shop-gbak-restore-v-st.log")})
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<section id="summary">`,
		`<div class="sechead"><h2>Database /var/lib/firebird/data/shop.fdb</h2><a class="up" href="#summary">↑ Summary</a></div>`,
		`<div class="sechead"><h2>gbak restore: shop-gbak-restore-v-st.log</h2><a class="up" href="#summary">↑ Summary</a></div>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<a class="up" href="#summary">`); n != len(r.Sections) || n != 2 {
		t.Errorf("%d links to the summary for %d sections", n, len(r.Sections))
	}
}

// A Windows server's database path, read on Linux (where filepath takes
// a backslash for a letter): the section, its ID and the summary's
// findings are named by the file's name, as the default title is, not by
// the whole path ("C:\DATA\SHOP.FDB: index …", "db-c-data-shop.fdb").
func TestReportWindowsDatabaseName(t *testing.T) {
	var paths []string
	b, err := os.ReadFile(testutil.Corpus(t, "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// The run, and the same run a day later: a history of two snapshots.
	for _, day := range []string{"Wed Dec  2", "Thu Dec  3"} {
		text := strings.Replace(string(b), `Database "/var/lib/firebird/data/shop.fdb"`, `Database "C:\DATA\SHOP.FDB"`, 1)
		text = strings.Replace(text, "Gstat execution time Wed Dec  2", "Gstat execution time "+day, 1)
		paths = append(paths, filepath.Join(t.TempDir(), "shop-"+day[:3]+".txt"))
		if err := os.WriteFile(paths[len(paths)-1], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := writeReportOf(t, "", paths)
	// The charts are named after the section too (they were
	// tables-db-c-data-shop.fdb.png).
	var files []string
	for _, f := range r.Databases[0].Figures {
		if f.File != "" {
			files = append(files, f.File)
		}
	}
	if want := []string{"tables-db-shop.fdb.png", "indices-db-shop.fdb.png", "fill-db-shop.fdb.png", "history-versions-db-shop.fdb.png"}; !slices.Equal(files, want) {
		t.Errorf("charts %q", files)
	}
	if r.Title != "fbdiag report: SHOP.FDB" || len(r.Databases) != 1 || r.Databases[0].ID != "db-shop.fdb" ||
		r.Databases[0].Title != `Database C:\DATA\SHOP.FDB` {
		t.Fatalf("title %q, databases %+v", r.Title, r.Databases)
	}
	want := "SHOP.FDB: index ORDERS_CARRIER on ORDERS: 11 distinct values in 100000 keys"
	if len(r.Summary) != 5 || !strings.HasPrefix(r.Summary[0].Text, want) || r.Summary[0].Section != "db-shop.fdb" {
		t.Errorf("summary %+v", r.Summary)
	}
}
