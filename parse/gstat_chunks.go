package parse

import (
	"bytes"
	"io"
)

// Reading a gstat output in pieces, several at once. A big output is
// mostly table blocks, each after a blank line, whose reading depends on
// nothing before them: a piece that starts at such a block can be read
// on its own (SpeculateGstat) while the pieces before it are read, and
// taken in the place of reading it in order (GstatChunks.Accept) when
// the reading in order reaches it in the state the piece was read from
// and the piece held nothing but table and index blocks. Any other piece
// is read in order (GstatChunks.Feed), so the records are those of
// EachGstatBlock whatever the cut.

// PlainText reports whether text starting with head is read as it is:
// UTF-8 without a byte order mark (see LineReader), which can be cut
// anywhere after an LF.
func PlainText(head []byte) bool {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE}),
		bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return false
	case len(head) < 4:
		return bytes.IndexByte(head, 0) < 0
	}
	return !(head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0) &&
		!(head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0)
}

// GstatCut returns the position in p of the first line at or after from
// that may start a table block read on its own: a line after an empty one
// (LF LF, or LF CR LF), not indented, not an index block's name, ending
// in ')' before its line end, which p holds. It returns -1 when p has
// none. A wrong guess costs time, not correctness: the piece is then read
// in order.
func GstatCut(p []byte, from int) int {
	for i := max(from, 2); i < len(p); {
		j := bytes.IndexByte(p[i-1:], '\n')
		if j < 0 {
			return -1
		}
		at := i + j // the line after this LF
		if at >= len(p) {
			return -1
		}
		i = at + 1
		blank := p[at-2] == '\n' || (at >= 3 && p[at-2] == '\r' && p[at-3] == '\n')
		if !blank {
			continue
		}
		if c := p[at]; c == ' ' || c == '\t' || c == '\r' || c == '\n' || bytes.HasPrefix(p[at:], []byte("Index ")) {
			continue
		}
		end := bytes.IndexByte(p[at:], '\n')
		if end < 0 {
			return -1
		}
		line := p[at : at+end]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == ')' {
			return at
		}
	}
	return -1
}

// GstatChunks reads a gstat output of plain text (PlainText) given in
// pieces, as EachGstatBlock reads the whole: the same records to the same
// receivers, in order. Each piece but the last ends at a line end.
type GstatChunks struct {
	br  *blockReader
	src bytes.Reader
}

// NewGstatChunks returns a reader of pieces of the output named name.
func NewGstatChunks(name string, b GstatBlocks) *GstatChunks {
	r := &GstatReader{lr: newFedLineReader(name), pausing: true}
	r.lr.KeepLeadingTabs()
	return &GstatChunks{br: newBlockReader(r, b)}
}

// Feed reads the lines of p, the next piece, and returns the first error
// a receiver returned.
func (c *GstatChunks) Feed(p []byte) error {
	c.src.Reset(p)
	c.br.r.lr.feed(&c.src)
	c.br.read()
	return c.br.ferr
}

// Rest reads the rest of the input from rd and ends it, as Close does.
func (c *GstatChunks) Rest(rd io.Reader) error {
	c.br.r.pausing = false
	c.br.r.lr.feed(rd)
	c.br.read()
	return c.br.end()
}

// Close ends the input: the last blocks and run go to their receivers;
// the error is EachGstatBlock's.
func (c *GstatChunks) Close() error {
	c.src.Reset(nil)
	return c.Rest(&c.src)
}

// Accept takes piece s, read on its own, in the place of the next piece
// to Feed, when the reading has reached it in the state s was read from:
// between the blocks of a run's tables, with the run's header read. The
// tables of s but its last are then the run's next ones (the receivers
// do not get them: the caller has them in s.Tables); its last is held as
// a table read here is, for the indices a later piece may add. The table
// held before goes to GstatBlocks.Table. False: s is to be fed.
func (c *GstatChunks) Accept(s *GstatSpec) bool {
	br, r := c.br, c.br.r
	if !s.ok || br.ferr != nil || !r.between() || !r.used || !r.hdrSent || br.cur == nil || br.cur.Index != r.report {
		return false
	}
	first := s.last
	if len(s.Tables) > 0 {
		first = s.Tables[0]
	}
	if repeats(br.owner, first) {
		return false // (the same table again: its indices would go to the owner)
	}
	br.closeOwner()
	// The records' positions were the piece's: now the run's and the
	// input's, as a reading in order gives them.
	base := r.lr.line
	place := func(p *GstatPos) { *p = GstatPos{Report: r.report, Line: base + p.Line} }
	for _, t := range s.Tables {
		place(&t.GstatPos)
		for _, ix := range t.Indices {
			place(&ix.GstatPos)
		}
	}
	place(&s.last.GstatPos)
	for _, ix := range s.lastIndices {
		place(&ix.GstatPos)
	}
	br.owner, br.ownerRep = s.last, br.cur
	br.pend = append(br.pend[:0], s.lastIndices...)
	r.lastTable = s.lastTable
	r.lr.line += s.Lines
	s.last, s.lastIndices = nil, s.lastIndices[:0]
	return true
}

