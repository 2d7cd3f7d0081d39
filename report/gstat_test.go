package report

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// gstatShop analyses one fb30 gstat file with the default thresholds.
func gstatShop(t *testing.T, name string) []*analyze.GstatAnalysis {
	t.Helper()
	path := testutil.Testdata(t, "fb30", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, name)
	if err != nil {
		t.Fatal(err)
	}
	var out []*analyze.GstatAnalysis
	for _, r := range reps {
		out = append(out, analyze.Gstat(r, analyze.NewThresholds()))
	}
	return out
}

func TestGstatTablesTopAndSort(t *testing.T) {
	a := gstatShop(t, "shop-gstat-a-r.txt")[0]
	opt := GstatOptions{Sort: "records", Top: 3, TopIndices: 3}
	tables := GstatTables(a, Text, opt)
	if len(tables) != 3 {
		t.Fatalf("text: %d tables, want 3 (tables, indices, warnings; the header is a block)", len(tables))
	}
	tt, ix, wt := tables[0], tables[1], tables[2]
	if tt.Title != "Top 3 of 6 tables by records" {
		t.Errorf("tables title %q", tt.Title)
	}
	want := [][]string{
		{"ORDER_LINE", "500000", "0", "0.00", "0", "0.00", "4552", "69%", "35.6 MiB"},
		{"ORDERS", "100000", "5000", "0.05", "1", "0.00", "808", "67%", "6.3 MiB"},
		{"STOCK", "50000", "15000", "0.30", "1", "0.00", "464", "78%", "3.6 MiB"},
	}
	for i, w := range want {
		if got := strings.Join(tt.Rows[i], "|"); got != strings.Join(w, "|") {
			t.Errorf("table row %d = %s, want %s", i, got, strings.Join(w, "|"))
		}
	}
	if ix.Title != "Top 3 of 10 indices" || len(ix.Rows) != 3 {
		t.Errorf("indices: %q with %d rows", ix.Title, len(ix.Rows))
	}
	// by records, indices go by nodes; ORDERS_CARRIER (100000 nodes) is third
	if got := strings.Join(ix.Rows[2], "|"); got != "ORDERS_CARRIER|ORDERS|?|2|75|100000|0.0909|100%|33333|600.0 KiB" {
		t.Errorf("index row 3 = %s", got)
	}
	if wt.Title != "Warnings (9)" || len(wt.Columns) != 0 {
		t.Errorf("text warnings: %q with %d columns", wt.Title, len(wt.Columns))
	}
	if wt.Notes[0] != "WARNING  index-low-selectivity  index ORDERS_CARRIER on ORDERS: 0.09091 > 0.01 share" {
		t.Errorf("first warning %q", wt.Notes[0])
	}
	// index-sparse fires three times (ORDERS_DATE_D, ORDERS_CARRIER,
	// RDB$PRIMARY2): its source is printed once, under "Sources".
	sources := strings.Join(wt.Notes[slices.Index(wt.Notes, "Sources"):], "\n")
	if n := strings.Count(strings.Join(wt.Notes, "\n"), "index-sparse: [U] 80% of leaf pages"); n != 1 || !strings.Contains(sources, "index-sparse: [U] 80%") {
		t.Errorf("index-sparse source printed %d times:\n%s", n, sources)
	}
	for _, n := range wt.Notes {
		if len([]rune(n)) > 100 {
			t.Errorf("warning line of %d columns: %q", len([]rune(n)), n)
		}
	}
}

func TestGstatTablesCSVColumns(t *testing.T) {
	a := gstatShop(t, "shop-gstat-a-r.txt")[0]
	tables := GstatTables(a, CSV, GstatOptions{})
	if got := tableNames(tables); got != "header,tables,indices,warnings" {
		t.Fatalf("tables %s", got)
	}
	h := map[string]string{}
	for _, r := range tables[0].Rows {
		h[r[0]] = r[1]
	}
	for k, v := range map[string]string{"oldest_transaction": "16", "oldest_active": "17", "oldest_snapshot": "17",
		"next_transaction": "18", "page_size": "8192", "forced_writes": "true", "sweep_interval": "", "snapshot": "1"} {
		if h[k] != v {
			t.Errorf("header %s = %q, want %q", k, h[k], v)
		}
	}
	// The other formats carry the columns text leaves out for width.
	if tables[1].Title != "Tables by size" || tables[1].Columns[9].Name != "index size" || len(tables[1].Rows) != 6 {
		t.Errorf("tables: %q, %d rows, last column %q", tables[1].Title, len(tables[1].Rows), tables[1].Columns[len(tables[1].Columns)-1].Name)
	}
	if tables[2].Title != "Indices" || len(tables[2].Rows) != 10 || tables[2].Columns[8].Name != "unique" {
		t.Errorf("indices: %q, %d rows", tables[2].Title, len(tables[2].Rows))
	}
	w := tables[3]
	if len(w.Rows) != 9 {
		t.Fatalf("%d warning rows, want 9", len(w.Rows))
	}
	if got := strings.Join(w.Rows[0][:7], "|"); got != "warning|index-low-selectivity|ORDERS_CARRIER|ORDERS|0.09091|0.01|share" {
		t.Errorf("first warning row %s", got)
	}
}

func TestWriteGstatHeaderOnly(t *testing.T) {
	all := gstatShop(t, "shop-gstat-h.txt")
	var b bytes.Buffer
	if err := WriteGstat(&b, Text, all, GstatOptions{Top: 20}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"gstat analysis of shop-gstat-h.txt\n",
		"Transactions    OIT 20  OAT 21  OST 21  Next 21\n",
		"Gaps            OAT-OIT 1  OST-OIT 1  Next-OAT 0  Next-OST 0\n",
		"Totals          0 tables, 0 indices\n",
		"(no table blocks: run gstat -a -r for table statistics)\n",
		"(no index blocks: run gstat -a for index statistics)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "snapshot 1") {
		t.Error("a single snapshot is numbered")
	}
}

func TestWriteGstatJSONOnePerSnapshot(t *testing.T) {
	all := append(gstatShop(t, "shop-gstat-a-r.txt"), gstatShop(t, "shop-gstat-h.txt")...)
	var b bytes.Buffer
	if err := WriteGstat(&b, JSON, all, GstatOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n}\n"); n != 2 {
		t.Errorf("%d JSON documents, want 2", n)
	}
	if !strings.Contains(b.String(), `"file": "shop-gstat-h.txt"`) {
		t.Error("second document lacks its file")
	}
}

// A sweep interval of 0 is not a denominator: the Firebird 1.5 header
// says the automatic sweep is disabled, with no percentage of it.
func TestGstatHeaderSweepDisabled(t *testing.T) {
	f, err := os.Open(testutil.Corpus(t, "public", "gstat", "06_fb15_header_long_running_issue_firebird_support_2005.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, "fb15.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteGstatHeader(&b, analyze.Gstat(reps[0], analyze.NewThresholds()), false)
	out := b.String()
	for _, want := range []string{"Sweep interval  0 (automatic sweep off)\n",
		"Sweep gap       OST-OIT 295047; the automatic sweep is disabled (interval 0)\n",
		"Page buffers    1000, forced writes unknown (no Attributes line)\n",
		"Page cache      3.91 MiB per cache (SuperServer: one; Classic, SuperClassic: one per connection)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "% of the sweep interval") {
		t.Errorf("a share of an interval of 0:\n%s", out)
	}
}
