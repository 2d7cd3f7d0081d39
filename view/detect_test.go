package view

import (
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
		b := testutil.ReadTestdata(t, rel...)
		kind, why := parse.Detect(b[:min(len(b), parse.DetectSize)])
		files = append(files, parse.Detected{File: filepath.Join(rel...), Kind: kind, Reason: why})
	}
	goldenDoc(t, "detect", Detect(files))
}

// A file cut into parts (seed 003): a row per part with its first and
// last line, a note on the prose skipped; a whole file beside it has no
// lines.
func TestDetectPartsGolden(t *testing.T) {
	skipped := 22
	part := func(name string, k parse.InputKind, first, last int, why string) parse.Detected {
		return parse.Detected{File: "mixed/003.txt#" + name, Kind: k, Reason: why, Source: "mixed/003.txt",
			FirstLine: first, LastLine: last, SkippedLines: &skipped}
	}
	files := []parse.Detected{
		part("table-1", parse.InputThroughput, 15, 17, `tab-separated table with 2 columns, header line 15: "Plan de energía Rendimiento TPC-C (cuan…"`),
		part("table-2", parse.InputThroughput, 23, 25, `tab-separated table with 2 columns, header line 23: "Plan de energía Tiempo de restauración …"`),
		part("gbak-1", parse.InputGbak, 35, 39, `line 35: "gbak: 9529.339 1230.343 5028900 346529 …"`),
		part("gbak-2", parse.InputGbak, 45, 52, `line 45: "gbak: 5301.785 615.045 5028900 346529 a…"`),
		{File: "seeds/power-plan-tpcc.tsv", Kind: parse.InputThroughput, Reason: `tab-separated table with 2 columns, header line 1: "power_plan      tpcc_score"`},
	}
	goldenDoc(t, "detect-parts", Detect(files))
}
