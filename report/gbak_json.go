package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/fbdiag/fbdiag/analyze"
)

// GbakJSON writes a gbak timeline as the JSON of docs/gbak-json.md while
// the log is read (analyze.StreamGbakTimeline): the file, each step as
// it is complete, then what the end of the log brings. The tables and
// the indices, complete with their steps but written after them, wait in
// a spool (a temporary file beyond a megabyte). The bytes are those of
// WriteJSON on the whole timeline; memory holds one step.
type GbakJSON struct {
	*jsonOut
	file    string
	started bool
	steps   int
	tables  spool
	indices spool
	// errors and warnings are the log's, as JSON strings: a failed
	// restore can print a million error lines.
	errors, warnings spool
	// failed are the indices a "cannot commit index" line named after
	// they were spooled: of the first n, those named name.
	failed []failedIndex
	// failedBelow is the greatest n of failed: no index from it on is
	// patched.
	failedBelow int
	buf         []byte // a step's JSON
}

type failedIndex struct {
	name string
	n    int
}

// NewGbakJSON starts the document of the named file; nothing is written
// before the first step (a file that is no gbak log writes nothing).
// (Its pass is w: steps and spooled records written by item go to w.)
func NewGbakJSON(w io.Writer, file string) *GbakJSON {
	return &GbakJSON{jsonOut: newJSONOut(w), file: file}
}

func (g *GbakJSON) start() {
	if g.started {
		return
	}
	g.started = true
	g.raw("{\n")
	g.field("file", g.file, "  ", false)
	g.raw(`  "steps": [`)
}

// Stream is what analyze.StreamGbakTimeline hands the steps, tables and
// indices to.
func (g *GbakJSON) Stream() analyze.GbakStream {
	return analyze.GbakStream{
		Step: func(st *analyze.GbakStep) error {
			g.start()
			var ok bool
			if g.buf, ok = appendStep(elementHead(g.buf[:0], g.steps), st); ok {
				g.passed(g.buf)
			} else {
				g.next(g.steps)
				g.value(st, stepIndent) // (for encoding/json's error)
			}
			g.steps++
			return g.err
		},
		Table: func(t *analyze.GbakTable) error {
			var ok bool
			if g.buf, ok = appendTable(g.buf[:0], t); !ok {
				// A NaN or an infinity: the spool's encoding/json says so.
				return g.spool(&g.tables, t)
			}
			g.tables.add(g.buf)
			return g.tables.err
		},
		Index: func(ix *analyze.GbakIndex) error { return g.spool(&g.indices, ix) },
		Failed: func(name string, n int) {
			g.failed = append(g.failed, failedIndex{name, n})
			g.failedBelow = max(g.failedBelow, n)
		},
		Error:   func(msg string) error { return g.message(&g.errors, msg) },
		Warning: func(msg string) error { return g.message(&g.warnings, msg) },
	}
}

// message spools an error or a warning.
func (g *GbakJSON) message(s *spool, msg string) error {
	g.buf = appendString(g.buf[:0], msg, false)
	s.add(g.buf)
	return s.err
}

func (g *GbakJSON) spool(s *spool, v any) error {
	b, err := g.encoded(v, "    ")
	if err != nil {
		return err
	}
	s.add(b)
	return s.err
}

// Close writes the rest of the document from the timeline the stream
// ended with, and removes the spools.
func (g *GbakJSON) Close(tl *analyze.Timeline) error {
	defer g.Abort()
	g.start()
	g.endArray(g.steps)
	g.raw(",\n")
	g.field("kind", tl.Kind, "  ", false)
	g.field("outcome", tl.Outcome, "  ", false)
	// Spooled: a log of error lines alone has as many (177,000 in 16
	// MiB; held, 100 MiB of them took 137 MB).
	g.spooled("errors", &g.errors, nil)
	g.spooled("warnings", &g.warnings, nil)
	g.field("columns", tl.Columns, "  ", false)
	g.field("total_seconds", tl.TotalSeconds, "  ", false)
	if tl.TotalLowerBound {
		g.field("total_lower_bound", true, "  ", false)
	}
	g.field("last_time_seconds", tl.LastTimeSeconds, "  ", false)
	g.field("total_reads", tl.TotalReads, "  ", false)
	g.field("total_writes", tl.TotalWrites, "  ", false)
	g.field("reads_so_far", tl.ReadsSoFar, "  ", false)
	g.field("writes_so_far", tl.WritesSoFar, "  ", false)
	g.field("span_seconds", tl.SpanSeconds, "  ", false)
	g.field("phases", tl.Phases, "  ", false)
	g.spooled("tables", &g.tables, nil)
	g.spooled("indices", &g.indices, g.patch)
	g.field("restored_indices", tl.RestoredIndices, "  ", false)
	g.field("inactive_indices", tl.InactiveIndices, "  ", false)
	g.field("inactive_index_names", tl.InactiveIndexNames, "  ", false)
	g.field("notes", tl.Notes, "  ", false)
	g.field("advice", tl.Advice, "  ", false)
	g.raw(`  "notices": `)
	g.elements(len(tl.Notices), func(i int) any { return &tl.Notices[i] })
	g.raw("\n}\n")
	return g.err
}

// patch is the i-th spooled index, marked failed when a later line
// named it.
func (g *GbakJSON) patch(i int, b []byte) ([]byte, error) {
	if i >= g.failedBelow { // (also when none failed)
		return b, nil
	}
	var ix analyze.GbakIndex
	if err := json.Unmarshal(b, &ix); err != nil {
		return nil, fmt.Errorf("reading the spooled indices: %w", err)
	}
	if ix.Failed {
		return b, nil
	}
	for _, f := range g.failed {
		if f.name == ix.Name && i < f.n {
			ix.Failed = true
			return g.encoded(&ix, "    ")
		}
	}
	return b, nil
}

// spooled writes a spool as the array key, followed by a comma; fix, when
// set, may change a record.
func (g *GbakJSON) spooled(key string, s *spool, fix func(int, []byte) ([]byte, error)) {
	g.raw(`  "` + key + `": [`)
	err := s.each(func(i int, b []byte) error {
		if fix != nil {
			var err error
			if b, err = fix(i, b); err != nil {
				return err
			}
		}
		g.item(i, b)
		return g.err
	})
	if err != nil && g.err == nil {
		g.err = err
	}
	g.endArray(s.n)
	g.raw(",\n")
}

// Abort removes the spools of a document that will not be closed.
func (g *GbakJSON) Abort() {
	g.tables.close()
	g.indices.close()
	g.errors.close()
	g.warnings.close()
}

// WriteGbakJSON reads a gbak log and writes its JSON as it is read (see
// GbakJSON); also gets the steps, tables and indices too. It returns the timeline without its steps, tables and
// indices, for the notices and the outcome. The error is that of
// analyze.StreamGbakTimeline or of writing: on a read error after the
// first step the document is ended with what was read; a file without a
// single gbak line writes nothing.
func WriteGbakJSON(w io.Writer, r io.Reader, name string, also analyze.GbakStream) (*analyze.Timeline, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	g := NewGbakJSON(bw, name)
	defer g.Abort()
	tl, err := analyze.StreamGbakTimeline(r, name, g.Stream().And(also))
	if tl != nil && (g.started || err == nil) { // (no gbak line: nothing written)
		if cerr := g.Close(tl); err == nil {
			err = cerr
		}
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return tl, err
}
