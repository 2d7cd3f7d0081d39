package report

import (
	"path/filepath"

	"github.com/fbdiag/fbdiag/parse"
)

// Skip is an input the report could not analyse, and why ("empty",
// "binary data…", or the reader's error). The summary and the command
// name each one, so that nothing the user gave disappears silently.
type Skip struct {
	Name string
	Why  string
}

// Unanalysable lists the inputs no analysis reads (their kind was not
// recognised), before any is opened.
func Unanalysable(ins []Input) []Skip {
	var out []Skip
	for _, in := range ins {
		if in.Kind == parse.InputUnknown {
			out = append(out, Skip{Name: in.Name, Why: in.Reason})
		}
	}
	return out
}

// skipped collects the unrecognised inputs and the sections that failed,
// and puts them in the summary as warnings.
func (r *Report) skipped() {
	r.Skipped = Unanalysable(r.Inputs)
	for _, s := range r.Sections {
		if s.Err == "" {
			continue
		}
		for _, src := range s.Sources {
			r.Skipped = append(r.Skipped, Skip{Name: src, Why: s.Err})
		}
	}
	for _, sk := range r.Skipped {
		id := ""
		for _, s := range r.Sections {
			for _, src := range s.Sources {
				if src == sk.Name && id == "" {
					id = s.ID
				}
			}
		}
		r.Summary = append(r.Summary, Finding{Severity: "warning", Section: id,
			Text: filepath.Base(sk.Name) + ": not analysed: " + sk.Why})
	}
}
