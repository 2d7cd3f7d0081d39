package printable

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
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

// TestPlain8 checks the eight-byte test against its byte-by-byte
// definition on every byte value in every position, and on random words.
func TestPlain8(t *testing.T) {
	ref := func(x uint64) bool {
		for i := 0; i < 8; i++ {
			if c := byte(x >> (8 * i)); c < 0x20 || c >= 0x80 {
				return false
			}
		}
		return true
	}
	base := uint64(0x4141414141414141) // "AAAAAAAA"
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			x := base&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			if plain8(x) != ref(x) {
				t.Fatalf("plain8(%#x) = %v", x, plain8(x))
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1 << 20 {
		x := rng.Uint64()
		if rng.IntN(2) == 0 {
			x &= 0x7f7f7f7f7f7f7f7f
		}
		if plain8(x) != ref(x) {
			t.Fatalf("plain8(%#x) = %v", x, plain8(x))
		}
	}
}

// String's eight-bytes-at-a-time skip escapes what the byte loop does:
// every byte value at every place of an 18-byte ASCII string.
func TestStringEightAtATime(t *testing.T) {
	slow := func(s string) string { return escapeFrom(s, 0) } // (rune by rune)
	const plain = "Index ORDERS_DATE_"
	escapes := 0
	for v := range 256 {
		for at := range len(plain) {
			s := plain[:at] + string(rune(0)) + plain[at+1:]
			s = s[:at] + string([]byte{byte(v)}) + s[at+1:]
			got, want := String(s), slow(s)
			if got != want {
				t.Fatalf("String(%q) = %q, want %q", s, got, want)
			}
			if got != s {
				escapes++
			}
		}
	}
	// C0, DEL and the 128 bytes that are not UTF-8 alone, at 18 places.
	if escapes != (32+1+128)*len(plain) {
		t.Errorf("%d strings escaped", escapes)
	}
}
