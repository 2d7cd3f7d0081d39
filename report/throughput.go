package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
)

// WriteThroughput writes a throughput result: JSON, or the tables of
// ThroughputTables.
func WriteThroughput(w io.Writer, f Format, r *analyze.Result) error {
	return Write(w, f, r, func() []*Table { return ThroughputTables(r) })
}

// ThroughputTables lays out a throughput result: a summary of every series
// (except in A/B mode, whose tables say it all), then per series the
// table of its mode: fits and checks, cliff test, sweep, A/B, runs or load
// speed. The series' warnings are notes under the summary.
func ThroughputTables(r *analyze.Result) []*Table {
	xu, yu := deref(r.XUnit), deref(r.YUnit)
	var tables []*Table
	head := &Table{Name: "summary", Title: fmt.Sprintf("%s: %s against %s", r.Mode, paren(deref(r.Y), yu), paren(deref(r.X), xu)),
		Columns: Cols("series", ">points", ">first→last", "up to last step", "last step", "best")}
	for _, s := range r.Series {
		row := []string{s.Name, strconv.Itoa(len(s.Points)), PercentOr(s.FirstToLastChange), "", "", ""}
		if st := s.UpToLastStep; st != nil {
			row[3] = fmt.Sprintf("%s → %s: %s", Num(st.FromX), Num(st.ToX), PercentOr(&st.Change))
		}
		if st := s.LastStep; st != nil {
			row[4] = fmt.Sprintf("%s → %s: ×%.3g", Num(st.FromX), Num(st.ToX), st.Ratio)
		}
		if b := s.Best; b != nil {
			row[5] = fmt.Sprintf("%s at %s", Num(b.Y), xOf(b, xu))
		}
		head.Add(row...)
	}
	if r.Mode != analyze.ModeAB {
		tables = append(tables, head)
	}
	for _, s := range r.Series {
		switch {
		case s.Load != nil:
			tables = append(tables, loadTable(s, xu))
		case s.Sweep != nil:
			tables = append(tables, sweepTable(s, xu, yu))
		case len(s.AB) > 0:
			tables = append(tables, abTable(s, yu))
		case r.Mode == analyze.ModeAB:
			tables = append(tables, runsTable(s, yu))
		case len(s.Models) > 0:
			tables = append(tables, modelTables(s, r, xu)...)
			if k := s.Knee; k != nil {
				tables = append(tables, kneeTable(s, xu))
			}
		}
		for _, wn := range s.Warnings {
			head.Notes = append(head.Notes, s.Name+": "+wn)
		}
	}
	return tables
}

// modelTables gives the fits of a degradation series and their
// leave-last-out check (and prediction, with --predict).
func modelTables(s *analyze.Series, r *analyze.Result, xu string) []*Table {
	t := &Table{Name: "models", Title: "Models: " + s.Name,
		Columns: Cols("model", "parameters ± stderr", ">R²", ">slope p", ">loss/doubling")}
	cols := []string{"model", ">fitted without the largest", ">actual", ">error"}
	if r.PredictAt != nil {
		cols = append(cols, ">at "+WithUnit(Num(*r.PredictAt), xu)+" [95% interval]")
	}
	checks := &Table{Name: "checks", Columns: Cols(cols...)}
	for _, m := range s.Models {
		var ps []string
		for _, p := range m.Params {
			ps = append(ps, fmt.Sprintf("%s=%s±%s", p.Name, Num(p.Value), Num(p.StdErr)))
		}
		t.Add(m.Name, strings.Join(ps, " "), fmt.Sprintf("%.4f", m.R2), fmt.Sprintf("%.3f", m.SlopeP), PercentOr(m.LossPerDoubling))
		row := []string{m.Name, "–", "–", PercentOr(m.LeaveLastOutError)}
		if h := m.LeaveLastOut; h != nil {
			row[1] = fmt.Sprintf("%s [%s, %s]", Num(h.Y), Num(h.Lo), Num(h.Hi))
			row[2] = Num(h.Actual)
		}
		if p := m.Prediction; p != nil {
			row = append(row, fmt.Sprintf("%s [%s, %s]", Num(p.Y), Num(p.Lo), Num(p.Hi)))
		}
		checks.Add(row...)
	}
	if b := analyze.BestModel(s.Models); b != nil {
		t.Notes = append(t.Notes, fmt.Sprintf("best fit: %s (%s); loss/doubling: fraction lost each time the size doubles.", b.Name, b.Formula))
		if b.SlopeP > analyze.Alpha {
			t.Notes = append(t.Notes, fmt.Sprintf("the slope is not significant (p=%.3f): no degradation the noise could not explain.", b.SlopeP))
		}
	}
	if note := leverageNote(s.Models, xu); note != "" {
		t.Notes = append(t.Notes, note)
	}
	if len(s.Models) > 0 && s.Models[0].LeaveLastOut != nil {
		checks.Title = fmt.Sprintf("Leave-last-out at %s, fitted on the other sizes", WithUnit(Num(s.Models[0].LeaveLastOut.X), xu))
	}
	return []*Table{t, checks}
}

// leverageNote names the sizes that dominate the fits (leverage above
// the limit in some model), with their leverage in each: "" when none.
func leverageNote(models []*analyze.Model, xu string) string {
	var xs []float64
	by := map[float64][]string{}
	limit := 0.0
	for _, m := range models {
		limit = m.LeverageLimit
		for _, p := range m.HighLeverage {
			if _, ok := by[p.X]; !ok {
				xs = append(xs, p.X)
			}
			by[p.X] = append(by[p.X], fmt.Sprintf("%s %.2f", m.Name, p.Leverage))
		}
	}
	if len(xs) == 0 {
		return ""
	}
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%s (%s)", analyze.FormatX(x, xu), strings.Join(by[x], ", ")))
	}
	return fmt.Sprintf("high leverage (above %s: the point outweighs all the others in its own fitted value): %s; "+
		"the curves go through it, whatever the other sizes say.", Num(limit), strings.Join(parts, "; "))
}

