package report

import (
	"fmt"
	"unsafe"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
)

// tailEncoder makes the JSON of the spooled warnings (their reasons and
// advice extsort.TextRefs texts, told from their rule's first) for the
// warnings array, escaped as appendWarning escapes them: a reason's or
// an advice's reference text that needs no escape is copied as it is,
// only the bytes between its prefix and suffix escaped (they start and
// end next to ASCII bytes: escaping them alone escapes the same runes),
// and each source is escaped once.
type tailEncoder struct {
	textAt  []string
	guard   bool
	sources [][]byte // the numbered sources, escaped
	free    []bool   // textAt's that need no escape
	w       analyze.Warning
	buf     []byte
}

func newTailEncoder(sourceAt, textAt []string, guard bool) *tailEncoder {
	e := &tailEncoder{textAt: textAt, guard: guard, free: make([]bool, len(textAt))}
	for _, s := range sourceAt {
		e.sources = append(e.sources, appendString(nil, s, guard))
	}
	for i, s := range textAt {
		e.free[i] = escapeFree(s)
	}
	return e
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
	case n >= 0 && n < int64(len(e.sources)):
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

// appendText appends, quoted and escaped, a text of
// extsort.TextRefs.AppendText.
func (e *tailEncoder) appendText(b []byte, f *extsort.Fields) ([]byte, error) {
	t, err := f.ReadText(e.textAt)
	if err != nil {
		return b, err
	}
	if t.Ref < 0 {
		return appendString(b, t.Mid, e.guard), nil
	}
	ref := e.textAt[t.Ref]
	if e.free[t.Ref] {
		b = append(b, '"')
		b = append(b, ref[:t.P]...)
		b = appendEscaped(b, t.Mid, e.guard)
		b = append(b, ref[len(ref)-t.Q:]...)
		return append(b, '"'), nil
	}
	e.buf = t.Append(e.buf[:0], e.textAt)
	return appendString(b, unsafe.String(unsafe.SliceData(e.buf), len(e.buf)), e.guard), nil
}
