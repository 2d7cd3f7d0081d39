package parse

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// Block lines read in one pass. Most lines of a big gstat output are the
// item and fill lines of table and index blocks ("\tRoot page: 7687,
// depth: 2, leaf buckets: 2, nodes: 2000"). fastLine takes such a line
// straight from the line reader's buffer: the bytes of its values are
// scanned once, to the line end, and its labels compared whole, where the
// usual way looks for the line end, then for a tab after the indentation,
// then for each colon and separator. It sets figures, fill counts, the
// fill label and an average fill as those read them, and hands any other
// item to the same tableItem, indexItem and fillLine, so the records and
// notices are the usual way's; it takes LF and CRLF line ends, and leaves any line it is
// not sure of (a tab or another control byte after the indentation, a
// lone CR, a byte past ASCII, an unknown label, a line end not in the
// buffer, a separator before blanks only) untouched for the usual way.

// fastLines turns fastLine on (off: the tests that compare both ways).
var fastLines = true

// maxFastItems bounds the items of a line fastLine takes (a 3.0 table
// line has three).
const maxFastItems = 8

// fastItem is an item of a line fastLine reads: its label at b[at:] and
// its value b[v:e] of the reader's buffer. Offsets rather than slices:
// storing a slice in the reader costs a write barrier's check a word.
type fastItem struct {
	id       uint8
	at, v, e int // (in the reader's buffer)
	// A value of digits, with one '.' between two of them or none, is
	// read as the bytes go by: its digits as one number, and how many
	// of them follow the point (atof's and atoi64's figures, without
	// their second pass over the bytes).
	fig  uint8 // intFigure, decimalFigure, both or none
	frac uint8
	num  uint64
}

// What a value's figure can be read as: exactly what atoi64 (18 digits
// and no point) or atof (15 digits) would read.
const (
	intFigure = 1 << iota
	decimalFigure
)

// fastLine reads the next lines while they are item or fill lines of the
// table or index block being read: one call for a block's lines rather
// than one a line. It returns false at a line it leaves to the usual way
// (Next reads it at once), true once a line it read has queued a record
// (a notice) for Next to return or changed what Next checks.
func (r *GstatReader) fastLine() bool {
	lr := r.lr
	if lr.cr == crEnded && lr.r < lr.w && lr.buf[lr.r] == '\n' {
		// The LF of the CRLF that ended the line before (read the usual
		// way), taken as readRaw takes it.
		lr.r++
		lr.cr = crNone
	}
	if r.skipCount != 0 || lr.cr != crNone || !lr.leadTabs || lr.err != nil {
		return false
	}
	taken := r.fastTaken
	ok := r.fastLines(lr)
	if r.fastTaken != taken {
		r.settle()
	}
	return ok
}

