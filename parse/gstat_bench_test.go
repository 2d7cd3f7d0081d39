package parse_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// bigGstat builds a gstat output of about size bytes from the fb30 sample:
// its header, then its table and index blocks repeated with renamed
// tables, then its completion line.
func bigGstat(tb testing.TB, size int) []byte {
	src := string(testutil.ReadTestdata(tb, "fb30", "shop-gstat-a-r.txt"))
	start := strings.Index(src, "CUSTOMER (129)")
	end := strings.Index(src, "Gstat completion time")
	head, blocks, tail := src[:start], src[start:end], src[end:]
	var buf bytes.Buffer
	buf.WriteString(head)
	for i := 0; buf.Len() < size; i++ {
		suffix := fmt.Sprintf("_%05d (", i)
		r := strings.NewReplacer(" (129)", suffix+"129)", " (130)", suffix+"130)", " (131)", suffix+"131)",
			" (132)", suffix+"132)", " (133)", suffix+"133)", " (128)", suffix+"128)")
		buf.WriteString(r.Replace(blocks))
	}
	buf.WriteString(tail)
	return buf.Bytes()
}

// BenchmarkGstat collects a ~8 MB output into GstatReports.
func BenchmarkGstat(b *testing.B) {
	data := bigGstat(b, 8<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := testutil.CPUTime()
	best := time.Duration(1<<63 - 1)
	for b.Loop() {
		t0 := time.Now()
		reps, err := parse.ReadGstat(bytes.NewReader(data), "big.txt")
		if err != nil || len(reps[0].Tables) == 0 {
			b.Fatal(err)
		}
		best = min(best, time.Since(t0))
	}
	reportCPU(b, cpu, len(data))
	reportBest(b, best, len(data))
}

// reportBest adds "best-MB/s", the speed of the fastest iteration: on a
// machine shared with other jobs it is the closest to one idle core.
func reportBest(b *testing.B, best time.Duration, size int) {
	b.ReportMetric(float64(size)/1e6/best.Seconds(), "best-MB/s")
}

// reportCPU adds "cpu-MB/s": bytes read per second of CPU time used by the
// process (all threads, GC included), which a loaded machine skews far
// less than wall-clock MB/s.
func reportCPU(b *testing.B, start time.Duration, size int) {
	used := testutil.CPUTime() - start
	if used <= 0 || start == 0 {
		return
	}
	b.ReportMetric(float64(size)*float64(b.N)/1e6/used.Seconds(), "cpu-MB/s")
}

// BenchmarkGstatStream reads records and drops them, at two sizes: the
// allocations per record stay the same when the file grows (memory grows
// with the records kept, not with the bytes read).
func BenchmarkGstatStream(b *testing.B) {
	for _, mb := range []int{1, 8} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			data := bigGstat(b, mb<<20)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			cpu := testutil.CPUTime()
			records := 0
			best := time.Duration(1<<63 - 1)
			for b.Loop() {
				t0 := time.Now()
				records = 0
				r := parse.NewGstatReader(bytes.NewReader(data), "big.txt")
				for r.Next() {
					records++
				}
				best = min(best, time.Since(t0))
			}
			reportCPU(b, cpu, len(data))
			reportBest(b, best, len(data))
			b.ReportMetric(float64(records), "records/op")
		})
	}
}

// TestGstatBig checks the benchmark input reads cleanly: every repeated
// block is found.
func TestGstatBig(t *testing.T) {
	data := bigGstat(t, 1<<20)
	reps, err := parse.ReadGstat(bytes.NewReader(data), "big.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := reps[0]
	n := bytes.Count(data, []byte("\nCUSTOMER_"))
	if len(r.Tables) != 6*n || len(r.Indices) != 10*n || len(r.Notices) != 0 {
		t.Errorf("%d tables, %d indices, %d notices for %d copies", len(r.Tables), len(r.Indices), len(r.Notices), n)
	}
	if _, err := io.Copy(io.Discard, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkGstatLines is the floor: the same input split by LineReader
// alone, without the gstat reader.
func BenchmarkGstatLines(b *testing.B) { benchLines(b, bigGstat(b, 8<<20)) }

// benchLines splits data into lines with LineReader alone.
func benchLines(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := testutil.CPUTime()
	best := time.Duration(1<<63 - 1)
	for b.Loop() {
		t0 := time.Now()
		lr := parse.NewLineReader(bytes.NewReader(data), "big.txt")
		for lr.Next() {
		}
		best = min(best, time.Since(t0))
	}
	reportCPU(b, cpu, len(data))
	reportBest(b, best, len(data))
}

// TestGstatAllocsPerRecord pins the streaming property: allocations grow
// with the records returned, not with the bytes read.
func TestGstatAllocsPerRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 5 MB")
	}
	perRecord := func(size int) float64 {
		data := bigGstat(t, size)
		records := 0
		allocs := testing.AllocsPerRun(2, func() {
			records = 0
			r := parse.NewGstatReader(bytes.NewReader(data), "big.txt")
			for r.Next() {
				records++
			}
		})
		return allocs / float64(records)
	}
	small, large := perRecord(1<<20), perRecord(4<<20)
	if small > 3 || large > 3 {
		t.Errorf("allocations per record: %.2f (1 MB), %.2f (4 MB); want at most 3", small, large)
	}
	if large > small*1.1 {
		t.Errorf("allocations per record grow with the file: %.2f (1 MB) -> %.2f (4 MB)", small, large)
	}
}

// BenchmarkGstatSpeculate reads an 8 MB output as the lanes' workers do
// (analyze.StreamGstat on several cores): cut at table blocks into pieces
// of about 128 KiB (GstatCut), each read in place on its own
// (SpeculateGstat), its records given back to the pool once read.
func BenchmarkGstatSpeculate(b *testing.B) {
	data := bigGstat(b, 8<<20)
	var pieces [][]byte
	for p := data; len(p) > 0; {
		cut := parse.GstatCut(p, 128<<10)
		if cut < 0 {
			cut = len(p)
		}
		pieces, p = append(pieces, p[:cut]), p[cut:]
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var pool parse.GstatPool
	var spec parse.GstatSpec
	cpu := testutil.CPUTime()
	best := time.Duration(1<<63 - 1)
	tables := 0
	for b.Loop() {
		t0 := time.Now()
		tables = 0
		for _, p := range pieces {
			parse.SpeculateGstat(p, "big.txt", &pool, &spec)
			tables += len(spec.Tables)
			spec.Release(&pool)
		}
		best = min(best, time.Since(t0))
	}
	reportCPU(b, cpu, len(data))
	reportBest(b, best, len(data))
	b.ReportMetric(float64(tables), "tables/op")
	b.ReportMetric(float64(len(pieces)), "pieces")
}
