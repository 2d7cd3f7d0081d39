package extsort

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStreams appends 6,000 pieces of 1 to 300 bytes to 5 streams in a
// budget of 1,000 bytes (200 a stream: longer pieces are written alone),
// then reads back ranges between pieces: every range has the bytes
// appended, each slice holds whole pieces, memory never held more than
// the budget and the file is gone after Close.
func TestStreams(t *testing.T) {
	before := len(temps(t))
	rng := rand.New(rand.NewPCG(3, 4))
	s := NewStreams(5, 1000)
	want := make([][]byte, 5)
	bounds := make([][]int64, 5) // where each piece starts, and the end
	for i := range 5 {
		bounds[i] = []int64{0}
	}
	for n := range 6000 {
		i := rng.IntN(5)
		size := 1 + rng.IntN(60)
		if n%50 == 0 {
			size = 201 + rng.IntN(100)
		}
		p := bytes.Repeat([]byte{byte('a' + n%26)}, size)
		p[len(p)-1] = '\n'
		if err := s.Append(i, p); err != nil {
			t.Fatal(err)
		}
		want[i] = append(want[i], p...)
		bounds[i] = append(bounds[i], int64(len(want[i])))
		if s.Len(i) != int64(len(want[i])) {
			t.Fatalf("stream %d: Len %d, want %d", i, s.Len(i), len(want[i]))
		}
	}
	if s.MaxHeld() > 1000 || s.MaxHeld() < 900 {
		t.Errorf("held %d bytes at once, want 900 to 1,000", s.MaxHeld())
	}
	if s.file == nil || len(s.chunks[0]) < 50 {
		t.Fatalf("no file, or %d chunks in stream 0: want many", len(s.chunks[0]))
	}
	for k := range 400 {
		i := k % 5
		bs := bounds[i]
		a, b := rng.IntN(len(bs)), rng.IntN(len(bs))
		if k < 5 {
			a, b = 0, len(bs)-1 // the whole stream
		}
		from, to := bs[min(a, b)], bs[max(a, b)]
		var got []byte
		err := s.Read(i, from, to, func(p []byte) error {
			if len(p) == 0 || p[len(p)-1] != '\n' {
				return fmt.Errorf("a slice of %d bytes ends inside a piece", len(p))
			}
			got = append(got, p...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[i][from:to]) {
			t.Fatalf("stream %d [%d, %d): %d bytes read back differ from the %d appended", i, from, to, len(got), to-from)
		}
	}
	stop := fmt.Errorf("enough")
	if err := s.Read(0, 0, s.Len(0), func([]byte) error { return stop }); err != stop {
		t.Errorf("Read = %v, want fn's error", err)
	}
	s.Close()
	if n := len(temps(t)); n != before {
		t.Errorf("%d temporary files left, had %d before", n, before)
	}
}

// TestStreamsInMemory keeps what fits in the budget without a file.
func TestStreamsInMemory(t *testing.T) {
	s := NewStreams(2, 1<<10)
	for _, p := range []string{"a\n", "bc\n", "d\n"} {
		if err := s.Append(1, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	var got []byte
	if err := s.Read(1, 2, 5, func(p []byte) error { got = append(got, p...); return nil }); err != nil {
		t.Fatal(err)
	}
	if string(got) != "bc\n" || s.file != nil || s.Len(0) != 0 || s.Len(1) != 7 {
		t.Errorf("read %q (file %v, lengths %d, %d), want \"bc\\n\" from memory, lengths 0 and 7", got, s.file != nil, s.Len(0), s.Len(1))
	}
}
