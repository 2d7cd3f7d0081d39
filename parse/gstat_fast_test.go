package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// readBothWays reads data with fastLine and without it and fails t when
// the records (positions, notices and the error included) differ, or
// where the line reader stands when each is returned (its line and the
// line's bytes).
func readBothWays(t *testing.T, name string, data []byte) (records int) {
	t.Helper()
	read := func(fast bool) ([]string, string) {
		fastLines = fast
		defer func() { fastLines = true }()
		r := NewGstatReader(bytes.NewReader(data), name)
		var out []string
		for r.Next() {
			j, err := json.Marshal(r.Record())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s\n  at line %d: %q", j, r.lr.Line(), r.lr.Bytes()))
		}
		if err := r.Err(); err != nil {
			return out, err.Error()
		}
		return out, ""
	}
	fast, ferr := read(true)
	slow, serr := read(false)
	if ferr != serr {
		t.Errorf("%s: error %q, %q without fastLine", name, ferr, serr)
	}
	if len(fast) != len(slow) {
		t.Errorf("%s: %d records, %d without fastLine", name, len(fast), len(slow))
	}
	for i := range min(len(fast), len(slow)) {
		if fast[i] != slow[i] {
			t.Errorf("%s: record %d\n  fast %s\n  slow %s", name, i, fast[i], slow[i])
			break
		}
	}
	return len(fast)
}

// TestGstatFastLines: the testdata and corpus gstat outputs, and 1 MiB
// grown from the fb30 sample (lines across the reader's refills), read
// the same with fastLine as without; and fastLine reads the block lines
// of 3.0 and 2.5 output.
func TestGstatFastLines(t *testing.T) {
	_, big := testutil.BigGstat(t, 1<<20)
	readBothWays(t, "big.txt", big)
	n := 0
	for _, p := range testutil.GstatOutputs(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		readBothWays(t, filepath.Base(p), data)
		// The same with CRLF line ends, trailing blanks and a cut last line.
		crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		readBothWays(t, filepath.Base(p)+" (CRLF)", crlf)
		blanks := bytes.ReplaceAll(data, []byte(", "), []byte(",  \n"))
		readBothWays(t, filepath.Base(p)+" (blanks)", blanks)
		readBothWays(t, filepath.Base(p)+" (cut)", data[:len(data)*2/3])
		// Two blanks or none between a label and its value, or one before
		// a line end (a label's words hold gstat's one blank).
		for _, gap := range []string{":  ", ":", ": \n"} {
			readBothWays(t, filepath.Base(p)+" ("+gap+")", bytes.ReplaceAll(data, []byte(": "), []byte(gap)))
		}
		n++
	}
	if n < 10 {
		t.Errorf("%d inputs read", n)
	}
	// fastLine does read the item and fill lines of 3.0's and 2.5's
	// blocks, with LF or CRLF ends: all of them (208 and 462, counted
	// with awk) but a blob's "Level 0: 2000, Level 1: 0" and a line cut
	// by the end of the first read (4 KiB: the encoding's peek); and the
	// blank lines that end the blocks (16 and 54).
	for _, c := range []struct {
		path                    string
		taken, takenCRLF, lines int
	}{
		{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), 222, 222, 274},
		{filepath.Join(testutil.CorpusDir(t), "public", "gstat", "FirebirdSQL-fdb__gstat25-r.out"), 516, 515, 604},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, crlf := range []bool{false, true} {
			in, taken := data, c.taken
			if crlf {
				in, taken = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), c.takenCRLF
			}
			r := NewGstatReader(bytes.NewReader(in), "x")
			for r.Next() {
			}
			if r.fastTaken != taken || r.lr.Line() != c.lines {
				t.Errorf("%s (CRLF %v): fastLine read %d of %d lines, want %d of %d", filepath.Base(c.path), crlf, r.fastTaken, r.lr.Line(), taken, c.lines)
			}
		}
	}
}

