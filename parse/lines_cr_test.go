package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// splitLinesRef is the line splitting LineReader promises, written the
// slow way: a physical line ends at LF (a CR before it is part of the
// end), a lone CR inside it ends a line too, and an empty piece between
// the last CR and the LF is the line end itself (CR CR LF is one end).
// At the end of the input, a CR is a line end like an LF.
func splitLinesRef(data string) []string {
	var out []string
	for len(data) > 0 {
		var phys string
		lf := false
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			phys, data, lf = data[:i], data[i+1:], true
		} else {
			phys, data = data, ""
		}
		phys = strings.TrimSuffix(phys, "\r")
		pieces := strings.Split(phys, "\r")
		if lf && len(pieces) > 1 && pieces[len(pieces)-1] == "" {
			pieces = pieces[:len(pieces)-1]
		}
		for _, p := range pieces {
			out = append(out, strings.TrimRight(p, " \t\r\n\x00"))
		}
	}
	return out
}

// TestLineReaderCRAcrossBuffers: lines with and without CR, CRLF and lone
// CR, in files far larger than the reader's buffer and with lines longer
// than it, read exactly as the slow definition says, whatever sizes the
// reads return (a CR split from its LF by a refill, say).
func TestLineReaderCRAcrossBuffers(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	rng := rand.New(rand.NewPCG(1, 2))
	ends := []string{"\n", "\n", "\n", "\r\n", "\r", "\r\r\n", "\r\r\r\n"}
	for round := 0; round < 40; round++ {
		var b strings.Builder
		crRate := []int{0, 1, 50, 100}[round%4] // per cent of lines not ended by LF
		for b.Len() < 300<<10 {
			n := rng.IntN(60)
			if rng.IntN(500) == 0 {
				n = 70 << 10 // longer than the 64 KiB buffer
			}
			b.WriteString(strings.Repeat(string(rune('a'+rng.IntN(26))), n))
			if rng.IntN(100) < crRate {
				b.WriteString(ends[3+rng.IntN(len(ends)-3)])
			} else {
				b.WriteString("\n")
			}
		}
		switch round % 4 {
		case 1, 3:
			b.WriteString("tail without end")
		case 2:
			b.WriteString("\r\r") // two line ends, as LF LF
		}
		data := b.String()
		want := splitLinesRef(data)
		for _, r := range []struct {
			name string
			rd   func() *LineReader
		}{
			{"whole", func() *LineReader { return NewLineReader(strings.NewReader(data), "x") }},
			{"one byte", func() *LineReader { return NewLineReader(iotest.OneByteReader(strings.NewReader(data)), "x") }},
			{"half", func() *LineReader { return NewLineReader(iotest.HalfReader(strings.NewReader(data)), "x") }},
		} {
			lr := r.rd()
			i := 0
			for lr.Next() {
				if i >= len(want) {
					t.Fatalf("round %d %s: line %d beyond the %d expected", round, r.name, lr.Line(), len(want))
				}
				if got := lr.Text(); got != want[i] {
					t.Fatalf("round %d %s: line %d is %.40q (len %d), want %.40q (len %d)", round, r.name, lr.Line(), got, len(got), want[i], len(want[i]))
				}
				i++
			}
			if lr.Err() != nil || i != len(want) {
				t.Fatalf("round %d %s: %d lines, want %d (%v)", round, r.name, i, len(want), lr.Err())
			}
		}
	}
}

// The line ends one by one, each against the same text with LF.
func TestLineReaderCREnds(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\rb", "a|b"},
		{"a\r\rb", "a||b"},
		{"a\r\n", "a"},
		{"a\r\r\n", "a"}, // CRLF converted once more: one end
		{"a\r\r\r\n", "a|"},
		{"a\r\r\nb", "a|b"},
		{"a\r\n\r\n", "a|"},
		{"a\r", "a"},
		{"a\r\r", "a|"},
		{"a\r\r\r", "a||"},
		{"\r", ""},
		{"\r\r", "|"},
		{"\n\r", "|"},
		{"a \t\rb\x00\r", "a|b"},
	} {
		lr := NewLineReader(strings.NewReader(c.in), "x")
		var got []string
		for lr.Next() {
			got = append(got, lr.Text())
		}
		if g := strings.Join(got, "|"); g != c.want || lr.Err() != nil {
			t.Errorf("%q: %q, want %q (%v)", c.in, g, c.want, lr.Err())
		}
		if ref := strings.Join(splitLinesRef(c.in), "|"); ref != c.want {
			t.Errorf("%q: reference gives %q, want %q", c.in, ref, c.want)
		}
	}
}
