package parse

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// MaxLineLength bounds one line; longer lines are cut (and reported by
// LineReader.Truncated) so that a binary file fed by mistake cannot make
// a reader hold it all in memory.
const MaxLineLength = 1 << 20

// lineBuffer is the bytes a LineReader reads at a time: a longer line is
// gathered apart (longLine), which a piece read in place cannot do.
const lineBuffer = 64 << 10

// LineReader reads text lines the way every fbdiag reader wants them,
// whatever tool or shell wrote the file:
//
//   - UTF-8 with or without BOM, UTF-16LE/BE with BOM (PowerShell's `>`),
//     and UTF-16LE without BOM when the first bytes give it away;
//   - LF, CRLF or lone CR endings (CR CR LF is one end too), in linear
//     time whichever they are;
//   - trailing spaces and tabs removed (Services API output pads lines);
//   - tabs expanded to 8-column stops, so that "\tFlags\t\t\t0" and the
//     same line copied from a web page read alike.
//
// The slice returned by Bytes is valid until the next call to Next.
type LineReader struct {
	name string
	src  io.Reader // the decoded input; read through buf
	buf  []byte    // buf[r:w] is read and not yet returned
	r, w int
	// lfAt is the position in buf of the first '\n' at or after r, or w
	// when buf[r:w] has none; crAt that of the first '\r' before lfAt, or
	// lfAt when there is none (a CR after the LF ends no line of its own
	// yet); below r they are stale. Each byte is scanned once for each,
	// whatever the line ends.
	lfAt, crAt int
	// lfFrom and crFrom: buf[r:lfFrom] holds no '\n' (crFrom: no '\r'),
	// as scanned before the last fill, so that a line arriving a few bytes
	// per read is not scanned again from its start (linear, not quadratic).
	lfFrom, crFrom int
	cr             crState
	srcErr         error // the error (io.EOF included) that ended the input
	line           int
	cur            []byte
	long           []byte
	expanded       []byte
	encoding       string
	err            error
	truncated      bool
	longSeen       bool // a line of lineBuffer bytes or more was read (a piece read in place)
	keepTabs       bool
	leadTabs       bool
	indent         int // with KeepLeadingTabs: length of the current line's indentation
}

// crState is what the bytes after a line ended by CR mean. The reader
// returns the line at its CR without looking further, so it needs no
// look-ahead across buffer refills.
type crState uint8

const (
	crNone crState = iota
	// crEnded: the last line ended at a CR; an LF right after it is part
	// of that end (CRLF).
	crEnded
	// crLone: that CR was a line end of its own; a CRLF right after it
	// belongs to the same end (CR CR LF, CRLF text written through a
	// second CRLF conversion).
	crLone
	// crLoneCR: after a lone CR, one more CR was taken: an LF after it
	// completes the end; anything else, the end of the input included,
	// makes it the end of an empty line.
	crLoneCR
)

// NewLineReader returns a reader over r; name is used in messages
// ("-" is shown as "<stdin>").
func NewLineReader(r io.Reader, name string) *LineReader {
	if name == "-" || name == "" {
		name = "<stdin>"
	}
	lr := &LineReader{name: name, encoding: "utf-8"}
	// A small bufio.Reader is enough to peek at the encoding: once empty,
	// it hands the 64 KB reads of fill straight to r.
	br := bufio.NewReaderSize(r, 4<<10)
	var src io.Reader = br
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
		lr.encoding = "utf-8 (BOM)"
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		lr.encoding = "utf-16le"
		src = transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		lr.encoding = "utf-16be"
		src = transform.NewReader(br, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder())
	case len(head) >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		lr.encoding = "utf-16le (no BOM)"
		src = transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder())
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0:
		lr.encoding = "utf-16be (no BOM)"
		src = transform.NewReader(br, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder())
	}
	lr.src = src
	lr.buf = make([]byte, lineBuffer)
	return lr
}

