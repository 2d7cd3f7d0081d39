package parse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func readAll(t *testing.T, data []byte) []string {
	t.Helper()
	lr := NewLineReader(bytes.NewReader(data), "x.txt")
	var out []string
	for lr.Next() {
		out = append(out, lr.Text())
	}
	if err := lr.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func utf16le(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func TestLineReaderEncodings(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-h.txt")
	want := readAll(t, data)
	if len(want) < 20 || want[1] != `Database "/var/lib/firebird/data/shop.fdb"` {
		t.Fatalf("unexpected plain read: %d lines, line 2 %q", len(want), want[1])
	}
	// The header's "\tFlags\t\t\t0" expands to 8-column stops.
	if want[5] != "        Flags                   0" {
		t.Fatalf("tab expansion: %q", want[5])
	}
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("  \r\n"))
	variants := map[string][]byte{
		"utf8-bom":       append([]byte{0xEF, 0xBB, 0xBF}, data...),
		"crlf+trailing":  crlf,
		"utf16le-bom":    utf16le(string(crlf), true),
		"utf16le-no-bom": utf16le(string(data), false),
		"lone-cr":        bytes.ReplaceAll(data, []byte("\n"), []byte("\r")),
	}
	for name, v := range variants {
		got := readAll(t, v)
		if len(got) != len(want) {
			t.Errorf("%s: %d lines, want %d", name, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: line %d = %q, want %q", name, i+1, got[i], want[i])
				break
			}
		}
	}
}

func TestLineReaderLongLine(t *testing.T) {
	long := bytes.Repeat([]byte("x"), MaxLineLength+100)
	data := append(append([]byte("a\n"), long...), "\nb\n"...)
	lr := NewLineReader(bytes.NewReader(data), "long.txt")
	var lens []int
	var trunc []bool
	for lr.Next() {
		lens = append(lens, len(lr.Bytes()))
		trunc = append(trunc, lr.Truncated())
	}
	if len(lens) != 3 || lens[1] != MaxLineLength || !trunc[1] || trunc[0] || lens[2] != 1 {
		t.Fatalf("lens %v truncated %v", lens, trunc)
	}
	if lr.Line() != 3 {
		t.Fatalf("line = %d", lr.Line())
	}
}

// stuckReader returns nothing, forever, without an error.
type stuckReader struct{}

func (stuckReader) Read([]byte) (int, error) { return 0, nil }

// An I/O error ends the reader after the complete lines before it, with
// the number of the line it cut; EOF delivered with the last bytes is
// no error; a reader that never makes progress is one.
func TestLineReaderInputErrors(t *testing.T) {
	data := "a\nb\nc"
	lr := NewLineReader(iotest.DataErrReader(strings.NewReader(data)), "x.txt")
	var got []string
	for lr.Next() {
		got = append(got, lr.Text())
	}
	if strings.Join(got, ",") != "a,b,c" || lr.Err() != nil {
		t.Errorf("data with EOF: %q, %v", got, lr.Err())
	}

	cut := io.MultiReader(strings.NewReader("a\nb\npartial"), iotest.ErrReader(errors.New("disk gone")))
	lr = NewLineReader(cut, "y.txt")
	got = got[:0]
	for lr.Next() {
		got = append(got, lr.Text())
	}
	if err := lr.Err(); strings.Join(got, ",") != "a,b" || err == nil || err.Error() != "y.txt:3: disk gone" {
		t.Errorf("cut input: %q, %v; want a,b and y.txt:3: disk gone", got, err)
	}

	lr = NewLineReader(stuckReader{}, "z.txt")
	if lr.Next() || lr.Err() == nil || !strings.Contains(lr.Err().Error(), "z.txt:1: ") {
		t.Errorf("stuck reader: err %v", lr.Err())
	}
}
