package testutil

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Fuzz seeds are excerpts of a few dozen lines of the real samples, not
// whole files: on a 50 KB seed the fuzzer spends its time minimising
// what it finds and ran 6 to 10 inputs in two minutes.

// excerpts name the lines (1-based, inclusive ranges) each seed keeps of
// a file under testdata/.
var excerpts = map[string]struct {
	file   string
	ranges [][2]int
}{
	// The database, the header's page size, ODS, transaction counters,
	// dialect and attributes, then STOCK with its index: 15000 back
	// versions here, none in GstatLater.
	GstatSeed: {"fb30/shop-gstat-a-r.txt", gstatLines},
	// The same lines of the snapshot taken after garbage collection.
	GstatLaterSeed: {"fb30/shop-gstat-r-later.txt", gstatLines},
	// The statistics header, the opening, DOCS and the start of STOCK
	// with two progress lines, a deferred index build and the closing
	// lines.
	GbakSeed: {"fb30/shop-gbak-restore-v-st.log", [][2]int{{1, 2}, {7, 7}, {63, 70}, {207, 209}, {223, 225}}},
}

var gstatLines = [][2]int{{2, 5}, {9, 14}, {21, 21}, {23, 23}, {32, 32}, {211, 241}, {273, 273}}

// Names of the excerpts FuzzSeeds knows.
const (
	GstatSeed      = "gstat"
	GstatLaterSeed = "gstat-later"
	GbakSeed       = "gbak"
)

// FuzzSeeds returns the excerpt name, then the same text with lone CR
// line ends (old Mac tools), with every number huge (past 2^64) and with
// every upper-case name 300 characters long: the cases that once hung or
// cut a reader. Seeds made from two excerpts stay aligned: the i-th of
// each is the same variant.
func FuzzSeeds(tb testing.TB, name string) [][]byte {
	tb.Helper()
	e, ok := excerpts[name]
	if !ok {
		tb.Fatalf("no fuzz seed %q", name)
	}
	data, err := os.ReadFile(Testdata(tb, e.file))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	for _, r := range e.ranges {
		if r[1] > len(lines) {
			tb.Fatalf("%s has %d lines, the seed %q wants line %d", e.file, len(lines), name, r[1])
		}
		b.WriteString(strings.Join(lines[r[0]-1:r[1]], ""))
	}
	return Variants([]byte(b.String()))
}

// Head returns the lines of data within its first n bytes: a whole
// sample cut to a seed the fuzzer can minimise.
func Head(data []byte, n int) []byte {
	if len(data) <= n {
		return data
	}
	if i := bytes.LastIndexByte(data[:n], '\n'); i >= 0 {
		return data[:i+1]
	}
	return data[:n]
}

var (
	reNumber = regexp.MustCompile(`[0-9]+`)
	reName   = regexp.MustCompile(`\b[A-Z][A-Z0-9_$]{3,}\b`)
)

// Variants returns text as it is, with lone CR line ends, with its
// numbers huge and with its upper-case names 300 characters long.
func Variants(text []byte) [][]byte {
	return [][]byte{
		text,
		bytes.ReplaceAll(text, []byte("\n"), []byte("\r")),
		reNumber.ReplaceAll(text, []byte("184467440737095516150")),
		reName.ReplaceAllFunc(text, func(n []byte) []byte {
			long := append([]byte(nil), n...) // n is text's own bytes
			return append(long, bytes.Repeat([]byte("X"), max(300-len(n), 0))...)
		}),
	}
}

// GbakIndexFailedLater is a restore log in which gbak builds index IX_A
// twice and its commit fails after a later step: both builds are failed,
// whoever reads it (the streamed JSON, the kept view, the whole
// timeline).
const GbakIndexFailedLater = `gbak: time     delta  reads  writes
gbak:    0.000  0.000      0      0 opened file x.fbk
gbak:    0.010  0.010      0      0     activating and creating deferred index IX_A
gbak:    0.020  0.010      5      1     activating and creating deferred index IX_B
gbak:    0.030  0.010      5      1     activating and creating deferred index IX_A
gbak:    0.040  0.010      5      1 fixing views dbkey length
gbak:cannot commit index IX_A
gbak: ERROR:attempt to store duplicate value
gbak:    0.050  0.010      5      1     activating and creating deferred index IX_A
gbak:    0.060  0.010      5      1 finishing, closing, and going home
`

// GstatOutputs are the paths of the whole gstat outputs the tests read
// through: fb30's shop samples and testdata/gstat, then the public
// corpus's (none without the corpus), its SOURCES.md left out.
func GstatOutputs(tb testing.TB) []string {
	tb.Helper()
	var paths []string
	for _, pat := range []string{Testdata(tb, "fb30", "shop-gstat-*.txt"), Testdata(tb, "gstat", "*.txt"),
		filepath.Join(CorpusPath(tb), "public", "gstat", "*")} {
		m, _ := filepath.Glob(pat)
		for _, p := range m {
			if !strings.HasSuffix(p, ".md") {
				paths = append(paths, p)
			}
		}
	}
	return paths
}
