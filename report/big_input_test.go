package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/view"
)

// bigLoadCSV is the seed's load table grown to rows databases, its header
// repeated every 13 lines as a file of appended exports has it: a row
// of the table whose 4 cells are each a notice ("db" is not a number).
// 119,166 rows under the first header, of which the first 100,000 are read: 92,308 databases.
func bigLoadCSV(t *testing.T, rows int) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < rows; i++ {
		if i%12 == 0 {
			b.WriteString("db,size_gb,load_time_s,load_speed_mb_s\n")
		}
		size := 9 + float64(i%1000)/10
		speed := 3 + float64((i*7919)%1000)/1000
		fmt.Fprintf(&b, "%d,%.2f,%.0f,%.6f\n", i+1, size, size*1024/speed, speed)
	}
	p := filepath.Join(t.TempDir(), "load-big.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The mutation run found a load table of 100,000 databases (a CSV grown
// to 8 MB) took 24 to 40 s in report: a chart of 100,000 bars, an
// insertion sort, a page of 15 MB with 30,000 reader notes. The chart
// keeps the 30 slowest, the page 1000 rows, the reader
// maxTableNotices notes; the whole report is written in seconds.
func TestReportBigLoadTable(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	in := bigLoadCSV(t, 110000)
	start := time.Now()
	r := buildReport(t, "big", []string{in})
	if len(r.Sections) != 1 || len(r.Figures()) != 1 {
		t.Fatalf("%d sections, %d charts", len(r.Sections), len(r.Figures()))
	}
	s := r.Sections[0]
	c := r.Figures()[0].Chart
	if want := "Load speed per database: load-big.csv (the 30 slowest of 92308)"; c.Title != want {
		t.Errorf("chart title %q, want %q", c.Title, want)
	}
	if p := c.Series("load speed"); p == nil || len(p.Y) != view.TopBars {
		t.Fatalf("load speed bars: %v", p)
	} else {
		for _, v := range p.Y {
			if v > 3.03 {
				t.Errorf("bar of %g MB/s among the 30 slowest", v)
			}
		}
	}
	if n := len(s.Notices); n != 202 || !strings.HasSuffix(s.Notices[n-1], ": 30568 more notices not printed, from this line on") ||
		!strings.Contains(strings.Join(s.Notices, "\n"), "table of 119166 rows: read the first 100000, left out 19166") {
		t.Errorf("%d notices, last %q", n, s.Notices[n-1])
	}
	out := filepath.Join(t.TempDir(), "r")
	if _, err := WriteDir(out, r, smallCharts); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 10*time.Second && !testutil.Race {
		t.Errorf("report of a 100,000-row table took %s", el)
	}
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	_, points, _ := strings.Cut(string(page), `data-table="points"`)
	points, _, _ = strings.Cut(points, "</table>")
	if n := strings.Count(points, "<tr>"); n != HTMLRows+1 { // and the header
		t.Errorf("%d rows in the page's points table, want %d", n, HTMLRows+1)
	}
	if !strings.Contains(string(page), "1000 of 92308 points shown in this page") || len(page) > 1<<20 {
		t.Errorf("page of %d bytes without the count of the rows not shown", len(page))
	}
}

// A gstat run of a few thousand findings (testutil.BigGstat, 2 MiB):
// its section lists the HTMLRecommendations worst, and counts the others
// by severity and rule, as report.json lists them (all of them). Listed
// whole, the 117,819 of a 100 MiB run made a page of 69 MB.
func TestReportRecommendationsCapped(t *testing.T) {
	_, big := testutil.BigGstat(t, 2<<20)
	in := filepath.Join(t.TempDir(), "big-gstat.txt")
	if err := os.WriteFile(in, big, 0o644); err != nil {
		t.Fatal(err)
	}
	ins, _, errs := Inputs([]string{in})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(t.TempDir(), "r")
	if _, err := WriteDir(out, Build("big", "fbdiag test", ins), smallCharts); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Databases []struct {
			Findings []struct{ Severity, Rule string }
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Databases) != 1 {
		t.Fatalf("report.json: %v, %d databases", err, len(doc.Databases))
	}
	fs := doc.Databases[0].Findings
	if len(fs) < 2*HTMLRecommendations {
		t.Fatalf("%d findings: too few to be capped", len(fs))
	}
	_, recs, _ := strings.Cut(string(page), `<ul class="findings recs">`)
	recs, _, _ = strings.Cut(recs, "</ul>")
	if n := strings.Count(recs, "<li"); n != HTMLRecommendations {
		t.Errorf("%d recommendations listed, want %d", n, HTMLRecommendations)
	}
	type key struct{ sev, rule string }
	n := map[key]int{}
	for _, f := range fs[HTMLRecommendations:] {
		n[key{f.Severity, f.Rule}]++
	}
	rank := map[string]int{"critical": 3, "warning": 2, "info": 1}
	keys := slices.Collect(maps.Keys(n))
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(rank[b.sev]-rank[a.sev], n[b]-n[a], strings.Compare(a.rule, b.rule))
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s %s", n[k], k.sev, k.rule))
	}
	want := fmt.Sprintf("and %d more, listed in report.json: %s.", len(fs)-HTMLRecommendations, strings.Join(parts, ", "))
	if !strings.Contains(string(page), want) || len(page) > 512<<10 {
		_, got, _ := strings.Cut(string(page), "and ")
		t.Errorf("page of %d bytes; want %q, page has %.300q", len(page), want, got)
	}
}

