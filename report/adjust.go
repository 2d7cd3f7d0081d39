package report

import "github.com/fbdiag/fbdiag/analyze"

// adjustmentName spells a p adjustment for people (the throughput tables;
// it was in gbak.go, whose tables the gbak view replaced).
func adjustmentName(m string) string {
	switch m {
	case analyze.BenjaminiHochberg:
		return "Benjamini-Hochberg"
	case analyze.Holm:
		return "Holm"
	}
	return m
}
