package report

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/labels"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

func init() { Register(parse.InputGbak, gbakSections) }

// MaxComparisons bounds the restore comparisons of one report.
const MaxComparisons = 3

// gbakSections makes one section per log, then compares logs of the same
// operation that share steps (two restores of one backup under two
// settings), each pair once. Each log is streamed: its section keeps the
// rows it shows (view.GbakKeeper) and, when there are logs to compare it
// with, the comparison what it matches (analyze.GbakRunSteps).
func gbakSections(ins []Input) []*Section {
	var out []*Section
	var tls []*analyze.Timeline
	var steps []*analyze.GbakRunSteps
	var read []Input // the input of each of tls
	for _, in := range ins {
		k := view.NewGbakKeeper(GbakStepsShown, view.GbakListTop).WithChart().WithMessages(HTMLRows)
		s := k.Stream()
		var rs *analyze.GbakRunSteps
		if len(ins) > 1 {
			rs = &analyze.GbakRunSteps{}
			s = s.And(rs.Stream())
		}
		tl, err := readTimeline(in, s)
		if tl == nil {
			out = append(out, &Section{ID: filepath.Base(in.Name), Title: "gbak log: " + filepath.Base(in.Name),
				Kind: string(parse.InputGbak), Sources: []string{in.Name}, Err: err.Error()})
			continue
		}
		kept := k.Kept()
		if gbakRetained != nil {
			gbakRetained(kept, rs)
		}
		sec := gbakSection(tl, kept)
		if err != nil {
			sec.Err = err.Error()
		}
		out = append(out, sec)
		tls = append(tls, tl)
		steps = append(steps, rs)
		read = append(read, in)
	}
	// Numbered runs of one operation (remote-run1 … remote-run5,
	// service-run1 …) are the repeats of their sides: one comparison of
	// the sides, as gbak compare makes it, rather than pairs of runs.
	if sec := gbakSidesSection(tls, steps); sec != nil {
		return append(out, sec)
	}
	n := 0
	for i := 0; i < len(tls) && n < MaxComparisons; i++ {
		for j := i + 1; j < len(tls) && n < MaxComparisons; j++ {
			if kindOf(tls[i]) != kindOf(tls[j]) {
				continue
			}
			l := labels.Distinct([]string{tls[i].File, tls[j].File})
			if a, b := read[i], read[j]; a.Part != nil && b.Part != nil && a.File == b.File {
				// Two parts of one file: "gbak-1" and "gbak-2", not "1" and "2".
				l = []string{partLabel(a), partLabel(b)}
			}
			c := analyze.CompareTimelines(
				analyze.GbakRun{Label: l[0], Timeline: tls[i], Steps: steps[i]},
				analyze.GbakRun{Label: l[1], Timeline: tls[j], Steps: steps[j]})
			if len(c.Runs) < 2 || !c.SharesObjects() {
				continue
			}
			out = append(out, GbakComparisonSection(c, tls[i].File, tls[j].File))
			n++
		}
	}
	return out
}

// gbakRetained, when set (by a test), is told what gbakSections kept of
// each log.
var gbakRetained func(*view.GbakKept, *analyze.GbakRunSteps)

// partLabel is a part's name without its file's: "gbak-1".
func partLabel(in Input) string {
	return strings.TrimPrefix(in.Name, in.File+"#")
}

func kindOf(tl *analyze.Timeline) string {
	if tl.Kind == nil {
		return ""
	}
	return *tl.Kind
}

// readTimeline streams a log to s (analyze.StreamGbakTimeline).
func readTimeline(in Input, s analyze.GbakStream) (*analyze.Timeline, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	tl, err := analyze.StreamGbakTimeline(rc, in.Source(), s)
	if tl != nil {
		// Messages name the file; the section the part.
		tl.File = in.Name
	}
	return tl, err
}

// GbakStepsShown bounds the steps of a gbak section: the slowest ones
// are shown, the rest counted (fbdiag gbak --all lists them).
const GbakStepsShown = 25

