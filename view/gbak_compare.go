package view

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// GbakCompareOptions are the reader's choices for the view of a
// comparison of gbak runs.
type GbakCompareOptions struct {
	// Top bounds the steps text, markdown and HTML show, slowest first
	// (0: GbakTop).
	Top int
}

// gbakTotalLabels name the totals of a comparison in the headline.
var gbakTotalLabels = map[string]string{
	"total":     "Total time",
	"last_time": "Last timestamp",
	"span":      "Span of matched steps",
}

// GbakCompare lays out a comparison of gbak runs: the baseline and the
// totals' ratios as the headline, then the runs, the totals and every
// step (the main table, slowest first) with one column of seconds per
// side (the median of its runs) and, for each side after the baseline,
// its ratio to the baseline, the change and the word (slower, faster, ~
// when a test found no significant difference); the ranges of sides of
// several runs; the steps found on one side only. Charts holds the chart
// of the slowest steps, every side a bar.
func GbakCompare(c *analyze.GbakComparison, opt GbakCompareOptions) *Doc {
	top := cmp.Or(opt.Top, GbakTop)
	var labels []string
	for _, s := range c.Sides {
		labels = append(labels, s.Label)
	}
	d := &Doc{
		Lead:   "gbak compare: ",
		Title:  strings.Join(labels, ", ") + " (baseline " + c.Base + ")",
		Source: strings.Join(labels, "+"),
		Main:   "steps",
		Notes:  nil,
	}
	d.Headline = gbakCompareHeadline(c)
	cols := gbakCompareColumns(c)
	d.Tables = append(d.Tables, gbakRuns(c))
	totals := &Table{Name: "totals", Title: "Totals" + ratioTitle(c), Noun: "totals", Columns: cols}
	for _, row := range c.Totals {
		if !slices.ContainsFunc(row.Median, func(m *float64) bool { return m != nil }) {
			continue // no run has it (the total of excerpts): JSON says null
		}
		totals.Rows = append(totals.Rows, gbakCompareRow(c, &row))
		if withinClock(&row) && !slices.Contains(totals.Notes, analyze.ClockNote) {
			totals.Notes = append(totals.Notes, analyze.ClockNote)
		}
		if row.Key == "span" {
			totals.Notes = append(totals.Notes, "span of matched steps: from the first step found in every run to the end of the last one.")
		}
	}
	d.Tables = append(d.Tables, totals, gbakCompareSteps(c, cols, top))
	// Ranges without a side of several runs and steps on one side only
	// when every step matched are still CSV tables, their header row: a
	// scheduled export of them does not fail on such a comparison.
	if r := gbakRanges(c, top); several(c) {
		d.Tables = append(d.Tables, r)
	} else {
		d.Empty = append(d.Empty, r)
	}
	if o := gbakOnly(c); len(o.Rows) > 0 {
		d.Tables = append(d.Tables, o)
	} else {
		d.Empty = append(d.Empty, o)
	}
	if ch, err := plot.RestoreComparisonChart(GbakComparisonChart(c, chartSteps(len(c.Sides)))); err == nil {
		ch.Name = "compare"
		d.Charts = append(d.Charts, ch)
	}
	return d
}

// ratioTitle says what the ratios are: " (ratio = B / A)".
func ratioTitle(c *analyze.GbakComparison) string {
	if len(c.Sides) < 2 {
		return ""
	}
	if len(c.Sides) == 2 {
		return " (ratio = " + c.Sides[1].Label + " / " + c.Base + ")"
	}
	return " (ratios to the baseline, " + c.Base + ")"
}

