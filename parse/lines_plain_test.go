package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// readPlainBothWays reads data with KeepLeadingTabs, each line through
// nextPlain when it takes it and through Next alone, and fails t where
// a line (its bytes, indentation, number or truncation) differs. It
// returns the lines nextPlain took.
func readPlainBothWays(t *testing.T, name string, data []byte) (plain int) {
	t.Helper()
	a, b := NewLineReader(bytes.NewReader(data), name), NewLineReader(bytes.NewReader(data), name)
	a.KeepLeadingTabs()
	b.KeepLeadingTabs()
	for {
		okA := a.nextPlain()
		if okA {
			plain++
		} else {
			okA = a.Next()
		}
		okB := b.Next()
		if okA != okB {
			t.Fatalf("%s: after line %d: a line %v, %v without nextPlain", name, b.Line(), okA, okB)
		}
		if !okA {
			break
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || a.indent != b.indent || a.Line() != b.Line() || a.Truncated() != b.Truncated() {
			t.Fatalf("%s: line %d: %q indent %d (line %d), without nextPlain %q indent %d (line %d)",
				name, b.Line(), a.Bytes(), a.indent, a.Line(), b.Bytes(), b.indent, b.Line())
		}
	}
	if (a.Err() == nil) != (b.Err() == nil) {
		t.Errorf("%s: error %v, %v without nextPlain", name, a.Err(), b.Err())
	}
	return plain
}

// TestLineReaderPlain: the gstat samples, with LF, CRLF, lone CR and
// UTF-16, and lines nextPlain leaves (tabs inside, control bytes, bytes
// past ASCII, blanks only, a cut end), read alike through nextPlain.
func TestLineReaderPlain(t *testing.T) {
	data, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := readPlainBothWays(t, "shop", data); n < 250 {
		t.Errorf("nextPlain took %d lines of the fb30 sample", n)
	}
	readPlainBothWays(t, "shop (CRLF)", bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
	readPlainBothWays(t, "shop (CR)", bytes.ReplaceAll(data, []byte("\n"), []byte("\r")))
	readPlainBothWays(t, "shop (CR CR LF)", bytes.ReplaceAll(data, []byte("\n"), []byte("\r\r\n")))
	readPlainBothWays(t, "shop (UTF-16)", utf16le(string(data), true))
	_, big := testutil.BigGstat(t, 1<<20)
	readPlainBothWays(t, "big", big)
	for _, p := range testutil.GstatOutputs(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		readPlainBothWays(t, filepath.Base(p), data)
	}
	readPlainBothWays(t, "odd", []byte("  \t  \n\t\n a\tb \n x \x00\n y\x7f \n é\n  z  \r\n\r\n \r\n w\r\r\n v\rq\n  last"))
}

// FuzzLineReaderPlain: any input reads alike through nextPlain.
func FuzzLineReaderPlain(f *testing.F) {
	f.Add([]byte("  \t  \n\t\n a\tb \n x \x00\n y\x7f \n é\n  z  \r\n\r\n \r\n w\r\r\n v\rq\n  last"))
	f.Add([]byte("T (1)\r\n    Data pages: 5\r\n\r\n\tFill distribution:\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readPlainBothWays(t, "fuzz.txt", data)
	})
}
