package report

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// GstatSection is the report section of one gstat run: headline figures,
// the warnings, the tables, indices and fill charts and the full tables.
func GstatSection(a *analyze.GstatAnalysis, rep *parse.GstatReport) *Section {
	name := filepath.Base(a.File)
	if a.Report > 0 {
		name += fmt.Sprintf(" (run %d)", a.Report+1)
	}
	s := &Section{ID: name, Short: name, Title: "Database statistics: " + name, Kind: string(parse.InputGstat), Sources: []string{a.File}}
	// Headlines, most telling first (the summary keeps the first two):
	// where the space is, whether a transaction is stuck, then the shape.
	t := a.Totals
	if t.TableBytes != nil {
		v := plot.FormatSize(float64(*t.TableBytes), "B")
		if t.IndexBytes != nil {
			v += " + " + plot.FormatSize(float64(*t.IndexBytes), "B")
		}
		s.Headlines = append(s.Headlines, Headline{Label: "data + index leaf pages", Value: v})
	}
	h := a.Header
	if h != nil && h.Database != nil {
		s.Text = append(s.Text, "Database "+*h.Database+".")
	}
	if h != nil && h.NextMinusOAT != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "Next − OAT (transactions)", Value: strconv.FormatInt(*h.NextMinusOAT, 10)})
	}
	if t.Tables+t.Indices > 0 { // header-only runs (-h, -e) have neither
		s.Headlines = append(s.Headlines, Headline{Label: "tables / indices", Value: fmt.Sprintf("%d / %d", t.Tables, t.Indices)})
	}
	if h != nil && h.PageSize != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "page size", Value: strconv.FormatInt(*h.PageSize, 10)})
	}
	for _, w := range a.Warnings {
		obj := w.Object
		if w.Kind == "index" && w.Table != "" {
			obj += " (" + w.Table + ")"
		}
		text := obj + ": " + w.Reason
		if w.Advice != "" {
			text += " Do: " + w.Advice
		}
		s.Findings = append(s.Findings, Finding{Severity: string(w.Severity), Text: text})
	}
	s.AddCharts(GstatCharts(a, rep))
	s.Tables = append(s.Tables, gstatTables(a)...)
	for _, n := range a.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	return s
}

func pct(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p*100, 'f', 1, 64) + " %"
}

// gstatTables are the per-table and per-index figures, worst warning
// first column so the eye finds them.
func gstatTables(a *analyze.GstatAnalysis) []*Table {
	var out []*Table
	if len(a.Tables) > 0 {
		t := &Table{Name: "tables", Title: fmt.Sprintf("Tables (%d)", len(a.Tables)),
			Columns: Cols("table", ">records", ">back versions", ">fragments", ">data pages", ">size", "worst warning")}
		for _, ts := range a.Tables {
			size := ""
			if ts.SizeBytes != nil {
				size = plot.FormatSize(float64(*ts.SizeBytes), "B")
			}
			t.Add(ts.Name, num(ts.Records), num(ts.Versions), num(ts.Fragments), num(ts.DataPages), size,
				string(worstFor(a.Warnings, "table", ts.Name, "")))
		}
		out = append(out, t)
	}
	if ixs := allIndices(a); len(ixs) > 0 {
		t := &Table{Name: "indices", Title: fmt.Sprintf("Indices (%d)", len(ixs)),
			Columns: Cols("index", "table", ">depth", ">leaf buckets", ">nodes", ">max dup", ">dup share", "worst warning")}
		for _, ix := range ixs {
			t.Add(ix.Name, ix.Table, num(ix.Depth), num(ix.LeafBuckets), num(ix.Nodes), num(ix.MaxDup), pct(ix.DupRatio),
				string(worstFor(a.Warnings, "index", ix.Name, ix.Table)))
		}
		out = append(out, t)
	}
	return out
}