func gbakCompareHeadline(c *analyze.GbakComparison) []Field {
	fs := []Field{
		{Key: "baseline", Label: "Baseline", Value: Str(c.Base)},
		{Key: "runs", Label: "Runs", Value: Int(int64(len(c.Runs))), Detail: fmt.Sprintf("in %d sides", len(c.Sides))},
	}
	for _, row := range c.Totals {
		for _, v := range row.Versus {
			if v.Ratio == nil {
				continue
			}
			key, label := row.Key+"_ratio", gbakTotalLabels[row.Key]
			if label == "" {
				label = row.Name
			}
			if len(c.Sides) > 2 {
				key += "_" + columnKey(v.Side)
			}
			// The change beside the ratio, as the table prints both: "×0.593
			// faster" alone read to some as 0.593 times as fast.
			detail := v.Word()
			if v.Change != nil {
				detail = ChangeP(v.Change).Human() + ", " + detail
			}
			if c.InactiveIndicesDiffer() {
				// A restore with gbak -i read "×0.508 faster" for the
				// index builds it skipped (the warning says which).
				detail += "; the restores left different numbers of indices inactive"
			}
			detail = "(" + detail + ")"
			fs = append(fs, Field{Key: key, Label: label + ", " + v.Side + " / " + c.Base, Value: RatioP(v.Ratio), Detail: detail})
		}
	}
	if c.Tests > 0 {
		fs = append(fs, Field{Key: "tests", Label: "Step tests", Value: Int(int64(c.Tests)),
			Detail: "(p adjusted by " + gbakAdjustmentName(c.Adjustment) + ")"})
	}
	return fs
}

// gbakAdjustmentName spells a p adjustment for people.
func gbakAdjustmentName(m string) string {
	switch m {
	case analyze.BenjaminiHochberg:
		return "Benjamini-Hochberg"
	case analyze.Holm:
		return "Holm"
	}
	return m
}

// columnKey makes a label part of a CSV column name: letters and digits
// kept, anything else an underscore.
func columnKey(label string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, label)
}

// sideKeys are the sides' labels as column keys, told apart when two
// labels give the same key ("a-b", "a_b").
func sideKeys(c *analyze.GbakComparison) []string {
	keys := make([]string, len(c.Sides))
	seen := map[string]bool{}
	for i, s := range c.Sides {
		k := columnKey(s.Label)
		if seen[k] {
			k = fmt.Sprintf("%s_%d", k, i+1)
		}
		seen[k] = true
		keys[i] = k
	}
	return keys
}

// gbakCompareColumns: the step, one median per side, then for each side
// after the baseline its ratio, change, word and adjusted p: the same
// columns in CSV whatever the number of sides. Text, markdown and HTML
// leave out the adjusted p when there were no tests and, with more than
// two sides, the change (the ratio less one, in JSON's versus[].change)
// so that the sides fit; the ratio column is then titled "LABEL ×" and
// the word follows it untitled.
func gbakCompareColumns(c *analyze.GbakComparison) []Column {
	keys := sideKeys(c)
	two := len(c.Sides) == 2
	cols := []Column{{Key: "step", Title: "step", Max: 40}}
	for i, s := range c.Sides {
		cols = append(cols, Column{Key: "seconds_" + keys[i], Title: s.Label, Kind: SecondsKind})
	}
	for i, s := range c.Sides {
		if i == 0 {
			continue
		}
		if two {
			cols = append(cols,
				Column{Key: "ratio_" + keys[i], Title: "ratio", Kind: RatioKind},
				Column{Key: "change_" + keys[i], Title: "change", Kind: ChangeKind},
				Column{Key: "verdict_" + keys[i], Title: "verdict"})
		} else {
			cols = append(cols,
				Column{Key: "ratio_" + keys[i], Title: s.Label + " ×", Kind: RatioKind},
				Column{Key: "change_" + keys[i], Title: "change " + s.Label, Kind: ChangeKind, Machine: true},
				Column{Key: "verdict_" + keys[i], Title: ""})
		}
		t := "p_adj"
		if !two {
			t = "p_adj " + s.Label
		}
		cols = append(cols, Column{Key: "p_adjusted_" + keys[i], Title: t, Kind: NumberKind, Machine: c.Tests == 0})
	}
	return cols
}

