package parse

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func readTablesFile(t *testing.T, path string) ([]*Table, []Notice) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, notes, err := ReadTables(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return tables, notes
}

func wantColumn(t *testing.T, tb *Table, i int, name, unit string, values ...float64) {
	t.Helper()
	c := tb.Columns[i]
	if c.Name != name || c.Unit.Symbol != unit || !c.Numeric {
		t.Errorf("column %d = %q [%s] numeric=%v; want %q [%s]", i, c.Name, c.Unit.Symbol, c.Numeric, name, unit)
	}
	if len(c.Values) != len(values) {
		t.Fatalf("column %q has %d values, want %d", name, len(c.Values), len(values))
	}
	for j, v := range values {
		if c.Values[j] != v {
			t.Errorf("column %q row %d = %v, want %v", name, j, c.Values[j], v)
		}
	}
}

func TestTableCSVSeeds(t *testing.T) {
	tables, notes := readTablesFile(t, testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	if len(tables) != 1 || len(notes) != 0 {
		t.Fatalf("%d tables, notices %v", len(tables), notes)
	}
	tb := tables[0]
	if tb.Format != "csv" || !tb.Header || tb.Line != 1 || len(tb.Rows) != 12 || tb.DecimalComma {
		t.Errorf("table = %s header=%v line %d rows %d comma=%v", tb.Format, tb.Header, tb.Line, len(tb.Rows), tb.DecimalComma)
	}
	wantColumn(t, tb, 1, "size_gb", "GB", 9.04, 10.8, 13, 15.5, 17.3, 19.9, 21.6, 24.2, 26, 28.6, 30.3, 1813.969025)
	wantColumn(t, tb, 2, "ops_per_s", "ops/s", 494.73, 491.94, 480.36, 469.11, 446.42, 431.61, 426.85, 424.5, 414.04, 409.14, 407.97, 169.33)
	if tb.Rows[11].Line != 13 {
		t.Errorf("last row at line %d, want 13", tb.Rows[11].Line)
	}
	if i, ok := tb.Col("ops per s"); !ok || i != 2 {
		t.Errorf("Col(ops per s) = %d %v", i, ok)
	}
	if i, ok := tb.Col("2"); !ok || i != 1 {
		t.Errorf("Col(2) = %d %v", i, ok)
	}
}

func TestTableTSV(t *testing.T) {
	tables, _ := readTablesFile(t, testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	if len(tables) != 1 {
		t.Fatalf("%d tables", len(tables))
	}
	tb := tables[0]
	if tb.Format != "tsv" || tb.Columns[0].Numeric || tb.Text(1, 0) != "High performance" {
		t.Errorf("format %s, first column numeric=%v, row 2 %q", tb.Format, tb.Columns[0].Numeric, tb.Text(1, 0))
	}
	wantColumn(t, tb, 1, "tpcc_score", "score", 17029, 21226)
}

// Seed 000 prints its tables in markdown with decimal commas, and prints
// the throughput table a second time with the 1.7 TB row added.
func TestTableArticle000(t *testing.T) {
	tables, notes := readTablesFile(t, testutil.SeedArticle(t, "000"))
	if len(tables) != 4 || len(notes) != 0 {
		t.Fatalf("%d tables (want 4), notices %v", len(tables), notes)
	}
	lines := []int{23, 46, 70, 78}
	rows := []int{11, 11, 1, 12}
	for i, tb := range tables {
		if tb.Line != lines[i] || len(tb.Rows) != rows[i] || tb.Format != "markdown" || !tb.DecimalComma {
			t.Errorf("table %d: line %d rows %d %s comma=%v; want line %d rows %d", i, tb.Line, len(tb.Rows), tb.Format, tb.DecimalComma, lines[i], rows[i])
		}
	}
	merged, mnotes := MergeTables(tables)
	if len(merged) != 2 || len(mnotes) != 2 {
		t.Fatalf("merged into %d tables, notes %v", len(merged), mnotes)
	}
	if !strings.Contains(mnotes[1].Msg, "1 new rows, 11 repeated") || mnotes[1].Line != 78 {
		t.Errorf("merge note = %v", mnotes[1])
	}
	load, perf := merged[0], merged[1]
	wantColumn(t, load, 2, "tiempo de carga, seg", "s", 2535, 3197, 4057, 4698, 5455, 6037, 6473, 7539, 7779, 8851, 9266, 566448)
	wantColumn(t, load, 3, "velocidad de carga SATA, Mb/seg", "MB/s", 3.65166075, 3.45924304, 3.281242297, 3.378458919,
		3.24751604, 3.375451383, 3.417024564, 3.287014193, 3.422547885, 3.308823862, 3.348499892, 3.279214122)
	wantColumn(t, perf, 1, "tamaño de base de datos, gb", "GB", 9.04, 10.8, 13, 15.5, 17.3, 19.9, 21.6, 24.2, 26, 28.6, 30.3, 1813.969025)
	wantColumn(t, perf, 2, "rendimiento en SATA", "", 494.73, 491.94, 480.36, 469.11, 446.42, 431.61, 426.85, 424.5, 414.04, 409.14, 407.97, 169.33)
}

// Seed 003 has two tab-separated tables inside its prose, the second
// with durations in words.
func TestTableArticle003(t *testing.T) {
	tables, _ := readTablesFile(t, testutil.SeedArticle(t, "003"))
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2", len(tables))
	}
	wantColumn(t, tables[0], 1, "Rendimiento TPC-C (cuanto más alto, mejor)", "", 17029, 21226)
	wantColumn(t, tables[1], 1, "Tiempo de restauración (cuanto menos, mejor)", "s", 4*3600+7*60, 2*3600+35*60)
	if tables[1].Line != 23 || tables[1].Text(0, 0) != "Equilibrado" {
		t.Errorf("second table at line %d, first label %q", tables[1].Line, tables[1].Text(0, 0))
	}
}

func TestTableArticle001(t *testing.T) {
	tables, _ := readTablesFile(t, testutil.SeedArticle(t, "001"))
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	tb := tables[0]
	wantColumn(t, tb, 0, "Buffers de pages", "", 256, 512, 768, 1024, 1500, 2048)
	wantColumn(t, tb, 1, "Classic, points de test", "points", 299, 371, 362, 312, 390, 285)
	wantColumn(t, tb, 2, "SuperClassic, points de test", "points", 372, 359, 386, 387, 392, 284)
}

func TestTableFormatsAndNotices(t *testing.T) {
	in := "# results of the night run\n" +
		"size  ops/s  note\n" +
		"10 GB  812  first\n" +
		"20 GB  n/a  lost\n" +
		"1,5 TB  401  third\n" +
		"30 GB  400\n" +
		"\n" +
		"scale;tps\n" +
		"1;1468,3\n" +
		"10;1526,1\n"
	tables, notes, err := ReadTables(strings.NewReader(in), "night.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2", len(tables))
	}
	a := tables[0]
	if a.Format != "text" || a.Line != 2 || len(a.Rows) != 3 {
		t.Errorf("aligned table: %s line %d rows %d", a.Format, a.Line, len(a.Rows))
	}
	// 1,5 TB is read with the decimal comma and brought to the column's GB.
	wantColumn(t, a, 0, "size", "GB", 10, 20, 1.5*1024)
	if len(notes) != 2 || notes[0].Line != 6 || notes[1].Line != 4 ||
		!strings.Contains(notes[0].Msg, "2 cells, the header has 3") || !strings.Contains(notes[1].Msg, `"n/a" is not a number`) {
		t.Errorf("notices = %v", notes)
	}
	b := tables[1]
	if b.Format != "semicolon" || b.Line != 8 {
		t.Errorf("second table: %s line %d", b.Format, b.Line)
	}
	wantColumn(t, b, 1, "tps", "tps", 1468.3, 1526.1)
}

