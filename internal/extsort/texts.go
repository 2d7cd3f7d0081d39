package extsort

import (
	"errors"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
)

// TextRefs spools texts that are mostly the words of their kind, with a
// few figures and names in between (a warning's reason: "81% of 37 leaf
// pages under 60% full; a plain index or …"), as the difference from the
// first text of their kind: the lengths of the prefix and the suffix they
// share, and the bytes between. A spooled warning is three quarters such
// words, read back when the runs are merged.
type TextRefs struct {
	ids map[textRefKey]int
	at  []string
}

type textRefKey struct {
	kind  string
	field byte
}

// MaxTextRefs is how many reference texts a TextRefs keeps; the texts of
// other kinds are spooled whole.
const MaxTextRefs = 1024

// AppendText appends s, the field of a record of kind: the number of its
// reference text, then the lengths of the prefix and the suffix s shares
// with it and the bytes between; -1 and s whole where there is none. The
// first text of a kind and field is its reference. Not safe for
// concurrent use (a sorter's codec spills one batch at a time).
func (t *TextRefs) AppendText(b []byte, kind string, field byte, s string) []byte {
	return t.AppendTextOf(b, t.Ref(kind, field, s), s)
}

// Ref is the number of the reference text of kind and field, s made it
// when there is none yet; -1 past MaxTextRefs. A caller that spools
// many texts of one kind keeps it for AppendTextOf rather than have
// AppendText look it up each time.
func (t *TextRefs) Ref(kind string, field byte, s string) int {
	k := textRefKey{kind, field}
	n, ok := t.ids[k]
	if !ok {
		if len(t.at) >= MaxTextRefs {
			return -1
		}
		if t.ids == nil {
			t.ids = map[textRefKey]int{}
		}
		n = len(t.at)
		t.ids[k] = n
		t.at = append(t.at, strings.Clone(s)) // (s may be a record's bytes: Sorter.Hold)
	}
	return n
}

// AppendTextOf is AppendText of the reference text n (Ref's): -1 spools
// s whole.
func (t *TextRefs) AppendTextOf(b []byte, n int, s string) []byte {
	if n < 0 {
		return AppendString(AppendInt(b, -1), s)
	}
	ref := t.at[n]
	p := units.CommonPrefix(ref, s)
	q := units.CommonSuffix(ref[p:], s[p:])
	b = AppendInt(b, int64(n))
	b = AppendInt(b, int64(p))
	b = AppendInt(b, int64(q))
	return AppendString(b, s[p:len(s)-q])
}

// Refs are the reference texts by number, for TextParts; a TextRefs adds
// to them as it spools.
func (t *TextRefs) Refs() []string { return t.at }

// TextPart is a text of AppendText as read back: ref[:P] + Mid +
// ref[len(ref)-Q:] of the reference Ref, or Mid alone when Ref is -1.
type TextPart struct {
	Ref  int
	P, Q int
	Mid  string
}

// ErrTextRef is a spooled text its reference texts cannot make.
var ErrTextRef = errors.New("a spooled text that its reference texts cannot make")

// ReadText reads a text of AppendText made of the references refs; Mid
// is the record's bytes (Fields.Ref).
func (f *Fields) ReadText(refs []string) (TextPart, error) {
	n := f.Int()
	if n == -1 {
		return TextPart{Ref: -1, Mid: f.Ref()}, f.ErrSoFar()
	}
	p, q, mid := f.Int(), f.Int(), f.Ref()
	if err := f.ErrSoFar(); err != nil {
		return TextPart{}, err
	}
	if n < 0 || n >= int64(len(refs)) || p < 0 || q < 0 || p+q > int64(len(refs[n])) {
		return TextPart{}, ErrTextRef
	}
	return TextPart{Ref: int(n), P: int(p), Q: int(q), Mid: mid}, nil
}

// Append appends the whole text t, of the references refs.
func (t TextPart) Append(b []byte, refs []string) []byte {
	if t.Ref < 0 {
		return append(b, t.Mid...)
	}
	ref := refs[t.Ref]
	b = append(b, ref[:t.P]...)
	b = append(b, t.Mid...)
	return append(b, ref[len(ref)-t.Q:]...)
}