// gbakCompareRow is one step or total in gbakCompareColumns' layout.
func gbakCompareRow(c *analyze.GbakComparison, row *analyze.GbakStepComparison) []Cell {
	cells := []Cell{Str(row.Name)}
	for i := range c.Sides {
		var m *float64
		if i < len(row.Median) {
			m = row.Median[i]
		}
		cells = append(cells, SecP(m))
	}
	for i := 1; i < len(c.Sides); i++ {
		var v analyze.GbakVersus
		if i-1 < len(row.Versus) {
			v = row.Versus[i-1]
		}
		word := Null(TextKind)
		if w := v.Word(); w != "" {
			word = Str(w)
		}
		cells = append(cells, RatioP(v.Ratio), ChangeP(v.Change), word, NumP(v.PAdjusted))
	}
	return cells
}

func gbakRuns(c *analyze.GbakComparison) *Table {
	t := &Table{Name: "runs", Title: "Runs", Noun: "runs", Columns: []Column{
		{Key: "label", Title: "label", Max: 16},
		// (the same key: CSV has the file as given, as JSON, which tells
		// two of one name apart; the others its base name)
		{Key: "file", Title: "file", Max: 24, Human: true},
		{Key: "file", Title: "file", Machine: true},
		{Key: "outcome", Title: "outcome"},
		{Key: "total_seconds", Title: "total", Kind: SecondsKind},
		{Key: "last_time_seconds", Title: "last time", Kind: SecondsKind},
		{Key: "matched_steps", Title: "matched", Kind: CountKind},
		{Key: "unmatched_steps", Title: "unmatched", Kind: CountKind},
		// (JSON's, appended)
		{Key: "kind", Title: "kind", Machine: true},
		{Key: "span_seconds", Title: "span", Kind: SecondsKind, Machine: true},
		{Key: "total_lower_bound", Title: "", Kind: TextKind, Machine: true},
	}}
	// "at least" before a failed run's total, as gbak's view and the
	// report read it (a warning under the table says why); the column
	// only when a run has one.
	bound := slices.ContainsFunc(c.Runs, func(r analyze.GbakRunSummary) bool { return r.TotalLowerBound })
	if bound {
		t.Columns = slices.Insert(t.Columns, 4, Column{Key: "total_lower_bound", Title: "", Kind: TextKind, Human: true})
	}
	for _, r := range c.Runs {
		row := []Cell{Str(r.Label), Str(filepath.Base(r.File)), Str(r.File), Str(r.Outcome), SecP(r.TotalSeconds),
			SecP(r.LastTimeSeconds), Int(int64(r.Matched)), Int(int64(r.Unmatched)), StrP(r.Kind), SecP(r.SpanSeconds), boolCell(&r.TotalLowerBound)}
		if bound {
			row = slices.Insert(row, 4, atLeast(r.TotalLowerBound))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, c.Warnings...)
	if several(c) {
		t.Notes = append(t.Notes, "A side of several runs is shown by its median; the ranges table gives its fastest and slowest run.")
	}
	return t
}

// several reports whether a side has more than one run.
func several(c *analyze.GbakComparison) bool {
	return slices.ContainsFunc(c.Sides, func(s analyze.GbakSide) bool { return s.Runs > 1 })
}

// compareOrder is every step of a comparison: the slowest first (by the
// largest median of any side), then those of no known cost in log order.
// The rows are made as they are read.
func compareOrder(c *analyze.GbakComparison) iter.Seq[*analyze.GbakStepComparison] {
	return func(yield func(*analyze.GbakStepComparison) bool) {
		for _, i := range c.Steps.Slowest() {
			row := c.Steps.At(int(i))
			if !yield(&row) {
				return
			}
		}
	}
}

func gbakCompareSteps(c *analyze.GbakComparison, cols []Column, top int) *Table {
	t := &Table{Name: "steps", Title: "Steps, slowest first" + ratioTitle(c), Noun: "steps", Limit: top, Columns: cols}
	order := compareOrder(c)
	t.Stream = func(yield func([]Cell) bool) {
		for row := range order {
			if !yield(gbakCompareRow(c, row)) {
				return
			}
		}
	}
	t.Notes = append(t.Notes, gbakCostNote)
	if len(c.Sides) == 2 {
		t.Notes = append(t.Notes, "ratio = side / baseline; change = (side − baseline) / baseline; "+
			"verdict: slower or faster, ~ when a test finds no significant difference.")
	} else {
		t.Notes = append(t.Notes, "LABEL ×: that side's time / the baseline's, then slower or faster "+
			"(~ when a test finds no significant difference); JSON's versus[] has the changes.")
	}
	if c.Tests > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("p_adj: p adjusted by %s over the %d step tests (of the steps called significant, "+
			"at most 5 %% by chance); the totals are not adjusted.", gbakAdjustmentName(c.Adjustment), c.Tests))
	}
	var warnings []string
	var unknown, absent []string
	clock := false
	for _, i := range c.Steps.Slowest() {
		r := c.Steps.At(int(i))
		row := &r
		clock = clock || withinClock(row)
		for _, v := range row.Versus {
			for _, w := range v.Warnings {
				if !slices.Contains(warnings, w) {
					warnings = append(warnings, w)
				}
			}
		}
		// A blank cell is a step a run's log gives no cost for, or one a
		// run does not have (three logs, one of another database or
		// stopped before the step): two causes, said apart.
		if row.Only == nil && slices.Contains(row.Median, nil) {
			missing, noCost := false, false
			for run, sec := range row.Seconds {
				if sec == nil {
					if c.Steps.Found(int(i), run) {
						// (a log without a time column has a warning
						// of its own: no cost is "unknown" there)
						noCost = noCost || !c.Untimed(run)
					} else {
						missing = true
					}
				}
			}
			if noCost && len(unknown) < 5 {
				unknown = append(unknown, row.Name)
			}
			if missing && len(absent) < 5 {
				absent = append(absent, row.Name)
			}
		}
	}
	if clock {
		t.Notes = append(t.Notes, analyze.ClockNote)
	}
	t.Notes = append(t.Notes, warnings...)
	if len(unknown) > 0 {
		t.Notes = append(t.Notes, "cost unknown in a run (last line, or lines missing): "+strings.Join(unknown, ", "))
	}
	if len(absent) > 0 {
		t.Notes = append(t.Notes, "not in every run (a log of another database, or one that ends before the step): "+strings.Join(absent, ", "))
	}
	return t
}