func TestTableNoHeader(t *testing.T) {
	tables, _, err := ReadTables(strings.NewReader("256,299,372\n512,371,359\n"), "x.csv")
	if err != nil || len(tables) != 1 {
		t.Fatalf("%v, %d tables", err, len(tables))
	}
	tb := tables[0]
	if tb.Header || len(tb.Rows) != 2 {
		t.Errorf("header=%v rows=%d", tb.Header, len(tb.Rows))
	}
	wantColumn(t, tb, 2, "3", "", 372, 359)
}

func TestTableNotATable(t *testing.T) {
	tables, notes, err := ReadTables(strings.NewReader("Hola, mundo.\nNo hay tablas aquí, 3 veces.\n"), "prose.txt")
	if err != nil || len(tables) != 0 || len(notes) != 0 {
		t.Errorf("prose: %v, %d tables, %v", err, len(tables), notes)
	}
}

// A title line, then an aligned table: the title makes the file prose,
// and the table is still found because its rows are numbers.
func TestTableAfterTitle(t *testing.T) {
	in := "Results of the SATA runs, night of 12 May\n\nsize_gb  ops_per_s\n9.04  494.73\n10.80  491.94\n\nThat is all, 2 runs.\n"
	tables, notes, err := ReadTables(strings.NewReader(in), "title.txt")
	if err != nil || len(tables) != 1 || len(notes) != 0 {
		t.Fatalf("%v, %d tables, %v", err, len(tables), notes)
	}
	if tb := tables[0]; tb.Line != 3 || tb.Format != "text" {
		t.Errorf("table at line %d, %s", tb.Line, tb.Format)
	}
	wantColumn(t, tables[0], 1, "ops_per_s", "ops/s", 494.73, 491.94)
}
