package report

import (
	"fmt"
	"path/filepath"
	"strings"

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
		id, title := "", ""
		for _, s := range r.Sections {
			for _, src := range s.Sources {
				if src == sk.Name && id == "" {
					id, title = s.ID, s.Title
				}
			}
		}
		r.Summary = append(r.Summary, Finding{Severity: "warning", Section: id, SectionTitle: title,
			Text: filepath.Base(sk.Name) + ": not analysed: " + sk.Why})
	}
}

// SkippedNote names the inputs not analysed, for the summary.
type SkippedNote struct {
	Text string // "5 inputs: README.md, shop-schema.sql, …"
	ID   string // the section that says why
}

// SkippedCut is the note of the inputs not analysed when the summary's
// list is cut before their warnings (they come last): the corpus's five
// were among "and 18 more in the sections below", and its first screen
// did not say any input was left out. Nil when none was, or the list
// shows them.
func (r *Report) SkippedCut() *SkippedNote {
	if len(r.Skipped) == 0 || len(r.Summary) <= SummaryFindings {
		return nil
	}
	const named = 5
	var names []string
	for _, sk := range r.Skipped[:min(len(r.Skipped), named)] {
		names = append(names, filepath.Base(sk.Name))
	}
	text := fmt.Sprintf("%d inputs: %s", len(r.Skipped), strings.Join(names, ", "))
	if len(r.Skipped) == 1 {
		text = "1 input: " + names[0]
	}
	if len(r.Skipped) > named {
		text += fmt.Sprintf(" and %d more", len(r.Skipped)-named)
	}
	n := &SkippedNote{Text: text}
	for _, f := range r.Summary {
		if f.Section != "" && strings.HasSuffix(f.Text, ": not analysed: "+r.Skipped[0].Why) {
			n.ID = f.Section
			break
		}
	}
	if n.ID == "" {
		n.ID = "summary"
	}
	return n
}
