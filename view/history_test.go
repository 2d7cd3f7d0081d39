package view

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// historySnap reads the last gstat run of a testdata file, named as the
// command line names it (testdata/fb30/...), so the golden files hold no
// path of this machine.
func historySnap(t *testing.T, rel ...string) *analyze.HistorySnapshot {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, rel...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, filepath.Join(append([]string{"testdata"}, rel...)...))
	if err != nil {
		t.Fatal(err)
	}
	return analyze.NewHistorySnapshot(reps[len(reps)-1], analyze.SnapshotOptions{})
}

// growthSnaps are the seven runs of testdata/growth.
func growthSnaps(t *testing.T) []*analyze.HistorySnapshot {
	var out []*analyze.HistorySnapshot
	for _, n := range []string{"grow-00-a-r.txt", "grow-10-a-r.txt", "grow-15-d.txt", "grow-20-a-r.txt", "grow-20-h.txt", "grow-30-a-r.txt", "grow-40-a-r.txt"} {
		out = append(out, historySnap(t, "growth", n))
	}
	return out
}

// historyRender writes a document as the command line does.
func historyRender(t *testing.T, f Format, opt Options, d *Doc) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f, opt, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var historyExts = map[Format]string{Text: "txt", Markdown: "md", CSV: "csv", HTML: "html"}

// gstat diff of the fb30 pair (4 min 38 s apart, ORDERS lost 5000
// records and its back versions) and of testdata/growth's first and
// 30-minute runs (warnings appeared, an OAT age estimated), in every
// format, and the other CSV tables of the pair.
func TestHistoryDiffGolden(t *testing.T) {
	pairs := map[string][2]*analyze.HistorySnapshot{
		"fb30":   {historySnap(t, "fb30", "shop-gstat-a-r.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt")},
		"growth": {historySnap(t, "growth", "grow-00-a-r.txt"), historySnap(t, "growth", "grow-30-a-r.txt")},
	}
	opt := Options{MoreHint: " (--all shows them)"}
	for name, p := range pairs {
		d := analyze.Diff(p[0], p[1])
		for f, ext := range historyExts {
			testutil.Golden(t, "testdata/golden/history-diff-"+name+"."+ext, historyRender(t, f, opt, HistoryDiff(d, HistoryOptions{Top: HistoryTop})))
		}
	}
	d := analyze.Diff(pairs["fb30"][0], pairs["fb30"][1])
	for _, table := range []string{"snapshots", "counts", "counters", "indices", "warning_changes", "summary", "warnings"} {
		testutil.Golden(t, "testdata/golden/history-diff-fb30-"+table+".csv", historyRender(t, CSV, Options{Table: table}, HistoryDiff(d, HistoryOptions{})))
	}
}

// gstat trend over testdata/growth with a 1 GiB target (unreliable: 125
// times the span away; the -d and -h runs left out) and over the fb30
// pair (minutes apart: no rate a day), in every format with OpenMetrics.
func TestHistoryTrendGolden(t *testing.T) {
	trends := map[string]*analyze.Trend{
		"growth": analyze.TrendOf(growthSnaps(t), 1<<30),
		"fb30":   analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "fb30", "shop-gstat-a-r.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt")}, 0),
	}
	exts := map[Format]string{OpenMetrics: "om"}
	for f, ext := range historyExts {
		exts[f] = ext
	}
	opt := Options{MoreHint: " (--all shows them)"}
	for name, tr := range trends {
		for f, ext := range exts {
			testutil.Golden(t, "testdata/golden/history-trend-"+name+"."+ext, historyRender(t, f, opt, HistoryTrend(tr, HistoryOptions{Top: HistoryTop})))
		}
	}
	for _, table := range []string{"tables", "left_out", "summary", "warnings"} {
		testutil.Golden(t, "testdata/golden/history-trend-growth-"+table+".csv", historyRender(t, CSV, Options{Table: table}, HistoryTrend(trends["growth"], HistoryOptions{})))
	}
}

// A snapshot of another database is left out of the sizes and of the
// transaction counts, and the snapshots table's note says both.
func TestHistoryTrendAnotherDatabaseNote(t *testing.T) {
	b, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if err != nil {
		t.Fatal(err)
	}
	reps, err := parse.ReadGstat(strings.NewReader(strings.Replace(string(b), "/var/lib/firebird/data/shop.fdb", "/data/other.fdb", 1)), "other.txt")
	if err != nil {
		t.Fatal(err)
	}
	other := analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{})
	tr := analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "fb30", "shop-gstat-a-r.txt"), other}, 0)
	d := HistoryTrend(tr, HistoryOptions{})
	i := slices.IndexFunc(d.Tables, func(tb *Table) bool { return tb.Name == "snapshots" })
	if i < 0 || !slices.Contains(d.Tables[i].Notes,
		"left out: the size adds up other things than the others' (see Left out); the counters still count, but not another database's") {
		t.Errorf("snapshots notes: %q", d.Tables[min(max(i, 0), len(d.Tables)-1)].Notes)
	}
}

