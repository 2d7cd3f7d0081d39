package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/plot"
)

// One run a side: a difference within gbak's 1 ms clock reads "~" in
// text, markdown, CSV and the chart, with the footnote that says why
// (WAREHOUSE's data: 0.001 s, then 0.000 s, was "-100.0 % faster").
func TestGbakCompareWithinClockEveryFormat(t *testing.T) {
	c := compareFiles(t, "restores/restore-remote-run1.log", "restores/restore-remote-run2.log")
	d := GbakCompare(c, GbakCompareOptions{Top: 1000})
	text := write(t, Text, Options{}, d)
	md := write(t, Markdown, Options{}, d)
	csv := write(t, CSV, Options{}, d)
	for f, want := range map[string][]string{
		"text":     {"data WAREHOUSE                             0.001 s   0.000 s      ×0  -100.0 %  ~\n", "~ within gbak's clock (whole milliseconds): with one run a side, the step's times differ by 2 ms"},
		"markdown": {"| data WAREHOUSE | 0.001 s | 0.000 s | ×0 | -100.0 % | \\~ |", "\\~ within gbak's clock (whole milliseconds): with one run a side, the step's times differ by 2 ms"},
		"csv":      {"\ndata WAREHOUSE,0.001,0,0,-1,~,\n", "\nstarted transaction,0.001,0.009,9,8,~,\n", "\ncreated database,0.089,0.104,1.1685393258426966,0.1685393258426966,slower,\n"},
	} {
		out := map[string]string{"text": text, "markdown": md, "csv": csv}[f]
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", f, w, out)
			}
		}
	}
	ch := GbakComparisonChart(c, 1000)
	i := slices.IndexFunc(ch.Steps, func(s plot.StepRow) bool { return s.Name == "data WAREHOUSE" })
	if i < 0 || ch.Steps[i].Notes[1] != "×0 ~" || !slices.Contains(ch.Notes, "~ within gbak's 1 ms clock") {
		t.Errorf("chart: step %d %+v, notes %q", i, ch.Steps, ch.Notes)
	}
}
