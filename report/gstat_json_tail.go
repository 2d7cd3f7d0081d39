package report

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/extsort"
)

// tailEncoder makes the JSON of the spooled warnings (their reasons and
// advice extsort.TextRefs texts, told from their rule's first) for the
// warnings array, escaped as appendWarning escapes them: a reason's or
// an advice's reference text that needs no escape is copied as it is,
// only the bytes between its prefix and suffix escaped (they start and
// end next to ASCII bytes: escaping them alone escapes the same runes),
// and the JSON of each class of warnings (spoolClass) made once.
type tailEncoder struct {
	textAt  []string
	guard   bool
	classes []tailClass
	odd     tailClass // a warning's spooled past maxClasses
	free    []bool    // textAt's that need no escape
	buf     []byte
	// The figures as the warning before's: in the order of the sort,
	// a magnitude most often is, and a value and a threshold with it
	// (a value such as 0.09090909090909091 took 700 instructions).
	value, threshold, magnitude floatMemo
}

// tailClass is the JSON a class's warnings share: from the warning's
// start to its object's value, from its unit to its reason's value, and
// from its source to its magnitude's value.
type tailClass struct {
	head, unit, source []byte
}

// set makes c the JSON of class w.
func (c *tailClass) set(w *warningClass, guard bool) {
	const in = warningIn
	b := append(c.head[:0], "{"+in+`"rule": `...)
	b = appendString(b, w.rule, guard)
	b = append(b, ","+in+`"severity": `...)
	b = appendString(b, w.severity, guard)
	b = append(b, ","+in+`"kind": `...)
	b = appendString(b, w.kind, guard)
	c.head = append(b, ","+in+`"object": `...)
	b = append(c.unit[:0], ","+in+`"unit": `...)
	b = appendString(b, w.unit, guard)
	c.unit = append(b, ","+in+`"reason": `...)
	b = append(c.source[:0], ","+in+`"source": `...)
	b = appendString(b, w.source, guard)
	c.source = append(b, ","+in+`"magnitude": `...)
}

// floatMemo is the JSON of the last figure it wrote.
type floatMemo struct {
	bits uint64
	set  bool
	text []byte
}

// append appends f's JSON (appendFloatP's), f finite.
func (m *floatMemo) append(b []byte, f float64) []byte {
	if u := math.Float64bits(f); !m.set || u != m.bits {
		m.text, _ = appendFloatP(m.text[:0], &f, true)
		m.bits, m.set = u, true
	}
	return append(b, m.text...)
}

func newTailEncoder(classes []spoolClass, textAt []string, guard bool) *tailEncoder {
	e := &tailEncoder{textAt: textAt, guard: guard, free: make([]bool, len(textAt)), classes: make([]tailClass, len(classes))}
	for i := range classes {
		e.classes[i].set(&classes[i].warningClass, guard)
	}
	for i, s := range textAt {
		e.free[i] = escapeFree(s)
	}
	return e
}

// append appends the JSON of the spooled warning rec (of GstatJSON's
// codec): appendWarning's bytes.
func (e *tailEncoder) append(b, rec []byte) ([]byte, error) {
	const in = warningIn
	id, n, magnitude, value, threshold, rest, err := readSpooledHead(rec)
	if err != nil {
		return b, err
	}
	var f extsort.Fields
	f.Reset(rest)
	var c *tailClass
	switch {
	case n == -1:
		rule, severity, kind, unit, source := f.Ref(), f.Ref(), f.Ref(), f.Ref(), f.Ref()
		e.odd.set(&warningClass{rule, severity, kind, unit, source}, e.guard)
		c = &e.odd
	case n >= 0 && int(n) < len(e.classes):
		c = &e.classes[n]
	default:
		return b, fmt.Errorf("spooled warning %d: no class %d", id, n)
	}
	object, table := f.Ref(), f.Ref()
	b = append(b, c.head...)
	b = appendString(b, object, e.guard)
	if table != "" {
		b = append(b, ","+in+`"table": `...)
		b = appendString(b, table, e.guard)
	}
	b = append(b, ","+in+`"value": `...)
	b = e.value.append(b, value)
	b = append(b, ","+in+`"threshold": `...)
	b = e.threshold.append(b, threshold)
	b = append(b, c.unit...)
	if b, err = e.appendText(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: reason: %w", id, err)
	}
	b = append(b, ","+in+`"advice": `...)
	if b, err = e.appendText(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: advice: %w", id, err)
	}
	if err := f.Err(); err != nil {
		return b, fmt.Errorf("spooled warning %d: %w", id, err)
	}
	b = append(b, c.source...)
	b = e.magnitude.append(b, magnitude) // (Put spools finite figures only)
	return append(b, "\n    }"...), nil
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