// The shop's gstat -a -r run, then its gstat -d run 4:27 later: -d prints
// no records nor back versions, and the tables' records and versions read
// the earlier run's (ORDERS 100000 and 5000, which the later -r run shows
// were 95000 and 0 by then), under a note saying "in the new snapshot".
// A figure the later run does not print is empty; a table the later run
// does not have or show still reads the earlier run's.
func TestHistoryDiffLatestNotEarlier(t *testing.T) {
	ar := historySnap(t, "fb30", "shop-gstat-a-r.txt")
	csv := func(b, a *analyze.HistorySnapshot, table string) []string {
		out := historyRender(t, CSV, Options{Table: table}, HistoryDiff(analyze.Diff(b, a), HistoryOptions{}))
		return strings.Split(strings.TrimSpace(string(out)), "\n")[:3]
	}
	got := csv(ar, historySnap(t, "fb30", "shop-gstat-d.txt"), "tables")
	want := []string{"table,status,records,records_change,versions,back_versions,size_change_bytes,size_change,size_bytes_per_day",
		"ORDERS,changed,,,,,-327680,-0.04950495049504951,",
		"STOCK,changed,,,,,-65536,-0.017241379310344827,"}
	if !slices.Equal(got, want) {
		t.Errorf("-a -r then -d:\n got %q\nwant %q", got, want)
	}
	got = csv(ar, historySnap(t, "fb30", "shop-gstat-h.txt"), "tables")
	want = []string{"table,status,records,records_change,versions,back_versions,size_change_bytes,size_change,size_bytes_per_day",
		"CUSTOMER,not_shown,30000,,10000,,,,", "DOCS,not_shown,2000,,0,,,,"}
	if !slices.Equal(got, want) {
		t.Errorf("-a -r then -h:\n got %q\nwant %q", got, want)
	}
}

// The shop's pair is 4:38 apart: 8 transactions, "104" an hour in the
// diff while the trend of the same two files (and the report, which shows
// both) said its rate a day was not shown under an hour. The diff shows
// its rate an hour as trend does, from history-rate.min_span; the JSON
// keeps 103.59712230215828. A Next that did not move is not "moved".
func TestHistoryDiffRateAnHourUnderMinSpan(t *testing.T) {
	ar := historySnap(t, "fb30", "shop-gstat-a-r.txt")
	summary := func(a *analyze.HistorySnapshot) string {
		return string(historyRender(t, CSV, Options{Table: "summary"}, HistoryDiff(analyze.Diff(ar, a), HistoryOptions{})))
	}
	if got := summary(historySnap(t, "fb30", "shop-gstat-r-later.txt")); !strings.Contains(got, "\ntransactions_between,8\ntransactions_per_hour,\n") {
		t.Errorf("4:38 apart:\n%s", got)
	}
	txt := string(historyRender(t, Text, Options{}, HistoryDiff(analyze.Diff(ar, historySnap(t, "fb30", "shop-gstat-r-later.txt")), HistoryOptions{})))
	if want := "Transactions an hour   not shown (0:04:38 of counters, under 1:00:00)\n"; !strings.Contains(txt, want) {
		t.Errorf("text has no %q:\n%s", want, txt)
	}
	txt = string(historyRender(t, Text, Options{}, HistoryDiff(analyze.Diff(ar, ar), HistoryOptions{})))
	if want := "Transactions           0 (Next transaction did not move)\n"; !strings.Contains(txt, want) {
		t.Errorf("text has no %q:\n%s", want, txt)
	}
}

// A header without its Next transaction line (a cut excerpt) counts no
// transactions, and said "? (Next transaction moved)".
func TestHistoryDiffNoNextNotMoved(t *testing.T) {
	b, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "\tNext transaction\t26\n", "", 1)
	reps, err := parse.ReadGstat(strings.NewReader(text), "cut.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := analyze.Diff(historySnap(t, "fb30", "shop-gstat-a-r.txt"), analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{}))
	txt := string(historyRender(t, Text, Options{}, HistoryDiff(d, HistoryOptions{})))
	if want := "Transactions           ? (a snapshot has no Next transaction)\n"; !strings.Contains(txt, want) {
		t.Errorf("text has no %q:\n%s", want, txt)
	}
}

