package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	var err error
	put := func(s string) {
		if err == nil {
			_, err = bw.WriteString(s)
		}
	}
	value := func(x any, indent string) {
		if err != nil {
			return
		}
		buf.Reset()
		enc.SetIndent(indent, "  ")
		if err = enc.Encode(x); err == nil {
			b := buf.Bytes()
			_, err = bw.Write(b[:len(b)-1])
		}
	}
	if len(fields) == 0 {
		put("{}\n")
	} else {
		put("{\n")
	}
	for i, f := range fields {
		key, _ := json.Marshal(f.name) // (a key escapes as encoding/json does)
		put("  " + string(key) + ": ")
		if f.v.Kind() == reflect.Slice && !f.v.IsNil() && f.v.Len() > 0 && f.v.Type().Elem().Kind() != reflect.Uint8 {
			put("[")
			for j := 0; j < f.v.Len(); j++ {
				if j > 0 {
					put(",")
				}
				put("\n    ")
				value(f.v.Index(j).Interface(), "    ")
			}
			put("\n  ]")
		} else {
			value(f.v.Interface(), "  ")
		}
		if i < len(fields)-1 {
			put(",")
		}
		put("\n")
	}
	if len(fields) > 0 {
		put("}\n")
	}
	if err == nil {
		err = bw.Flush()
	}
	return true, err
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