// fastLines is fastLine's loop, once a line at a time. The usual way's
// functions it calls for a line (tableItem, indexItem, fillLine, topLine)
// may queue a notice, skip a line or change the state: only after one of
// them does it check.
func (r *GstatReader) fastLines(lr *LineReader) bool {
	// A line taken leaves lr.cr at crNone; only the usual way's handling
	// of a fill line it does not read (topLine) may change the state or
	// skip a line.
	check := false          // (Next calls fastLine with none of these)
	b := lr.buf[:lr.w:lr.w] // (cap as len: a slice of b needs no other value)
	table := r.state == gsTable
	order, s := r.blockItems(table)
	for {
		if check {
			if len(r.queue) != 0 || r.skipCount != 0 || r.state != gsTable && r.state != gsIndex {
				return true
			}
			// (topLine may have started another block)
			table, check = r.state == gsTable, false
			order, s = r.blockItems(table)
		}
		p := lr.r // (the line's start in b)
		i := p
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i == len(b) {
			return false
		}
		if c := b[i]; c == '\n' || c == '\r' {
			// A blank line ends the block, as blank does.
			n := lineEnd(b, i)
			if n == 0 || i-p >= lineBuffer {
				return false // (a lone CR; a line the usual way finds long)
			}
			r.tookLine(p, i, i, n)
			r.blank()
			return true
		}
		if isDigit(b[i]) {
			if r.shortFill(b, p, i) {
				continue
			}
			if !r.fastFill(b, p, i) {
				return false
			}
			check = true
			continue
		}
		prev := order.prev // (learnt once the line is taken)
		items := &r.fastItems
		n, j := 0, i
		for {
			if n == maxFastItems {
				return false
			}
			id := order.follow[prev&(itemIDs-1)]
			w := &s.words[id&(itemIDs-1)]
			if id == 0 || !w.at(b, j) {
				// Not the label that came next last time: any other known one.
				k := j
				for k < len(b) && b[k] != ':' && b[k] != '\n' && b[k] != ',' {
					k++
				}
				if k == j || k == len(b) || b[k] != ':' {
					return false
				}
				if id = s.numbers[string(b[j:k])]; id == 0 {
					return false
				}
				w = &s.bare[id&(itemIDs-1)] // (the blank is tested)
			}
			it := &items[n]
			it.id, it.at = id, j
			n++
			prev = id
			j += w.size // (the label, its colon and gstat's blank if w.blank)
			if !w.blank && j < len(b) && b[j] == ' ' {
				j++
			}
			v := j
			var num uint64
			dot, other := -1, false
			for ; j < len(b); j++ {
				c := b[j]
				if d := c - '0'; d <= 9 {
					num = num*10 + uint64(d)
					continue
				}
				if k := valueByte[c]; k != plainByte {
					if k == commaByte && j+1 < len(b) && b[j+1] == ' ' || k == endByte && (c == '\n' || j+1 < len(b) && b[j+1] == '\n') {
						break
					}
					if k != commaByte { // (a comma in a value is a byte of it)
						return false // (a lone CR, another control byte, a byte past ASCII)
					}
				}
				if c == '.' && dot < 0 {
					dot = j
				} else {
					other = true
				}
			}
			it.num, it.fig, it.frac = num, 0, 0
			if other {
				for v < j && b[v] == ' ' {
					v++ // (more blanks before the value, read as one)
				}
			} else {
				if n := j - v; dot < 0 && n > 0 {
					if n <= 15 {
						it.fig = intFigure | decimalFigure
					} else if n <= 18 {
						it.fig = intFigure
					}
				} else if dot > v && dot < j-1 && n <= 16 {
					it.fig, it.frac = decimalFigure, uint8(j-dot-1)
				}
			}
			if j == len(b) {
				return false // (the line end is not in the buffer)
			}
			if b[j] != ',' {
				e := j
				if it.fig == 0 { // (a figure ends in a digit)
					for e > v && b[e-1] == ' ' {
						e--
					}
					if e > v && b[e-1] == ')' {
						return false // (a block name or a finding)
					}
				}
				if j-p >= lineBuffer {
					return false // (a line the usual way finds long)
				}
				it.v, it.e = v, e
				break
			}
			it.v, it.e = v, j
			// ", " then blanks to the line end (the usual way trims them and
			// keeps the comma in the value) is left to it by the next
			// label's test: no label starts with a blank or a line end.
			j += 2
		}
		r.tookLine(p, i, j, lineEnd(b, j))
		if table {
			r.inLevel = false
		}
		prev = order.prev
		rec := unsafe.Pointer(r.index) // (the record the figures go in)
		if table {
			rec = unsafe.Pointer(r.table)
		}
		for f := 0; f < n; f++ {
			it := &items[f]
			order.follow[prev&(itemIDs-1)], prev = it.id, it.id // (order.learn)
			if fd := s.figures[it.id&(itemIDs-1)]; it.fig&fd.kind != 0 {
				p := unsafe.Add(rec, fd.off)
				if fd.kind == intFigure {
					*(**int64)(p) = r.slab.i64(int64(it.num))
				} else {
					*(**float64)(p) = r.slab.f64(float64(it.num) / pow10[it.frac])
				}
				continue
			} else if fd.kind == fillItem {
				// "Fill distribution:", as tableItem and indexItem read it.
				if r.fill == nil {
					r.fill = r.slab.fill()
					if table {
						r.table.Fill = r.fill
					} else {
						r.index.Fill = r.fill
					}
				}
				continue
			} else if fd.kind == percentItem {
				if n, ok := percentOf(b[it.v:it.e]); ok {
					r.table.AverageFill = r.slab.int(n)
					continue
				}
			}
			if it.fig != 0 && r.setFigure(table, it) {
				continue
			}
			check = true
			label, value := b[it.at:it.at+len(s.labels[it.id])], b[it.v:it.e]
			if table {
				r.tableItem(r.table, it.id, label, value, f == 0) // (true: a known label)
			} else {
				r.indexItem(r.index, it.id, label, value)
			}
		}
		order.prev = prev
		r.blockData = true
	}
}