// SetPool has the reading in order fill its records from p, where Put
// gives them back: p is the pool of the goroutine reading, which changes
// from piece to piece (nil between them).
func (c *GstatChunks) SetPool(p *GstatPool) { c.br.r.slab.pool = p }

// Put gives table t, which the receivers are done with, back to the pool
// of SetPool.
func (c *GstatChunks) Put(t *GstatTable) { c.br.r.slab.pool.Put(t) }

// Run is the index of the run being read (the one an accepted piece
// belongs to).
func (c *GstatChunks) Run() int { return c.br.r.report }

// GstatSpec is a piece of a gstat output read on its own (SpeculateGstat).
type GstatSpec struct {
	// Tables are its table blocks with their indices, but the last,
	// whose indices a later piece may add to.
	Tables []*GstatTable
	// Lines is the number of lines of the piece.
	Lines int

	ok          bool
	last        *GstatTable
	lastIndices []*GstatIndex
	lastTable   *GstatTable
	r           *GstatReader
	br          *blockReader
}

// Release gives the piece's tables back to p: those Accept did not take
// (its last, when it was not taken), and the others once handed on.
func (s *GstatSpec) Release(p *GstatPool) {
	for _, t := range s.Tables {
		p.Put(t)
	}
	clear(s.Tables)
	s.Tables = s.Tables[:0]
	if s.last != nil {
		p.Put(s.last)
		s.last = nil
	}
}

// OK reports whether the piece held table and index blocks only, and
// ended between two blocks: whether Accept may take it.
func (s *GstatSpec) OK() bool { return s.ok }

// SpeculateGstat reads piece p of the output named name as if it came
// between two table blocks of a run, into s (its earlier slices reused),
// with the table records of pool. Its positions (GstatPos) are the
// piece's: run 0, lines counted from its start.
func SpeculateGstat(p []byte, name string, pool *GstatPool, s *GstatSpec) {
	if s.r == nil {
		s.r = &GstatReader{lr: newFedLineReader(name)}
		s.r.lr.KeepLeadingTabs()
		s.br = newBlockReader(s.r, GstatBlocks{Table: func(_ *GstatReport, t *GstatTable) error {
			s.Tables = append(s.Tables, t)
			return nil
		}})
		s.br.spec = s
		s.br.cur = &GstatReport{}
	}
	r, lr := s.r, s.r.lr
	*lr = LineReader{name: lr.name, encoding: lr.encoding, expanded: lr.expanded[:0], long: lr.long[:0], leadTabs: true}
	slab := r.slab
	*r = GstatReader{lr: lr, slab: slab, queue: r.queue[:0], skipFirst: r.skipFirst[:0], held: r.held[:0],
		state: gsAnalysis, used: true, hdrSent: true, pausing: true}
	r.slab.pool = pool
	br := s.br
	br.owner, br.pend, br.ferr = nil, br.pend[:0], nil
	clear(s.Tables)
	s.Tables, s.ok = s.Tables[:0], true
	// The piece is the reader's buffer, read in place: a line longer
	// than a reader's buffer, which a reading in order cuts, fails it.
	lr.buf, lr.w, lr.srcErr, lr.lfAt, lr.crAt = p, len(p), io.EOF, -1, -1
	br.read()
	s.ok = s.ok && br.ferr == nil && br.owner != nil && r.between() && !lr.longSeen
	lr.buf = nil
	s.Lines = lr.Line()
	s.last, s.lastTable = br.owner, r.lastTable
	s.lastIndices = append(s.lastIndices[:0], br.pend...)
	br.owner = nil
}

// speculate handles a record of a speculative read; false ends the read
// (a record that the piece cannot be taken with).
func (br *blockReader) speculate(rec GstatRecord) bool {
	switch rec := rec.(type) {
	case *GstatTable:
		if repeats(br.owner, rec) {
			return true
		}
		br.closeOwner()
		br.owner, br.ownerRep = rec, br.cur
		return true
	case *GstatIndex:
		if owns(br.owner, rec) {
			br.pend = append(br.pend, rec)
			return true
		}
	}
	br.spec.ok = false
	return false
}

// between reports whether the reader stands between two blocks of a
// run's tables with nothing pending: where a piece read on its own from
// that state can be taken.
func (r *GstatReader) between() bool {
	return r.state == gsAnalysis && r.table == nil && r.index == nil && r.fill == nil && r.hdr == nil &&
		r.section == nil && r.skipCount == 0 && r.moreUnknown.n == 0 && r.moreCrypt.n == 0 &&
		len(r.held) == 0 && r.qi >= len(r.queue) && r.lr.r == r.lr.w && r.lr.cr == crNone
}
