package parse

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A table of 2000 rows, every other with a bad cell, gave 1000 notices (30,000 in
// a CSV grown to 8 MB, all in memory and on the report's page); the
// reader keeps 200 and says how many more there were.
func TestTableNoticesCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("size_gb,tps\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "%d,%d\n%d.5,x%d\n", i, 1000+i, i, i)
	}
	_, notices, err := ReadTables(strings.NewReader(b.String()), "bad.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != maxTableNotices+1 {
		t.Fatalf("%d notices, want %d", len(notices), maxTableNotices+1)
	}
	if got := notices[0].String(); got != `bad.csv:3: column "tps": "x1" is not a number; cell left out` {
		t.Errorf("first notice %q", got)
	}
	if got := notices[maxTableNotices].String(); got != "bad.csv:403: 800 more notices not printed, from this line on" {
		t.Errorf("last notice %q", got)
	}
}

// A size column whose header names no unit, with "1.7 TB" in one cell and
// bare numbers in the others, read the bare ones in the cell's unit: 9 and
// 30 became 9 TiB and 30 TiB, larger than the 1.7 TiB database, and the
// degradation "+141.4 % (1.70 TiB → 30.0 TiB)". A bare number there has
// no unit anyone wrote: it is left out, said at its line. With the unit in
// the header ("size_gb") a bare number is in it, and "1.7 TB" converts.
func TestTableBareNumberBesideUnits(t *testing.T) {
	tables, notices, err := ReadTables(strings.NewReader("size,tps\n9,494\n30,408\n1.7 TB,169\n"), "mixed.csv")
	if err != nil || len(tables) != 1 {
		t.Fatal(err, len(tables))
	}
	c := tables[0].Columns[0]
	if c.Unit.Symbol != "TB" || !math.IsNaN(c.Values[0]) || !math.IsNaN(c.Values[1]) || c.Values[2] != 1.7 {
		t.Errorf("size column: unit %q, values %v", c.Unit.Symbol, c.Values)
	}
	var got []string
	for _, n := range notices {
		got = append(got, n.String())
	}
	want := []string{
		`mixed.csv:2: column "size": "9" has no unit where other cells give one (TB): cell left out`,
		`mixed.csv:3: column "size": "30" has no unit where other cells give one (TB): cell left out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	tables, notices, _ = ReadTables(strings.NewReader("size_gb,tps\n9,494\n30,408\n1.7 TB,169\n"), "header.csv")
	c = tables[0].Columns[0]
	if c.Unit.Symbol != "GB" || c.Values[0] != 9 || c.Values[1] != 30 || math.Abs(c.Values[2]-1740.8) > 1e-9 || len(notices) != 0 {
		t.Errorf("size_gb column: unit %q, values %v, notices %v", c.Unit.Symbol, c.Values, notices)
	}
}

// A spreadsheet's tab-separated export quotes a cell holding a comma
// ("1,234"); the quotes were kept, so the throughput columns read as
// names: Warehouses became the y and the tps the configurations,
// '"1,200" vs "1,234" +700.0 % (×8.00, faster)'. A cell quoted whole is
// unquoted, as in a CSV; a quote inside a cell (5" disk) stays.
func TestTableTSVQuotedCells(t *testing.T) {
	in := "Warehouses\tTPS\tNOPM\n10\t\"1,234\"\t\"45,678\"\n20\t\"1,456\"\t\"51,234\"\n40\t\"1,390\"\t\"50,100\"\n80\t\"1,200\"\t\"44,000\"\n"
	tables, notices, err := ReadTables(strings.NewReader(in), "wh.tsv")
	if err != nil || len(tables) != 1 || len(notices) != 0 {
		t.Fatal(err, len(tables), notices)
	}
	tb := tables[0]
	var got []string
	for _, c := range tb.Columns {
		got = append(got, fmt.Sprintf("%s %v %v", c.Name, c.Numeric, c.Values))
	}
	want := []string{"Warehouses true [10 20 40 80]", "TPS true [1234 1456 1390 1200]", "NOPM true [45678 51234 50100 44000]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("columns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	tables, _, _ = ReadTables(strings.NewReader("disk\ttps\n5\" SATA\t169\n\"SSD \"\"Pro\"\"\"\t494\n"), "disks.tsv")
	if len(tables) != 1 || tables[0].Text(0, 0) != `5" SATA` || tables[0].Text(1, 0) != `SSD "Pro"` {
		t.Errorf("names: %q, %q", tables[0].Text(0, 0), tables[0].Text(1, 0))
	}
}

// A table's notices came column by column: "missing.csv:5: column
// "size_gb" …" before "missing.csv:3: column "tps" …". They are in the
// order of the lines now, a line's columns in theirs.
func TestTableNoticesInLineOrder(t *testing.T) {
	_, notices, err := ReadTables(strings.NewReader("size_gb,tps\n9.04,494.73\n10.8,n/a\n13,\nfoo,480\nbar,x\n"), "missing.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range notices {
		got = append(got, n.String())
	}
	want := []string{
		`missing.csv:3: column "tps": "n/a" is not a number; cell left out`,
		`missing.csv:5: column "size_gb": "foo" is not a number; cell left out`,
		`missing.csv:6: column "size_gb": "bar" is not a number; cell left out`,
		`missing.csv:6: column "tps": "x" is not a number; cell left out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