// FuzzGstatFastLines: any input reads the same with fastLine as without.
func FuzzGstatFastLines(f *testing.F) {
	for _, name := range []string{testutil.GstatSeed, testutil.GstatLaterSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(s)
		}
	}
	f.Add([]byte("T (1)\n    Data pages: 1, data page slots: 1, average fill: 86%\n\tFill distribution:\n\t 0 - 19% = 1\n"))
	f.Add([]byte("T (1)\n    Data pages: 1,  \n    Primary pages: x, swept pages: 2 )\n\n    Index I (0)\n\tRoot page: 5, depth: 1, Depth: 2\n"))
	f.Add([]byte("T (1)\n    Data pages: 5, average fill: 86% (x)\n    Empty pages: 1   \n\tFill distribution:\n\t 0 - 19% = 2 \n\n"))
	f.Add([]byte("T (1)\r\n    Data pages: 5, average fill: 86%\r\n    Empty pages: 1 \r\r\n\tFill distribution:\r\n\t 0 - 19% = 2\r\n\r\n    Index I (0)\r\n\tRoot page: 5, depth: 1\r"))
	// Fill lines shortFill takes and leaves: blanks, CRLF, an unknown
	// bucket, a count too long or signed, a start not gstat's.
	f.Add([]byte("T (1)\n\tFill distribution:\n\t 0 - 19% = 12  \r\n\t20 - 39% = 1234567890123456789\n\t40 - 59% = -1\n" +
		"\t    60 - 79% = 123456789012345678\n\t80 - 99% = 5 x\n\t10 - 29% = 3\n\t00 - 19% = 1\n\t60 - 79 % = 1\n\t80 - 99% = 7\r"))
	// Figures setFigure takes and leaves: leading zeros, too many digits
	// for atoi64's or atof's short way, a point first or last, a sign.
	f.Add([]byte("T (1)\n    Average record length: 007.50, total records: 0012\n    Average version length: 1234567890123456.5, total versions: 1234567890123456789\n" +
		"    Average fragment length: .5, total fragments: 5., max fragments: -1\n    Average unpacked length: 12, compression ratio: 1.2.3\n" +
		"    Index I (0)\n\tRoot page: 123456789012345678, depth: 1.0, leaf buckets: 1,5, nodes: 7 \n\tAverage node length: 123456789012345, total dup: 0\n"))
	f.Add([]byte("T (1)\n    Primary pointer page:  7, Index root page:8, total records:   , max versions: \n    Data pages:  \t1\n\tFill distribution: \n\t 0 - 19% = 1\n"))
	// Average fills percentOf takes and leaves to percent (too many
	// digits, too big, no digits, another byte), and "Fill distribution"
	// with a value or twice in a block.
	f.Add([]byte("T (1)\n    Data pages: 1, average fill: 0084%\n    Data pages: 1, average fill: 123456789%\n    Data pages: 1, average fill: 1234567890%\n" +
		"    Data pages: 1, average fill: 99999999999%\n    Data pages: 1, average fill: %\n    Data pages: 1, average fill: 8a%\n    Data pages: 1, average fill: 84%%\n" +
		"    Data pages: 1, average fill: 84\n    Fill distribution: 5\n\t 0 - 19% = 1\n    Fill distribution:\n\t20 - 39% = 2\n\n    Index I (0)\n\tFill distribution: x\n\tFill distribution:\n\t 0 - 19% = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readBothWays(t, "fuzz.txt", data)
	})
}

// TestFigureFields checks that the offsets fastLines sets figures at are
// the fields setFigure sets, item by item, for both kinds of block and
// both kinds of figure.
func TestFigureFields(t *testing.T) {
	for _, table := range []bool{true, false} {
		figs := figureFields(table)
		n := int(ixLabels)
		if table {
			n = int(tbLabels)
		}
		set := 0
		for id := 1; id < n; id++ {
			for _, fig := range []uint8{intFigure, decimalFigure} {
				// The usual way: setFigure on a record of its own.
				r := &GstatReader{table: new(GstatTable), index: new(GstatIndex)}
				it := &fastItem{id: uint8(id), fig: fig, num: 1234, frac: 2}
				want := r.setFigure(table, it)
				var rec unsafe.Pointer = unsafe.Pointer(r.index)
				size := unsafe.Sizeof(GstatIndex{})
				if table {
					rec, size = unsafe.Pointer(r.table), unsafe.Sizeof(GstatTable{})
				}
				fd := figs[id]
				if fd.kind == 0 {
					// Left to setFigure: only a blob level's fields may be set.
					if want && !(table && (id == int(tbTotalLength) || id == int(tbBlobPages))) {
						t.Errorf("table %v item %d: setFigure sets a field figureFields leaves out", table, id)
					}
					continue
				}
				if got := fig&fd.kind != 0; got != want {
					t.Errorf("table %v item %d figure %d: fastLines sets %v, setFigure %v", table, id, fig, got, want)
					continue
				}
				if !want {
					continue
				}
				set++
				// The field setFigure set is the one at fd.off, and the only one.
				for off := uintptr(0); off < size; off += unsafe.Sizeof(uintptr(0)) {
					p := *(*unsafe.Pointer)(unsafe.Add(rec, off))
					if (p != nil) != (off == fd.off) {
						t.Errorf("table %v item %d: setFigure set the field at %d, figureFields says %d", table, id, off, fd.off)
					}
				}
			}
		}
		if set < 10 {
			t.Errorf("table %v: only %d figures compared", table, set)
		}
	}
}
