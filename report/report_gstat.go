package report

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// gstatSummaryFigures are the headline fields of the gstat view the
// report's summary repeats, most telling first (it keeps the first two):
// where the space is, whether a transaction is stuck, then the shape.
var gstatSummaryFigures = []string{"table_bytes", "next_minus_oat", "index_bytes", "tables", "indices", "page_size"}

// GstatSection is the report section of one gstat run: the gstat view's
// HTML fragment (the figures, warnings, tables and indices that
// `fbdiag gstat` prints), the fill charts, and for the summary a few
// figures and the warnings, worded as the view words them.
func GstatSection(a *analyze.GstatAnalysis, rep *parse.GstatReport) *Section {
	return gstatSection(a, rep, nil)
}

// gstatSection is GstatSection whose fragment leaves out the headline
// fields of the keys in omit (a database section shows them in its
// header block).
func gstatSection(a *analyze.GstatAnalysis, rep *parse.GstatReport, omit map[string]bool) *Section {
	name := filepath.Base(a.File)
	if a.Report > 0 {
		name += fmt.Sprintf(" (run %d)", a.Report+1)
	}
	s := &Section{ID: name, Short: name, Title: "Database statistics: " + name, Kind: string(parse.InputGstat), Sources: []string{a.File}}
	d := view.Gstat(a, view.GstatOptions{Top: view.GstatTop})
	fields := map[string]view.Field{}
	for _, f := range d.Headline {
		fields[f.Key] = f
	}
	for _, k := range gstatSummaryFigures {
		if f, ok := fields[k]; ok && !f.Value.Null {
			s.Headlines = append(s.Headlines, Headline{Label: f.Label, Value: f.Value.Human()})
		}
	}
	for _, f := range d.Findings {
		text := f.Object + ": " + f.Message
		if f.Advice != "" {
			text += " Do: " + f.Advice
		}
		s.Findings = append(s.Findings, Finding{Severity: f.Severity, Text: text})
	}
	if len(omit) > 0 {
		kept := d.Headline[:0:0]
		for _, f := range d.Headline {
			if !omit[f.Key] {
				kept = append(kept, f)
			}
		}
		d.Headline = kept
	}
	var b bytes.Buffer
	if err := view.Write(&b, view.HTML, view.Options{MoreHint: " (fbdiag gstat --all lists them)"}, d); err != nil {
		s.Err = err.Error()
	}
	// The view escapes every text it writes (view/html.go).
	s.Fragment = template.HTML(b.String())
	s.AddCharts(GstatCharts(a))
	for _, n := range a.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}
