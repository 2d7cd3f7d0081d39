package report

import (
	"fmt"
	"io"

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
		plural(inputs, "input"), plural(len(r.Sections), "section"), plural(len(r.Drawn()), "chart"),
		crit, plural(warn, "warning"))
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

// plural is "1 input", "2 inputs".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
