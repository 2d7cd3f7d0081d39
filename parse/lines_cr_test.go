package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// splitLinesRef is the line splitting LineReader promises, written the
// slow way: a physical line ends at LF (a CR before it is part of the
// end), a lone CR inside it ends a line too, and an empty piece after the
// last CR is the line end itself.
func splitLinesRef(data string) []string {
	var out []string
	for len(data) > 0 {
		var phys string
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			phys, data = data[:i], data[i+1:]
		} else {
			phys, data = data, ""
		}
		phys = strings.TrimSuffix(phys, "\r")
		pieces := strings.Split(phys, "\r")
		if len(pieces) > 1 && pieces[len(pieces)-1] == "" {
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
		if round%2 == 1 {
			b.WriteString("tail without end")
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
