package report

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

func init() { Register(parse.InputGbak, gbakSections) }

// MaxComparisons bounds the restore comparisons of one report.
const MaxComparisons = 3

// gbakSections makes one section per log, then compares logs of the same
// operation that share steps (two restores of one backup under two
// settings), each pair once.
func gbakSections(ins []Input) []*Section {
	var out []*Section
	var tls []*analyze.Timeline
	for _, in := range ins {
		tl, err := readTimeline(in)
		if tl == nil {
			out = append(out, &Section{ID: filepath.Base(in.Name), Title: "gbak log: " + filepath.Base(in.Name),
				Kind: string(parse.InputGbak), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		s := GbakSection(tl)
		if err != nil {
			s.Err = err.Error()
		}
		out = append(out, s)
		tls = append(tls, tl)
	}
	n := 0
	for i := 0; i < len(tls) && n < MaxComparisons; i++ {
		for j := i + 1; j < len(tls) && n < MaxComparisons; j++ {
			if kindOf(tls[i]) != kindOf(tls[j]) {
				continue
			}
			c := analyze.CompareTimelines(
				analyze.GbakRun{Label: filepath.Base(tls[i].File), Timeline: tls[i]},
				analyze.GbakRun{Label: filepath.Base(tls[j].File), Timeline: tls[j]})
			if len(c.Runs) < 2 || !sharesObjects(c) {
				continue
			}
			out = append(out, GbakComparisonSection(c, tls[i].File, tls[j].File))
			n++
		}
	}
	return out
}

func kindOf(tl *analyze.Timeline) string {
	if tl.Kind == nil {
		return ""
	}
	return *tl.Kind
}

func readTimeline(in Input) (*analyze.Timeline, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return analyze.ReadGbakTimeline(rc, in.Name)
}

func secs(p *float64) string {
	if p == nil {
		return ""
	}
	return plot.FormatSeconds(*p)
}

// GbakStepsShown bounds the steps table of a gbak section: a restore of
// a schema of a million objects must not give a page of a million rows.
const GbakStepsShown = 500

// GbakSection is the section of one gbak log: outcome, total time, the
// timeline chart and the slowest steps.
func GbakSection(tl *analyze.Timeline) *Section {
	name := filepath.Base(tl.File)
	op := kindOf(tl)
	if op == "" {
		op = "gbak"
	}
	s := &Section{ID: name, Short: name, Title: "gbak " + op + ": " + name, Kind: string(parse.InputGbak), Sources: []string{tl.File}}
	s.Headlines = append(s.Headlines, Headline{Label: op + " " + tl.Outcome, Value: secs(tl.TotalSeconds)})
	if tl.TotalSeconds == nil && tl.SpanSeconds != nil {
		s.Headlines[0].Value = secs(tl.SpanSeconds) + " shown"
	}
	for _, e := range tl.Errors {
		s.Findings = append(s.Findings, Finding{Severity: "critical", Text: name + ": " + e})
	}
	for _, w := range tl.Warnings {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: name + ": " + w})
	}
	for _, cut := range CutSteps(tl) {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: name + ": the log ends inside " + cut})
	}
	s.Text = append(s.Text, tl.Notes...)
	s.AddCharts(GbakCharts(tl))
	if len(tl.Phases) > 0 {
		t := &Table{Name: "phases", Title: "Phases", Columns: Cols("phase", ">steps", ">seconds", ">reads", ">writes")}
		for _, p := range tl.Phases {
			// A phase of only unknown costs has no figures, not zeros.
			if p.Seconds == nil {
				t.Add(p.Name, strconv.Itoa(p.Steps), "", "", "")
				continue
			}
			t.Add(p.Name, strconv.Itoa(p.Steps), unknownCells{}.atLeast(p.Seconds, p.LowerBound),
				strconv.FormatInt(p.Reads, 10), strconv.FormatInt(p.Writes, 10))
		}
		s.Tables = append(s.Tables, t)
	}
	if slow := tl.Slowest(GbakStepsShown); len(slow) > 0 {
		title := fmt.Sprintf("Steps by time (%d)", len(slow))
		if known := tl.KnownSteps(); known > len(slow) {
			title = fmt.Sprintf("Steps by time (the %d slowest of %d)", len(slow), known)
		}
		t := &Table{Name: "steps", Title: title, Columns: Cols(">line", "step", "phase", ">seconds", ">reads", ">writes")}
		for _, st := range slow {
			t.Add(strconv.Itoa(st.Line), st.Label(), st.Phase, unknownCells{}.atLeast(st.Seconds, st.LowerBound), num(st.Reads), num(st.Writes))
		}
		s.Tables = append(s.Tables, t)
	}
	for _, n := range tl.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}

// GbakComparisonSection compares two logs step by step.
func GbakComparisonSection(c *analyze.GbakComparison, a, b string) *Section {
	s := &Section{ID: "compare-" + filepath.Base(a) + "-" + filepath.Base(b), Kind: "comparison",
		Short:   filepath.Base(a) + " vs " + filepath.Base(b),
		Title:   "Comparison: " + filepath.Base(a) + " vs " + filepath.Base(b),
		Sources: []string{a, b}}
	for _, t := range c.Totals {
		if t.Verdict != "" {
			s.Headlines = append(s.Headlines, Headline{Label: t.Name, Value: t.Verdict})
		}
	}
	s.Text = append(s.Text, c.Warnings...)
	s.AddCharts(GbakComparisonCharts(c))
	t := &Table{Name: "compare", Title: fmt.Sprintf("Steps (%d)", len(c.Steps)),
		Columns: Cols("step", ">"+filepath.Base(a), ">"+filepath.Base(b), "change")}
	for _, st := range c.Slowest(-1) {
		var va, vb string
		if len(st.Median) > 1 {
			va, vb = secs(st.Median[0]), secs(st.Median[1])
		}
		t.Add(st.Name, va, vb, st.Verdict)
	}
	s.Tables = append(s.Tables, t)
	return s
}

// sharesObjects reports whether two runs restored or backed up the same
// tables or indices: generic steps ("writing domains") alone do not make
// two logs of different databases comparable.
func sharesObjects(c *analyze.GbakComparison) bool {
	for _, st := range c.Steps {
		if st.Only == nil && (st.Kind == string(parse.GbakData) || st.Kind == string(parse.GbakActivateIndex)) {
			return true
		}
	}
	return false
}
