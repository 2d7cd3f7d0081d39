package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// BenchmarkGstatCommand runs `fbdiag gstat --format F` on a 16 MiB
// gstat -a -r made of the fb30 sample's blocks (as tools/make-big does),
// reading from stdin and writing to io.Discard: the whole command, as
// README's performance table measures it with the binary.
func BenchmarkGstatCommand(b *testing.B) {
	_, data := testutil.BigGstat(b, 16<<20)
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
