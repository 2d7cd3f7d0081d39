package parse

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func detectFile(t testing.TB, path string) (InputKind, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Detect(b)
}

func TestDetectTestdata(t *testing.T) {
	want := map[string]InputKind{
		"fb30/shop-gbak-backup-v-st.log":        InputGbak,
		"fb30/shop-gbak-restore-v-st.log":       InputGbak,
		"fb30/shop-gstat-a-r.txt":               InputGstat,
		"fb30/shop-gstat-d.txt":                 InputGstat,
		"fb30/shop-gstat-e.txt":                 InputGstat,
		"fb30/shop-gstat-h.txt":                 InputGstat,
		"fb30/shop-gstat-i.txt":                 InputGstat,
		"fb30/shop-gstat-r-later.txt":           InputGstat,
		"fb30/shop-gstat-s-r.txt":               InputGstat,
		"fb30/shop-schema.sql":                  InputUnknown,
		"seeds/degradation-load-sata.csv":       InputThroughput,
		"seeds/degradation-throughput-sata.csv": InputThroughput,
		"seeds/page-buffers-1.7tb.csv":          InputThroughput,
		"seeds/power-plan-tpcc.tsv":             InputThroughput,
		"seeds/restore-balanced.log":            InputGbak,
		"seeds/restore-high-performance.log":    InputGbak,
	}
	for rel, k := range want {
		got, why := detectFile(t, testutil.Testdata(t, filepath.FromSlash(rel)))
		if got != k {
			t.Errorf("%s: %s (%s), want %s", rel, got, why, k)
		}
	}
	// The reason quotes the line that decided.
	if _, why := detectFile(t, testutil.Testdata(t, "fb30", "shop-gstat-h.txt")); why != `line 2: "Database \"/var/lib/firebird/data/shop.fdb\""` && !strings.Contains(why, "Gstat execution time") {
		t.Errorf("gstat reason %q", why)
	}
	if _, why := detectFile(t, testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv")); why != `tab-separated table with 2 columns, header line 1: "power_plan      tpcc_score"` {
		t.Errorf("tsv reason %q", why)
	}
}

// TestDetectEncodings: the same gstat output saved by PowerShell (UTF-16LE
// with BOM, CRLF) or without BOM is still gstat.
func TestDetectEncodings(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	for name, b := range map[string][]byte{
		"utf16le-bom": utf16le(string(crlf), true),
		"utf16le":     utf16le(string(data), false),
		"utf8-bom":    append([]byte{0xEF, 0xBB, 0xBF}, crlf...),
		"long":        bytes.Repeat(data, 300), // cut at DetectSize mid-line
	} {
		if k, why := Detect(b); k != InputGstat {
			t.Errorf("%s: %s (%s)", name, k, why)
		}
	}
	if k, _ := Detect([]byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2}); k != InputUnknown {
		t.Errorf("binary detected as %s", k)
	}
	if k, why := Detect(nil); k != InputUnknown || why != "empty" {
		t.Errorf("empty: %s %s", k, why)
	}
}