// --help names the CSV tables fields_only (diff) and left_out (trend);
// on two snapshots that print the same fields, or with none left out,
// asking for them was an error (exit 2), where a script wants the header.
// Text, markdown and HTML still leave the empty section out.
func TestHistoryEmptyCSVTables(t *testing.T) {
	ar, later := historySnap(t, "fb30", "shop-gstat-a-r.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt")
	diff := HistoryDiff(analyze.Diff(ar, later), HistoryOptions{})
	trend := HistoryTrend(analyze.TrendOf([]*analyze.HistorySnapshot{ar, later}, 0), HistoryOptions{})
	for _, c := range []struct {
		doc         *Doc
		table, want string
	}{{diff, "fields_only", "only_in,field\n"}, {trend, "left_out", "snapshot,time,reason\n"}} {
		var b bytes.Buffer
		if err := Write(&b, CSV, Options{Table: c.table}, c.doc); err != nil || b.String() != c.want {
			t.Errorf("--table %s: %q, %v; want %q", c.table, b.String(), err, c.want)
		}
	}
	if txt := string(historyRender(t, Text, Options{}, diff)); strings.Contains(txt, "Fields only one snapshot prints") {
		t.Errorf("text lists an empty fields table:\n%s", txt)
	}
	if txt := string(historyRender(t, Text, Options{}, trend)); strings.Contains(txt, "Left out of the sizes") {
		t.Errorf("text lists an empty left out table:\n%s", txt)
	}
}

// One size is no change: a trend of the shop's one -a -r run printed
// size_change 0 (+0.0 %) beside an empty size_change_bytes for every
// table and the database, as did a table only the later of two runs shows.
func TestHistoryTrendOneSizeNoChange(t *testing.T) {
	tr := analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "fb30", "shop-gstat-a-r.txt")}, 0)
	tables := strings.Split(string(historyRender(t, CSV, Options{Table: "tables"}, HistoryTrend(tr, HistoryOptions{}))), "\n")
	if tables[1] != "CUSTOMER,3211264,,,,,," {
		t.Errorf("CUSTOMER: %q", tables[1])
	}
	summary := string(historyRender(t, CSV, Options{Table: "summary"}, HistoryTrend(tr, HistoryOptions{})))
	if !strings.Contains(summary, "\ndatabase_change_bytes,\ndatabase_change,\n") {
		t.Errorf("summary:\n%s", summary)
	}
}

// A gstat -d run's size is its tables alone: the diff of shop-gstat-d
// (50.8 MiB) and the later -a -r run (60.6 MiB) said "Size, old 50.8 MiB
// (tables + indices)", and a trend of -d runs "Database, first (tables +
// indices)" of testdata/growth's -d run (the -h beside it has no size).
// Each side now says what its size adds up.
func TestHistorySizeSaysWhatItAddsUp(t *testing.T) {
	detail := func(fs []Field, key string) string {
		for _, f := range fs {
			if f.Key == key {
				return f.Detail
			}
		}
		t.Fatalf("no field %s", key)
		return ""
	}
	d := HistoryDiff(analyze.Diff(historySnap(t, "fb30", "shop-gstat-d.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt")), HistoryOptions{})
	if o, n := detail(d.Headline, "size_old_bytes"), detail(d.Headline, "size_new_bytes"); o != "(tables only: no index statistics)" || n != "(tables + indices)" {
		t.Errorf("-d then -a -r: old %q, new %q", o, n)
	}
	d = HistoryDiff(analyze.Diff(historySnap(t, "fb30", "shop-gstat-a-r.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt")), HistoryOptions{})
	if o, n := detail(d.Headline, "size_old_bytes"), detail(d.Headline, "size_new_bytes"); o != "(tables + indices)" || n != "" {
		t.Errorf("-a -r pair: old %q, new %q", o, n)
	}
	tr := analyze.TrendOf([]*analyze.HistorySnapshot{historySnap(t, "growth", "grow-15-d.txt"), historySnap(t, "growth", "grow-20-h.txt")}, 0)
	if w := detail(HistoryTrend(tr, HistoryOptions{}).Headline, "database_first_bytes"); w != "(tables only: no index statistics)" {
		t.Errorf("trend of -d runs: %q", w)
	}
	if w := detail(HistoryTrend(analyze.TrendOf(growthSnaps(t), 0), HistoryOptions{}).Headline, "database_first_bytes"); w != "(tables + indices)" {
		t.Errorf("trend of testdata/growth: %q", w)
	}
}
