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
	// (a value such as 0.09090909090909091 took 700 instructions). Each
	// memo holds the JSON around its figures too, up to the next text:
	// from the value's key to the reason's, and from the source's key to
	// the warning's end, each then copied in one append.
	figures, end segMemo
}

// segMemo is the JSON of a class's fields around one or two figures,
// as the last warning that wrote it had them.
type segMemo struct {
	c    *tailClass
	x, y uint64
	text []byte
}

// tailClass is the JSON a class's warnings share: from the warning's
// start to its object's value, from its unit to its reason's value, and
// from its source to its magnitude's value; the quotes that open the
// object's and the reason's strings are there too, and the one that
// closes the advice's.
type tailClass struct {
	head, unit, source []byte
	// reason and advice are the numbers of the class's reference texts
	// (spoolClass's), of which its packed warnings' texts are made.
	reason, advice int
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
	c.head = append(b, ","+in+`"object": "`...)
	b = append(c.unit[:0], ","+in+`"unit": `...)
	b = appendString(b, w.unit, guard)
	c.unit = append(b, ","+in+`"reason": "`...)
	b = append(c.source[:0], `",`+in+`"source": `...)
	b = appendString(b, w.source, guard)
	c.source = append(b, ","+in+`"magnitude": `...)
}

// appendFigures appends the quote that ends the object's (or table's)
// string, c's warning's value and threshold with their keys, then c's
// unit up to the reason's string; value and threshold finite.
func (e *tailEncoder) appendFigures(b []byte, c *tailClass, value, threshold float64) []byte {
	const in = warningIn
	m := &e.figures
	if x, y := math.Float64bits(value), math.Float64bits(threshold); m.c != c || m.x != x || m.y != y {
		t := append(m.text[:0], `",`+in+`"value": `...)
		t, _ = appendFloatP(t, &value, true)
		t = append(t, ","+in+`"threshold": `...)
		t, _ = appendFloatP(t, &threshold, true)
		m.text = append(t, c.unit...)
		m.c, m.x, m.y = c, x, y
	}
	return append(b, m.text...)
}

// appendEnd appends the quote that ends the advice's string, c's source,
// the magnitude with its key and the warning's end; magnitude finite.
func (e *tailEncoder) appendEnd(b []byte, c *tailClass, magnitude float64) []byte {
	m := &e.end
	if x := math.Float64bits(magnitude); m.c != c || m.x != x {
		t := append(m.text[:0], c.source...)
		t, _ = appendFloatP(t, &magnitude, true)
		m.text = append(t, "\n    }"...)
		m.c, m.x = c, x
	}
	return append(b, m.text...)
}

func newTailEncoder(classes []spoolClass, textAt []string, guard bool) *tailEncoder {
	e := &tailEncoder{textAt: textAt, guard: guard, free: make([]bool, len(textAt)), classes: make([]tailClass, len(classes))}
	for i := range classes {
		c := &e.classes[i]
		c.set(&classes[i].warningClass, guard)
		c.reason, c.advice = classes[i].reason, classes[i].advice
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
	if n >= 0 && int(n) < len(e.classes) {
		c := &e.classes[n]
		p, err := readPacked(rest)
		if err != nil {
			return b, fmt.Errorf("spooled warning %d: %w", id, err)
		}
		b = e.appendObject(b, c, p.object, p.table)
		b = e.appendFigures(b, c, value, threshold) // (Put spools finite figures only)
		if b, err = e.appendPacked(b, c.reason, p.reason); err != nil {
			return b, fmt.Errorf("spooled warning %d: reason: %w", id, err)
		}
		b = append(b, `",`+in+`"advice": "`...)
		if b, err = e.appendPacked(b, c.advice, p.advice); err != nil {
			return b, fmt.Errorf("spooled warning %d: advice: %w", id, err)
		}
		return e.appendEnd(b, c, magnitude), nil
	}
	if n != -1 {
		return b, fmt.Errorf("spooled warning %d: no class %d", id, n)
	}
	var f extsort.Fields
	f.Reset(rest)
	rule, severity, kind, unit, source := f.Ref(), f.Ref(), f.Ref(), f.Ref(), f.Ref()
	e.odd.set(&warningClass{rule, severity, kind, unit, source}, e.guard)
	c := &e.odd
	e.figures.c, e.end.c = nil, nil // (odd's JSON changed)
	object, table := f.Ref(), f.Ref()
	b = e.appendObject(b, c, object, table)
	b = e.appendFigures(b, c, value, threshold)
	if b, err = e.appendTextBody(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: reason: %w", id, err)
	}
	b = append(b, `",`+in+`"advice": "`...)
	if b, err = e.appendTextBody(b, &f); err != nil {
		return b, fmt.Errorf("spooled warning %d: advice: %w", id, err)
	}
	if err := f.Err(); err != nil {
		return b, fmt.Errorf("spooled warning %d: %w", id, err)
	}
	return e.appendEnd(b, c, magnitude), nil
}

// appendObject appends c's head, the object's string up to its closing
// quote and, when there is one, the table's key and string to the same.
func (e *tailEncoder) appendObject(b []byte, c *tailClass, object, table string) []byte {
	b = append(b, c.head...)
	b = appendEscaped(b, object, e.guard)
	if table != "" {
		b = append(b, `",`+warningIn+`"table": "`...)
		b = appendEscaped(b, table, e.guard)
	}
	return b
}

// appendPacked appends, escaped and without its quotes, the text t of a
// packed warning, made of the reference text ref.
func (e *tailEncoder) appendPacked(b []byte, ref int, t packedText) ([]byte, error) {
	// (ref is -1 for a class without reference texts, whose warnings
	// are spooled whole: a record packed for it is not the codec's.)
	if ref < 0 || ref >= len(e.textAt) || t.p+t.q > len(e.textAt[ref]) {
		return b, extsort.ErrTextRef
	}
	return e.appendPart(b, extsort.TextPart{Ref: ref, P: t.p, Q: t.q, Mid: t.mid}), nil
}

// appendText appends, quoted and escaped, a text of
// extsort.TextRefs.AppendText.
func (e *tailEncoder) appendText(b []byte, f *extsort.Fields) ([]byte, error) {
	b, err := e.appendTextBody(append(b, '"'), f)
	return append(b, '"'), err
}

// appendTextBody is appendText without the quotes, which the class's
// JSON around the text holds (tailClass).
func (e *tailEncoder) appendTextBody(b []byte, f *extsort.Fields) ([]byte, error) {
	t, err := f.ReadText(e.textAt)
	if err != nil {
		return b, err
	}
	return e.appendPart(b, t), nil
}

// appendPart appends t, escaped and without its quotes.
func (e *tailEncoder) appendPart(b []byte, t extsort.TextPart) []byte {
	if t.Ref < 0 {
		return appendEscaped(b, t.Mid, e.guard)
	}
	ref := e.textAt[t.Ref]
	if e.free[t.Ref] {
		b = append(b, ref[:t.P]...)
		b = appendEscaped(b, t.Mid, e.guard)
		return append(b, ref[len(ref)-t.Q:]...)
	}
	e.buf = t.Append(e.buf[:0], e.textAt)
	return appendEscaped(b, unsafe.String(unsafe.SliceData(e.buf), len(e.buf)), e.guard)
}
