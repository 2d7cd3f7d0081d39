package main

import (
	"testing"

	"github.com/fbdiag/fbdiag/internal/lazyre"
)

// The regular expressions compiled on their first use (lazyre) all
// compile: those of parse (the detector and the benchmark tools' readers,
// the password redactor), analyze, bench and report, which fbdiag links.
func TestLazyRegexps(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
	if n := lazyre.Count(); n != 38 {
		t.Errorf("%d expressions, want 38: one was added or lost", n)
	}
}
