package extsort

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strings"
	"unsafe"
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

// maxRefLen is the longest reference text: the lengths of a prefix and a
// suffix shared with it are spooled in two bytes each (as varints they
// took two bytes too, and reading them back a call each). A kind whose
// first text is longer takes the first that is not.
const maxRefLen = 1<<16 - 1

// AppendText appends s, the field of a record of kind: the number of its
// reference text, then the lengths of the prefix and the suffix s shares
// with it (two bytes each, little-endian) and the bytes between; -1 and
// s whole where there is none. The first text of a kind and field is its
// reference. Not safe for concurrent use (a sorter's codec spills one
// batch at a time).
func (t *TextRefs) AppendText(b []byte, kind string, field byte, s string) []byte {
	return t.AppendTextOf(b, t.Ref(kind, field, s), s)
}

// Ref is the number of the reference text of kind and field, s made it
// when there is none yet; -1 past MaxTextRefs, and while there is none
// for an s longer than maxRefLen. A caller that spools many texts of one
// kind keeps it for AppendTextOf rather than have AppendText look it up
// each time.
func (t *TextRefs) Ref(kind string, field byte, s string) int {
	k := textRefKey{kind, field}
	n, ok := t.ids[k]
	if !ok {
		if len(t.at) >= MaxTextRefs || len(s) > maxRefLen {
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
// s whole. It finds the prefix and suffix as Shared does, in place: a
// call of Shared (not inlined) cost csv --table warnings 0.4 % more
// instructions (shop-made 8 MiB file, 234.4 -> 235.3 M).
func (t *TextRefs) AppendTextOf(b []byte, n int, s string) []byte {
	if n < 0 {
		return AppendString(AppendInt(b, -1), s)
	}
	ref := t.at[n]
	if len(s) == len(ref) && s == ref {
		// A text that is its reference, as a rule's source most often is
		// (and some rules' advice): == compares it 32 bytes a step or more,
		// then all of it is the prefix, with no bytes between.
		return AppendString(append(AppendInt(b, int64(n)), byte(len(s)), byte(len(s)>>8), 0, 0), "")
	}
	p := sharedPrefix(ref, s)
	q := sharedSuffix(ref[p:], s[p:])
	b = AppendInt(b, int64(n))
	b = append(b, byte(p), byte(p>>8), byte(q), byte(q>>8))
	return AppendString(b, s[p:len(s)-q])
}

// Shared is the lengths of the prefix and the suffix s shares with the
// reference text n (Ref's, not -1): s is ref[:p], then its own bytes
// s[p:len(s)-q], then ref[len(ref)-q:]. p+q is at most len(ref), which
// is at most 65,535.
func (t *TextRefs) Shared(n int, s string) (p, q int) {
	ref := t.at[n]
	if len(s) == len(ref) && s == ref {
		return len(s), 0 // (as AppendTextOf, which repeats these lines)
	}
	p = sharedPrefix(ref, s)
	return p, sharedSuffix(ref[p:], s[p:])
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
	p, q := f.uint16(), f.uint16()
	mid := f.Ref()
	if err := f.ErrSoFar(); err != nil {
		return TextPart{}, err
	}
	if n < 0 || n >= int64(len(refs)) || p+q > len(refs[n]) {
		return TextPart{}, ErrTextRef
	}
	return TextPart{Ref: int(n), P: p, Q: q, Mid: mid}, nil
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

// sharedPrefix is the length of the prefix a and b share (as
// units.CommonPrefix), 32 bytes a step while they agree, then 8, the
// last eight overlapping those before: a warning's reason and advice share 100 to 450 bytes with their
// reference text, compared for every warning (units.CommonPrefix and
// CommonSuffix, a word a step with a bounds check on each, were 7 of
// the 9 million instructions of the texts' spooling in the JSON of an
// 8 MiB gstat file).
func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	pa, pb := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	i := 0
	for ; i+32 <= n; i += 32 {
		if word(pa, i) != word(pb, i) || word(pa, i+8) != word(pb, i+8) ||
			word(pa, i+16) != word(pb, i+16) || word(pa, i+24) != word(pb, i+24) {
			break
		}
	}
	for ; i+8 <= n; i += 8 {
		if x := le64(pa, i) ^ le64(pb, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	if i < n && n >= 8 {
		// The last word, overlapping the one before (equal bytes).
		return n - 8 + bits.TrailingZeros64(le64(pa, n-8)^le64(pb, n-8))/8
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// sharedSuffix is the length of the suffix a and b share, as
// sharedPrefix counts the prefix: the i-th word from the ends starts at
// la-8-i and lb-8-i.
func sharedSuffix(a, b string) int {
	la, lb := len(a), len(b)
	n := min(la, lb)
	pa, pb := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	i := 0
	for ; i+32 <= n; i += 32 {
		if word(pa, la-8-i) != word(pb, lb-8-i) || word(pa, la-16-i) != word(pb, lb-16-i) ||
			word(pa, la-24-i) != word(pb, lb-24-i) || word(pa, la-32-i) != word(pb, lb-32-i) {
			break
		}
	}
	for ; i+8 <= n; i += 8 {
		if x := le64(pa, la-8-i) ^ le64(pb, lb-8-i); x != 0 {
			return i + bits.LeadingZeros64(x)/8
		}
	}
	if i < n && n >= 8 {
		return n - 8 + bits.LeadingZeros64(le64(pa, la-n)^le64(pb, lb-n))/8
	}
	for ; i < n && a[la-1-i] == b[lb-1-i]; i++ {
	}
	return i
}

// word is the eight bytes at p+i, in the machine's order, for a test of
// equality; le64 the same little-endian, whose first differing byte is
// its trailing zeros / 8. sharedPrefix and sharedSuffix read no byte
// past the strings they compare.
func word(p unsafe.Pointer, i int) uint64 { return *(*uint64)(unsafe.Add(p, i)) }

func le64(p unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, i)), 8))
}
