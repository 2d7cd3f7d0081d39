package view

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
)

// fbdiag rules with the default thresholds, in every format; CSV
// "thresholds" has a row per threshold of the table.
func TestRulesGolden(t *testing.T) {
	th := analyze.NewThresholds()
	d := Rules(analyze.Catalogue(th))
	goldenDoc(t, "rules", d, "thresholds")
	if n := len(d.Tables[0].Rows); n != len(analyze.Rules) {
		t.Errorf("%d rules, want %d", n, len(analyze.Rules))
	}
	if n, want := len(d.Tables[1].Rows), len(th.List()); n != want {
		t.Errorf("%d thresholds, want %d", n, want)
	}
	for _, l := range strings.Split(write(t, Text, Options{}, d), "\n") {
		if utf8.RuneCountInString(l) > LineWidth {
			t.Errorf("line over %d columns: %q", LineWidth, l)
		}
	}
}

// An overridden threshold shows its new value and says where it came
// from, in text and CSV.
func TestRulesOverride(t *testing.T) {
	th, err := analyze.LoadThresholds(strings.NewReader("index-deep.min_depth = 4\n"), "test.rules", analyze.NewThresholds())
	if err != nil {
		t.Fatal(err)
	}
	d := Rules(analyze.Catalogue(th))
	text := write(t, Text, Options{}, d)
	if want := "\nindex-deep.min_depth  4  levels\n    source: overridden by a rules file\n"; !strings.Contains(text, want) {
		t.Errorf("text lacks %q:\n%s", want, text)
	}
	csv := write(t, CSV, Options{Table: "thresholds"}, d)
	if want := "\nindex-deep,index-deep.min_depth,4,levels,overridden by a rules file\n"; !strings.Contains(csv, want) {
		t.Errorf("csv lacks %q:\n%s", want, csv)
	}
}
