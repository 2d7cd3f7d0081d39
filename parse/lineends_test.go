package parse_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"unicode/utf16"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// lineEnds are the line-end variants of a text every reader must read
// alike: LF, CRLF (Windows), lone CR (old Mac tools, some exports) and
// UTF-16LE with BOM and CRLF (PowerShell's `>`).
var lineEnds = []struct {
	name string
	conv func([]byte) []byte
}{
	{"LF", func(b []byte) []byte { return b }},
	{"CRLF", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
	{"CR", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r")) }},
	{"UTF-16", func(b []byte) []byte {
		out := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(string(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))))) {
			out = append(out, byte(u), byte(u>>8))
		}
		return out
	}},
}

// A 2 MB gstat output (1,590 tables, 2,650 indices) reads the same with
// every line end: a lone-CR file used to be one 1 MiB line cut short
// (794 tables and a "line longer than 1048576 bytes cut" notice).
func TestGstatLineEnds(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	data := bigGstat(t, 2<<20)
	n := bytes.Count(data, []byte("\nCUSTOMER_"))
	if n != 265 {
		t.Fatalf("%d copies of the tables, want 265", n)
	}
	var want []*parse.GstatReport
	for _, v := range lineEnds {
		reps, err := parse.ReadGstat(bytes.NewReader(v.conv(data)), "big.txt")
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		r := reps[0]
		if len(reps) != 1 || len(r.Tables) != 1590 || len(r.Indices) != 2650 || len(r.Notices) != 0 {
			t.Errorf("%s: %d reports, %d tables, %d indices, notices %v", v.name, len(reps), len(r.Tables), len(r.Indices), r.Notices)
			continue
		}
		if last := r.Tables[1589]; last.Name != "WAREHOUSE_00264" || last.TotalRecords == nil || *last.TotalRecords != 5 {
			t.Errorf("%s: last table %+v", v.name, last)
		}
		if want == nil {
			want = reps
			continue
		}
		if !reflect.DeepEqual(reps, want) {
			t.Errorf("%s: reports differ from LF", v.name)
		}
	}
}

// A gbak log reads the same with every line end: same steps, same lines.
func TestGbakLineEnds(t *testing.T) {
	for _, file := range []string{"shop-gbak-restore-v-st.log", "shop-gbak-backup-v-st.log"} {
		data := testutil.ReadTestdata(t, "fb30", file)
		var want *parse.GbakLog
		for _, v := range lineEnds {
			log, err := parse.ReadGbak(bytes.NewReader(v.conv(data)), file)
			if err != nil {
				t.Fatalf("%s %s: %v", file, v.name, err)
			}
			if want == nil {
				want = log
				if len(log.Lines) < 50 {
					t.Fatalf("%s: only %d steps", file, len(log.Lines))
				}
				continue
			}
			if !reflect.DeepEqual(log, want) {
				t.Errorf("%s %s: log differs from LF (%d steps, want %d)", file, v.name, len(log.Lines), len(want.Lines))
			}
		}
	}
}

// Every benchmark output and result table of the corpus reads the same
// with every line end. pgbench outputs whose first line is not pgbench's
// own (the scale sweep's "scale=N db_bytes=B") used to be read as tables
// with lone CRs: "no table and no benchmark result found".
func TestThroughputLineEnds(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "bench", "*.txt"))
	scales, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales", "*.txt"))
	seeds, _ := filepath.Glob(filepath.Join(testutil.Root(t), "testdata", "seeds", "*.[ct]sv"))
	paths = append(append(paths, scales...), seeds...)
	if len(paths) != 5+12+4 {
		t.Fatalf("%d inputs, want 21: %v", len(paths), paths)
	}
	inputs := map[string][]byte{
		// HammerDB's lines as its sources write them (bench_test.go).
		"hammerdb.log": []byte("warehouses=50\nVuser 1:5 Active Virtual Users configured\n" +
			"Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM\n"),
		"go-bench.txt": []byte("goos: linux\nBenchmarkJoin/n=10-2   2000   202.9 ns/op\nPASS\n"),
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = data
	}
	for name, data := range inputs {
		var wantT []*parse.Table
		var wantR []*parse.Run
		for i, v := range lineEnds {
			tables, runs, notes, err := parse.ReadThroughput(bytes.NewReader(v.conv(data)), name)
			if err != nil {
				t.Errorf("%s %s: %v", name, v.name, err)
				continue
			}
			if i == 0 {
				wantT, wantR = tables, runs
				if len(tables)+len(runs) == 0 {
					t.Fatalf("%s: nothing read (%v)", name, notes)
				}
				continue
			}
			if dump(tables) != dump(wantT) || dump(runs) != dump(wantR) {
				t.Errorf("%s %s: %d tables, %d runs; LF gives %d, %d", name, v.name, len(tables), len(runs), len(wantT), len(wantR))
			}
			kind, _ := parse.Detect(v.conv(data))
			lfKind, _ := parse.Detect(data)
			if kind != lfKind {
				t.Errorf("%s %s: detected as %s, LF as %s", name, v.name, kind, lfKind)
			}
		}
	}
}

// Lone CRs cost what LF costs: a line is not copied again for every line
// after it. The old reader took a lone-CR file for one long line and
// copied its rest at each CR (9.6 s and gigabytes for 2 MB).
func TestLineReaderLoneCRLinear(t *testing.T) {
	lf := bigGstat(t, 2<<20)
	allocated := func(data []byte) (uint64, int) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		lr := parse.NewLineReader(bytes.NewReader(data), "big.txt")
		lines := 0
		for lr.Next() {
			lines++
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, lines
	}
	lfBytes, lfLines := allocated(lf)
	for _, v := range lineEnds[1:3] {
		got, lines := allocated(v.conv(lf))
		if lines != lfLines {
			t.Errorf("%s: %d lines, LF %d", v.name, lines, lfLines)
		}
		// The reader's buffers: 64 KiB and the longest line, whatever
		// the file size.
		if got > lfBytes+64<<10 {
			t.Errorf("%s: %d bytes allocated for %d lines, LF %d", v.name, got, lines, lfBytes)
		}
	}
}

// BenchmarkLineEnds reads a gstat output with each line end at two sizes:
// the same MB/s at 1 and 4 MB is linear time (cpu-MB/s is the steadiest
// figure on a shared machine).
func BenchmarkLineEnds(b *testing.B) {
	for _, v := range lineEnds {
		for _, mb := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/%dMB", v.name, mb), func(b *testing.B) {
				benchLines(b, v.conv(bigGstat(b, mb<<20)))
			})
		}
	}
}

// dump prints what the pointers of a slice point to: tables hold NaN for
// the cells of text columns, which reflect.DeepEqual never finds equal.
func dump[T any](s []*T) string {
	var b bytes.Buffer
	for _, p := range s {
		fmt.Fprintf(&b, "%+v\n", *p)
	}
	return b.String()
}
