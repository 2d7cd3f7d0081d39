package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indentCases are compact JSON documents with what the indenter must get
// right: empty objects and arrays, nesting, escaped quotes and
// backslashes in strings, brackets and commas inside strings.
var indentCases = []string{
	`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[{}]}`, `[1,2,[3,[]],{"x":null}]`,
	`{"s":"a \"quoted\" {[,:]} \\","t":"\\\\"}`, `"x"`, `12.5`, `{"k":"\u00e9\u2028"}`,
	`{"tables":[{"name":"ORDERS","indices":[{"name":"RDB$PRIMARY1","depth":3}],"versions":null}]}`,
}

func TestAppendIndented(t *testing.T) {
	for _, src := range indentCases {
		for _, prefix := range []string{"", "    "} {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(src), prefix, "  "); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if got := appendIndented(nil, []byte(src), prefix, "  "); string(got) != want.String() {
				t.Errorf("%s with prefix %q:\n got %s\nwant %s", src, prefix, got, want.String())
			}
		}
	}
}

// FuzzAppendIndented: on any valid JSON, compacted as the encoder writes
// it, the indenter gives json.Indent's bytes.
func FuzzAppendIndented(f *testing.F) {
	for _, s := range indentCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var compact, want bytes.Buffer
		if err := json.Compact(&compact, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&want, compact.Bytes(), "  ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, compact.Bytes(), "  ", "  "); string(got) != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", compact.String(), got, want.String())
		}
	})
}