// setFigure sets the field of the block being read that item it, a
// figure, is for, as tableItem or indexItem would: false when the item
// is not an integer or decimal one, or its figure not one that atoi64 or
// atof reads exactly as it is.
func (r *GstatReader) setFigure(table bool, it *fastItem) bool {
	if it.fig&intFigure != 0 {
		var p **int64
		if table {
			p = r.tableInt(r.table, it.id)
		} else {
			p = indexInt(r.index, it.id)
		}
		if p != nil {
			*p = r.slab.i64(int64(it.num))
			return true
		}
	}
	if it.fig&decimalFigure != 0 {
		var p **float64
		if table {
			p = tableFloat(r.table, it.id)
		} else {
			p = indexFloat(r.index, it.id)
		}
		if p != nil {
			*p = r.slab.f64(float64(it.num) / pow10[it.frac])
			return true
		}
	}
	return false
}

// itemIDs bounds the items' numbers of both kinds of block, a power of
// two so that a mask spares the look-ups' bounds checks.
const itemIDs = 32

// figureField is where an item's figure goes in its record: the field's
// offset and the figure it takes (intFigure or decimalFigure; 0 for an
// item fastLines leaves to setFigure).
type figureField struct {
	off  uintptr
	kind uint8
}

// fillItem is the figureField kind of "Fill distribution", whose line
// starts the fill lines: read by fastLines itself, for the usual way's
// functions would have it check the state after the line.
const fillItem = 4

// percentItem is the figureField kind of a table's "average fill", a
// percentage ("84%"): read by percentOf when it is digits and '%'.
const percentItem = 8

// percentOf reads v, digits then '%', as percent would (nine digits at
// most: no notice for too big a figure); false for any other value.
func percentOf(v []byte) (int, bool) {
	n := len(v) - 1
	if n < 1 || n > 9 || v[n] != '%' {
		return 0, false
	}
	x := 0
	for _, c := range v[:n] {
		if !isDigit(c) {
			return 0, false
		}
		x = x*10 + int(c-'0')
	}
	return x, true
}

// figureFields are the fields setFigure sets, by item number, found by
// its own look-ups (tableInt, tableFloat, indexInt, indexFloat) on a
// record at hand: the two that change with the line (a blob level's
// total length and blob pages) are left to it.
func figureFields(table bool) (f [itemIDs]figureField) {
	var r GstatReader
	var tb GstatTable
	var x GstatIndex
	for id := range uint8(itemIDs) {
		var pi **int64
		var pf **float64
		var base unsafe.Pointer
		switch {
		case table && (id == tbTotalLength || id == tbBlobPages):
			continue
		case table && id < tbLabels:
			pi, pf, base = r.tableInt(&tb, id), tableFloat(&tb, id), unsafe.Pointer(&tb)
		case !table && id < ixLabels:
			pi, pf, base = indexInt(&x, id), indexFloat(&x, id), unsafe.Pointer(&x)
		}
		if table && id == tbFillDistribution || !table && id == ixFillDistribution {
			f[id].kind = fillItem
		} else if table && id == tbAverageFill {
			f[id].kind = percentItem
		} else if pi != nil {
			f[id] = figureField{uintptr(unsafe.Pointer(pi)) - uintptr(base), intFigure}
		} else if pf != nil {
			f[id] = figureField{uintptr(unsafe.Pointer(pf)) - uintptr(base), decimalFigure}
		}
	}
	return f
}

// fastFill reads a fill line, "\t 0 - 19% = 1" (its first digit at i of
// b, the line's start at p), that shortFill leaves, as the usual way does.
func (r *GstatReader) fastFill(b []byte, p, i int) bool {
	j := i
	for ; j < len(b); j++ {
		if k := valueByte[b[j]]; k != plainByte && k != commaByte {
			if lineEnd(b, j) > 0 {
				break
			}
			return false
		}
	}
	if j == len(b) || j-p >= lineBuffer {
		return false
	}
	e := j
	for e > i && b[e-1] == ' ' {
		e--
	}
	r.tookLine(p, i, j, lineEnd(b, j))
	t := b[i:e]
	if !r.fillLine(t) {
		r.topLine(t, i > p)
	}
	return true
}

