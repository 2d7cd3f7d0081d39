package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
)

// gbakCostNote says how fbdiag charges a step, under every list of steps.
const gbakCostNote = "A step's cost is the interval from its line to the next: gbak prints a step, then does it."

// WriteGbak writes the timeline of one gbak log: JSON, or the tables of
// GbakTables.
func WriteGbak(w io.Writer, f Format, tl *analyze.Timeline, top int) error {
	return Write(w, f, tl, func() []*Table { return GbakTables(tl, f, top) })
}

// WriteGbakComparison writes a comparison of gbak runs: JSON, or the
// tables of GbakComparisonTables.
func WriteGbakComparison(w io.Writer, f Format, cmp *analyze.GbakComparison, top int) error {
	return Write(w, f, cmp, func() []*Table { return GbakComparisonTables(cmp, f, top) })
}

// GbakTables lays out one gbak log: summary, phases, table data, index
// builds and the top slowest steps. Empty sections are left out.
func GbakTables(tl *analyze.Timeline, f Format, top int) []*Table {
	clip, clipLeft := clipsFor(f)
	c := cellsFor(f)
	kind := "gbak log"
	if tl.Kind != nil {
		kind = "gbak " + *tl.Kind
	}
	sum := &Table{Name: "summary", Title: kind + ": " + clipLeft(tl.File, 80), Columns: Cols("item", "value")}
	sum.Add("outcome", tl.Outcome)
	addMessages(sum, "error", tl.Errors, f)
	addMessages(sum, "warning", tl.Warnings, f)
	cols := tl.Columns
	if cols == "" {
		cols = "none"
	}
	sum.Add("statistics", cols)
	sum.Add("total seconds", c.sec(tl.TotalSeconds))
	if tl.TotalSeconds == nil && tl.LastTimeSeconds != nil {
		// An excerpt stops anywhere: its last time is no total.
		sum.Add("last timestamp", c.sec(tl.LastTimeSeconds)+" (log incomplete: no total)")
	}
	sum.Add("page reads", c.num(tl.TotalReads))
	sum.Add("page writes", c.num(tl.TotalWrites))
	for _, cut := range CutSteps(tl) {
		sum.Add("cut short", cut)
	}
	sum.Notes = tl.Notes

	phases := &Table{Name: "phases", Title: "Phases", Columns: Cols("phase", ">steps", ">unknown", ">seconds", ">share", ">reads", ">writes")}
	for _, p := range tl.Phases {
		share := c.unknown
		if p.Seconds != nil && tl.TotalSeconds != nil && *tl.TotalSeconds > 0 && tl.Columns != "" {
			share = fmt.Sprintf("%.1f%%", 100**p.Seconds / *tl.TotalSeconds)
		}
		sec, reads, writes := c.atLeast(p.Seconds, p.LowerBound), strconv.FormatInt(p.Reads, 10), strconv.FormatInt(p.Writes, 10)
		if p.Seconds == nil {
			sec, share, reads, writes = c.unknown, c.unknown, c.unknown, c.unknown
		}
		phases.Add(p.Name, strconv.Itoa(p.Steps), strconv.Itoa(p.Unknown), sec, share, reads, writes)
	}
	out := []*Table{sum}
	if len(phases.Rows) > 0 {
		out = append(out, phases)
	}
	if len(tl.Tables) > 0 {
		tables := &Table{Name: "tables", Title: "Table data", Columns: Cols("table", ">records", ">ignored", ">seconds", ">records/s", ">reads", ">writes")}
		for _, t := range tl.Tables {
			ign := ""
			if t.Ignored != nil {
				ign = strconv.FormatInt(*t.Ignored, 10)
			}
			tables.Add(clip(t.Name, 40), c.num(t.Records), ign, c.atLeast(t.Seconds, t.LowerBound), c.rate(t.RecordsPerSecond), c.num(t.Reads), c.num(t.Writes))
		}
		out = append(out, tables)
	}
	if len(tl.Indices) > 0 {
		idx := &Table{Name: "indices", Title: "Index builds", Columns: Cols("index", ">seconds", ">reads", ">writes", "state")}
		for _, ix := range tl.Indices {
			state := "ok"
			if ix.Failed {
				state = "failed"
			}
			idx.Add(clip(ix.Name, 48), c.sec(ix.Seconds), c.num(ix.Reads), c.num(ix.Writes), state)
		}
		out = append(out, idx)
	}
	if slow := tl.Slowest(top); len(slow) > 0 {
		st := &Table{Name: "slowest", Title: fmt.Sprintf("Slowest %d steps", len(slow)),
			Columns: Cols(">line", "step", "phase", ">start", ">seconds", ">reads", ">writes")}
		for _, s := range slow {
			st.Add(strconv.Itoa(s.Line), clip(s.Label(), 44), s.Phase, c.sec(s.Start), c.atLeast(s.Seconds, s.LowerBound), c.num(s.Reads), c.num(s.Writes))
		}
		st.Notes = []string{gbakCostNote}
		if len(CutSteps(tl)) > 0 {
			st.Notes = append(st.Notes, "≥: the log ends inside the step (a killed server, a cut log); it took at least that long.")
		}
		out = append(out, st)
	}
	return out
}

