package parse

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// BenchmarkGbak reads an 8 MB log made of the real 3.0.11 restore log
// repeated, through the whole reader (encoding sniffing, line splitting,
// statistics and classification).
func BenchmarkGbak(b *testing.B) {
	one := testutil.ReadTestdata(b, "fb30", "shop-gbak-restore-v-st.log")
	var buf bytes.Buffer
	for buf.Len() < 8<<20 {
		buf.Write(one)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rd := NewGbakReader(bytes.NewReader(data), "bench")
		n := 0
		for rd.Next() {
			n++
		}
		if n == 0 || rd.Err() != nil {
			b.Fatal("nothing read", rd.Err())
		}
	}
}