// shortFill reads a fill line that starts as gstat prints them, "0 - 19%
// = " to "80 - 99% = " (from i of b, the line's start at p), and ends in
// digits, blanks and LF or CRLF, as fillLine would read it: its start
// compared as two words, its count read as the bytes go by. Fill lines are two in five of a big
// output's lines; any other is left to fastFill's way, which scans it
// three times.
func (r *GstatReader) shortFill(b []byte, p, i int) bool {
	d := b[i] - '0' // (a digit: fastLine's test)
	if d > 9 || d&1 != 0 || len(b)-i < 12 {
		return false
	}
	h := &fillHeads[d/2]
	c := b[i : i+12 : i+12]
	// (h.n-4 is 6 or 7: the mask spares a bounds check)
	if binary.LittleEndian.Uint64(c) != h.head || binary.LittleEndian.Uint32(c[(h.n-4)&7:]) != h.tail {
		return false
	}
	j := i + h.n
	v := j
	var n int64
	for j < len(b) && isDigit(b[j]) {
		n = n*10 + int64(b[j]-'0')
		j++
	}
	if j == v || j-v > 18 { // (18 digits cannot overflow; more are atoi64's)
		return false
	}
	for j < len(b) && b[j] == ' ' {
		j++
	}
	if j == len(b) || j-p >= lineBuffer {
		return false
	}
	end := lineEnd(b, j)
	if end == 0 {
		return false
	}
	r.tookLine(p, i, j, end)
	// fillBucket's, for a bucket known to be one of the five.
	if r.fill == nil {
		r.fill = r.slab.fill()
		r.attachFill()
	}
	r.fill[d/2] = n
	r.fillSeen++
	return true
}

// fillHeads are the starts of gstat's fill lines by their first digit
// over two: their first eight bytes and their last four ("% = ") as
// little-endian words, and their length.
var fillHeads = func() (h [5]struct {
	head uint64
	tail uint32
	n    int
}) {
	for k := range h {
		s := fmt.Sprintf("%d - %d%% = ", 20*k, 20*k+19)
		h[k].head = binary.LittleEndian.Uint64([]byte(s))
		h[k].tail = binary.LittleEndian.Uint32([]byte(s[len(s)-4:]))
		h[k].n = len(s)
	}
	return h
}()

// valueByte sorts the bytes of a value for fastLine and fastFill: most
// are plain, a comma may end an item and a line end the line, and any
// other byte leaves the line to the usual way. One lookup a byte rather
// than five comparisons.
var valueByte = func() (t [256]byte) {
	for c := range t {
		switch {
		case c == ',':
			t[c] = commaByte
		case c == '\n' || c == '\r':
			t[c] = endByte
		case c < ' ' || c >= 0x80:
			t[c] = otherByte
		}
	}
	return t
}()

const (
	plainByte = iota // printable ASCII but a comma
	commaByte
	endByte   // LF, CR
	otherByte // any other control byte, or past ASCII: the usual way's
)

// lineEnd is the length of the line end at b[j]: 1 for an LF, 2 for a
// CRLF, 0 for anything else (a lone CR, or a CR whose LF is not in the
// buffer, is left to the usual way).
func lineEnd(b []byte, j int) int {
	switch {
	case b[j] == '\n':
		return 1
	case b[j] == '\r' && j+1 < len(b) && b[j+1] == '\n':
		return 2
	}
	return 0
}

// tookLine moves the line reader past the line from p to end of its
// buffer (its end, n bytes of LF or CRLF, at end), whose indentation ends
// at i, as its Next would but for the line's bytes (Bytes), which settle
// sets once fastLine is done: the last line's alone are ever read.
func (r *GstatReader) tookLine(p, i, end, n int) {
	lr := r.lr
	r.fastFrom, r.fastTo, lr.indent = p, end, i-p
	lr.r = end + n
	lr.line++
	r.fastTaken++
}

// settle leaves the line reader's current line the last one fastLine
// took, as its Next would have.
func (r *GstatReader) settle() {
	lr := r.lr
	b := lr.buf[r.fastFrom:r.fastTo]
	e := len(b)
	for e > 0 && (b[e-1] == ' ' || b[e-1] == '\t') {
		e--
	}
	lr.cur, lr.truncated = b[:e], false
}
