package printable

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CUSTOMER", "CUSTOMER"},
		{"Заказы 注文", "Заказы 注文"},
		{`C:\data\shop.fdb`, `C:\data\shop.fdb`},
		{"\x1b]0;owned\x07CUST", `\x1b]0;owned\x07CUST`},
		{"a\tb\nc\rd\x00", `a\tb\nc\rd\x00`},
		{"del\x7f", `del\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"\u202eexe.txt", `\u202eexe.txt`},
		{"\u2066x\u2069 \u200f \u061c \u2028", `\u2066x\u2069 \u200f \u061c \u2028`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"cut \xe2\x80", `cut \xe2\x80`},
		{"\ufffd kept", "\ufffd kept"},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if !HasBidi("a\u202eb") || !HasBidi("\u2067") || HasBidi("abc") || HasBidi("\x1b\u2028") {
		t.Error("HasBidi")
	}
}

// The stream guard escapes control characters however the writes split
// the text (a character cut in two is passed on), and a JSON document
// keeps its values.
func TestWriter(t *testing.T) {
	in := "title \x1b]0;x\x07\r\n\tok é \u202e \u0085 \xff\n"
	for _, split := range []bool{false, true} {
		var b bytes.Buffer
		w := NewWriter(&b)
		if split {
			for i := range len(in) {
				if n, err := w.Write([]byte(in[i : i+1])); n != 1 || err != nil {
					t.Fatal(n, err)
				}
			}
		} else if n, err := w.Write([]byte(in)); n != len(in) || err != nil {
			t.Fatal(n, err)
		}
		want := "title \\x1b]0;x\\x07\\r\n\tok é \\u202e \\u0085 \xff\n"
		if split {
			want = "title \\x1b]0;x\\x07\\r\n\tok é \u202e \u0085 \xff\n"
		}
		if b.String() != want {
			t.Errorf("split %v: %q, want %q", split, b.String(), want)
		}
	}
	doc := map[string]string{"name": "\x1b]0;x\x07\u202eexe \\x1b \u0085\x7f"}
	js, _ := json.Marshal(doc)
	var b bytes.Buffer
	NewWriter(&b).Write(js)
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["name"] != doc["name"] {
		t.Errorf("JSON %s read back as %q (%v)", b.String(), back["name"], err)
	}
	if bytes.ContainsRune(b.Bytes(), 0x202e) {
		t.Errorf("JSON keeps a raw U+202E: %s", b.String())
	}
}