// report.json written a part at a time is json.Encoder's document, byte
// for byte: for the corpus, and for a run of a thousand findings, one of
// them with HTML's <, > and & (which report.json escapes).
func TestSummaryJSONStreamed(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	_, big := testutil.BigGstat(t, 1<<20)
	in := filepath.Join(t.TempDir(), "big-gstat.txt")
	if err := os.WriteFile(in, big, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{testutil.CorpusDir(t)}, {in}} {
		ins, _, _ := Inputs(paths)
		r := Build("r", "fbdiag test", ins)
		if len(r.Databases) == 0 || len(r.Databases[0].Database.Findings) == 0 {
			t.Fatalf("%v: no database with findings", paths)
		}
		fs := r.Databases[0].Database.Findings
		fs[len(fs)-1].Reason += " <b>&amp;</b>"
		var want, got bytes.Buffer
		e := json.NewEncoder(&want)
		e.SetIndent("", "  ")
		if err := e.Encode(r.JSON()); err != nil {
			t.Fatal(err)
		}
		if err := WriteSummaryJSON(&got, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("%v: differs at byte %d of %d:\n%.200q\nwant\n%.200q", paths, i, want.Len(), got.Bytes()[max(i-50, 0):], want.Bytes()[max(i-50, 0):])
		}
		if !strings.Contains(want.String(), `\u003cb\u003e\u0026amp;`) {
			t.Errorf("%v: the finding with HTML is not escaped as json.Encoder does", paths)
		}
	}
}

// The mutation run (seed 4242) found the four encryption lines of a
// Firebird QA expected output (gstat -e, no header: one run) repeated to
// 8 MiB made a page of 24 MB in 1.07 s and 250 MB: the report bounded the
// rows of throughput tables only. Every table of the page now shows at
// most HTMLRows (TestTableMaxRows), and the reader keeps a run's first 20
// page count lines, the others counted in a notice: 166,112 lines read,
// 20 shown.
func TestReportEncryptionLinesCapped(t *testing.T) {
	in := repeatedCorpusFile(t, "gstat", "Banan4iG-firebird-qa__test_encryption.expected_stdout_rdb5.expected.txt",
		"encryption-big.txt", 41528)
	_, out := writeReportOf(t, "big", []string{in})
	page := readPage(t, out)
	_, rows, _ := strings.Cut(page, `data-table="encryption"`)
	rows, _, _ = strings.Cut(rows, "</table>")
	if n := strings.Count(rows, "<tr>"); n != 20+1 { // and the header
		t.Errorf("%d rows in the page's encryption table, want 21", n)
	}
	if want := "166092 more page count lines (gstat -e) not kept, from this one"; !strings.Contains(page, want) || len(page) > 1<<20 {
		t.Errorf("page of %d bytes without %q", len(page), want)
	}
}