// newFedLineReader returns a reader of plain UTF-8 text given in pieces
// (feed), each ending at a line end.
func newFedLineReader(name string) *LineReader {
	if name == "-" || name == "" {
		name = "<stdin>"
	}
	return &LineReader{name: name, encoding: "utf-8", buf: make([]byte, lineBuffer), srcErr: io.EOF}
}

// feed has the reader go on with src once it has returned every line of
// the pieces before.
func (r *LineReader) feed(src io.Reader) {
	r.src, r.srcErr = src, nil
}

// KeepTabs turns tab expansion off for this reader: a TSV file needs its
// tabs as delimiters, and "Classic\t299" expanded reads as one field.
func (r *LineReader) KeepTabs() { r.keepTabs = true }

// KeepLeadingTabs leaves a line's indentation as it is when all its tabs
// are in it: a reader that skips leading blanks anyway (gstat's block
// lines are "\tRoot page: 243, …") is spared a copy of most lines. A tab
// after the first character that is not blank still expands the line.
func (r *LineReader) KeepLeadingTabs() { r.leadTabs = true }

// Name is the file name given to NewLineReader.
func (r *LineReader) Name() string { return r.name }

// Line is the 1-based number of the line last returned by Next.
func (r *LineReader) Line() int { return r.line }

// Encoding names the text encoding that was detected.
func (r *LineReader) Encoding() string { return r.encoding }

// Truncated reports whether the current line was longer than MaxLineLength.
func (r *LineReader) Truncated() bool { return r.truncated }

// Err is the first I/O error met, with file:line; io.EOF is not an error.
func (r *LineReader) Err() error { return r.err }

// Errorf makes a SyntaxError at the current line.
func (r *LineReader) Errorf(format string, args ...any) *SyntaxError {
	return &SyntaxError{File: r.name, Line: r.line, Msg: sprintf(format, args...)}
}

// Notice makes a Notice at the current line.
func (r *LineReader) Notice(format string, args ...any) Notice {
	return Notice{File: r.name, Line: r.line, Msg: sprintf(format, args...)}
}

// Bytes is the current line without its end, trailing blanks removed and
// tabs expanded (with KeepLeadingTabs, a line whose only tabs indent it
// keeps them).
func (r *LineReader) Bytes() []byte { return r.cur }

// Text is Bytes as a string (allocates).
func (r *LineReader) Text() string { return string(r.cur) }

// Next advances to the next line and reports whether there is one.
func (r *LineReader) Next() bool {
	if r.err != nil {
		return false
	}
	r.truncated = false
	raw, ok := r.readRaw()
	if !ok {
		return false
	}
	r.line++
	raw = trimRight(raw)
	switch {
	case r.keepTabs:
	case r.leadTabs:
		// The reader skips the indentation anyway: it gets its length.
		r.indent = len(raw) - len(trimLeftBlank(raw))
		if bytes.IndexByte(raw[r.indent:], '\t') >= 0 {
			raw = r.expandTabs(raw)
			r.indent = len(raw) - len(trimLeftBlank(raw))
		}
	case bytes.IndexByte(raw, '\t') >= 0:
		raw = r.expandTabs(raw)
	}
	r.cur = raw
	return true
}