// CutSteps says, for each step the log ends inside (a table loading when
// the server died or the log was cut), what it took at least: "data
// EVENTS: ≥ 5.300 s (incomplete), 30000 records logged".
func CutSteps(tl *analyze.Timeline) []string {
	var out []string
	for _, st := range tl.Steps {
		if !st.LowerBound || st.Seconds == nil {
			continue
		}
		s := fmt.Sprintf("%s: ≥ %.3f s (incomplete)", st.Label(), *st.Seconds)
		if st.Records != nil {
			s += fmt.Sprintf(", %d records logged", *st.Records)
		}
		out = append(out, s)
	}
	return out
}

// addMessages adds gbak's messages; in text and markdown a status vector
// ("a; b; c") takes one row per part so that it fits the terminal.
func addMessages(t *Table, item string, msgs []string, f Format) {
	clip, _ := clipsFor(f)
	for _, m := range msgs {
		if f == CSV {
			t.Add(item, m)
			continue
		}
		if strings.HasPrefix(m, "cannot commit index ") {
			m = strings.Replace(m, ": ", "; ", 1) // the index, then why
		}
		for i, part := range strings.Split(m, "; ") {
			if i == 0 {
				t.Add(item, clip(part, 84))
			} else {
				t.Add("", clip("  "+part, 84))
			}
		}
	}
}

// GbakComparisonTables lays out a comparison: the runs, the totals per
// phase, the top slowest matched steps and the steps found on one side
// only.
func GbakComparisonTables(cmp *analyze.GbakComparison, f Format, top int) []*Table {
	clip, _ := clipsFor(f)
	c := cellsFor(f)
	runs := &Table{Name: "runs", Title: "Runs", Columns: Cols("label", "file", "outcome", ">total s", ">span s", ">matched", ">unmatched")}
	for _, r := range cmp.Runs {
		runs.Add(clip(r.Label, 18), clip(filepath.Base(r.File), 26), r.Outcome, c.sec(r.TotalSeconds), c.sec(r.SpanSeconds),
			strconv.Itoa(r.Matched), strconv.Itoa(r.Unmatched))
	}
	runs.Notes = append(runs.Notes, "span: from the first to the end of the last step found in every run")
	runs.Notes = append(runs.Notes, cmp.Warnings...)
	a, b := cmp.Sides[0].Label, cmp.Sides[1].Label
	head := []string{"step", ">" + clip(a, 14), ">" + clip(b, 14), ">ratio", ">diff s", "verdict"}
	totals := &Table{Name: "totals", Title: fmt.Sprintf("Totals (ratio = %s / %s)", clip(a, 20), clip(b, 20)), Columns: Cols(head...)}
	ranged := false
	for _, row := range cmp.Totals {
		if !slices.ContainsFunc(row.Median, func(m *float64) bool { return m != nil }) {
			continue // no run has it (the total of excerpts): JSON says null
		}
		ranged = addCompareRow(totals, c, clip, f, row) || ranged
	}
	out := []*Table{runs, totals}
	if slow := cmp.Slowest(top); len(slow) > 0 {
		st := &Table{Name: "steps", Title: fmt.Sprintf("Slowest %d steps (median seconds per side)", len(slow)), Columns: Cols(head...)}
		var warnings [][]string
		for _, row := range slow {
			ranged = addCompareRow(st, c, clip, f, row) || ranged
			warnings = append(warnings, row.Warnings)
		}
		st.Notes = append(st.Notes, gbakCostNote)
		if cmp.Tests > 1 {
			st.Notes = append(st.Notes, fmt.Sprintf("p_adj: p adjusted by %s over the %d step tests (of the steps called significant, "+
				"at most 5%% by chance); the totals are not adjusted", adjustmentName(cmp.Adjustment), cmp.Tests))
		}
		st.Notes = append(st.Notes, distinct(warnings...)...)
		out = append(out, st)
	}
	if f == Text {
		// CSV keeps its columns and each verdict whole.
		for _, t := range out[1:] {
			shareN(t)
		}
	}
	if ranged {
		totals.Notes = append(totals.Notes, "range: the fastest and the slowest run of a side; below 6 runs the median has "+
			"no 95% interval (benchstat prints ± ∞), ± x% is that interval")
	}
	var unknown []string
	for _, row := range cmp.Steps {
		if row.Only == nil && len(row.Median) > 1 && (row.Median[0] == nil || row.Median[1] == nil) && len(unknown) < 5 {
			unknown = append(unknown, row.Name)
		}
	}
	if len(unknown) > 0 {
		totals.Notes = append(totals.Notes, clip("cost unknown (last line, or lines missing): "+strings.Join(unknown, ", "), 99))
	}
	only := &Table{Name: "only", Title: "Steps found on one side only", Columns: Cols("side", "step")}
	for _, row := range cmp.Steps {
		if row.Only != nil && len(only.Rows) < top {
			only.Add(clip(*row.Only, 20), clip(row.Name, 70))
		}
	}
	if len(only.Rows) > 0 {
		out = append(out, only)
	}
	return out
}