// gbakRanges is the fastest and slowest run of each side of several
// runs, for the totals and every step: benchstat's "± x %" (the 95 %
// interval of the median) needs 6 runs; below, the range is what there is.
func gbakRanges(c *analyze.GbakComparison, top int) *Table {
	t := &Table{Name: "ranges", Title: "Ranges of the sides of several runs", Noun: "rows", Columns: []Column{
		{Key: "step", Title: "step", Max: 40},
		{Key: "side", Title: "side", Max: 20},
		{Key: "runs", Title: "runs", Kind: CountKind},
		{Key: "min_seconds", Title: "fastest", Kind: SecondsKind},
		{Key: "median_seconds", Title: "median", Kind: SecondsKind},
		{Key: "max_seconds", Title: "slowest", Kind: SecondsKind},
		{Key: "spread", Title: "±95%", Kind: ShareKind},
	}}
	sideOf := make([]int, len(c.Runs))
	for i, r := range c.Runs {
		sideOf[i] = slices.IndexFunc(c.Sides, func(s analyze.GbakSide) bool { return s.Label == r.Label })
	}
	rows := func(row *analyze.GbakStepComparison) [][]Cell {
		var out [][]Cell
		for s, side := range c.Sides {
			if side.Runs < 2 || s >= len(row.Range) || row.Range[s] == nil {
				continue
			}
			n := 0
			for run, v := range row.Seconds {
				if v != nil && sideOf[run] == s {
					n++
				}
			}
			out = append(out, []Cell{Str(row.Name), Str(side.Label), Int(int64(n)), Sec(row.Range[s][0]), SecP(row.Median[s]),
				Sec(row.Range[s][1]), ShareP(row.Spread[s])})
		}
		return out
	}
	if !several(c) {
		return t
	}
	order := compareOrder(c)
	sides := 0
	for _, s := range c.Sides {
		if s.Runs > 1 {
			sides++
		}
	}
	t.Limit = (top + len(c.Totals)) * sides
	t.Stream = func(yield func([]Cell) bool) {
		for i := range c.Totals {
			for _, r := range rows(&c.Totals[i]) {
				if !yield(r) {
					return
				}
			}
		}
		for row := range order {
			for _, r := range rows(row) {
				if !yield(r) {
					return
				}
			}
		}
	}
	t.Notes = []string{"±95%: the 95 % interval of the median, from 6 runs a side (benchstat's ± x %); below, the range only."}
	return t
}

