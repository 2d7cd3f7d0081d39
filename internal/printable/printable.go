// Package printable shows text from an input on a terminal, in a CSV or
// markdown file, as text and nothing else. A table or file name may hold
// an escape sequence that retitles or recolours the terminal (ESC, BEL),
// a carriage return that overwrites what was printed, or a bidi override
// (U+202E) that shows "exe.txt" as "txt.exe": these are written as Go
// escapes (\x1b, \r, \u202e), readable and inert. JSON needs none of
// this: it keeps the exact text.
package printable

import (
	"encoding/binary"
	"io"
	"strconv"
	"unicode/utf8"
)

// String returns s with every control character, bidi control and
// invalid UTF-8 byte written as a Go escape: C0 controls as \t, \n, \r
// or \xNN, DEL as \x7f, C1 controls and bidi controls as \uNNNN, bytes
// that are not UTF-8 as \xNN. Other text, backslashes included, is
// unchanged.
func String(s string) string {
	i := 0
	for i < len(s) {
		// Eight bytes at a time while all are printable ASCII: the reasons
		// and advice of a big run's warnings are a hundred megabytes.
		for i+8 <= len(s) && Printable8(Load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if escaped(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	return escapeFrom(s, i)
}

// escapeFrom is String for an s whose first i bytes need no escape.
func escapeFrom(s string, i int) string {
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if escaped(r, n) {
			b = appendEscape(b, s[i], r, n)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// escaped reports whether the rune r, n bytes long, is written escaped.
func escaped(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n <= 1:
		return true
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	}
	// The line and paragraph separators break a line without a newline.
	return isBidi(r) || r == 0x2028 || r == 0x2029
}

// Escapes reports whether Writer writes r, a character of two bytes or
// more in valid UTF-8, as a \u escape: the C1 controls, the bidi
// controls, U+2028 and U+2029 (all below U+10000: four hex digits). A
// writer that escapes these itself (a JSON string's \u2028, \u202e) can
// write past the Writer (Unguarded).
func Escapes(r rune) bool { return r >= 0x80 && escaped(r, 2) }

// isBidi reports the characters that change the direction of the text
// around them (Unicode's Bidi_Control property).
func isBidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// HasBidi reports whether s holds a bidi control.
func HasBidi(s string) bool {
	for _, r := range s {
		if isBidi(r) {
			return true
		}
	}
	return false
}

func appendEscape(b []byte, c byte, r rune, n int) []byte {
	switch {
	case r == '\t':
		return append(b, `\t`...)
	case r == '\n':
		return append(b, `\n`...)
	case r == '\r':
		return append(b, `\r`...)
	case r == utf8.RuneError && n <= 1, r <= 0x7f:
		return appendHex(append(b, `\x`...), uint64(c), 2)
	}
	return appendHex(append(b, `\u`...), uint64(r), 4)
}

func appendHex(b []byte, v uint64, digits int) []byte {
	h := strconv.FormatUint(v, 16)
	for i := len(h); i < digits; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// Writer is the last guard of a text stream, for text printed outside
// the table writers: it escapes what String escapes but for tab, newline
// and bytes that are not UTF-8, which it passes on. Every escape it
// writes is valid in a JSON string too and means the same character
// there: a JSON document goes through as the same values (encoding/json
// writes no C0 control raw; a bidi control becomes \u202e).
type Writer struct{ w io.Writer }

// plain8 reports whether the eight bytes of x are all printable ASCII or
// space (0x20-0x7f): no byte has its high bit set, and none is below 0x20
// (subtracting 0x20 from each borrows only where a byte is smaller).
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x|(x-0x20*ones))&highs == 0
}

// Printable8 reports whether the eight bytes of x are all printable ASCII
// (0x20 to 0x7e), which String leaves as they are: plain8 without DEL
// (0x7f), which String escapes. Adding
// one to each byte sets the high bit of 0x7f, and carries only out of a
// byte that has it already.
func Printable8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x|(x-0x20*ones)|(x+ones))&highs == 0
}

// Has8 is not zero when one of the eight bytes of x is c: the zero-byte
// test of x XOR c repeated, whose result is not zero exactly when a byte
// is (the bit it sets may be a neighbour's, which no caller needs). The
// scans of view's labels and CSV fields and report's gbak JSON use it.
func Has8(x uint64, c byte) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	v := x ^ uint64(c)*ones
	return (v - ones) &^ v & highs
}

// Load8 is the eight bytes of s from i, little-endian, read in one load:
// the word String and report's JSON strings scan eight bytes at a time.
func Load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Unguarded is the writer w guards, for bytes already escaped as Write
// would escape them.
func (w *Writer) Unguarded() io.Writer { return w.w }

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, escaped; n counts the bytes of p, as io.Writer requires.
// A character split across two writes is passed on as it is.
func (w *Writer) Write(p []byte) (int, error) {
	start := 0
	var out []byte
	for i := 0; i < len(p); {
		// Eight bytes at a time while none is a control or non-ASCII:
		// the guard sees every byte of a JSON document hundreds of MB long.
		for i+8 <= len(p) && plain8(binary.LittleEndian.Uint64(p[i:])) {
			i += 8
		}
		if i >= len(p) {
			break
		}
		c := p[i]
		if c >= 0x20 && c < 0x80 || c == '\t' || c == '\n' {
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= 0x80 {
			r, n = utf8.DecodeRune(p[i:])
			if n <= 1 || !escaped(r, n) {
				i += max(n, 1)
				continue
			}
		}
		out = appendEscape(append(out, p[start:i]...), c, r, n)
		i += n
		start = i
	}
	if out == nil {
		return w.w.Write(p)
	}
	if _, err := w.w.Write(append(out, p[start:]...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
