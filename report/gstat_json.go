package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/fbdiag/fbdiag/analyze"
)

// GstatJSON writes a gstat analysis as the JSON of docs/gstat-json.md
// while the run is read: the header first, each table as it is analysed,
// then the unattached indices, findings, encryption, totals, warnings and
// notices, which are known only at the end. The bytes are those of
// WriteJSON on the whole analysis but for that order of keys; memory holds
// one table's JSON.
type GstatJSON struct {
	*jsonOut
	tables int

	// As a WarningSink (analyze.GstatStream's Sink), the warnings are
	// spooled to a temporary file as they fire and copied in order by
	// Close: memory keeps a small record of each.
	spool *os.File
	end   int64
	recs  []spooled
}

// spooled is a warning written to the spool file: where, and what orders
// it (analyze.SortWarnings's keys).
type spooled struct {
	off int64
	n   int32
	key analyze.WarningKey
}

// Put spools one warning; a second Put of an id replaces the first.
func (g *GstatJSON) Put(id int, w analyze.Warning) error {
	if g.spool == nil {
		f, err := os.CreateTemp("", "fbdiag-warnings-*")
		if err != nil {
			return err
		}
		g.spool = f
	}
	b, err := g.encoded(&w, "    ")
	if err != nil {
		return err
	}
	if _, err := g.spool.Write(b); err != nil {
		return fmt.Errorf("spooling the warnings: %w", err)
	}
	r := spooled{off: g.end, n: int32(len(b)), key: w.Key()}
	g.end += int64(len(b))
	for len(g.recs) <= id {
		g.recs = append(g.recs, spooled{n: -1})
	}
	g.recs[id] = r
	return nil
}

// spooledWarnings writes the spooled warnings as the "warnings" array,
// in analyze.SortWarnings's order, and removes the spool file.
func (g *GstatJSON) spooledWarnings() {
	defer func() {
		g.spool.Close()
		os.Remove(g.spool.Name())
		g.spool, g.recs, g.end = nil, nil, 0
	}()
	slices.SortFunc(g.recs, func(a, b spooled) int { return analyze.CompareWarningKeys(a.key, b.key) })
	g.raw(`  "warnings": [`)
	var b []byte
	for i, r := range g.recs {
		if i > 0 {
			g.raw(",")
		}
		g.raw("\n    ")
		b = slices.Grow(b[:0], int(r.n))[:r.n]
		if _, err := g.spool.ReadAt(b, r.off); err != nil && g.err == nil {
			g.err = fmt.Errorf("reading the spooled warnings: %w", err)
		}
		if g.err == nil {
			_, g.err = g.w.Write(b)
		}
	}
	if len(g.recs) > 0 {
		g.raw("\n  ")
	}
	g.raw("],\n")
}

// NewGstatJSON starts one run's document: file, report and header.
func NewGstatJSON(w io.Writer, a *analyze.GstatAnalysis) *GstatJSON {
	g := &GstatJSON{jsonOut: newJSONOut(w)}
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

// TableEncoded writes a table that EncodeGstatTable encoded, as Table
// would.
func (g *GstatJSON) TableEncoded(b []byte) {
	if g.tables > 0 {
		g.raw(",")
	}
	g.raw("\n    ")
	if g.err == nil {
		_, g.err = g.w.Write(b)
	}
	g.tables++
}

var tableEncoders = sync.Pool{New: func() any { return newJSONOut(nil) }}

// EncodeGstatTable is t's JSON as GstatJSON.Table writes it, for a
// stream to encode tables on several cores (analyze.GstatStream's
// Prepare) and write them in order with TableEncoded.
func EncodeGstatTable(t *analyze.TableStats) ([]byte, error) {
	o := tableEncoders.Get().(*jsonOut)
	defer tableEncoders.Put(o)
	b, err := o.encoded(t, "    ")
	return bytes.Clone(b), err
}

// Close writes what the end of the run brings and ends the document.
func (g *GstatJSON) Close(a *analyze.GstatAnalysis) error {
	if g.tables > 0 {
		g.raw("\n  ")
	}
	g.raw("],\n")
	array(g.jsonOut, "unattached_indices", a.UnattachedIndices)
	array(g.jsonOut, "findings", a.Findings)
	array(g.jsonOut, "encryption", a.Encryption)
	g.field("totals", a.Totals, "  ", false)
	if g.spool != nil {
		g.spooledWarnings()
	} else {
		array(g.jsonOut, "warnings", a.Warnings)
	}
	g.raw(`  "notices": `)
	g.elements(len(a.Notices), func(i int) any { return &a.Notices[i] })
	g.raw("\n}\n")
	return g.err
}

// Abort removes the spool file of a document that will not be closed.
func (g *GstatJSON) Abort() {
	if g.spool != nil {
		g.spool.Close()
		os.Remove(g.spool.Name())
		g.spool = nil
	}
}
