package report

import (
	"fmt"
	"path/filepath"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// gstatSection is the latest snapshot's part of a database section: the
// gstat view's HTML fragment (the figures, warnings, tables and indices
// that `fbdiag gstat` prints) without the headline fields of the keys in
// omit (the section's header block shows them), and the run's charts. a
// is the run whole, or for a run read as a stream (st) its analysis
// without tables.
func gstatSection(a *analyze.GstatAnalysis, st *streamedRun, omit map[string]bool) *Section {
	name := filepath.Base(a.File)
	if a.Report > 0 {
		name += fmt.Sprintf(" (run %d)", a.Report+1)
	}
	s := &Section{ID: name, Title: "Database statistics: " + name, Kind: string(parse.InputGstat), Sources: []string{a.File}}
	var d *view.Doc
	if st != nil {
		d = view.Gstat(st.view, st.viewOpt)
	} else {
		d = view.Gstat(a, view.GstatOptions{Top: view.GstatTop})
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
	fragment(s, d, " (fbdiag gstat --all lists them)")
	if st != nil {
		s.AddCharts(st.charts.Draw())
	} else {
		s.AddCharts(GstatCharts(a))
	}
	return s
}
