package testutil

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// JSONKeys is every object key of the JSON documents in out (one or
// more, one after the other), at any depth: for the tests that hold a
// JSON contract's keys against its docs/ page.
func JSONKeys(t testing.TB, out string) map[string]bool {
	t.Helper()
	keys := map[string]bool{}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				keys[k] = true
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
	return keys
}

// Documented says whether doc names key as the docs/ pages do: `key`,
// `key[]`, or under its parent (`steps[].key`, `steps[].key[]`).
func Documented(doc, key string) bool {
	return strings.Contains(doc, "`"+key+"`") || strings.Contains(doc, "`"+key+"[]") ||
		strings.Contains(doc, "."+key+"`") || strings.Contains(doc, "."+key+"[]")
}
