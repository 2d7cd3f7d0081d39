package view

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// What fbdiag detect prints of a seed table, a gstat header and a gbak
// log, in every format.
func TestDetectGolden(t *testing.T) {
	var files []parse.Detected
	for _, rel := range [][]string{
		{"seeds", "power-plan-tpcc.tsv"}, {"fb30", "shop-gstat-h.txt"}, {"fb30", "shop-gbak-restore-v-st.log"},
	} {
		b, err := os.ReadFile(testutil.Testdata(t, rel...))
		if err != nil {
			t.Fatal(err)
		}
		kind, why := parse.Detect(b[:min(len(b), parse.DetectSize)])
		files = append(files, parse.Detected{File: filepath.Join(rel...), Kind: kind, Reason: why})
	}
	goldenDoc(t, "detect", Detect(files))
}