// nextPlain is Next for a line of printable ASCII after its indentation,
// ended by LF or CRLF in the buffer, with KeepLeadingTabs: the line is
// scanned once, where Next searches it for both line ends, trims it and
// searches it for a tab. False leaves the line to Next.
func (r *LineReader) nextPlain() bool {
	if r.cr == crEnded && r.r < r.w && r.buf[r.r] == '\n' {
		// The LF of the CRLF that ended the line before, taken as readRaw
		// takes it.
		r.r++
		r.cr = crNone
	}
	if r.cr != crNone || r.err != nil || !r.leadTabs || r.keepTabs {
		return false
	}
	b := r.buf[r.r:r.w]
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j+8 <= len(b) {
		// Eight bytes at a time while none is below ' ' or past DEL: such
		// a byte has its high bit set, or gets it when ' ' is taken from
		// each byte (a borrow only sets more of them, past it).
		x := binary.LittleEndian.Uint64(b[j : j+8])
		if m := (x | (x - 0x2020202020202020)) & 0x8080808080808080; m != 0 {
			// The lowest bit set is that of the first such byte: no
			// borrow reaches it from the bytes before.
			j += bits.TrailingZeros64(m) / 8
			goto found
		}
		j += 8
	}
	for j < len(b) && b[j]-' ' <= '~'-' '+1 { // (' ' to DEL)
		j++
	}
found:
	if j >= len(b) || j >= lineBuffer {
		return false // (no line end in the buffer; a line Next finds long)
	}
	n := 1
	if b[j] != '\n' {
		if b[j] != '\r' || j+1 == len(b) || b[j+1] != '\n' {
			return false // (a tab or another control byte, a lone CR, a byte past ASCII)
		}
		n = 2
	}
	e := j
	for e > i && b[e-1] == ' ' {
		e--
	}
	if e == i {
		i, e = 0, 0 // (blanks only: Next trims them all)
	}
	r.cur, r.indent, r.truncated = b[:e], i, false
	r.r += j + n
	r.line++
	return true
}

// ExpandTabs returns b with its tabs expanded to 8-column stops, in a
// buffer of the reader valid until the next call to Next.
func (r *LineReader) ExpandTabs(b []byte) []byte {
	if bytes.IndexByte(b, '\t') < 0 {
		return b
	}
	return r.expandTabs(b)
}

// readRaw returns the next line without its end: LF, CRLF, a lone CR or
// CR CR LF.
func (r *LineReader) readRaw() ([]byte, bool) {
	for {
		if r.r == r.w {
			if r.srcErr != nil {
				if r.srcErr != io.EOF {
					r.inputFailed()
					return nil, false
				}
				if r.cr == crLoneCR {
					// CR CR at the end: two line ends, as LF LF.
					r.cr = crNone
					return r.buf[r.r:r.r], true
				}
				return nil, false
			}
			r.fill()
			continue
		}
		switch c := r.buf[r.r]; r.cr {
		case crEnded, crLoneCR:
			if c == '\n' {
				r.r++
				r.cr = crNone
				continue
			}
			if r.cr == crLoneCR {
				// CR CR and then a line: the second CR ended an empty one.
				r.cr = crLone
				return r.buf[r.r:r.r], true
			}
			r.cr = crLone
			continue
		case crLone:
			if c == '\r' {
				r.r++
				r.cr = crLoneCR
				continue
			}
			r.cr = crNone
		}
		if r.lfAt < r.r {
			r.lfAt = r.indexFrom('\n', r.lfFrom)
		}
		if r.crAt < r.r {
			// A CR counts only before the LF: searched no further (to the
			// buffer's end, it cost a piece of the lanes some 7,000
			// instructions when a line of it first went this way).
			r.crAt = r.indexTo('\r', r.crFrom, r.lfAt)
		}
		if end := min(r.lfAt, r.crAt); end < r.w {
			if end-r.r >= lineBuffer {
				r.longSeen = true
			}
			return r.endAt(r.buf[r.r:end], end), true
		}
		if r.srcErr != nil {
			if r.srcErr != io.EOF {
				r.inputFailed()
				return nil, false
			}
			// The last line, without an end.
			line := r.buf[r.r:r.w]
			if len(line) >= lineBuffer {
				r.longSeen = true
			}
			r.r = r.w
			return line, true
		}
		if r.r == 0 && r.w == len(r.buf) {
			return r.longLine()
		}
		r.fill()
	}
}

// endAt consumes the line end at buf[end] and returns line.
func (r *LineReader) endAt(line []byte, end int) []byte {
	if r.buf[end] == '\r' {
		r.cr = crEnded
	}
	r.r = end + 1
	return line
}

