package report

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// stepIndent is the depth of a step in the steps array.
const stepIndent = "    "

// appendStep appends a step as encoding/json writes it at the depth of
// stepIndent (json.Encoder with SetIndent(stepIndent, "  ") and
// SetEscapeHTML(false), without the newline), a log's million steps
// without reflection and without the second, indenting pass. ok is false
// for a value encoding/json refuses (a NaN or infinite time), which the
// caller then hands to encoding/json for its error. TestAppendStep holds
// it to encoding/json's bytes, field by field.
func appendStep(b []byte, st *analyze.GbakStep) (_ []byte, ok bool) {
	const in = "\n" + stepIndent + "  "
	ok = true
	b = append(b, '{')
	b = append(b, in+`"line": `...)
	b = numfmt.AppendInt(b, int64(st.Line))
	b = append(b, ","+in+`"kind": `...)
	b = appendString(b, string(st.Kind), false)
	if st.Object != "" {
		b = append(b, ","+in+`"object": `...)
		b = appendString(b, st.Object, false)
	}
	if st.Name != "" {
		b = append(b, ","+in+`"name": `...)
		b = appendString(b, st.Name, false)
	}
	b = append(b, ","+in+`"message": `...)
	b = appendString(b, st.Message, false)
	b = append(b, ","+in+`"phase": `...)
	b = appendString(b, st.Phase, false)
	b = append(b, ","+in+`"start": `...)
	b, ok = appendFloatP(b, st.Start, ok)
	b = append(b, ","+in+`"seconds": `...)
	b, ok = appendFloatP(b, st.Seconds, ok)
	b = append(b, ","+in+`"reads": `...)
	b = appendIntP(b, st.Reads)
	b = append(b, ","+in+`"writes": `...)
	b = appendIntP(b, st.Writes)
	if st.Records != nil {
		b = append(b, ","+in+`"records": `...)
		b = numfmt.AppendInt(b, *st.Records)
	}
	if st.Ignored != nil {
		b = append(b, ","+in+`"ignored": `...)
		b = numfmt.AppendInt(b, *st.Ignored)
	}
	if st.LowerBound {
		b = append(b, ","+in+`"lower_bound": true`...)
	}
	b = append(b, "\n"+stepIndent+"}"...)
	return b, ok
}

// appendTable appends a table's data as encoding/json writes it at the
// depth of stepIndent, as appendStep does a step (TestAppendTable).
func appendTable(b []byte, t *analyze.GbakTable) (_ []byte, ok bool) {
	const in = "\n" + stepIndent + "  "
	ok = true
	b = append(b, '{')
	b = append(b, in+`"name": `...)
	b = appendString(b, t.Name, false)
	b = append(b, ","+in+`"line": `...)
	b = numfmt.AppendInt(b, int64(t.Line))
	b = append(b, ","+in+`"records": `...)
	b = appendIntP(b, t.Records)
	if t.Ignored != nil {
		b = append(b, ","+in+`"ignored": `...)
		b = numfmt.AppendInt(b, *t.Ignored)
	}
	b = append(b, ","+in+`"seconds": `...)
	b, ok = appendFloatP(b, t.Seconds, ok)
	b = append(b, ","+in+`"records_per_second": `...)
	b, ok = appendFloatP(b, t.RecordsPerSecond, ok)
	b = append(b, ","+in+`"reads": `...)
	b = appendIntP(b, t.Reads)
	b = append(b, ","+in+`"writes": `...)
	b = appendIntP(b, t.Writes)
	if t.LowerBound {
		b = append(b, ","+in+`"lower_bound": true`...)
	}
	b = append(b, "\n"+stepIndent+"}"...)
	return b, ok
}

func appendIntP(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return numfmt.AppendInt(b, *v)
}

// appendFloatP appends a float as encoding/json does (ES6 number form:
// plain from 1e-6 to below 1e21, else an exponent without leading zeros),
// null for nil; ok turns false on a NaN or an infinity.
func appendFloatP(b []byte, v *float64, ok bool) ([]byte, bool) {
	if v == nil {
		return append(b, "null"...), ok
	}
	f := *v
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...), false
	}
	if s, short := numfmt.AppendShortFloat(b, f); short {
		return s, ok
	}
	if s, done := numfmt.AppendShortestFloat(b, f); done {
		return s, ok
	}
	return appendFloatES6(b, f), ok
}

// appendFloatES6 is appendFloatP's number for any finite f, from
// strconv's shortest digits.
func appendFloatES6(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-07 is written e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// plainJSON8 reports whether the eight bytes of x are all ASCII that a
// JSON string holds as it is: none has its high bit set, none is below
// 0x20 (subtracting 0x20 from each borrows only where a byte is smaller),
// none is a quote or a backslash (no byte of x XOR the repeated quote is
// zero).
func plainJSON8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x|(x-0x20*ones))&highs|printable.Has8(x, '"')|printable.Has8(x, '\\') == 0
}

// appendString appends s quoted as encoding/json quotes it without
// HTML escaping: \" \\ \b \f \n \r \t, other control characters as
// \u00xx, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped. With guard
// it also escapes what printable.Writer escapes in a JSON document (C1
// and bidi controls, as \u escapes of the same characters): the bytes
// printable.Writer would pass on, so that they can be written past it.
func appendString(b []byte, s string, guard bool) []byte {
	b = append(b, '"')
	return append(appendEscaped(b, s, guard), '"')
}

// appendEscaped appends s escaped as appendString does, without the
// quotes: s's bytes where they need no escape.
func appendEscaped(b []byte, s string, guard bool) []byte {
	// Most strings need no escape (names, kinds, sources): tested first a
	// word at a time, the last word overlapping the one before, and
	// appended whole; from four to seven bytes, their first and last four
	// as one word.
	if n := len(s); n >= 8 {
		i := 0
		for i+8 < n && plainJSON8(printable.Load8(s, i)) {
			i += 8
		}
		if i+8 >= n && plainJSON8(printable.Load8(s, n-8)) {
			return append(b, s...)
		}
	} else if n >= 4 {
		x := uint64(load4(s, 0)) | uint64(load4(s, n-4))<<32
		if plainJSON8(x) {
			return append(b, s...)
		}
	}
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a thought: the reasons
		// and advice of a big run's warnings are a hundred megabytes.
		for i+8 <= len(s) && plainJSON8(printable.Load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if i+8 > len(s) {
			// Fewer than eight bytes left: plain when the string's last
			// eight are, or its last few padded with spaces (names are
			// short, and a byte at a time cost a third of the escaping).
			x := uint64(0)
			if len(s) >= 8 {
				x = printable.Load8(s, len(s)-8)
			} else {
				x = loadShort(s)
			}
			if plainJSON8(x) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		case guard && printable.Escapes(r):
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(b, s[start:]...)
}

// load4 is the four bytes of s from i, little-endian, as printable.Load8
// reads eight.
func load4(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// loadShort is the bytes of s, shorter than eight, as printable.Load8
// reads eight, the missing ones spaces.
func loadShort(s string) uint64 {
	x := uint64(0x2020202020202020)
	for j := range len(s) {
		x = x<<8 | uint64(s[j])
	}
	return x
}

// escapeFree says whether appendEscaped appends s as it is: printable
// ASCII, no quote, no backslash.
func escapeFree(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainJSON8(printable.Load8(s, i)) {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
