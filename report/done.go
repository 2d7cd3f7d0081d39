package report

import (
	"fmt"
	"io"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/plot"
)

// WriteDone tells where the report was written (index, an absolute path)
// and what it found: how many inputs, sections and charts and the number
// of critical findings and warnings.
func WriteDone(w io.Writer, index string, inputs int, r *Report) {
	crit, warn := 0, 0
	for _, f := range r.Summary {
		switch f.Severity {
		case "critical":
			crit++
		case "warning":
			warn++
		}
	}
	fmt.Fprintf(w, "wrote %s\n", index)
	fmt.Fprintf(w, "%s, %s, %s; %d critical, %s\n",
		units.Count(inputs, "input"), units.Count(len(r.Sections), "section"), units.Count(len(r.Drawn()), "chart"),
		crit, units.Count(warn, "warning"))
}

// WriteTopFindings lists the first five findings of the report, one line
// each within a 100-column terminal, and counts the rest.
func WriteTopFindings(w io.Writer, r *Report) {
	for i, f := range r.Summary {
		if i == 5 {
			fmt.Fprintf(w, "  … %d more in the report\n", len(r.Summary)-5)
			break
		}
		fmt.Fprintf(w, "  %-8s %s\n", f.Severity, plot.Ellipsis(f.Text, 88))
	}
}
