package parse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// readChunked reads data as EachGstat does, in pieces cut at every
// GstatCut (or every step bytes past one), each read on its own first
// and taken when Accept takes it (which places its records in the run
// and the input). accepted counts the pieces taken.
func readChunked(t *testing.T, data []byte, name string, step int) (reps []*GstatReport, accepted int, err error) {
	t.Helper()
	c := NewGstatChunks(name, wholeRuns(func(rep *GstatReport) error {
		reps = append(reps, rep)
		return nil
	}))
	var s GstatSpec
	from := 0
	for from < len(data) {
		to := GstatCut(data, from+1+step)
		if to < 0 {
			to = len(data)
		}
		piece := data[from:to]
		SpeculateGstat(piece, name, nil, &s)
		tables := append([]*GstatTable(nil), s.Tables...)
		if c.Accept(&s) {
			accepted++
			for _, tb := range tables {
				c.br.cur.Tables = append(c.br.cur.Tables, tb)
				c.br.cur.Indices = append(c.br.cur.Indices, tb.Indices...)
			}
		} else if err := c.Feed(piece); err != nil {
			return nil, accepted, err
		}
		from = to
	}
	return reps, accepted, c.Close()
}

// The records of a gstat output read in pieces are those of reading it
// whole, at every cut, for the corpus and for edge cases: the same table
// printed twice across a cut, notices and findings in a piece, a header
// after tables, CRLF, a piece with no gstat output, a text with no LF.
func TestGstatChunksAsWhole(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../shared/corpus/fb30", "../../shared/corpus/public/gstat", "../testdata/gstat", "../testdata/fb30", "../testdata/mixed", "../testdata/growth"} {
		m, _ := filepath.Glob(filepath.Join(dir, "*"))
		files = append(files, m...)
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue // (a folder)
		}
		inputs = append(inputs, input{f, b})
	}
	if len(inputs) < 20 {
		t.Skipf("../shared/corpus not found beside the checkout (%d inputs)", len(inputs))
	}
	shop, err := os.ReadFile("../testdata/fb30/shop-gstat-a-r.txt")
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.Index(shop, []byte("\nORDERS ("))
	if cut < 0 {
		t.Fatal("no ORDERS table in the shop sample")
	}
	inputs = append(inputs,
		input{"crlf", bytes.ReplaceAll(shop, []byte("\n"), []byte("\r\n"))},
		input{"twice", append(append(append([]byte(nil), shop[:cut+1]...), "ORDERS (131)\n    Average record length: 1.00\n\nCUSTOMER (129)\n"...), shop[cut+1:]...)},
		input{"notice", append(append(append([]byte(nil), shop[:cut+1]...), "ODD (12)\n    Nonsense: x\n\n"...), shop[cut+1:]...)},
		input{"finding", append(append(append([]byte(nil), shop[:cut+1]...), "JUNK (13)\n    Primary pointer page: 1, Index root page: 2\n\nExpected data on page 12 (x)\n\n"...), shop[cut+1:]...)},
		input{"header after", append(append(append([]byte(nil), shop[:cut+1]...), "Database header page information:\n\tFlags\t\t\t0\n\n"...), shop[cut+1:]...)},
		input{"two runs", append(append([]byte(nil), shop...), shop...)},
		input{"no lf", []byte("CUSTOMER (129)\r    Primary pointer page: 1\r\rORDERS (131)\r")},
		input{"not gstat", []byte("hello\n\nWORLD (1)\n\nnothing (2)\n")},
	)
	taken := 0
	for _, in := range inputs {
		if !PlainText(in.data) {
			continue
		}
		want, werr := ReadGstat(bytes.NewReader(in.data), in.name)
		for _, step := range []int{0, 700, 1 << 16} {
			got, n, gerr := readChunked(t, in.data, in.name, step)
			taken += n
			if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("%s, step %d: error %v, read whole %v", in.name, step, gerr, werr)
			}
			if errors.Is(werr, ErrNoGstat) {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, step %d: %d pieces taken; the runs differ from those read whole", in.name, step, n)
			}
		}
	}
	if taken < 100 {
		t.Errorf("%d pieces taken in all: the cut finds too few table blocks", taken)
	}
	t.Logf("%d inputs, %d pieces taken", len(inputs), taken)
}

// FuzzGstatChunks reads any text in pieces cut at every table block (and
// every 300 bytes past one) as TestGstatChunksAsWhole does: the records
// are those of reading it whole, or the same error.
func FuzzGstatChunks(f *testing.F) {
	for _, name := range []string{testutil.GstatSeed, testutil.GstatLaterSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !PlainText(in) {
			return
		}
		want, werr := ReadGstat(bytes.NewReader(in), "f")
		for _, step := range []int{0, 300} {
			got, n, gerr := readChunked(t, in, "f", step)
			if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("step %d: error %v, read whole %v", step, gerr, werr)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: %d pieces taken; the runs differ from those read whole", step, n)
			}
		}
	})
}
