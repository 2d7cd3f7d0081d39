package parse

import (
	"bytes"
	"io"
	"math"
	"slices"
	"strconv"
)

// Part is one piece of an input that holds output of several kinds (an
// article with its result tables and a gbak excerpt): the kind, the lines
// of the file it spans and the name the report gives it.
type Part struct {
	// Name is the input's name and "#WORD-N" (PartName): "003.txt#gbak-1",
	// "003.txt#table-2", the N-th part of that kind in the file.
	Name   string
	Kind   InputKind
	Reason string // why, as Detect says it of the part's own lines
	// First and Last are the part's first and last lines in the file
	// (1-based, inclusive).
	First, Last int
}

// Split is how SplitInput cut one input.
type Split struct {
	// Parts in file order. An input of one kind is one part: the whole
	// input, named as the input.
	Parts []Part
	// Skipped counts the lines that are not blank and that no part reads:
	// the prose before, between and after the parts.
	Skipped int
	// Lines is the number of lines of the input.
	Lines int
	// More counts the parts past MaxParts, left out (their lines are
	// counted in Skipped).
	More int
}

// Mixed reports whether the input was cut: it holds parts of two kinds
// or more.
func (s *Split) Mixed() bool {
	for _, p := range s.Parts[min(1, len(s.Parts)):] {
		if p.Kind != s.Parts[0].Kind {
			return true
		}
	}
	return false
}

// MaxParts bounds the parts of one input: an article has a few; a file of
// thousands of parts is no article, and each part is a section of the
// report.
const MaxParts = 100

// PartName is the name of the n-th part (1-based) of a kind in the input
// name: "name#gbak-1", "name#gstat-1", "name#table-1" (a throughput
// table), "name#benchmark-1".
func PartName(name string, k InputKind, n int) string {
	w := string(k)
	if k == InputThroughput {
		w = "table"
	}
	return name + "#" + w + "-" + strconv.Itoa(n)
}

// SplitInput cuts an input that holds output of several kinds into its
// parts: gstat runs, gbak log excerpts and result tables, each with its
// kind and lines. Prose between them is skipped (Split.Skipped counts its
// lines). open is called once per pass over the input (five at most: the
// head, one per reader, one to confirm): memory holds the parts' bounds,
// never the input.
//
// Each kind is found by its own reader, so that a part is what that
// reader reads: gbak lines by their "gbak:" prefix (GbakReader), gstat
// lines as GstatReader takes them, tables as TableReader finds them in
// the rest (not in gstat or gbak lines, whose columns look like tables).
// Then Detect must recognise each part from its own lines as it would
// recognise a file of them, or the part is prose.
//
// A gbak excerpt is one part while its lines follow each other, blank
// lines between them included; prose lines inside one ("Code", a title)
// are skipped when the time columns show that nothing is missing (the
// next step starts, time minus delta, at the time of the last one), and
// otherwise end the part. Time going back starts another part: another
// run. One gstat run (GstatReader's report) is one part, unless a table
// or gbak excerpt comes between its lines. Each table is a part (two of
// the same columns too: each is analysed on its own).
//
// An input with parts of one kind only is not cut: its Split is one
// part, the whole input, with Detect's kind and reason. So is an input
// Detect takes for a benchmark, a bench run or nothing.
func SplitInput(open func() (io.ReadCloser, error), name string) (*Split, error) {
	head, err := readHead(open)
	if err != nil {
		return nil, err
	}
	kind, reason := Detect(head)
	s := &Split{}
	whole := func() (*Split, error) {
		s.Parts, s.Skipped, s.More = []Part{{Name: name, Kind: kind, Reason: reason, First: 1, Last: s.Lines}}, 0, 0
		return s, nil
	}
	if kind != InputGbak && kind != InputGstat && kind != InputThroughput {
		if s.Lines, err = countLines(open); err != nil {
			return nil, err
		}
		return whole()
	}
	sp := cutter{name: name, open: open}
	if err := sp.gbakRuns(); err != nil {
		return nil, err
	}
	if err := sp.gstatRuns(); err != nil {
		return nil, err
	}
	if n := btoi(len(sp.gbak) > 0) + btoi(len(sp.gstat) > 0) + btoi(sp.other > 0); n < 2 {
		// One kind at most (a table needs lines of its own): the
		// common case of a gstat, gbak or CSV file, told in two passes.
		s.Lines = sp.lines
		return whole()
	}
	if err := sp.tables(); err != nil {
		return nil, err
	}
	sp.join()
	if err := sp.confirm(s); err != nil {
		return nil, err
	}
	if !s.Mixed() {
		return whole()
	}
	return s, nil
}

