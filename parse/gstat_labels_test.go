package parse

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// FuzzPredictedItem: where predictedItem takes a line's next item by its
// label, nextItem reads the same label, value and rest.
func FuzzPredictedItem(f *testing.F) {
	for _, s := range []string{
		"Root page: 7687, depth: 2, leaf buckets: 2, nodes: 2000",
		"Average node length: 4.86, total dup: 0, max dup: 0",
		"Data pages: 1, data page slots: 1, average fill: 86%",
		"Table size: 8192 bytes",
		"Root page:7687,depth: 2",
		"Root page:   ,, depth",
		"Root page: 1,2, 3",
		"Root page",
		"Root page:",
		": 1",
	} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, b []byte, n uint8) {
		labels := append(tableLabels[:], indexLabels[:]...)
		label := labels[int(n)%len(labels)]
		l, v, rest, ok := predictedItem(b, label)
		if !ok {
			return
		}
		l2, v2, rest2, ok2 := nextItem(b)
		if !ok2 || string(l) != label || !bytes.Equal(l, l2) || !bytes.Equal(v, v2) || !bytes.Equal(rest, rest2) || (rest == nil) != (rest2 == nil) {
			t.Errorf("%q as %q: predictedItem %q %q %q, nextItem %q %q %q %v", b, label, l, v, rest, l2, v2, rest2, ok2)
		}
	})
}

// TestGstatLabelOrders: the reader learns the order of a block's items
// from the lines it reads, and a second run that prints them in another
// order (Firebird 2.5's "Data pages: 1, data page slots: 1, average fill"
// after 3.0's "Pointer pages: 1, data page slots: 328" and "Data pages:
// 328, average fill") reads the same tables and indices as it does alone.
func TestGstatLabelOrders(t *testing.T) {
	fb30 := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	p := filepath.Join(testutil.CorpusDir(t), "public", "gstat", "FirebirdSQL-fdb__gstat25-r.out")
	fb25, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	blocks := func(reps []*GstatReport) []string {
		var out []string
		for _, rep := range reps {
			for _, tb := range rep.Tables {
				c := *tb
				c.GstatPos, c.Indices = GstatPos{}, nil
				j, _ := json.Marshal(c)
				out = append(out, string(j))
				for _, ix := range tb.Indices {
					c := *ix
					c.GstatPos = GstatPos{}
					j, _ := json.Marshal(c)
					out = append(out, string(j))
				}
			}
		}
		return out
	}
	read := func(b ...[]byte) []string {
		reps, err := ReadGstat(bytes.NewReader(bytes.Join(b, []byte("\n"))), "x")
		if err != nil {
			t.Fatal(err)
		}
		return blocks(reps)
	}
	a, b := read(fb30), read(fb25)
	if len(a) != 16 || len(b) != 54 {
		t.Fatalf("%d blocks of 3.0, %d of 2.5", len(a), len(b))
	}
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"3.0 then 2.5", read(fb30, fb25), append(append([]string(nil), a...), b...)},
		{"2.5 then 3.0", read(fb25, fb30), append(append([]string(nil), b...), a...)},
	} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%s: %d blocks, want %d", c.name, len(c.got), len(c.want))
		}
		for i := range c.got {
			if c.got[i] != c.want[i] {
				t.Errorf("%s: block %d\n got %s\nwant %s", c.name, i, c.got[i], c.want[i])
			}
		}
	}
}

// TestLabelWords: each label's words find it, followed by its colon and
// a blank, at any place in a line, and miss it with any one byte changed
// (the blank's too, when its words hold one) or without the colon.
func TestLabelWords(t *testing.T) {
	for _, labels := range []*itemLabels{tableItems, indexItems} {
		for id, label := range labels.labels[1:] {
			w := &labels.words[id+1]
			// Fewer bytes than the window: left to the look-up.
			if short := []byte(label + ": 1\n"); w.at(short, 0) != (len(short) >= labelWindow) {
				t.Errorf("%q: read in %d bytes", label, len(short))
			}
			for _, pre := range []string{"", "\t", "    ", "Root page: 1, "} {
				// (a line after it: the words read 24 bytes)
				line := []byte(pre + label + ": 1\n\tClustering factor: 1\n")
				if !w.at(line, len(pre)) {
					t.Errorf("%q not found in %q", label, line)
				}
				if w.size != len(label)+1 && (!w.blank || w.size != len(label)+2) {
					t.Errorf("%q: %d bytes stepped over", label, w.size)
				}
				for k := range w.size {
					bad := bytes.Clone(line)
					bad[len(pre)+k] ^= 0x20
					if w.at(bad, len(pre)) {
						t.Errorf("%q found in %q", label, bad)
					}
				}
			}
		}
	}
}