// fragment writes a view as the HTML fragment a section embeds.
func fragment(s *Section, d *view.Doc, hint string) {
	var b bytes.Buffer
	if err := writeFragment(&b, d, hint); err != nil {
		s.Err = err.Error()
	}
	// The view escapes every text it writes (view/html.go).
	s.Fragment = template.HTML(b.String())
}

// writeFragment writes a view in HTML for the page: every table and the
// findings at most HTMLRows, hint after the count of those left out.
func writeFragment(b *bytes.Buffer, d *view.Doc, hint string) error {
	return view.Write(b, view.HTML, view.Options{MaxRows: HTMLRows, MoreHint: hint}, d)
}

// field is the headline field of a view with the key, if it has a value.
func field(d *view.Doc, key string) (view.Field, bool) {
	for _, f := range d.Headline {
		if f.Key == key && !f.Value.Null {
			return f, true
		}
	}
	return view.Field{}, false
}

// GbakSection is the section of one gbak log: the gbak view's fragment
// (what `fbdiag gbak` prints), its timeline chart, and for the summary
// the outcome with the total time and the view's findings.
func GbakSection(tl *analyze.Timeline) *Section { return gbakSection(tl, nil) }

// gbakSection is GbakSection of a streamed timeline, with the rows kept
// of it (nil: those of tl).
func gbakSection(tl *analyze.Timeline, kept *view.GbakKept) *Section {
	name := filepath.Base(tl.File)
	// "log" when the log does not say, as fbdiag gbak's "gbak log: FILE"
	// (it was "gbak gbak: FILE", "gbak failed").
	op := kindOf(tl)
	if op == "" {
		op = "log"
	}
	s := &Section{ID: name, Title: "gbak " + op + ": " + name, Kind: string(parse.InputGbak), Sources: []string{tl.File}}
	d := view.Gbak(tl, view.GbakOptions{Top: GbakStepsShown, Kept: kept})
	h := Headline{Label: op + " " + tl.Outcome}
	if f, ok := field(d, "total_seconds"); ok {
		h.Value = f.Value.Human()
		if tl.TotalLowerBound { // a failed run's total (the view's caveat says why)
			h.Value, h.Caveat = "at least "+h.Value, true
		}
	} else if f, ok := field(d, "last_time_seconds"); ok {
		// The figure the section's headline gives (an incomplete log):
		// what the log's lines span read as the run's time, "1:02:55
		// shown" for an excerpt whose last line came at 3:41:44.
		h.Value = "last timestamp " + f.Value.Human()
	} else if tl.SpanSeconds != nil {
		h.Value = units.Seconds(*tl.SpanSeconds) + " shown"
	} else {
		// No time in the log (no -st t): its outcome is still the answer.
		h = Headline{Label: op, Value: tl.Outcome}
	}
	s.Headlines = append(s.Headlines, h)
	runKind := op
	if runKind == "log" {
		runKind = "gbak" // report.json's word, kept
	}
	s.Run = &RunSummary{File: tl.File, Kind: runKind, Outcome: tl.Outcome, TotalSeconds: tl.TotalSeconds, TotalLowerBound: tl.TotalLowerBound,
		RestoredIndices: tl.RestoredIndices, InactiveIndices: tl.InactiveIndices}
	// gbak's error lines are one failure (a killed restore prints three):
	// the summary counts it once, quoting the first line; the section
	// lists them (the first HTMLRows).
	var errs []view.Finding
	for _, f := range d.Findings {
		if f.Rule == "gbak-error" {
			errs = append(errs, f)
			continue
		}
		s.Findings = append(s.Findings, Finding{Severity: f.Severity, Text: withAdvice(name+": "+f.Object+": "+f.Message, f.Advice)})
	}
	for _, o := range d.FindingsOmitted { // (the errors are counted below)
		if o.Severity == "warning" {
			s.Findings = append(s.Findings, Finding{Severity: "warning", Text: fmt.Sprintf("%s: %d more warnings", name, o.Count)})
		}
	}
	if len(errs) > 0 {
		// The first line, or the index gbak stopped at when it failed on
		// others before it: their advice points to that one's.
		q := errs[0]
		for _, a := range tl.Advice {
			if a.Stopped {
				if i := slices.IndexFunc(errs, func(f view.Finding) bool { return f.Message == a.Message }); i >= 0 {
					q = errs[i]
				}
			}
		}
		s.Run.Failure = q.Message
		text := name + ": " + q.Object + " " + tl.Outcome + ": " + q.Message
		switch more := tl.ErrorCount - 1; {
		case more == 1:
			text += " (and 1 more error line)"
		case more > 1:
			text += fmt.Sprintf(" (and %d more error lines)", more)
		}
		// The advice on the error quoted (an index gbak could not
		// activate), as the section's finding and fbdiag gbak give it.
		text = withAdvice(text, q.Advice)
		s.Findings = append([]Finding{{Severity: "critical", Text: text}}, s.Findings...)
	}
	fragment(s, d, " (fbdiag gbak --all lists them)")
	s.AddCharts(d.Charts, nil)
	for _, n := range tl.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}

