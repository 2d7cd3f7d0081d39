package view

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// The CSV of a comparison has the same columns for every side after the
// baseline whatever the number of sides (finding 10: with three sides
// change_X was missing, and p_adjusted_X came and went with the tests),
// and medians of two runs are half milliseconds, not
// 39.454499999999996. Text keeps its narrower layout.
func TestGbakCompareCSVColumns(t *testing.T) {
	side := func(label string, rels ...string) []analyze.GbakRun {
		var runs []analyze.GbakRun
		for _, r := range rels {
			runs = append(runs, analyze.GbakRun{Label: label, Timeline: readTimeline(t, "restores/restore-"+r+".log")})
		}
		return runs
	}
	var runs []analyze.GbakRun
	runs = append(runs, side("a", "remote-run1", "remote-run2")...)
	runs = append(runs, side("b", "service-run1", "service-run2")...)
	runs = append(runs, side("c", "remote-run3", "remote-run4")...)
	three := GbakCompare(analyze.CompareTimelines(runs...), GbakCompareOptions{Top: 3})
	csv := write(t, CSV, Options{Table: "steps"}, three)
	lines := strings.Split(csv, "\n")
	if want := "step,seconds_a,seconds_b,seconds_c," +
		"ratio_b,change_b,verdict_b,p_adjusted_b,ratio_c,change_c,verdict_c,p_adjusted_c"; lines[0] != want {
		t.Errorf("three sides: header\n%s\nwant\n%s", lines[0], want)
	}
	// ORDER_LINE: remote 33.408 and 33.836, service 1.073 and 1.346,
	// remote 38.731 and 40.178.
	if !strings.HasPrefix(lines[1], "data ORDER_LINE,33.622,1.2095,39.4545,") {
		t.Errorf("three sides: %s", lines[1])
	}
	text := write(t, Text, Options{}, three)
	if !strings.Contains(text, "data ORDER_LINE  33.622 s  1.210 s  39.455 s  ×0.0360  ~    0.476  ×1.17  ~    0.476\n") {
		t.Errorf("text:\n%s", text)
	}

	// Two sides, one run each (no tests): the same four columns.
	two := GbakCompare(compareFiles(t, "restores/restore-remote-run1.log", "restores/restore-service-run1.log"), GbakCompareOptions{Top: 3})
	csv = write(t, CSV, Options{Table: "steps"}, two)
	if head := strings.SplitN(csv, "\n", 2)[0]; head != "step,seconds_remote,seconds_service,"+
		"ratio_service,change_service,verdict_service,p_adjusted_service" {
		t.Errorf("two sides: header %s", head)
	}
}
