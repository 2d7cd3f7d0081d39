package view

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// csvLine is what encoding/csv writes of one record.
func csvLine(t *testing.T, fields []string) string {
	t.Helper()
	var b bytes.Buffer
	return csvLineTo(t, csv.NewWriter(&b), &b, fields)
}

// csvLineTo is csvLine through w, which writes to b: a test of 100,000
// fields reuses one writer (each new one is a 4 KiB buffer).
func csvLineTo(t *testing.T, w *csv.Writer, b *bytes.Buffer, fields []string) string {
	t.Helper()
	b.Reset()
	if err := w.Write(fields); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return b.String()
}

// TestAppendCSVField checks appendCSVField against encoding/csv on every
// field of up to two bytes and on random ones of commas, quotes,
// carriage returns, newlines, spaces (Unicode's too), \. and text.
func TestAppendCSVField(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	check := func(s string) {
		t.Helper()
		if got, want := string(appendCSVField([]byte("x,"), s))+"\n", "x,"+csvLineTo(t, w, &b, []string{s}); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	}
	eachShortString(check, []string{"a", "RDB$PAGES", ",", `"`, "\r", "\n", " ", "\t", "\u00a0", "\u2003", `\.`, `\`, ".", "é", "\xff", "'"}, 5, 13)
	// Long fields, scanned eight bytes at a time: each byte that needs
	// quotes (and its neighbours in value) at every place of up to 40.
	for _, c := range []string{",", `"`, "\r", "\n", "+", "-", "!", "#", "\x0b", "\x0c", "\x0e", "\x2b", "\x2d", "\xac", "\x8a"} {
		for n := range 40 {
			for at := range n + 1 {
				check(strings.Repeat("a", at) + c + strings.Repeat("b", n-at))
			}
		}
	}
}

// eachShortString calls check on "", on every string of one and two
// bytes, and on 50,000 strings of up to maxParts-1 of parts, drawn with
// a PCG seeded with seed.
func eachShortString(check func(string), parts []string, maxParts int, seed uint64) {
	check("")
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for range 50000 {
		s := ""
		for range rng.IntN(maxParts) {
			s += parts[rng.IntN(len(parts))]
		}
		check(s)
	}
}

// TestAppendCSVRow checks appendCSVRow against csvFields written by
// encoding/csv: the rows of the tables and indices of the fb30 sample
// and 20,000 rows of random cells of every kind (nulls, NaN, infinities,
// huge and tiny numbers, texts a spreadsheet would take for formulas,
// control characters), some shorter than their columns.
func TestAppendCSVRow(t *testing.T) {
	check := func(cols []Column, r []Cell) {
		t.Helper()
		if got, want := string(appendCSVRow(nil, cols, r)), csvLine(t, csvFields(cols, r, nil)); got != want {
			t.Fatalf("row %v: %q, want %q", r, got, want)
		}
	}
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-i.txt"} {
		for _, a := range gstatRuns(t, "fb30", name) {
			for i := range a.Tables {
				check(gstatTableColumns, tableCells(&a.Tables[i]))
				for j := range a.Tables[i].Indices {
					check(gstatIndexColumns, indexCells(&a.Tables[i].Indices[j]))
				}
			}
		}
	}
	texts := []string{"", "CUSTOMER", "=1+2", "+x", "-3", "@a", "\tt", "\rr", "a,b", `q"q`, " lead", "new\nline", "\x1b[31m", "\u202e", `\.`, "é"}
	nums := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 2.5e-9, 1e20, 1e21, -1e21, 123456789.125, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64}
	kinds := []Kind{TextKind, CountKind, NumberKind, BytesKind, SecondsKind, ShareKind, ChangeKind, RatioKind, TimeKind, PKind}
	rng := rand.New(rand.NewPCG(15, 16))
	for range 20000 {
		n := 1 + rng.IntN(8)
		cols := make([]Column, n)
		r := make([]Cell, rng.IntN(n+1))
		for j := range r {
			c := Cell{Kind: kinds[rng.IntN(len(kinds))], Text: texts[rng.IntN(len(texts))], Int: rng.Int64() >> rng.IntN(64),
				T: time.Unix(rng.Int64N(4e9), 0).UTC(), Null: rng.IntN(8) == 0}
			if rng.IntN(2) == 0 {
				c.Num = nums[rng.IntN(len(nums))]
			} else {
				c.Num = math.Float64frombits(rng.Uint64())
			}
			r[j] = c
		}
		check(cols, r)
	}
}

// TestCSVTextFormula: a text cell gets an apostrophe in front when it
// starts with =, +, -, @, tab or carriage return (a spreadsheet would run
// it as a formula), and only then: every first byte.
func TestCSVTextFormula(t *testing.T) {
	for c := range 256 {
		s := string([]byte{byte(c)}) + "1+1"
		formula := strings.IndexByte("=+-@\t\r", byte(c)) >= 0
		want := safe(s)
		if formula {
			want = "'" + want
		}
		if got := csvText(s); got != want {
			t.Errorf("%q: %q, formula %v", s, got, formula)
		}
	}
	if got := csvText(""); got != "" {
		t.Errorf(`"": %q`, got)
	}
}
