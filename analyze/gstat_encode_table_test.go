package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// With EncodeTable, Table finds the bytes of the tables a worker encoded
// together in the first one's EncodedTable and nothing in the others':
// over every gstat file of the corpus, on lanes with pieces of several
// sizes and without them, each run's bytes are those of its own tables in
// their order (no joined bytes cross a run's end), tables are joined, and
// a table whose encoding fails ends the bytes before it and stops the
// stream with its error.
func TestStreamGstatEncodeTable(t *testing.T) {
	th := NewThresholds()
	defer func(p int) { lanePiece, noLanes = p, false }(lanePiece)
	encode := func(b []byte, ts *TableStats) []byte {
		return fmt.Appendf(b, "<%s %d %d>", ts.Name, ts.ID, len(ts.Indices))
	}
	errBad := errors.New("bad table")
	type input struct {
		name string
		data []byte
	}
	_, big := testutil.BigGstat(t, 1<<20) // (the corpus's files are read in order on the lanes, as one piece)
	inputs := []input{{"big", big}}
	for _, path := range corpusGstat(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{filepath.Base(path), data})
	}
	whole := lanePiece
	for _, piece := range []int{whole, 2 << 10, 300, 0} {
		lanePiece, noLanes = max(piece, 300), piece == 0
		tables, calls, failed := 0, 0, 0
		for _, in := range inputs {
			name, data := in.name, in.data
			var names []string // (of the pass that fails none)
			for _, pass := range []string{"all", "failing"} {
				bad := ""
				if pass == "failing" {
					if len(names) < 4 {
						break
					}
					bad = names[3]
				}
				var got, want []byte
				err := StreamGstat(bytes.NewReader(data), name, th, GstatOptions{}, GstatStream{
					EncodeTable: func(b []byte, ts *TableStats) ([]byte, error) {
						if ts.Name == bad {
							return b, errBad
						}
						return encode(b, ts), nil
					},
					Table: func(a *GstatAnalysis, ts *TableStats) error {
						b, err := a.EncodedTable()
						if (err == errBad) != (ts.Name == bad) {
							t.Errorf("%s, pieces of %d: table %s: %v", name, piece, ts.Name, err)
						}
						if err != nil {
							return err
						}
						got = append(got, b...)
						want = encode(want, ts)
						if pass == "all" {
							names = append(names, ts.Name)
							if len(b) > 0 {
								calls++
							}
							tables++
						}
						return nil
					},
					Run: func(a *GstatAnalysis, _ *parse.GstatReport) error {
						if !bytes.Equal(got, want) {
							t.Errorf("%s, pieces of %d: a run has the bytes\n%.300s\nwant\n%.300s", name, piece, got, want)
						}
						got, want = got[:0], want[:0]
						return nil
					},
				})
				if pass == "failing" {
					if !errors.Is(err, errBad) {
						t.Errorf("%s, pieces of %d: %v, want the encoding's error", name, piece, err)
					}
					failed++
					if !bytes.Equal(got, want) {
						t.Errorf("%s, pieces of %d: before the failed table, the bytes\n%.300s\nwant\n%.300s", name, piece, got, want)
					}
				}
			}
		}
		// (pieces of 2 KiB and 300 bytes hold a table or two: few joins)
		if tables < 1500 || (piece == whole || piece == 0) && calls*3 > tables*2 || failed < 30 {
			t.Errorf("pieces of %d: %d tables in %d writes, %d failed", piece, tables, calls, failed)
		}
	}
}