// readHead reads the first DetectSize bytes.
func readHead(open func() (io.ReadCloser, error)) ([]byte, error) {
	rc, err := open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	head := make([]byte, DetectSize)
	n, err := io.ReadFull(rc, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return head[:n], nil
}

func countLines(open func() (io.ReadCloser, error)) (int, error) {
	rc, err := open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	lr := NewLineReader(rc, "")
	lr.KeepTabs()
	for lr.Next() {
	}
	return lr.Line(), lr.Err()
}

// candidate is a part found by one reader, before Detect confirms it.
type candidate struct {
	kind        InputKind
	first, last int
	report      int // a gstat run's report (GstatReader's count)
}

type cutter struct {
	name  string
	open  func() (io.ReadCloser, error)
	gbak  []candidate // gbak excerpts, in line order
	gstat []candidate // runs of gstat lines with only blank lines between
	table []candidate
	parts []candidate // all, in line order, joined
	lines int         // the input's
	// other counts the lines that are not blank and neither gbak's nor
	// gstat's: where tables may be.
	other int
}

// continues is the most that time minus delta of a step may differ from
// the time of the step before it for the two to follow each other: the
// three figures are printed to the millisecond (and repairDelta allows
// as much).
const continues = 0.0025

// gbakRuns groups the gbak lines into excerpts.
func (sp *cutter) gbakRuns() error {
	rc, err := sp.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	rd := NewGbakReader(rc, sp.name)
	var prev GbakLine
	var cur *candidate
	for rd.Next() {
		l := rd.Line()
		header := rd.headerAt > prev.Line && rd.headerAt < l.Line
		start := cur == nil || header
		if !start && l.Has&ColTime != 0 && prev.Has&ColTime != 0 && l.Time < prev.Time {
			start = true // time back: another run
		}
		if !start && l.Gap {
			// Prose between two gbak lines: one excerpt only when the
			// times show that no step is missing.
			both := ColTime | ColDelta
			start = l.Has&both != both || prev.Has&both != both || math.Abs(l.Time-l.Delta-prev.Time) > continues
		}
		if start {
			first := l.Line
			if header {
				first = rd.headerAt
			}
			sp.gbak = append(sp.gbak, candidate{kind: InputGbak, first: first})
			cur = &sp.gbak[len(sp.gbak)-1]
		}
		cur.last = l.Line
		prev = *l
	}
	sp.lines = rd.lr.Line()
	return rd.Err()
}

// inGbak reports whether line is in a gbak excerpt.
func (sp *cutter) inGbak(line int) bool {
	_, found := slices.BinarySearchFunc(sp.gbak, line, func(c candidate, line int) int {
		switch {
		case c.last < line:
			return -1
		case c.first > line:
			return 1
		}
		return 0
	})
	return found
}

// gstatRuns finds the lines GstatReader takes as gstat output, outside
// the gbak excerpts.
func (sp *cutter) gstatRuns() error {
	rc, err := sp.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	g := NewGstatReader(rc, sp.name)
	var cur *candidate
	for g.lr.Next() {
		b := g.lr.Bytes()
		skipped := g.skipped
		g.line(b)
		// Records are not wanted here: drop them as they come.
		clear(g.queue)
		g.queue, g.qi = g.queue[:0], 0
		line := g.lr.Line()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if inGbak := sp.inGbak(line); g.skipped > skipped || inGbak {
			if !inGbak {
				sp.other++
			}
			cur = nil
			continue
		}
		if cur == nil || cur.report != g.report {
			sp.gstat = append(sp.gstat, candidate{kind: InputGstat, first: line, report: g.report})
			cur = &sp.gstat[len(sp.gstat)-1]
		}
		cur.last = line
	}
	return g.Err()
}

// tables finds the result tables in the lines that are neither gbak nor
// gstat output.
func (sp *cutter) tables() error {
	rc, err := sp.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	gi, si := 0, 0
	rest := newLinesReader(rc, sp.name, func(line int, _ []byte) bool {
		for gi < len(sp.gbak) && sp.gbak[gi].last < line {
			gi++
		}
		for si < len(sp.gstat) && sp.gstat[si].last < line {
			si++
		}
		return !(gi < len(sp.gbak) && sp.gbak[gi].first <= line) &&
			!(si < len(sp.gstat) && sp.gstat[si].first <= line)
	}, 0)
	tr := NewTableReader(rest, sp.name)
	for tr.Next() {
		t := tr.Table()
		c := candidate{kind: InputThroughput, first: t.Line, last: t.Line}
		if n := len(t.Rows); n > 0 {
			c.last = t.Rows[n-1].Line
		}
		sp.table = append(sp.table, c)
	}
	return tr.Err()
}

// join puts the candidates in line order and joins the runs of one gstat
// report that nothing else separates (the gstat reader skips the prose
// between them, as in a file of its own).
func (sp *cutter) join() {
	all := slices.Concat(sp.gbak, sp.gstat, sp.table)
	slices.SortStableFunc(all, func(a, b candidate) int { return a.first - b.first })
	for _, c := range all {
		if n := len(sp.parts); n > 0 {
			if p := &sp.parts[n-1]; c.kind == InputGstat && p.kind == InputGstat && p.report == c.report {
				p.last = max(p.last, c.last)
				continue
			}
		}
		sp.parts = append(sp.parts, c)
	}
}

// confirm reads each candidate's lines as its part's reader will
// (PartReader), keeps those Detect recognises as their kind, names them
// and counts the lines no part reads.
func (sp *cutter) confirm(s *Split) error {
	rc, err := sp.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	lr := NewLineReader(rc, sp.name)
	lr.KeepTabs()
	counts := map[InputKind]int{}
	var lines []string // the candidate's first lines, for Detect
	size, read, tabs := 0, 0, false
	i := 0
	for lr.Next() {
		line := lr.Line()
		for i < len(sp.parts) && sp.parts[i].last < line {
			i++
		}
		b := lr.Bytes()
		blank := len(bytes.TrimSpace(b)) == 0
		if i == len(sp.parts) || sp.parts[i].first > line {
			if !blank {
				s.Skipped++
			}
			continue
		}
		c := &sp.parts[i]
		if c.kind == InputGbak && !blank && !isGbakLine(string(b)) {
			s.Skipped++ // prose inside an excerpt: PartReader leaves it out
			b, blank = nil, true
		}
		if !blank {
			read++
		}
		if size < DetectSize && len(lines) < detectLines {
			lines = append(lines, string(b))
			size += len(b) + 1
			tabs = tabs || bytes.IndexByte(b, '\t') >= 0
		}
		if line < c.last {
			continue
		}
		// The candidate's last line: is it what its reader took it for?
		k, why := detectText(lines, c.first, tabs)
		n := read
		lines, size, read, tabs = lines[:0], 0, 0, false
		if k != c.kind && !(c.kind == InputThroughput && k == InputBenchmark) {
			s.Skipped += n
			continue
		}
		if len(s.Parts) == MaxParts {
			s.More++
			s.Skipped += n
			continue
		}
		counts[k]++
		s.Parts = append(s.Parts, Part{Name: PartName(sp.name, k, counts[k]), Kind: k, Reason: why, First: c.first, Last: c.last})
	}
	s.Lines = lr.Line()
	return lr.Err()
}

// PartReader reads part p of the input r: the lines before it are blank,
// so that each line keeps its number in the file (a reader's messages
// read file:line), and the lines after it are left out. In a gbak
// excerpt the lines that are not gbak's (prose inside it, which
// SplitInput skipped) are blank too. The text is UTF-8 with LF endings,
// whatever r's encoding; name is used in the message of a read error.
func PartReader(r io.Reader, name string, p Part) io.Reader {
	gbak := p.Kind == InputGbak
	return newLinesReader(r, name, func(line int, b []byte) bool {
		return line >= p.First && (!gbak || isGbakLine(string(b)))
	}, p.Last)
}

// linesReader is the text of r with the lines keep refuses made blank,
// up to line last (0: to the end).
type linesReader struct {
	lr   *LineReader
	keep func(line int, b []byte) bool
	last int
	buf  []byte // buf[off:] is read and not yet returned
	off  int
	done bool
}

func newLinesReader(r io.Reader, name string, keep func(line int, b []byte) bool, last int) *linesReader {
	lr := NewLineReader(r, name)
	lr.KeepTabs()
	return &linesReader{lr: lr, keep: keep, last: last}
}

func (l *linesReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for l.off == len(l.buf) {
		if l.done || l.last > 0 && l.lr.Line() >= l.last || !l.lr.Next() {
			l.done = true
			if err := l.lr.Err(); err != nil {
				return 0, err
			}
			return 0, io.EOF
		}
		l.buf, l.off = l.buf[:0], 0
		if b := l.lr.Bytes(); l.keep(l.lr.Line(), b) {
			l.buf = append(l.buf, b...)
		}
		l.buf = append(l.buf, '\n')
	}
	n := copy(p, l.buf[l.off:])
	l.off += n
	return n, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