// advice8263 is fbdiag's advice on public 15's failed index (the workers
// of firebird#8263, not the rows).
const advice8263 = "the index build failed because gbak's parallel workers could not attach to the database (firebird#8263: " +
	"Firebird 5.0.0 and 5.0.1 Classic with ParallelWorkers above 1 in firebird.conf; fixed in 5.0.2), not because of its rows: " +
	"restore again with gbak -rep -par 1, or with ParallelWorkers = 1 in firebird.conf"

// The full mutation run found the error lines of Firebird issue 8263's
// failed restore repeated to 4 MiB made a page of 7.5 MB: a gbak
// section listed every finding. The page's findings are bounded as its
// tables' rows are (HTMLRows), the rest counted by severity.
func TestReportGbakFindingsCapped(t *testing.T) {
	in := repeatedCorpusFile(t, "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log", "restore-errors.log", 2000)
	r, out := writeReportOf(t, "big", []string{in})
	if len(r.Sections) != 1 || len(r.Sections[0].Findings) != 1 ||
		r.Sections[0].Findings[0].Text != "restore-errors.log: restore failed: cannot commit index PK_XYZ: invalid database handle (no active connection) (and 5999 more error lines). Do: "+advice8263 {
		t.Fatalf("%d sections, findings %+v", len(r.Sections), r.Sections[0].Findings)
	}
	page := readPage(t, out)
	_, list, _ := strings.Cut(page, `<div class="view">`) // the section's fragment
	_, list, _ = strings.Cut(list, `<ul class="findings">`)
	list, _, _ = strings.Cut(list, "</ul>")
	if n := strings.Count(list, "<li "); n != HTMLRows {
		t.Errorf("%d findings in the page's gbak section, want %d", n, HTMLRows)
	}
	if want := "1000 of 6000 errors and warnings shown (fbdiag gbak --all lists them); not shown: 5000 critical"; !strings.Contains(page, want) || len(page) > 1<<20 {
		t.Errorf("page of %d bytes without %q", len(page), want)
	}
}

// A gbak section keeps the first HTMLRows errors and warnings of a log
// (view.GbakKeeper.WithMessages), not every one: the summary still
// counts every error line, and names the warnings left out. Issue 8263's
// error lines (three errors) after 1500 copies of issue 8140's warning.
func TestReportGbakWarningsCounted(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gbak")
	errLog, err := os.ReadFile(filepath.Join(dir, "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if err != nil {
		t.Fatal(err)
	}
	warning := "gbak: WARNING:Wrong parallel workers value 4, valid range are from 1 to 1\n"
	p := filepath.Join(t.TempDir(), "restore-warnings.log")
	if err := os.WriteFile(p, append([]byte(strings.Repeat(warning, 1500)), errLog...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, out := writeReportOf(t, "warnings", []string{p})
	fs := r.Sections[0].Findings
	if len(fs) != 1002 || fs[0].Text != "restore-warnings.log: restore failed: cannot commit index PK_XYZ: invalid database handle (no active connection) (and 2 more error lines). Do: "+advice8263 ||
		fs[1].Text != "restore-warnings.log: restore: Wrong parallel workers value 4, valid range are from 1 to 1. Do: the run had at most 1 parallel worker, not the 4 of -par: "+
			"MaxParallelWorkers in the server's firebird.conf (Firebird 5.0, default 1) caps -par; set MaxParallelWorkers = 4 there and restart the server "+
			"(SuperServer, SuperClassic; Classic reads it at the next connection), or give -par 1" ||
		fs[1001].Severity != "warning" || fs[1001].Text != "restore-warnings.log: 500 more warnings" {
		t.Fatalf("%d findings: %+v … %+v", len(fs), fs[:min(len(fs), 2)], fs[len(fs)-1])
	}
	if want := "1000 of 1503 errors and warnings shown (fbdiag gbak --all lists them); not shown: 503 warning"; !strings.Contains(readPage(t, out), want) {
		t.Errorf("the page without %q", want)
	}
}

// repeatedCorpusFile writes the published sample public/dir/name n times
// over into a temporary file called as, and returns its path.
func repeatedCorpusFile(t *testing.T, dir, name, as string, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "public", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), as)
	if err := os.WriteFile(p, bytes.Repeat(b, n), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readPage is the index.html written to out.
func readPage(t *testing.T, out string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
