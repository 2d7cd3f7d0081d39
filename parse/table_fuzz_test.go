package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// addSeeds adds the repository's seed tables and, when present, the shared
// corpus files matching the patterns (the fuzzer must not skip when the
// corpus is absent, so it does not go through testutil.CorpusDir).
func addSeeds(f *testing.F, corpusPatterns ...string) {
	for _, name := range []string{"degradation-throughput-sata.csv", "degradation-load-sata.csv",
		"page-buffers-1.7tb.csv", "power-plan-tpcc.tsv"} {
		data := testutil.ReadTestdata(f, "seeds", name)
		f.Add(data)
	}
	root := filepath.Join(testutil.Root(f), "..", "shared")
	for _, p := range corpusPatterns {
		m, _ := filepath.Glob(filepath.Join(root, p))
		for _, path := range m {
			if data, err := os.ReadFile(path); err == nil {
				f.Add(testutil.Head(data, 4096)) // a large seed keeps the fuzzer minimising
			}
		}
	}
}

// addVariants adds a testdata file as it is, with lone CRs, huge numbers
// and long names.
func addVariants(f *testing.F, rel ...string) {
	data := testutil.ReadTestdata(f, rel...)
	for _, v := range testutil.Variants(data) {
		f.Add(v)
	}
}

func FuzzTableReader(f *testing.F) {
	addSeeds(f, "seeds/00*.txt")
	f.Add([]byte("| a | b |\n|---|---|\n| 1,5 | 2 |\n| x |\n"))
	f.Add([]byte("size  tps\n10 GB  1 234,5\n\"q,1\",2\n"))
	addVariants(f, "seeds", "degradation-throughput-sata.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		tables, notes, err := ReadTables(bytes.NewReader(data), "fuzz.txt")
		if err != nil {
			return
		}
		for _, tb := range tables {
			for _, c := range tb.Columns {
				if len(c.Values) != len(tb.Rows) {
					t.Fatalf("column %q: %d values for %d rows", c.Name, len(c.Values), len(tb.Rows))
				}
			}
			for _, r := range tb.Rows {
				if r.Line < tb.Line || len(r.Cells) != len(tb.Columns) {
					t.Fatalf("row at line %d (table line %d): %d cells for %d columns", r.Line, tb.Line, len(r.Cells), len(tb.Columns))
				}
			}
		}
		for _, n := range notes {
			if n.Line <= 0 {
				t.Fatalf("notice without a line: %v", n)
			}
		}
		MergeTables(tables)
	})
}

func FuzzBenchReader(f *testing.F) {
	addSeeds(f, "corpus/bench/*.txt", "corpus/bench/pgbench-scales/*rw-scale1*.txt")
	f.Add([]byte("Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n"))
	f.Add([]byte("dbsize: 10GiB\nBenchmarkOLTP/dbsize=10GiB-8 1 812.5 tps 2.95 ms-lat\n"))
	for _, v := range testutil.Variants([]byte("warehouses=50\nVuser 1:5 Active Virtual Users configured\n" +
		"Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n" +
		"goos: linux\nBenchmarkJoin/n=10-2   2000   202.9 ns/op\n")) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		br := NewBenchReader(bytes.NewReader(data), "fuzz.txt")
		for br.Next() {
			r := br.Run()
			if r.Line <= 0 || r.Unit.IsZero() || r.Tool == "" {
				t.Fatalf("run without line, unit or tool: %+v", r)
			}
		}
	})
}
