package view

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// gstatRuns analyses every run of a gstat file, named as the command
// line names it (testdata/fb30/...), so the golden files hold no path of
// this machine.
func gstatRuns(t *testing.T, rel ...string) []*analyze.GstatAnalysis {
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
	var out []*analyze.GstatAnalysis
	for _, r := range reps {
		out = append(out, analyze.Gstat(r, analyze.NewThresholds()))
	}
	return out
}

// render writes documents in a format with the command line's options.
func render(t *testing.T, f Format, opt Options, docs ...*Doc) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f, opt, docs...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var cliOptions = Options{MoreHint: " (--all shows them)"}

// The gstat view of the fb30 samples in every format: -a -r (tables,
// indices, record versions, warnings), -h (header only) and -e
// (encryption).
func TestGstatGolden(t *testing.T) {
	exts := map[Format]string{Text: "txt", Markdown: "md", CSV: "csv", OpenMetrics: "om", HTML: "html"}
	for _, name := range []string{"shop-gstat-a-r", "shop-gstat-h", "shop-gstat-e"} {
		a := gstatRuns(t, "fb30", name+".txt")[0]
		for f, ext := range exts {
			d := Gstat(a, GstatOptions{Top: GstatTop})
			testutil.Golden(t, "testdata/golden/gstat-"+name+"."+ext, render(t, f, cliOptions, d))
		}
	}
	// The other CSV tables of the -a -r sample.
	a := gstatRuns(t, "fb30", "shop-gstat-a-r.txt")[0]
	for _, table := range []string{"indices", "summary", "warnings"} {
		got := render(t, CSV, Options{Table: table}, Gstat(a, GstatOptions{}))
		testutil.Golden(t, "testdata/golden/gstat-shop-gstat-a-r-"+table+".csv", got)
	}
}

// Two snapshots of one file: numbered titles, one CSV table with a
// source column.
func TestGstatSnapshots(t *testing.T) {
	runs := gstatRuns(t, "fb30", "shop-gstat-a-r.txt")
	runs = append(runs, gstatRuns(t, "fb30", "shop-gstat-r-later.txt")...)
	runs[1].Report = 1 // as if appended to the first file
	var docs []*Doc
	for _, a := range runs {
		docs = append(docs, Gstat(a, GstatOptions{Several: true, Sort: "records"}))
	}
	if docs[1].Lead+docs[1].Title != "gstat analysis of testdata/fb30/shop-gstat-r-later.txt, snapshot 2" {
		t.Errorf("title %q", docs[1].Title)
	}
	got := string(render(t, CSV, Options{Source: true}, docs...))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 13 || lines[0] != "snapshot,table,records,versions,versions_per_record,max_versions,fragments_per_record,data_pages,fill_share,size_bytes,index_bytes" ||
		lines[1] != "testdata/fb30/shop-gstat-a-r.txt#1,ORDER_LINE,500000,0,0,0,0,4552,0.69,37289984,7004160" ||
		!strings.HasPrefix(lines[7], "testdata/fb30/shop-gstat-r-later.txt#2,") {
		t.Errorf("csv of two snapshots:\n%s", got)
	}
}

// bigShop is the fb30 -a -r output with its table blocks repeated n
// times, tables renamed NAME_i, index names numbered IX_i.
func bigShop(t *testing.T, n int) *analyze.GstatAnalysis {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	s := string(src)
	start, end := strings.Index(s, "CUSTOMER (129)"), strings.Index(s, "Gstat completion time")
	var b strings.Builder
	b.WriteString(s[:start])
	for i := range n {
		// Tables "CUSTOMER (129)" become "CUSTOMER_i (129)", indices
		// "RDB$PRIMARY2 (0)" "RDB$PRIMARY2_i (0)".
		r := strings.NewReplacer(" (1", fmt.Sprintf("_%d (1", i), " (0)", fmt.Sprintf("_%d (0)", i), " (1)", fmt.Sprintf("_%d (1)", i))
		b.WriteString(r.Replace(s[start:end]))
	}
	b.WriteString(s[end:])
	reps, err := parse.ReadGstat(strings.NewReader(b.String()), "big.txt")
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Gstat(reps[0], analyze.NewThresholds())
}

