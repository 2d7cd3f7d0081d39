package parse

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// bigInput repeats the rows of a seed file to about 4 MB.
func bigInput(b *testing.B, name string, header bool) []byte {
	data := testutil.ReadTestdata(b, "seeds", name)
	head, rows, _ := bytes.Cut(data, []byte("\n"))
	var buf bytes.Buffer
	if header {
		buf.Write(head)
		buf.WriteByte('\n')
	}
	for buf.Len() < 4<<20 {
		buf.Write(rows)
	}
	return buf.Bytes()
}

func BenchmarkTableReaderCSV(b *testing.B) {
	data := bigInput(b, "degradation-load-sata.csv", true)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tables, _, err := ReadTables(bytes.NewReader(data), "big.csv")
		if err != nil || len(tables) != 1 {
			b.Fatal(err, len(tables))
		}
	}
}

func BenchmarkTableReaderMarkdown(b *testing.B) {
	data := []byte("| # | size, gb | tps |\n|---|---|---|\n")
	row := []byte("| 12 | 1813,969025 | 169,33 |\n")
	for len(data) < 4<<20 {
		data = append(data, row...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		tables, _, err := ReadTables(bytes.NewReader(data), "big.md")
		if err != nil || len(tables) != 1 {
			b.Fatal(err, len(tables))
		}
	}
}

func BenchmarkBenchReaderPgbench(b *testing.B) {
	run := []byte("scale=1 db_bytes=23502183\npgbench (15.18 (Debian 15.18-0+deb12u1))\nstarting vacuum...end.\n" +
		"progress: 5.0 s, 1592.0 tps, lat 2.484 ms stddev 1.485, 0 failed\ntransaction type: <builtin: TPC-B (sort of)>\n" +
		"scaling factor: 1\nquery mode: simple\nnumber of clients: 4\nnumber of threads: 2\nmaximum number of tries: 1\n" +
		"duration: 15 s\nnumber of transactions actually processed: 21971\nnumber of failed transactions: 0 (0.000%)\n" +
		"latency average = 2.719 ms\nlatency stddev = 1.808 ms\ninitial connection time = 51.646 ms\n" +
		"tps = 1468.339673 (without initial connection time)\n")
	var data []byte
	for len(data) < 4<<20 {
		data = append(data, run...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		br := NewBenchReader(bytes.NewReader(data), "big.txt")
		n := 0
		for br.Next() {
			n++
		}
		if n == 0 {
			b.Fatal("no runs")
		}
	}
}