// gbakOnly lists the steps found on one side only, in natural order.
func gbakOnly(c *analyze.GbakComparison) *Table {
	type one struct{ only, name string }
	var only []one
	for i := range c.Steps.Len() {
		if o := c.Steps.Only(i); o != nil {
			only = append(only, one{*o, c.Steps.Name(i)})
		}
	}
	slices.SortStableFunc(only, func(a, b one) int {
		if x := units.Compare(a.only, b.only); x != 0 {
			return x
		}
		return units.Compare(a.name, b.name)
	})
	t := &Table{Name: "only", Title: "Steps found on one side only", Noun: "steps", Limit: GbakListTop, Columns: []Column{
		{Key: "side", Title: "side", Max: 24},
		{Key: "step", Title: "step", Max: 70},
	}}
	for _, row := range only {
		t.Rows = append(t.Rows, []Cell{Str(row.only), Str(row.name)})
	}
	return t
}

// chartSteps is how many steps the comparison chart shows for sides
// bars a step: GbakChartSteps for two, fewer for more, so that the bars
// stay thick enough for their labels (20 bars in all, 2 steps at least).
func chartSteps(sides int) int {
	return min(GbakChartSteps, max(2, 2*GbakChartSteps/max(sides, 1)))
}

// GbakComparisonChart is the comparison chart input: the slowest steps
// (top), every side's median seconds, each side after the baseline noted
// with its ratio and word as the text shows them ("×1.85 slower",
// "×1.02 ~").
func GbakComparisonChart(c *analyze.GbakComparison, top int) plot.RestoreComparison {
	var d plot.RestoreComparison
	for _, s := range c.Sides {
		d.Runs = append(d.Runs, s.Label)
	}
	for _, s := range c.Slowest(top) {
		row := plot.StepRow{Name: s.Name, Seconds: make([]float64, len(c.Sides)), Notes: make([]string, len(c.Sides))}
		for i := range c.Sides {
			row.Seconds[i] = math.NaN()
			if i < len(s.Median) && s.Median[i] != nil {
				row.Seconds[i] = *s.Median[i]
			}
			if i == 0 || i-1 >= len(s.Versus) {
				continue
			}
			switch v := s.Versus[i-1]; {
			case v.Ratio != nil:
				row.Notes[i] = RatioP(v.Ratio).Human() + " " + v.Word()
			case s.Median[0] == nil && s.Median[i] != nil:
				row.Notes[i] = "(not in " + plot.Ellipsis(c.Base, 16) + ")"
			case v.Direction != "":
				row.Notes[i] = v.Word() // no ratio to a baseline of 0 s: "~", "slower"
			}
		}
		d.Steps = append(d.Steps, row)
		if withinClock(&s) && len(d.Notes) == 0 {
			d.Notes = append(d.Notes, "~ within gbak's 1 ms clock")
		}
	}
	d.Backup = len(c.Runs) > 0 && !slices.ContainsFunc(c.Runs, func(r analyze.GbakRunSummary) bool {
		return r.Kind == nil || *r.Kind != parse.GbakBackup
	})
	d.Title = fmt.Sprintf("The %d slowest steps (baseline %s)", len(d.Steps), c.Base)
	if several(c) {
		d.Title = fmt.Sprintf("The %d slowest steps, median of each side (baseline %s)", len(d.Steps), c.Base)
	}
	return d
}

// withinClock says whether a side of the row reads "~" because its
// difference is within gbak's clock (analyze.GbakVersus.WithinClock): the
// footnote then says why.
func withinClock(row *analyze.GbakStepComparison) bool {
	return slices.ContainsFunc(row.Versus, func(v analyze.GbakVersus) bool { return v.WithinClock })
}