// index returns the position of the first c of buf[r:w], or w.
func (r *LineReader) index(c byte) int {
	if i := bytes.IndexByte(r.buf[r.r:r.w], c); i >= 0 {
		return r.r + i
	}
	return r.w
}

// indexFrom is index, knowing that buf[r:from] holds no c.
func (r *LineReader) indexFrom(c byte, from int) int {
	from = max(from, r.r)
	if i := bytes.IndexByte(r.buf[from:r.w], c); i >= 0 {
		return from + i
	}
	return r.w
}

// indexTo is indexFrom in buf[from:to] (to <= w): to when it holds no c.
func (r *LineReader) indexTo(c byte, from, to int) int {
	from = max(from, r.r)
	if from >= to {
		return to
	}
	if i := bytes.IndexByte(r.buf[from:to], c); i >= 0 {
		return from + i
	}
	return to
}

// fill moves the unread bytes to the front of buf and reads more.
func (r *LineReader) fill() {
	lfFrom, crFrom := 0, 0
	if r.lfAt == r.w { // buf[r:w] was scanned and has no LF
		lfFrom = r.w - r.r
	}
	if r.crAt == r.w {
		crFrom = r.w - r.r
	}
	if r.r > 0 {
		r.w = copy(r.buf, r.buf[r.r:r.w])
		r.r = 0
	}
	r.lfAt, r.crAt = -1, -1
	r.lfFrom, r.crFrom = lfFrom, crFrom
	// Like bufio, give up on a reader that keeps returning nothing.
	for tries := 0; ; tries++ {
		n, err := r.src.Read(r.buf[r.w:])
		r.w += n
		if err != nil {
			r.srcErr = err
			break
		}
		if n > 0 {
			break
		}
		if tries == 100 {
			r.srcErr = io.ErrNoProgress
			break
		}
	}
}

// inputFailed records the read error that ended the input, at the line
// it cut.
func (r *LineReader) inputFailed() {
	r.err = &SyntaxError{File: r.name, Line: r.line + 1, Msg: r.srcErr.Error()}
}

// longLine collects a line longer than buf into r.long, keeping at most
// MaxLineLength bytes of it.
func (r *LineReader) longLine() ([]byte, bool) {
	r.long = append(r.long[:0], r.buf[r.r:r.w]...)
	r.r = r.w
	for {
		r.fill()
		r.lfAt, r.crAt = r.index('\n'), r.index('\r')
		end := min(r.lfAt, r.crAt)
		piece := r.buf[r.r:end]
		if room := MaxLineLength - len(r.long); len(piece) > room {
			r.long = append(r.long, piece[:max(room, 0)]...)
			r.truncated = true
		} else {
			r.long = append(r.long, piece...)
		}
		if end < r.w {
			return r.endAt(r.long, end), true
		}
		r.r = r.w
		if r.srcErr != nil {
			if r.srcErr != io.EOF {
				r.inputFailed()
				return nil, false
			}
			return r.long, true
		}
	}
}

// trimRight drops trailing blanks, and the NULs of UTF-16 text read as
// bytes.
func trimRight(b []byte) []byte {
	n := len(b)
	for n > 0 {
		c := b[n-1]
		if c == ' ' || c == '\t' || c == 0 {
			n--
			continue
		}
		break
	}
	return b[:n]
}

func (r *LineReader) expandTabs(b []byte) []byte {
	// Copy the runs between tabs whole; a column is a rune (an invalid
	// byte counts as one, as utf8.RuneCount does).
	out := r.expanded[:0]
	col := 0
	for {
		i := bytes.IndexByte(b, '\t')
		if i < 0 {
			out = append(out, b...)
			break
		}
		out = append(out, b[:i]...)
		col += utf8.RuneCount(b[:i])
		n := 8 - col%8
		out = append(out, "        "[:n]...)
		col += n
		b = b[i+1:]
	}
	r.expanded = out
	return out
}