// A database of 1500 tables and 2500 indices: text shows 20 of each,
// says how many there are, and orders names naturally; --all and CSV
// have every one.
func TestGstatBounded(t *testing.T) {
	a := bigShop(t, 250)
	if len(a.Tables) != 1500 || a.Totals.Indices != 2500 {
		t.Fatalf("%d tables, %d indices", len(a.Tables), a.Totals.Indices)
	}
	text := string(render(t, Text, cliOptions, Gstat(a, GstatOptions{Top: GstatTop})))
	lines := strings.Split(text, "\n")
	for _, want := range []string{"20 of 1500 tables shown (--all shows them)", "20 of 2500 indices shown (--all shows them)"} {
		if !slices.Contains(lines, want) {
			t.Errorf("no line %q", want)
		}
	}
	// ORDER_LINE_i are the biggest tables, equal in size: natural order.
	var names []string
	for _, l := range lines {
		if strings.HasPrefix(l, "ORDER_LINE_") {
			names = append(names, strings.Fields(l)[0])
		}
	}
	if len(names) != 20 || names[0] != "ORDER_LINE_0" || names[1] != "ORDER_LINE_1" || names[2] != "ORDER_LINE_2" || names[10] != "ORDER_LINE_10" {
		t.Errorf("tables shown: %v", names)
	}
	// 3041 lines before the text was bounded (issue 14).
	if n := strings.Count(text, "\n"); n != 247 {
		t.Errorf("%d lines of text, want 247", n)
	}
	all := string(render(t, Text, Options{All: true}, Gstat(a, GstatOptions{Top: GstatTop})))
	if strings.Contains(all, "shown") || strings.Count(all, "\nORDER_LINE_") != 250 || strings.Count(all, "\nRDB$PRIMARY4_") != 250 {
		t.Errorf("--all: %d ORDER_LINE rows", strings.Count(all, "\nORDER_LINE_"))
	}
	csv := string(render(t, CSV, Options{Table: "indices"}, Gstat(a, GstatOptions{Top: GstatTop})))
	if n := strings.Count(csv, "\n"); n != 2501 {
		t.Errorf("indices CSV: %d lines", n)
	}
}

func TestGstatBoundedWarnings(t *testing.T) {
	a := bigShop(t, 250)
	text := string(render(t, Text, cliOptions, Gstat(a, GstatOptions{Top: GstatTop})))
	if !strings.Contains(text, "\n20 of 2250 warnings shown (--all shows them); not shown: 1230 warning, 1000 info\n") {
		i := strings.Index(text, "of 2250")
		t.Errorf("warnings note: %q", text[max(i-10, 0):min(i+200, len(text))])
	}
}

// A read-only database's header keeps the Next it had when it was made
// read only: its transactions a day, Next over the days since creation,
// say that they understate the rate while it was written (the fdb
// driver's 2.5 header, 1773 days old, and the same edited read only).
func TestTransactionsPerDayReadOnly(t *testing.T) {
	b, err := os.ReadFile(testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-h.out"))
	if err != nil {
		t.Fatal(err)
	}
	const caveat = "; read only: Next stopped when it was made read only, so this understates the rate while it was written"
	for _, ro := range []bool{false, true} {
		text := string(b)
		if ro {
			text = strings.Replace(text, "Attributes\t\tforce write", "Attributes\t\tforce write, read only", 1)
		}
		reps, err := parse.ReadGstat(strings.NewReader(text), "h.out")
		if err != nil || len(reps) != 1 {
			t.Fatalf("read: %v, %d runs", err, len(reps))
		}
		f := fieldOf(t, Gstat(analyze.Gstat(reps[0], analyze.NewThresholds()), GstatOptions{}), "transactions_per_day")
		if got := strings.HasSuffix(f.Detail, caveat); got != ro || !strings.HasPrefix(f.Detail, "over the 1773 days since creation or restore") {
			t.Errorf("read only %v: detail %q", ro, f.Detail)
		}
	}
}
