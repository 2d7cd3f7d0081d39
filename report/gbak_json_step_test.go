package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
)

// stdJSON is v as encoding/json writes it with SetEscapeHTML(false) and
// SetIndent(prefix, "  "), without the encoder's newline: the oracle of
// the hand-written encoders, for an element at the depth of prefix.
func stdJSON(v any, prefix string) (string, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent(prefix, "  ")
	if err := e.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// stdStep is a step as encoding/json writes it in the steps array.
func stdStep(t *testing.T, st *analyze.GbakStep) string {
	t.Helper()
	s, err := stdJSON(st, stepIndent)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// appendStep writes the bytes of encoding/json: every step of the gbak
// logs of the corpus and testdata (and their variants: huge numbers,
// long names), and steps with every optional field set or not, every
// kind of character to escape and floats at the ends of the plain form.
func TestAppendStep(t *testing.T) {
	// A new field of GbakStep must be taught to appendStep (Wrapped,
	// json:"-", is not written).
	if n := reflect.TypeFor[analyze.GbakStep]().NumField(); n != 14 {
		t.Fatalf("GbakStep has %d fields; appendStep knows 14", n)
	}
	var steps []analyze.GbakStep
	for _, path := range gbakLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{data, bytes.ReplaceAll(data, []byte("0"), []byte("9999999999"))} {
			tl, _ := analyze.ReadGbakTimeline(bytes.NewReader(text), filepath.Base(path))
			steps = append(steps, tl.Steps...)
		}
	}
	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	for _, s := range []string{"", "a\"b\\c", "\b\f\n\r\t\x00\x01\x1f\x7f", "<&>", "Восстановление 測試 😀",
		"bad \xff\xfe utf8 \xe2\x82", "sep \u2028 \u2029 end", `"PUBLIC"."ORDER_LINE"`} {
		steps = append(steps, analyze.GbakStep{Line: 7, Kind: parse.GbakOther, Object: s, Name: s, Message: s, Phase: s})
	}
	for _, v := range []float64{0, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 123456789012345678901234.0, -0.001, -1e-9, 0.1, 24.882, 605729.17} {
		steps = append(steps, analyze.GbakStep{Line: 1 << 40, Kind: parse.GbakData, Name: "T", Start: f(v), Seconds: f(-v),
			Reads: i(-1 << 63), Writes: i(1<<63 - 1), Records: i(0), Ignored: i(5), LowerBound: true})
	}
	steps = append(steps, analyze.GbakStep{Line: 2, Kind: parse.GbakMetadata, Seconds: f(0), Wrapped: true})
	if len(steps) < 2000 {
		t.Fatalf("%d steps", len(steps))
	}
	var buf []byte
	for k := range steps {
		st := &steps[k]
		var ok bool
		buf, ok = appendStep(buf[:0], st)
		if want := stdStep(t, st); !ok || string(buf) != want {
			t.Fatalf("step %d (%v): %s", k, ok, firstDifference(want, string(buf)))
		}
	}
	nan := 0.0
	nan /= nan
	if _, ok := appendStep(nil, &analyze.GbakStep{Seconds: &nan}); ok {
		t.Error("NaN written")
	}
}

// appendTable writes the bytes of encoding/json: every table of the gbak
// logs of the corpus and testdata, and tables with every optional field
// set or not.
func TestAppendTable(t *testing.T) {
	// (Wrapped, json:"-", is not written)
	if n := reflect.TypeFor[analyze.GbakTable]().NumField(); n != 10 {
		t.Fatalf("GbakTable has %d fields; appendTable knows 10", n)
	}
	var tables []analyze.GbakTable
	for _, path := range gbakLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tl, _ := analyze.ReadGbakTimeline(bytes.NewReader(data), filepath.Base(path))
		tables = append(tables, tl.Tables...)
	}
	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	tables = append(tables, analyze.GbakTable{Name: "a\"\\\n\xff\u2028", Line: 3},
		analyze.GbakTable{Name: "T", Records: i(5), Ignored: i(2), Seconds: f(1e-7), RecordsPerSecond: f(5e21), Reads: i(-1), Writes: i(0), LowerBound: true})
	if len(tables) < 80 {
		t.Fatalf("%d tables", len(tables))
	}
	for k := range tables {
		tb := &tables[k]
		got, ok := appendTable(nil, tb)
		want, err := stdJSON(tb, stepIndent)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || string(got) != want {
			t.Fatalf("table %d (%v): %s", k, ok, firstDifference(want, string(got)))
		}
	}
}

// TestAppendStringTails holds appendString to encoding/json for strings
// of 0 to 24 bytes with a byte to escape (or a rune of two to four bytes)
// at each place: the last bytes of a string are tested eight at once.
func TestAppendStringTails(t *testing.T) {
	for n := range 25 {
		plain := strings.Repeat("abcdefgh", 4)[:n]
		ss := []string{plain}
		for i := range n {
			for _, odd := range []string{"\"", "\\", "\n", "\x1f", "\x7f", "\xff", "é", "\u2028", "😀"} {
				ss = append(ss, plain[:i]+odd+plain[i+1:])
			}
		}
		for _, s := range ss {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := appendString([]byte("x"), s, false); string(got) != "x"+strings.TrimSuffix(want.String(), "\n") {
				t.Fatalf("appendString(%q) = %s, want %s", s, got[1:], want.Bytes())
			}
		}
	}
}