// addCompareRow adds one step of a comparison: the median of each side
// with benchstat's "± x %" (6 runs or more) or its range (2 to 5 runs),
// ratio, difference and verdict. Text, which must fit 100 columns, gives
// the ranges a row of their own; it reports whether a range was shown.
func addCompareRow(t *Table, c unknownCells, clip func(string, int) string, f Format, row analyze.GbakStepComparison) bool {
	rng := func(i int) string {
		if i >= len(row.Range) || row.Range[i] == nil || (i < len(row.Spread) && row.Spread[i] != nil) {
			return ""
		}
		return Num(row.Range[i][0]) + "–" + Num(row.Range[i][1])
	}
	med := func(i int) string {
		if i >= len(row.Median) {
			return c.unknown
		}
		s := c.sec(row.Median[i])
		if i < len(row.Spread) && row.Spread[i] != nil {
			s += fmt.Sprintf(" ±%.0f%%", 100**row.Spread[i])
		} else if r := rng(i); r != "" && f != Text {
			s += " (range " + r + ")"
		}
		return s
	}
	verdict := row.Verdict
	if row.P == nil && row.Ratio != nil {
		verdict = fmt.Sprintf("%+.2f%%", 100*(*row.Ratio-1)) // no test: the note says so
	}
	t.Add(clip(row.Name, 32), med(0), med(1), c.sec(row.Ratio), c.sec(row.Difference), verdict)
	if rng(0)+rng(1) == "" {
		return false
	}
	if f == Text {
		t.Add("  range", rng(0), rng(1), "", "", "")
	}
	return true
}

// shareN moves the sample sizes of a comparison table's verdicts into
// the column name when every tested row has the same ("verdict, n=5+5"),
// so that a verdict with its adjusted p fits a 100-column terminal (text
// only: a CSV header does not change with the data).
func shareN(t *Table) {
	last := len(t.Columns) - 1
	n := ""
	for _, r := range t.Rows {
		v := r[last]
		i := strings.LastIndex(v, " n=")
		if !strings.HasPrefix(v[max(i, 0):], " n=") || !strings.HasSuffix(v, ")") || !strings.Contains(v, "p") {
			continue
		}
		if m := v[i+1 : len(v)-1]; n == "" || n == m {
			n = m
			continue
		}
		return // several sizes: each row keeps its own
	}
	if n == "" {
		return
	}
	for _, r := range t.Rows {
		r[last] = strings.Replace(r[last], " "+n+")", ")", 1)
	}
	t.Columns[last].Name += ", " + n
}

// adjustmentName spells a p adjustment for people.
func adjustmentName(m string) string {
	switch m {
	case analyze.BenjaminiHochberg:
		return "Benjamini-Hochberg"
	case analyze.Holm:
		return "Holm"
	}
	return m
}
