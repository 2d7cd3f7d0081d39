package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/fbdiag/fbdiag/analyze"
)

// GstatJSON writes a gstat analysis as the JSON of docs/gstat-json.md
// while the run is read: the header first, each table as it is analysed,
// then the unattached indices, findings, encryption, totals, warnings and
// notices, which are known only at the end. The bytes are those of
// WriteJSON on the whole analysis but for that order of keys; memory holds
// one table's JSON.
type GstatJSON struct {
	w      io.Writer
	buf    bytes.Buffer
	enc    *json.Encoder
	tables int
	err    error
}

// NewGstatJSON starts one run's document: file, report and header.
func NewGstatJSON(w io.Writer, a *analyze.GstatAnalysis) *GstatJSON {
	g := &GstatJSON{w: w}
	g.enc = json.NewEncoder(&g.buf)
	g.enc.SetEscapeHTML(false)
	g.raw("{\n")
	g.field("file", a.File, "  ", false)
	g.field("report", a.Report, "  ", false)
	g.field("header", a.Header, "  ", false)
	g.raw(`  "tables": [`)
	return g
}

// Table writes one table of the run.
func (g *GstatJSON) Table(t *analyze.TableStats) {
	if g.tables > 0 {
		g.raw(",")
	}
	g.raw("\n    ")
	g.value(t, "    ")
	g.tables++
}

// Close writes what the end of the run brings and ends the document.
func (g *GstatJSON) Close(a *analyze.GstatAnalysis) error {
	if g.tables > 0 {
		g.raw("\n  ")
	}
	g.raw("],\n")
	array(g, "unattached_indices", a.UnattachedIndices)
	array(g, "findings", a.Findings)
	array(g, "encryption", a.Encryption)
	g.field("totals", a.Totals, "  ", false)
	array(g, "warnings", a.Warnings)
	g.raw(`  "notices": `)
	g.elements(len(a.Notices), func(i int) any { return &a.Notices[i] })
	g.raw("\n}\n")
	return g.err
}

// array writes a top-level array one element at a time (a run's warnings
// can be tens of megabytes of JSON), followed by a comma.
func array[T any](g *GstatJSON, key string, vs []T) {
	g.raw(`  "` + key + `": `)
	g.elements(len(vs), func(i int) any { return &vs[i] })
	g.raw(",\n")
}

func (g *GstatJSON) elements(n int, at func(int) any) {
	if n == 0 {
		g.raw("[]")
		return
	}
	g.raw("[")
	for i := range n {
		if i > 0 {
			g.raw(",")
		}
		g.raw("\n    ")
		g.value(at(i), "    ")
	}
	g.raw("\n  ]")
}

func (g *GstatJSON) raw(s string) {
	if g.err == nil {
		_, g.err = io.WriteString(g.w, s)
	}
}

func (g *GstatJSON) field(key string, v any, indent string, last bool) {
	g.raw(indent + `"` + key + `": `)
	g.value(v, indent)
	if last {
		g.raw("\n")
	} else {
		g.raw(",\n")
	}
}

// value writes v as json.Encoder with SetIndent does at this depth.
func (g *GstatJSON) value(v any, indent string) {
	if g.err != nil {
		return
	}
	g.buf.Reset()
	g.enc.SetIndent(indent, "  ")
	if g.err = g.enc.Encode(v); g.err != nil {
		return
	}
	b := g.buf.Bytes()
	_, g.err = g.w.Write(b[:len(b)-1]) // Encode's newline
}
