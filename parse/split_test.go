package parse

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// seed003 is seed article 003: prose holding two result tables and two
// gbak restore excerpts.
func seed003(t testing.TB) []byte {
	t.Helper()
	return testutil.ReadTestdata(t, "mixed", "003_f44fd1243848db85.txt")
}

func splitBytes(t testing.TB, data []byte, name string) *Split {
	t.Helper()
	s, err := SplitInput(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parts is "NAME KIND FIRST-LAST" per part, one a line.
func parts(s *Split) string {
	var b strings.Builder
	for _, p := range s.Parts {
		fmt.Fprintf(&b, "%s %s %d-%d\n", p.Name, p.Kind, p.First, p.Last)
	}
	return b.String()
}

// Seed 003: the TPC-C table (lines 15-17), the restore time table
// (23-25), the restore under the balanced plan (35-39) and under the high
// performance plan (45-52: one line, "Code", four lines; 49 starts at
// 5924.667 − 622.882 = 5301.785, the time of 45, so nothing is missing).
// The 38 lines that are not blank are 16 of the parts and 22 of prose
// ("Code" in the second excerpt among them).
func TestSplitSeed003(t *testing.T) {
	s := splitBytes(t, seed003(t), "003.txt")
	want := "003.txt#table-1 throughput 15-17\n" +
		"003.txt#table-2 throughput 23-25\n" +
		"003.txt#gbak-1 gbak 35-39\n" +
		"003.txt#gbak-2 gbak 45-52\n"
	if got := parts(s); got != want || !s.Mixed() || s.Skipped != 22 || s.Lines != 64 || s.More != 0 {
		t.Fatalf("mixed %v, %d lines, %d skipped, %d more:\n%swant\n%s", s.Mixed(), s.Lines, s.Skipped, s.More, got, want)
	}
	for i, why := range []string{
		`tab-separated table with 2 columns, header line 15: "Plan de energía Rendimiento TPC-C (cuan…"`,
		`tab-separated table with 2 columns, header line 23: "Plan de energía Tiempo de restauración …"`,
		`line 35: "gbak: 9529.339 1230.343 5028900 346529 …"`,
		`line 45: "gbak: 5301.785 615.045 5028900 346529 a…"`,
	} {
		if s.Parts[i].Reason != why {
			t.Errorf("part %d: reason %q, want %q", i+1, s.Parts[i].Reason, why)
		}
	}
}

func readPart(t *testing.T, data []byte, p Part) []byte {
	t.Helper()
	b, err := io.ReadAll(PartReader(bytes.NewReader(data), "003.txt", p))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Each part reads as a file of its own with the article's line numbers:
// the tables' cells and the excerpts' steps.
func TestPartReaderSeed003(t *testing.T) {
	data := seed003(t)
	s := splitBytes(t, data, "003.txt")
	for i, c := range []struct {
		head   string
		line   int
		rows   []string
		values [2]float64
	}{
		{"Rendimiento TPC-C (cuanto más alto, mejor)", 15, []string{"Equilibrado", "Alto rendimiento"}, [2]float64{17029, 21226}},
		// 4 horas 7 minutos, 2 horas 35 minutos, in seconds.
		{"Tiempo de restauración (cuanto menos, mejor)", 23, []string{"Equilibrado", "Alto rendimiento"}, [2]float64{14820, 9300}},
	} {
		text := readPart(t, data, s.Parts[i])
		if n := bytes.Count(text, []byte("\n")); n != s.Parts[i].Last {
			t.Errorf("table %d: %d lines, want %d", i+1, n, s.Parts[i].Last)
		}
		tables, notes, err := ReadTables(bytes.NewReader(text), "003.txt")
		if err != nil || len(notes) != 0 || len(tables) != 1 {
			t.Fatalf("table %d: %d tables, notices %v, %v", i+1, len(tables), notes, err)
		}
		tb := tables[0]
		if tb.Line != c.line || !tb.Header || tb.Format != "tsv" || len(tb.Columns) != 2 || len(tb.Rows) != 2 ||
			tb.Columns[0].Name != "Plan de energía" || tb.Columns[1].Name != c.head {
			t.Fatalf("table %d: line %d header %v format %s columns %v rows %d", i+1, tb.Line, tb.Header, tb.Format, tb.ColumnNames(), len(tb.Rows))
		}
		for r, name := range c.rows {
			if tb.Text(r, 0) != name || tb.Columns[1].Values[r] != c.values[r] || tb.Rows[r].Line != c.line+1+r {
				t.Errorf("table %d row %d: %q %v at line %d", i+1, r, tb.Text(r, 0), tb.Columns[1].Values[r], tb.Rows[r].Line)
			}
		}
	}
	for i, c := range []struct {
		lines      []int
		first, end float64
	}{
		{[]int{35, 36, 37, 38, 39}, 9529.339, 13304.334},
		{[]int{45, 49, 50, 51, 52}, 5301.785, 7894.340},
	} {
		log, err := ReadGbak(bytes.NewReader(readPart(t, data, s.Parts[2+i])), "003.txt")
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, l := range log.Lines {
			got = append(got, l.Line)
			if l.Gap || l.Kind != GbakActivateIndex {
				t.Errorf("gbak %d line %d: gap %v kind %s", i+1, l.Line, l.Gap, l.Kind)
			}
		}
		// The one notice: the columns guessed, as for the excerpt alone;
		// no "skipped" one for the prose ("Code" is blank in the part).
		if fmt.Sprint(got) != fmt.Sprint(c.lines) || log.Lines[0].Time != c.first || log.Lines[4].Time != c.end ||
			len(log.Notices) != 1 || log.Notices[0].Line != c.lines[0] || !strings.HasPrefix(log.Notices[0].Msg, "no statistics header line") {
			t.Errorf("gbak %d: lines %v, %.3f to %.3f s, notices %v", i+1, got, log.Lines[0].Time, log.Lines[4].Time, log.Notices)
		}
	}
}

// The same article saved by PowerShell (UTF-16LE with BOM, CRLF) is cut
// alike, and its parts read as UTF-8.
func TestSplitSeed003UTF16(t *testing.T) {
	data := seed003(t)
	u := utf16le(strings.ReplaceAll(string(data), "\n", "\r\n"), true)
	s := splitBytes(t, u, "003.txt")
	if got, want := parts(s), parts(splitBytes(t, data, "003.txt")); got != want || s.Skipped != 22 {
		t.Fatalf("utf-16: %d skipped\n%swant\n%s", s.Skipped, got, want)
	}
	if a, b := readPart(t, u, s.Parts[3]), readPart(t, data, s.Parts[3]); !bytes.Equal(a, b) {
		t.Errorf("utf-16 part:\n%s\nwant\n%s", a, b)
	}
}

// Without line 49 (gbak: 5924.667 …), the line after "Code" starts at
// 6569.815 − 645.147 = 5924.668, not at 5301.785: a step is missing, so
// the excerpt is two parts; 44 and 48 (the blank around "Code") stay in
// neither.
func TestSplitGapWithoutContinuity(t *testing.T) {
	lines := strings.Split(string(seed003(t)), "\n")
	cut := strings.Join(append(lines[:48:48], lines[49:]...), "\n")
	s := splitBytes(t, []byte(cut), "cut.txt")
	want := "cut.txt#table-1 throughput 15-17\n" +
		"cut.txt#table-2 throughput 23-25\n" +
		"cut.txt#gbak-1 gbak 35-39\n" +
		"cut.txt#gbak-2 gbak 45-45\n" +
		"cut.txt#gbak-3 gbak 49-51\n"
	if got := parts(s); got != want || s.Skipped != 22 {
		t.Errorf("%d skipped:\n%swant\n%s", s.Skipped, got, want)
	}
}

// A file of one kind is one part, the whole file, with Detect's kind and
// reason, whatever tables or prose it also holds.
func TestSplitOneKind(t *testing.T) {
	for _, c := range []struct {
		rel   []string
		kind  InputKind
		lines int
	}{
		{[]string{"fb30", "shop-gstat-h.txt"}, InputGstat, 28},
		{[]string{"fb30", "shop-gstat-a-r.txt"}, InputGstat, 274},
		{[]string{"fb30", "shop-gbak-restore-v-st.log"}, InputGbak, 225},
		{[]string{"seeds", "restore-balanced.log"}, InputGbak, 5},
		{[]string{"seeds", "degradation-throughput-sata.csv"}, InputThroughput, 13},
		{[]string{"seeds", "power-plan-tpcc.tsv"}, InputThroughput, 3},
		{[]string{"fb30", "shop-schema.sql"}, InputUnknown, 0},
	} {
		name := strings.Join(c.rel, "/")
		data := testutil.ReadTestdata(t, c.rel...)
		s := splitBytes(t, data, name)
		k, why := Detect(data)
		if c.kind == InputUnknown {
			c.lines = s.Lines // the schema's length is not the point
		}
		if s.Mixed() || len(s.Parts) != 1 || s.Skipped != 0 || s.Lines != c.lines {
			t.Errorf("%s: mixed %v, %d lines, %d skipped:\n%s", name, s.Mixed(), s.Lines, s.Skipped, parts(s))
			continue
		}
		if p := s.Parts[0]; p != (Part{Name: name, Kind: c.kind, Reason: why, First: 1, Last: c.lines}) || k != c.kind {
			t.Errorf("%s: %+v, detect %s", name, p, k)
		}
	}
}

// mixedShop is a note of the shop server: gstat -h, the TPC-C table, the
// restore log and gstat -a -r, with prose between them.
func mixedShop(t testing.TB) []byte {
	var b bytes.Buffer
	add := func(rel ...string) {
		b.Write(testutil.ReadTestdata(t, rel...))
	}
	b.WriteString("Notes from the shop server, 2 December.\n\nThe header before the restore:\n\n")
	add("fb30", "shop-gstat-h.txt") // lines 5-32 (5 blank)
	b.WriteString("Then the TPC-C scores by power plan:\n\n")
	add("seeds", "power-plan-tpcc.tsv") // 35-37
	b.WriteString("\nAnd the restore log:\n\n")
	add("fb30", "shop-gbak-restore-v-st.log") // 41-265
	b.WriteString("\nThe tables after it:\n")
	add("fb30", "shop-gstat-a-r.txt") // 268-541
	return b.Bytes()
}

// gstat runs are parts too, and the tab-separated lines of gstat's header
// ("\tPage size\t\t8192") are not taken for a table.
func TestSplitGstatTableGbak(t *testing.T) {
	s := splitBytes(t, mixedShop(t), "shop-notes.txt")
	want := "shop-notes.txt#gstat-1 gstat 6-31\n" +
		"shop-notes.txt#table-1 throughput 35-37\n" +
		"shop-notes.txt#gbak-1 gbak 41-265\n" +
		"shop-notes.txt#gstat-2 gstat 269-540\n"
	// Prose: lines 1, 3, 33, 39 and 267.
	if got := parts(s); got != want || s.Skipped != 5 || s.Lines != 541 {
		t.Fatalf("%d lines, %d skipped:\n%swant\n%s", s.Lines, s.Skipped, got, want)
	}
	if s.Parts[2].Reason != `line 41: "gbak: time     delta  reads  writes"` {
		t.Errorf("gbak reason %q", s.Parts[2].Reason)
	}
}

// Two runs one after the other (time back from 13304.334 to 5301.785 s)
// are two parts even without prose between them.
func TestSplitTimeBack(t *testing.T) {
	var b bytes.Buffer
	for _, f := range []string{"restore-balanced.log", "restore-high-performance.log", "power-plan-tpcc.tsv"} {
		b.Write(testutil.ReadTestdata(t, "seeds", f))
		b.WriteString("\n")
	}
	s := splitBytes(t, b.Bytes(), "runs.txt")
	want := "runs.txt#gbak-1 gbak 1-5\nruns.txt#gbak-2 gbak 7-11\nruns.txt#table-1 throughput 13-15\n"
	if got := parts(s); got != want || s.Skipped != 0 {
		t.Errorf("%d skipped:\n%swant\n%s", s.Skipped, got, want)
	}
}

// At most MaxParts parts: the others are counted, their lines skipped.
func TestSplitMaxParts(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("gbak: 1.000 1.000 10 10 activating and creating deferred index I1\n" +
		"gbak: 2.000 1.000 10 10 activating and creating deferred index I2\n\n")
	for i := range MaxParts + 1 {
		fmt.Fprintf(&b, "Run %d:\n\nplan\tscore %d\nA\t%d\nB\t%d\n\n", i, i, 100+i, 200+i)
	}
	s := splitBytes(t, b.Bytes(), "many.txt")
	if len(s.Parts) != MaxParts || s.More != 2 || s.Parts[MaxParts-1].Name != "many.txt#table-99" ||
		s.Skipped != MaxParts+1+2*3 {
		t.Errorf("%d parts (last %s), %d more, %d skipped", len(s.Parts), s.Parts[len(s.Parts)-1].Name, s.More, s.Skipped)
	}
}

// FuzzSplitInput: whatever the text, the parts are in order, apart,
// within the file, and each part's reader gives its lines.
func FuzzSplitInput(f *testing.F) {
	f.Add(seed003(f))
	f.Add(testutil.Head(mixedShop(f), 4096)) // a large seed keeps the fuzzer minimising
	f.Add([]byte("gbak: 1.0 1.0 1 1 x\n\na\tb\n1\t2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := SplitInput(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, "f")
		if err != nil {
			return
		}
		if len(s.Parts) == 0 || s.Skipped < 0 || len(s.Parts) > MaxParts {
			t.Fatalf("%d parts, %d skipped", len(s.Parts), s.Skipped)
		}
		if !s.Mixed() {
			return
		}
		last := 0
		for _, p := range s.Parts {
			if p.First <= last || p.Last < p.First || p.Last > s.Lines {
				t.Fatalf("part %s %d-%d after line %d of %d", p.Name, p.First, p.Last, last, s.Lines)
			}
			last = p.Last
			text, err := io.ReadAll(PartReader(bytes.NewReader(data), "f", p))
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(text, []byte("\n")); n != p.Last {
				t.Fatalf("part %s: %d lines, want %d", p.Name, n, p.Last)
			}
		}
	})
}
