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
