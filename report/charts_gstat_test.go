package report

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// shopAnalysis reads testdata/fb30/shop-gstat-a-r.txt (fbstat -a -r of
// the shop database, Firebird 3.0.11, page size 8192).
func shopAnalysis(t *testing.T) (*analyze.GstatAnalysis, *parse.GstatReport) {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, "shop-gstat-a-r.txt")
	if err != nil || len(reps) != 1 {
		t.Fatalf("%d reports, %v", len(reps), err)
	}
	return analyze.Gstat(reps[0], analyze.NewThresholds()), reps[0]
}

func findTable(t *testing.T, a *analyze.GstatAnalysis, name string) analyze.TableStats {
	t.Helper()
	for _, ts := range a.Tables {
		if ts.Name == name {
			return ts
		}
	}
	t.Fatalf("table %s not in the analysis", name)
	return analyze.TableStats{}
}

// TestGstatTablesChart: the chart shows the analysis's sizes and counts.
func TestGstatTablesChart(t *testing.T) {
	a, _ := shopAnalysis(t)
	d := GstatTablesChart(a, TopObjects)
	var names []string
	for _, x := range d.Tables {
		names = append(names, x.Name)
	}
	// By size: ORDER_LINE has 4552 data pages of 8192 bytes.
	if got := strings.Join(names, ","); got != "ORDER_LINE,ORDERS,STOCK,CUSTOMER,DOCS,WAREHOUSE" {
		t.Fatalf("order %s", got)
	}
	if d.SizeUnit != "MiB" || d.Tables[0].Size != 37289984.0/(1<<20) || d.Tables[0].Records != 500000 {
		t.Errorf("ORDER_LINE %+v", d.Tables[0])
	}
	for _, bar := range d.Tables {
		ts := findTable(t, a, bar.Name)
		if bar.Size != float64(*ts.SizeBytes)/(1<<20) || bar.Records != float64(*ts.Records) ||
			bar.Versions != float64(*ts.Versions) || bar.Fragments != float64(*ts.Fragments) {
			t.Errorf("%s: chart %+v, analysis size %d records %d versions %d fragments %d",
				bar.Name, bar, *ts.SizeBytes, *ts.Records, *ts.Versions, *ts.Fragments)
		}
	}
	// CUSTOMER: 10000 back versions and 3125 fragments for 30000 records;
	// the chart plots them per record, as the table's ver/rec and
	// frag/rec (0.333, 0.104) and the rules' limits read them.
	c, err := plot.TablesChart(d)
	if err != nil {
		t.Fatal(err)
	}
	v, f := c.Series("versions per record"), c.Series("fragments per record")
	if v == nil || f == nil || v.Y[3] != 10000.0/30000 || f.Y[3] != 3125.0/30000 {
		t.Errorf("CUSTOMER per record: %+v %+v", v, f)
	}
}

func TestGstatIndicesChart(t *testing.T) {
	a, _ := shopAnalysis(t)
	d := GstatIndicesChart(a, 3)
	// Ten indices: one of depth 1 (WAREHOUSE's primary key), nine of 2.
	if len(d.Depths) != 2 || d.Depths[0] != (plot.DepthCount{Depth: 1, Count: 1}) || d.Depths[1].Depth != 2 || d.Depths[1].Count != 9 {
		t.Errorf("depths %+v", d.Depths)
	}
	// OL_ITEM: 443 leaf buckets of 8192 bytes, in MiB.
	if len(d.Largest) != 3 || d.Largest[0].Name != "OL_ITEM" || d.Largest[0].Table != "ORDER_LINE" || d.Largest[0].Size != 443*8192.0/(1<<20) {
		t.Fatalf("largest %+v", d.Largest)
	}
	// ORDERS_DATE_D's worst warning is the analysis's (sparse leaf pages).
	want := plot.Severity(analyze.Worst(warningsOf(a, "ORDERS_DATE_D")))
	if d.Largest[2].Name != "ORDERS_DATE_D" || d.Largest[2].Severity != want || want != "warning" {
		t.Errorf("ORDERS_DATE_D %+v, analysis %q", d.Largest[2], want)
	}
}

