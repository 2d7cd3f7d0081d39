package report

import (
	"errors"
	"math/bits"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/printable"
)

// A warning's reason and advice are mostly the words of its rule, with a
// few figures and names in between ("81% of 37 leaf pages under 60% full;
// a plain index or the index of a named constraint (the gstat text cannot
// tell; …)"): three quarters of a spooled warning's bytes, read back when
// the runs are merged, which bounds the writing of the warnings after the
// last table. textRefs spools such a text as the difference from the
// first text of its rule and field: the length of the prefix and of the
// suffix they share, and the bytes between.

// textRefs numbers the reference texts of a spool: the first text of each
// rule and field.
type textRefs struct {
	ids map[textRefKey]int
	at  []string
}

type textRefKey struct {
	rule  string
	field byte
}

// maxTextRefs is how many reference texts a spool keeps; the texts of
// other rules are spooled whole.
const maxTextRefs = 1024

// appendText appends s, the text field of a warning of rule: the number
// of its reference text, then the lengths of the prefix and the suffix s
// shares with it and the bytes between; -1 and s whole where there is
// none.
func (t *textRefs) appendText(b []byte, rule string, field byte, s string) []byte {
	k := textRefKey{rule, field}
	n, ok := t.ids[k]
	if !ok {
		if len(t.at) >= maxTextRefs {
			return extsort.AppendString(extsort.AppendInt(b, -1), s)
		}
		if t.ids == nil {
			t.ids = map[textRefKey]int{}
		}
		n = len(t.at)
		t.ids[k] = n
		t.at = append(t.at, s)
	}
	ref := t.at[n]
	p := commonPrefix(ref, s)
	q := commonSuffix(ref[p:], s[p:])
	b = extsort.AppendInt(b, int64(n))
	b = extsort.AppendInt(b, int64(p))
	b = extsort.AppendInt(b, int64(q))
	return extsort.AppendString(b, s[p:len(s)-q])
}

var errTextRef = errors.New("a spooled text that its reference cannot make")

// readText reads a text of appendText, made of the reference texts at,
// into buf: the string is buf's bytes (no copy: the tail writes a
// hundred thousand), valid until buf is written again.
func readText(f *extsort.Fields, at []string, buf *[]byte) (string, error) {
	n := f.Int()
	if n == -1 {
		return f.Ref(), nil
	}
	p, q, mid := f.Int(), f.Int(), f.Bytes()
	if f.ErrSoFar() != nil {
		return "", f.ErrSoFar()
	}
	if n < 0 || n >= int64(len(at)) || p < 0 || q < 0 || p+q > int64(len(at[n])) {
		return "", errTextRef
	}
	ref := at[n]
	b := append((*buf)[:0], ref[:p]...)
	b = append(b, mid...)
	b = append(b, ref[int64(len(ref))-q:]...)
	*buf = b
	if len(b) == 0 {
		return "", nil
	}
	return unsafe.String(&b[0], len(b)), nil
}

// commonPrefix is the length of the prefix a and b share, eight bytes a
// step.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := printable.Load8(a, i) ^ printable.Load8(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the suffix a and b share, eight bytes a
// step.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := printable.Load8(a, len(a)-i-8) ^ printable.Load8(b, len(b)-i-8); x != 0 {
			return i + bits.LeadingZeros64(x)/8
		}
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
