package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

// jsonOut writes a JSON document piece by piece with the bytes
// json.Encoder with SetIndent("", "  ") would give the whole: each value
// is encoded alone at its depth. The first error stops it.
type jsonOut struct {
	w io.Writer
	// pass takes the bytes that need no guard: raw's, and a guarded
	// document's escaped tables and warnings (NewGstatJSONGuarded); else
	// it is w.
	pass io.Writer
	buf  bytes.Buffer // the compact encoding
	ind  []byte       // buf indented
	enc  *json.Encoder
	err  error
}

func newJSONOut(w io.Writer) *jsonOut {
	o := &jsonOut{w: w, pass: w}
	o.enc = json.NewEncoder(&o.buf)
	o.enc.SetEscapeHTML(false)
	return o
}

func (o *jsonOut) raw(s string) {
	if o.err == nil {
		_, o.err = io.WriteString(o.pass, s)
	}
}

// encoded is v as it reads at the depth of indent, without the encoder's
// newline; the bytes are valid until the next call.
func (o *jsonOut) encoded(v any, indent string) ([]byte, error) {
	o.buf.Reset()
	if err := o.enc.Encode(v); err != nil {
		return nil, err
	}
	b := o.buf.Bytes()
	o.ind = appendIndented(o.ind[:0], b[:len(b)-1], indent, "  ")
	return o.ind, nil
}

// jsonError is encoding/json's error for v (a value holding a NaN or an
// infinity that an append function refused says what is wrong); nil
// when v encodes. The error is json.Encoder's too.
func jsonError(v any) error {
	_, err := json.Marshal(v)
	return err
}

// appendIndented appends compact, valid JSON src indented as json.Indent
// would (empty objects and arrays stay "{}" and "[]"). encoding/json's
// Indent runs its validating scanner over every byte, most of the cost
// of writing a big document; src here comes from json.Encoder, valid by
// construction, so strings are only copied.
func appendIndented(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // just after '{' or '[': indent unless it closes at once
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// value writes v at the depth of indent.
func (o *jsonOut) value(v any, indent string) {
	if o.err != nil {
		return
	}
	var b []byte
	if b, o.err = o.encoded(v, indent); o.err == nil {
		_, o.err = o.w.Write(b)
	}
}

// elements writes a top-level array of n elements one at a time.
func (o *jsonOut) elements(n int, at func(int) any) {
	o.raw("[")
	for i := range n {
		o.next(i)
		o.value(at(i), "    ")
	}
	o.endArray(n)
}

// elementIndent starts an element of a top-level array.
const elementIndent = "\n    "

// next starts the i-th element of a top-level array (after its "[").
func (o *jsonOut) next(i int) {
	if i > 0 {
		o.raw(",")
	}
	o.raw(elementIndent)
}

// item writes b, encoded at the depth of a top-level array's elements,
// as its i-th element, through pass.
func (o *jsonOut) item(i int, b []byte) {
	o.next(i)
	o.passed(b)
}

// elementHead appends to b what next writes before the i-th element,
// for an element made after it in the same buffer and written in one
// call (passed): gstat's spooled warnings and gbak's steps, hundreds of
// thousands each.
func elementHead(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return append(b, elementIndent...)
}

// passed writes b through pass.
func (o *jsonOut) passed(b []byte) {
	if o.err == nil {
		_, o.err = o.pass.Write(b)
	}
}

// endArray ends a top-level array of n elements.
func (o *jsonOut) endArray(n int) {
	if n > 0 {
		o.raw("\n  ")
	}
	o.raw("]")
}

// array writes a top-level array one element at a time (a run's warnings
// can be tens of megabytes of JSON), followed by a comma.
func array[T any](o *jsonOut, key string, vs []T) {
	o.raw(`  "` + key + `": `)
	o.elements(len(vs), func(i int) any { return &vs[i] })
	o.raw(",\n")
}

// field writes "key": v at the depth of indent, then a comma unless last.
func (o *jsonOut) field(key string, v any, indent string, last bool) {
	o.raw(indent + `"` + key + `": `)
	o.value(v, indent)
	if last {
		o.raw("\n")
	} else {
		o.raw(",\n")
	}
}

// jsonArray is a field written as an array, one element at a time: the
// elements are made as they are written (analyze.GbakSteps).
type jsonArray interface {
	JSONLen() int
	JSONAt(i int) any
}

// writeJSONStreamed writes a struct (or a pointer to one) as WriteJSON's
// encoder would, field by field and the elements of its slices one by one,
// so that the output is never held whole: encoding/json with SetIndent
// builds the document in one buffer and re-indents it into a second, two
// copies of a restore log's million steps. It reports false, having
// written nothing, for a value it does not handle the way encoding/json
// does (a custom marshaller, embedded fields, a non-struct).
func writeJSONStreamed(w io.Writer, v any) (bool, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return false, nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return false, nil
	}
	rt := rv.Type()
	marshaler := reflect.TypeFor[json.Marshaler]()
	textMarshaler := reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
	if rt.Implements(marshaler) || reflect.PointerTo(rt).Implements(marshaler) ||
		rt.Implements(textMarshaler) || reflect.PointerTo(rt).Implements(textMarshaler) {
		return false, nil
	}
	type field struct {
		name string
		v    reflect.Value
	}
	var fields []field
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		if sf.Anonymous {
			return false, nil
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		if strings.Contains(opts, "string") {
			return false, nil
		}
		fv := rv.Field(i)
		if strings.Contains(opts, "omitempty") && isEmptyJSON(fv) || strings.Contains(opts, "omitzero") && fv.IsZero() {
			continue
		}
		fields = append(fields, field{name, fv})
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	o := newJSONOut(bw)
	if len(fields) == 0 {
		o.raw("{}\n")
	} else {
		o.raw("{\n")
	}
	for i, f := range fields {
		key, _ := json.Marshal(f.name) // (a key escapes as encoding/json does)
		o.raw("  " + string(key) + ": ")
		if a, ok := f.v.Interface().(jsonArray); ok {
			o.elements(a.JSONLen(), a.JSONAt)
		} else if f.v.Kind() == reflect.Slice && !f.v.IsNil() && f.v.Len() > 0 && f.v.Type().Elem().Kind() != reflect.Uint8 {
			o.elements(f.v.Len(), func(j int) any { return f.v.Index(j).Interface() })
		} else {
			o.value(f.v.Interface(), "  ")
		}
		if i < len(fields)-1 {
			o.raw(",")
		}
		o.raw("\n")
	}
	if len(fields) > 0 {
		o.raw("}\n")
	}
	if o.err != nil {
		return true, o.err
	}
	return true, bw.Flush()
}

// isEmptyJSON is encoding/json's omitempty test.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