func kneeTable(s *analyze.Series, xu string) *Table {
	k := s.Knee
	t := &Table{Name: "knee", Title: "Cliff test: " + s.Name,
		Columns: Cols(">at", ">below", ">above", ">step", ">p", "significant", "cliff")}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	t.Add(WithUnit(Num(k.At), xu), strconv.Itoa(k.Below), strconv.Itoa(k.Above), Percent(k.StepFraction), fmt.Sprintf("%.3f", k.P),
		yes(k.Significant), yes(k.Cliff))
	t.Notes = append(t.Notes, k.Verdict,
		fmt.Sprintf("cliff: a significant step for the worse of at least %s of the trend", Percent0(k.MinCliff)),
		"test: "+k.Test)
	return t
}

func sweepTable(s *analyze.Series, xu, yu string) *Table {
	sw := s.Sweep
	t := &Table{Name: "sweep", Title: "Sweep: " + s.Name,
		Columns: Cols(">setting", ">n", ">median", ">vs best", "")}
	tested := sw.Adjustment != ""
	if tested {
		// Repeated runs: each setting's range and the adjusted p of its
		// test against the best.
		t.Columns = Cols(">setting", ">n", ">median", ">range", ">vs best", ">p_adj", "")
	}
	for _, st := range sw.Settings {
		mark := ""
		switch {
		case st.X == sw.Best.X:
			mark = "best"
		case slices.Contains(sw.WithinNoise, st.X):
			mark = "within noise"
		}
		row := []string{WithUnit(Num(st.X), xu), strconv.Itoa(st.N), WithUnit(Num(st.Median), yu), Percent(st.VsBest), mark}
		if tested {
			rng, p := "", ""
			if st.N > 1 {
				rng = Num(st.Min) + "–" + Num(st.Max)
			}
			if c := st.Compare; c != nil && c.PAdjusted != nil {
				p = fmt.Sprintf("%.3f", *c.PAdjusted)
			}
			row = []string{row[0], row[1], row[2], rng, row[3], p, mark}
		}
		t.Add(row...)
	}
	t.Notes = append(t.Notes, sw.Verdict, "test: "+sw.Test)
	return t
}

func abTable(s *analyze.Series, yu string) *Table {
	t := &Table{Name: "ab", Title: "A/B: " + s.Name,
		Columns: Cols("configuration", ">n", ">median", ">change", "comparison")}
	base := s.AB[0]
	t.Add(base.Baseline+" (base)", strconv.Itoa(base.Before.N), withSpread(base.Before, base.BeforeSpread, yu), "", "")
	var warnings [][]string
	for _, e := range s.AB {
		t.Add(e.Label, strconv.Itoa(e.After.N), withSpread(e.After, e.AfterSpread, yu), Percent(e.Change), e.Comparison.String())
		t.Notes = append(t.Notes, e.Verdict)
		warnings = append(warnings, e.Comparison.Warnings)
	}
	if c := s.AB[0].Comparison; c.Tests > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("p_adj: p adjusted by %s over the %d comparisons with the base", adjustmentName(c.Adjustment), c.Tests))
	}
	t.Notes = append(t.Notes, distinct(warnings...)...)
	return t
}

// runsTable lists the points of a series that has nothing to compare
// (one configuration).
func runsTable(s *analyze.Series, yu string) *Table {
	t := &Table{Name: "runs", Title: "Runs: " + s.Name, Columns: Cols("configuration", ">value", "source")}
	for _, p := range s.Points {
		t.Add(xOf(&p, ""), WithUnit(Num(p.Y), yu), p.Source)
	}
	t.Notes = append(t.Notes, "one configuration: nothing to compare (give the runs of another, or a size with --x)")
	return t
}

func loadTable(s *analyze.Series, xu string) *Table {
	t := &Table{Name: "load", Title: "Load speed", Columns: Cols(">size", ">MB/s")}
	for _, p := range s.Points {
		t.Add(xOf(&p, xu), fmt.Sprintf("%.3f", p.Y))
	}
	t.Notes = append(t.Notes, s.Load.Verdict, "test: "+s.Load.Test)
	return t
}

// withSpread prints a median and, for repeated runs, the 95 % interval
// of the median as benchstat's "± x %" (6 runs or more) or, with 2 to 5
// runs, where there is no such interval, the range: "1488 tps ± 9%",
// "1488 tps (range 1402–1530)".
func withSpread(sum analyze.Summary, spread *float64, unit string) string {
	s := WithUnit(Num(sum.Median), unit)
	switch {
	case spread != nil:
		s += fmt.Sprintf(" ± %.0f%%", 100**spread)
	case sum.N > 1:
		s += " (range " + Num(sum.Min) + "–" + Num(sum.Max) + ")"
	}
	return s
}

// paren names a column with its unit: "ops (ops/s)", or just the name when
// the unit is the name.
func paren(name, unit string) string {
	if unit == "" || unit == name {
		return name
	}
	return name + " (" + unit + ")"
}

// xOf prints a point's x: the figure with its unit, or the configuration
// name when x is not a number.
func xOf(p *analyze.Point, xu string) string {
	if p.X == nil {
		return p.Label
	}
	return WithUnit(Num(*p.X), xu)
}
