package main

import (
	"strings"
	"testing"
)

// Every --help fits a 100-column terminal: gstat's usage line was 130
// columns and gstat trend's description had a 128-column line.
func TestHelpFits100(t *testing.T) {
	for _, cmd := range [][]string{{}, {"gstat"}, {"gstat", "diff"}, {"gstat", "trend"}, {"rules"},
		{"gbak"}, {"gbak", "compare"}, {"throughput"}, {"report"}, {"detect"}} {
		code, out, errs := runCmd(t, nil, append(cmd, "--help")...)
		if code != 0 || errs != "" || !strings.Contains(out, "USAGE:") {
			t.Errorf("%v --help: exit %d, stderr %q", cmd, code, errs)
		}
		for i, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 100 {
				t.Errorf("%v --help line %d is %d columns: %q", cmd, i+1, n, l)
			}
		}
	}
	_, out, _ := runCmd(t, nil, "gstat", "--help")
	if !strings.Contains(out, "   fbdiag gstat [--format F] [--top N] [--sort KEY] [--fail-on LEVEL] [--rules FILE] FILE|- ...\n") {
		t.Errorf("gstat usage line:\n%s", out)
	}
}
