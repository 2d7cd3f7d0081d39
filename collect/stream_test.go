package collect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// splitAll feeds data to a lineSplitter in chunks of size n.
func splitAll(data []byte, n int) []string {
	var got []string
	ls := &lineSplitter{line: func(b []byte) error { got = append(got, string(b)); return nil }}
	for len(data) > 0 {
		k := min(n, len(data))
		ls.write(data[:k])
		data = data[k:]
	}
	ls.flush()
	return got
}

// However the service cuts its output into chunks, the lines are the
// same: the input's lines with trailing blanks removed.
func FuzzLineSplitter(f *testing.F) {
	for _, name := range []string{"shop-gbak-restore-v-st.log", "shop-gstat-a-r.txt"} {
		b := testutil.ReadTestdata(f, "fb30", name)
		f.Add(b[:min(len(b), 4096)], uint8(7))
	}
	f.Add([]byte("a \r\nb\n\nc"), uint8(1))
	// An excerpt as it is, with lone CRs, huge numbers and long names.
	for _, s := range testutil.FuzzSeeds(f, testutil.GbakSeed) {
		f.Add(s, uint8(13))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		n := int(chunk) + 1
		got := splitAll(data, n)
		want := strings.Split(string(data), "\n")
		if len(want) > 0 && strings.TrimRight(want[len(want)-1], " \t\r") == "" {
			want = want[:len(want)-1]
		}
		for i := range want {
			want[i] = strings.TrimRight(want[i], " \t\r")
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("chunk %d: got %q, want %q", n, got, want)
		}
	})
}

// The splitter must keep up with a service streaming at network speed.
func BenchmarkLineSplitter(b *testing.B) {
	data := testutil.ReadTestdata(b, "fb30", "shop-gbak-restore-v-st.log")
	data = bytes.Repeat(data, 10)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		lines := 0
		ls := &lineSplitter{line: func([]byte) error { lines++; return nil }}
		for off := 0; off < len(data); off += 32 * 1024 {
			ls.write(data[off:min(off+32*1024, len(data))])
		}
		ls.flush()
	}
}

// After the driver lost the reply that came with the error, the first
// line read (next) goes apart: it may be the end of a line whose start
// was lost (a CI run on 3.0.11 read `ue is ("ID" = 305419896)` so), and
// the lines after it go on as lines. The chunks are those the service
// gave there.
func TestLineSplitterNext(t *testing.T) {
	var lines []string
	ls := &lineSplitter{line: func(b []byte) error { lines = append(lines, string(b)); return nil }}
	ls.write([]byte("gbak:    0.129  0.000      0      0 committing metadata\ngbak:    0.132  0.002      0     25     restoring index RD"))
	if string(ls.partial) != "gbak:    0.132  0.002      0     25     restoring index RD" {
		t.Fatalf("partial %q", ls.partial)
	}
	ls.partial = nil // (runService's: the line cut short is told apart)
	var first string
	ls.next = func(b []byte) error { first = string(b); return nil }
	ls.write([]byte("ue is (\"ID\" = 305419896)\ngbak: one more\n"))
	ls.flush()
	if first != `ue is ("ID" = 305419896)` || len(lines) != 2 || lines[0] != "gbak:    0.129  0.000      0      0 committing metadata" || lines[1] != "gbak: one more" {
		t.Errorf("first %q, lines %q", first, lines)
	}
	// A fragment without a line end goes to next at the flush.
	first = ""
	ls.next = func(b []byte) error { first = string(b); return nil }
	ls.write([]byte("tail without end"))
	ls.flush()
	if first != "tail without end" || len(lines) != 2 {
		t.Errorf("first %q, lines %q", first, lines)
	}
}
