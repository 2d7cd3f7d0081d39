package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/bigfile"
)

// BenchmarkGstatCommand runs `fbdiag gstat --format F` on a 16 MiB
// gstat -a -r made of the fb30 sample's blocks (as tools/make-big does),
// reading from stdin and writing to io.Discard: the whole command, as
// README's performance table measures it with the binary.
func BenchmarkGstatCommand(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := bigfile.Gstat(&buf, src, 16<<20); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	for _, format := range []string{"text", "markdown", "csv", "json", "openmetrics"} {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var errb bytes.Buffer
				if code := run([]string{"fbdiag", "gstat", "--format", format, "-"}, bytes.NewReader(data), io.Discard, &errb); code != 0 {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
		})
	}
}
