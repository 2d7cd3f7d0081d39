// Package sampletest analyses the repository's gstat samples for the
// tests of the packages above analyze (view, report), which hold their
// fast paths to the slow ones over every table and index of them. It
// sits apart from testutil, which analyze's own tests import.
package sampletest

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// Analyses reads each testdata file (folder and name) and analyses each
// of its runs with the default thresholds.
func Analyses(tb testing.TB, files ...[2]string) []*analyze.GstatAnalysis {
	tb.Helper()
	th := analyze.NewThresholds()
	var out []*analyze.GstatAnalysis
	for _, name := range files {
		reps, err := parse.ReadGstat(bytes.NewReader(testutil.ReadTestdata(tb, name[0], name[1])), name[1])
		if err != nil {
			tb.Fatal(err)
		}
		for _, rep := range reps {
			out = append(out, analyze.Gstat(rep, th))
		}
	}
	return out
}