// gbakSidesSection compares the logs as sides of repeated runs when all
// are numbered runs of one operation (labels.Repeats groups them), with
// steps in common; nil otherwise.
func gbakSidesSection(tls []*analyze.Timeline, steps []*analyze.GbakRunSteps) *Section {
	if len(tls) < 3 {
		return nil
	}
	files := make([]string, len(tls))
	for i, tl := range tls {
		files[i] = tl.File
		if kindOf(tl) != kindOf(tls[0]) {
			return nil
		}
	}
	distinct := labels.Distinct(files)
	ls := labels.Repeats(distinct)
	if slices.Equal(ls, distinct) {
		return nil
	}
	runs := make([]analyze.GbakRun, len(tls))
	for i := range tls {
		runs[i] = analyze.GbakRun{Label: ls[i], Timeline: tls[i], Steps: steps[i]}
	}
	c := analyze.CompareTimelines(runs...)
	if !c.SharesObjects() {
		return nil
	}
	var sides []string
	for _, sd := range c.Sides {
		sides = append(sides, sd.Label)
	}
	name := strings.Join(sides, " vs ")
	return comparisonSection(c, "compare-"+strings.Join(sides, "-"), fmt.Sprintf("Comparison: %s (%d runs)", name, len(tls)), files)
}

// GbakComparisonSection compares logs step by step: the gbak compare
// view's fragment and chart; the totals' ratios to the baseline (the
// first log) for the summary.
func GbakComparisonSection(c *analyze.GbakComparison, a, b string) *Section {
	return comparisonSection(c, "compare-"+filepath.Base(a)+"-"+filepath.Base(b),
		"Comparison: "+filepath.Base(a)+" vs "+filepath.Base(b), []string{a, b})
}

func comparisonSection(c *analyze.GbakComparison, id, title string, sources []string) *Section {
	s := &Section{ID: id, Kind: "comparison", Title: title, Sources: sources}
	d := view.GbakCompare(c, view.GbakCompareOptions{Top: GbakStepsShown})
	for _, f := range d.Headline {
		if f.Value.Kind == view.RatioKind && !f.Value.Null {
			v := f.Value.Human()
			if f.Detail != "" {
				v += " " + f.Detail
			}
			// (the detail carries the figure's caveat: restores that left
			// different numbers of indices inactive did different work)
			s.Headlines = append(s.Headlines, Headline{Label: f.Label, Value: v, Caveat: c.InactiveIndicesDiffer()})
		}
	}
	fragment(s, d, " (fbdiag gbak compare --all lists them)")
	s.AddCharts(d.Charts, nil)
	return s
}

// withAdvice ends a finding's text with fbdiag's advice, a sentence of
// its own ("…blocks garbage collection Do: find the client…" read as one
// run-on clause), for a database's findings and a gbak run's.
func withAdvice(text, advice string) string {
	if advice == "" {
		return text
	}
	return fullStop(text) + " Do: " + advice
}
