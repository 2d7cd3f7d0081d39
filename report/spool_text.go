package report

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/fbdiag/fbdiag/analyze"
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

// tailEncoder makes the JSON of the spooled warnings for the warnings
// array, their texts escaped as appendWarning escapes them: a reason's or
// an advice's reference text that needs no escape is copied as it is,
// only the bytes between its prefix and suffix escaped (they start and
// end next to ASCII bytes: escaping them alone escapes the same runes),
// and each source is escaped once.
type tailEncoder struct {
	sourceAt, textAt []string
	guard            bool
	sources          [][]byte // sourceAt's, escaped when first written
	free             []int8   // of textAt: 1 escape-free, -1 not, 0 not known yet
	w                analyze.Warning
	buf              []byte
}

func newTailEncoder(sourceAt, textAt []string, guard bool) *tailEncoder {
	return &tailEncoder{sourceAt: sourceAt, textAt: textAt, guard: guard,
		sources: make([][]byte, len(sourceAt)), free: make([]int8, len(textAt))}
}

// append appends the JSON of the spooled warning rec (of GstatJSON's
// codec): appendWarning's bytes.
func (e *tailEncoder) append(b, rec []byte) ([]byte, error) {
	var f extsort.Fields
	f.Reset(rec)
	id := f.Int()
	w := &e.w
	w.Rule, w.Severity, w.Kind, w.Object, w.Table = f.Ref(), analyze.Severity(f.Ref()), f.Ref(), f.Ref(), f.Ref()
	w.Magnitude, w.Value, w.Threshold = f.Float(), f.Float(), f.Float()
	w.Unit = f.Ref()
	b, ok := appendWarningHead(b, w, e.guard)
	var err error
	b = append(b, ","+warningIn+`"reason": `...)
	if b, err = e.appendText(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: reason: %w", id, err)
	}
	b = append(b, ","+warningIn+`"advice": `...)
	if b, err = e.appendText(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: advice: %w", id, err)
	}
	b = append(b, ","+warningIn+`"source": `...)
	switch n := f.Int(); {
	case n == -1:
		b = appendString(b, f.Ref(), e.guard)
	case n >= 0 && n < int64(len(e.sourceAt)):
		if e.sources[n] == nil {
			e.sources[n] = appendString(nil, e.sourceAt[n], e.guard)
		}
		b = append(b, e.sources[n]...)
	default:
		return b, fmt.Errorf("spooled warning %d: no source %d", id, n)
	}
	if err := f.Err(); err != nil {
		return b, fmt.Errorf("spooled warning %d: %w", id, err)
	}
	b, _ = appendWarningEnd(b, w, ok) // (Put spools finite figures only)
	return b, nil
}

// appendText appends, quoted and escaped, a text of textRefs.appendText.
func (e *tailEncoder) appendText(b []byte, f *extsort.Fields) ([]byte, error) {
	n := f.Int()
	if n == -1 {
		return appendString(b, f.Ref(), e.guard), nil
	}
	p, q, mid := f.Int(), f.Int(), f.Ref()
	if err := f.ErrSoFar(); err != nil {
		return b, err
	}
	if n < 0 || n >= int64(len(e.textAt)) || p < 0 || q < 0 || p+q > int64(len(e.textAt[n])) {
		return b, errTextRef
	}
	ref := e.textAt[n]
	if e.free[n] == 0 {
		e.free[n] = -1
		if escapeFree(ref) {
			e.free[n] = 1
		}
	}
	if e.free[n] == 1 {
		b = append(b, '"')
		b = append(b, ref[:p]...)
		b = appendEscaped(b, mid, e.guard)
		b = append(b, ref[int64(len(ref))-q:]...)
		return append(b, '"'), nil
	}
	e.buf = append(append(append(e.buf[:0], ref[:p]...), mid...), ref[int64(len(ref))-q:]...)
	return appendString(b, unsafe.String(unsafe.SliceData(e.buf), len(e.buf)), e.guard), nil
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