// TestDetectCorpus runs Detect over the shared corpus: every published
// gstat and gbak output and every benchmark capture is recognised.
func TestDetectCorpus(t *testing.T) {
	dir := testutil.CorpusDir(t)
	counts := map[InputKind]int{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		var want InputKind
		switch {
		case strings.HasPrefix(rel, filepath.Join("public", "gstat")), strings.Contains(rel, "gstat"):
			want = InputGstat
		case strings.HasPrefix(rel, filepath.Join("public", "gbak")), strings.Contains(rel, "gbak"), strings.HasSuffix(rel, ".log"):
			want = InputGbak
		case strings.HasPrefix(rel, "bench"):
			want = InputBenchmark
		case strings.HasSuffix(rel, ".csv"), strings.HasSuffix(rel, ".tsv"):
			want = InputThroughput
		default:
			want = InputUnknown
		}
		got, why := detectFile(t, p)
		counts[got]++
		if got != want {
			t.Errorf("%s: %s (%s), want %s", rel, got, why, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corpus kinds: %v", counts)
}

func FuzzDetect(f *testing.F) {
	for _, rel := range []string{"fb30/shop-gstat-h.txt", "fb30/shop-gbak-restore-v-st.log", "seeds/power-plan-tpcc.tsv", "seeds/page-buffers-1.7tb.csv"} {
		b := testutil.ReadTestdata(f, filepath.FromSlash(rel))
		f.Add(b)
	}
	for _, name := range []string{testutil.GstatSeed, testutil.GbakSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(s)
		}
	}
	addVariants(f, "seeds", "power-plan-tpcc.tsv")
	f.Fuzz(func(t *testing.T, b []byte) {
		k, why := Detect(b)
		if k == "" || why == "" {
			t.Fatalf("empty answer %q %q", k, why)
		}
	})
}

func BenchmarkDetect(b *testing.B) {
	data := testutil.ReadTestdata(b, "fb30", "shop-gstat-s-r.txt")
	data = data[:min(len(data), DetectSize)]
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		Detect(data)
	}
}

// The articles fbdiag throughput reads are throughput inputs to detect
// and report too: their tables sit inside prose (a markdown table at line
// 23 of the Spanish article, with decimal commas "9,04"), which the table
// reader reads as an article's. The English one (004) has no table the
// reader finds: it stays unknown, as throughput says "no table".
func TestDetectArticleTables(t *testing.T) {
	for _, c := range []struct{ prefix, why string }{
		{"000", `markdown table with 4 columns inside prose, header line 23: "| # | tamaño de base de datos, gb | tie…"`},
		{"001", `markdown table with 3 columns inside prose, header line 31: "| Buffers de pages | Classic, points de…"`},
		{"002", `tab-separated table with 3 columns inside prose, header line 55: "페이지 버퍼  Classic, 테스트 포인트        SuperCl…"`},
		{"004", "no gstat, gbak, benchmark, bench run or table lines in the first 5 KiB"},
	} {
		path := testutil.SeedArticle(t, c.prefix)
		k, why := detectFile(t, path)
		want := InputThroughput
		if c.prefix == "004" {
			want = InputUnknown
		}
		if k != want || why != c.why {
			t.Errorf("%s: %s, %q; want %s, %q", c.prefix, k, why, want, c.why)
		}
		// The throughput reader agrees: a table with numbers, or none.
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tables, _, err := ReadTables(f, path)
		f.Close()
		if err != nil || (len(tables) > 0) != (want == InputThroughput) {
			t.Errorf("%s: throughput reads %d tables (%v)", c.prefix, len(tables), err)
		}
	}
}

// A document's table of files and line counts (the corpus's SOURCES.md:
// one column of numbers) is no result: a report of the corpus folder
// lists it as not analysed, not as a throughput A/B of "lines against
// file".
func TestDetectProseTableNeedsTwoNumbers(t *testing.T) {
	for _, rel := range []string{"public/gstat/SOURCES.md", "public/gbak/SOURCES.md"} {
		k, why := detectFile(t, testutil.Corpus(t, strings.Split(rel, "/")...))
		if k != InputUnknown {
			t.Errorf("%s: %s, %q; want unknown", rel, k, why)
		}
	}
}

// Inside prose only a table set apart as one is a result: lines
// split by commas or spaces (a CSV quoted in a doc, sentences), which
// the throughput reader also reads as a table, are no result (README.md,
// CHANGELOG.md and six of docs/ were throughput inputs to detect).
func TestDetectProseSentencesAreNoTable(t *testing.T) {
	// (docs/bench-json.md quotes an output of fbdiag this way.)
	prose := "# Notes\n\nThe load writes one line a step, as here:\n\n```\nstep,warehouses,seconds,rows\n" +
		"item,1,2.5,100000\nwarehouse,1,0.1,1\nstock,1,30.2,100000\n```\n\nThat is all.\n"
	if k, why := Detect([]byte(prose)); k != InputUnknown {
		t.Errorf("prose: %s, %q; want unknown", k, why)
	}
	table := prose + "\n| size, MiB | seconds |\n|---|---|\n| 100 | 3 |\n| 300 | 4 |\n| 1024 | 9 |\n"
	if k, why := Detect([]byte(table)); k != InputThroughput || !strings.HasPrefix(why, "markdown table with 2 columns inside prose") {
		t.Errorf("markdown table: %s, %q; want throughput", k, why)
	}
}

// fb30Header is the start of the header page of a database Firebird
// 3.0.11 created (8 KiB pages): page type 1, ODS 12 with the Firebird flag
// (0x800C) at 0x12.
var fb30Header = []byte{
	0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x20, 0x0c, 0x80, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x00, 0xc4, 0xef, 0x00, 0x00,
}

// A database file given instead of gstat's output starts 01 00 00 00,
// which passed for UTF-16 without BOM: its page text ("-" lines of the
// system tables) then read as gstat errors, with exit 0. A gzip'd gstat
// output was "NUL bytes" without a word about gunzip.
func TestDetectBinaryInputs(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-h.txt")
	page := make([]byte, 8192)
	copy(page, fb30Header)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(data)
	w.Close()
	for name, c := range map[string]struct {
		b   []byte
		why string
	}{
		"database": {append(page, data...), "binary data (a Firebird database file, ODS 12, 8192-byte pages): run gstat -a -r on it and give fbdiag gstat's output"},
		"gzip":     {gz.Bytes(), "binary data (gzip-compressed): decompress it first: gunzip -c FILE | fbdiag … -"},
		// A header page cut to four bytes is no database, and still binary.
		"01000000": {append([]byte{1, 0, 0, 0, 7, 0, 0, 0}, data...), "binary data (NUL bytes outside UTF-16 text)"},
	} {
		if k, why := Detect(c.b); k != InputUnknown || why != c.why {
			t.Errorf("%s: %s (%s); want unknown (%s)", name, k, why, c.why)
		}
	}
	// UTF-16 without BOM is text: its NULs are every other byte, never a
	// code unit.
	if k, why := Detect(utf16le(string(data), false)); k != InputGstat {
		t.Errorf("utf16le: %s (%s)", k, why)
	}
}
