package analyze

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/fbdiag/fbdiag/parse"
)

// Snapshots taken before and after a restore to a newer Firebird compare
// on the values both gstat versions print. fieldsOnlyInOne names the
// others by their JSON name in docs/gstat-json.md, prefixed by the block
// they belong to ("header.system_change_number", "table.total_formats",
// "index.clustering_factor"). A field counts as printed when some block
// of the snapshot has it; the json tags of the parse records are the one
// list of fields, so a field the reader learns is covered at once.

// notCompared are record keys that are positions, identities or
// as-printed copies of other fields, not values gstat prints.
var notCompared = map[string]bool{
	"report": true, "line": true, "name": true, "id": true, "schema": true,
	"table": true, "table_id": true, "table_schema": true, "indices": true,
	"unknown": true, "variable": true, "execution_time_text": true,
	"creation_date_text": true, "files": true, "database": true,
}

func fieldsOnlyInOne(fb, fa map[string]bool) (onlyBefore, onlyAfter []string) {
	onlyBefore, onlyAfter = []string{}, []string{}
	for f := range fb {
		if !fa[f] {
			onlyBefore = append(onlyBefore, f)
		}
	}
	for f := range fa {
		if !fb[f] {
			onlyAfter = append(onlyAfter, f)
		}
	}
	slices.Sort(onlyBefore)
	slices.Sort(onlyAfter)
	return onlyBefore, onlyAfter
}

// printedFields are the fields snapshot s prints: listed when it was
// made, else (a snapshot built by hand) from its parsed run.
func (s *HistorySnapshot) printedFields() map[string]bool {
	if s.printed != nil {
		return s.printed
	}
	return printedFields(s.Parsed)
}

// printedFields collects the fields a report prints. A block kind absent
// from the report (no tables in a gstat -h) adds nothing, so that a
// header-only snapshot does not list every table field.
func printedFields(rep *parse.GstatReport) map[string]bool {
	out := map[string]bool{}
	if rep == nil {
		return out
	}
	if rep.Header != nil {
		addFields(out, "header.", rep.Header)
	}
	for _, t := range rep.Tables {
		addBlockFields(out, t, nil)
	}
	for _, ix := range rep.UnattachedIndices {
		addBlockFields(out, nil, ix)
	}
	return out
}

// addBlockFields adds the fields a table block prints, its indices' too,
// or those of an index block that follows no table.
func addBlockFields(out map[string]bool, t *parse.GstatTable, ix *parse.GstatIndex) {
	if t != nil {
		addFields(out, "table.", t)
		for _, x := range t.Indices {
			addFields(out, "index.", x)
		}
	}
	if ix != nil {
		addFields(out, "index.", ix)
	}
}

// addFields adds the json names of the fields v (a pointer to a parse
// record) has a value for. It walks the struct by reflection, reading
// the same json tags, with the field list of each record type computed
// once (fieldKeys).
func addFields(out map[string]bool, prefix string, v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return
	}
	for _, f := range fieldKeys(rv.Type(), prefix) {
		if !out[f.key] && printedValue(rv.Field(f.index)) {
			out[f.key] = true
		}
	}
}

type fieldKey struct {
	index int
	key   string // prefix + json name
}

type fieldKeysID struct {
	t      reflect.Type
	prefix string
}

var fieldKeysCache sync.Map // fieldKeysID → []fieldKey

// fieldKeys lists the compared fields of a record type with their keys.
func fieldKeys(t reflect.Type, prefix string) []fieldKey {
	id := fieldKeysID{t, prefix}
	if v, ok := fieldKeysCache.Load(id); ok {
		return v.([]fieldKey)
	}
	var keys []fieldKey
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous || !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" || notCompared[name] {
			continue
		}
		keys = append(keys, fieldKey{i, prefix + name})
	}
	fieldKeysCache.Store(id, keys)
	return keys
}

// printedValue is false for nil, "", empty lists and booleans (a boolean
// is a view of a list such as Attributes, present in every version).
func printedValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil()
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() > 0
	case reflect.Bool:
		return false
	}
	return true
}