func warningsOf(a *analyze.GstatAnalysis, object string) []analyze.Warning {
	var out []analyze.Warning
	for _, w := range a.Warnings {
		if w.Object == object {
			out = append(out, w)
		}
	}
	return out
}

func TestGstatFillChart(t *testing.T) {
	a, _ := shopAnalysis(t)
	d := GstatFillChart(a)
	// Sums of the "Fill distribution" blocks of the file: tables (4-space
	// indent) and indices (tab indent).
	if len(d.Groups) != 2 || d.Groups[0].Pages != [5]float64{22, 1, 15, 5899, 608} || d.Groups[1].Pages != [5]float64{4, 1, 453, 184, 634} {
		t.Fatalf("fill %+v", d.Groups)
	}
}

// TestGstatHostileName: a table named `Order Lines <x>` (made by renaming
// CUSTOMER in the shop statistics, as Firebird 3 prints a quoted
// identifier) reaches the page as text, never as markup, in the section
// title, the charts' alt text, the tables and the findings.
func TestGstatHostileName(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	data = bytes.Replace(data, []byte("CUSTOMER (129)"), []byte("Order Lines <x> (129)"), 1)
	in := BytesInput("Order <b>stats</b>.txt", data)
	if in.Kind != parse.InputGstat {
		t.Fatalf("detected as %s (%s)", in.Kind, in.Reason)
	}
	r := Build("report", "fbdiag test", []Input{in})
	if err := r.Render(smallCharts); err != nil {
		t.Fatal(err)
	}
	page := htmlOf(t, r)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var cells, markup int
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "x" || n.Data == "b") {
			markup++
		}
		// A name is isolated in <bdi> in its cell (view/html.go).
		if n.Type == html.TextNode && n.Data == "Order Lines <x>" && n.Parent.Data == "bdi" && n.Parent.Parent.Data == "td" {
			cells++
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	// The tables table, and the table column of its two indices
	// (CUSTOMER_LAST, RDB$PRIMARY2).
	if markup != 0 || cells != 3 {
		t.Fatalf("%d elements made from the names, %d table cells with the name", markup, cells)
	}
	if !strings.Contains(page, "Order Lines &lt;x&gt;") {
		t.Fatal("escaped name not in the page")
	}
}

// A depth's bar takes the worst severity of the depth warnings on its
// indices, whatever the order of the warnings and whoever else they name:
// an index-deep critical on CUSTOMER_LAST (depth 2), a warning on
// WAREHOUSE's primary key (depth 1) and, ignored, a warning on an index
// of another table of the same name, a table warning and a sparse-index
// warning on an index of depth 1. (Each index once looked through every
// warning: a minute for 130,000 indices and 117,000 warnings.)
func TestGstatIndicesChartDepthSeverity(t *testing.T) {
	a, _ := shopAnalysis(t)
	a.Warnings = []analyze.Warning{
		{Rule: "index-sparse", Kind: "index", Object: "RDB$PRIMARY1", Table: "WAREHOUSE", Severity: analyze.Critical},
		{Rule: "index-deep", Kind: "index", Object: "CUSTOMER_LAST", Table: "CUSTOMER", Severity: analyze.Critical},
		{Rule: "index-deep", Kind: "index", Object: "RDB$PRIMARY1", Table: "OTHER", Severity: analyze.Critical},
		{Rule: "index-deep", Kind: "table", Object: "RDB$PRIMARY1", Table: "WAREHOUSE", Severity: analyze.Critical},
		{Rule: "index-deep", Kind: "index", Object: "RDB$PRIMARY1", Table: "WAREHOUSE", Severity: analyze.Warn},
		{Rule: "index-deep", Kind: "index", Object: "CUSTOMER_LAST", Table: "CUSTOMER", Severity: analyze.Info},
	}
	d := GstatIndicesChart(a, 3)
	want := []plot.DepthCount{{Depth: 1, Count: 1, Severity: "warning"}, {Depth: 2, Count: 9, Severity: "critical"}}
	if !slices.Equal(d.Depths, want) {
		t.Errorf("depths %+v, want %+v", d.Depths, want)
	}
}
