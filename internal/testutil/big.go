package testutil

import (
	"bytes"
	"io"
	"testing"

	"github.com/fbdiag/fbdiag/internal/bigfile"
)

// BigGstat returns the fb30 gstat -a -r sample (src) and a report of
// about size bytes grown from its blocks by bigfile.Gstat, as
// tools/make-big does (big).
func BigGstat(tb testing.TB, size int64) (src, big []byte) {
	tb.Helper()
	return grow(tb, bigfile.Gstat, size, "fb30", "shop-gstat-a-r.txt")
}

// BigGbak returns the fb30 gbak -v -st restore log sample (src) and a
// restore log of about size bytes grown from its data section by
// bigfile.GbakRestore, as tools/make-big does (big).
func BigGbak(tb testing.TB, size int64) (src, big []byte) {
	tb.Helper()
	return grow(tb, bigfile.GbakRestore, size, "fb30", "shop-gbak-restore-v-st.log")
}

// grow reads the testdata file rel and writes it grown to size by gen.
func grow(tb testing.TB, gen func(io.Writer, []byte, int64) (int, error), size int64, rel ...string) (src, big []byte) {
	tb.Helper()
	src = ReadTestdata(tb, rel...)
	var buf bytes.Buffer
	buf.Grow(int(size) + len(src)) // (each doubling would fault in fresh pages)
	if _, err := gen(&buf, src, size); err != nil {
		tb.Fatal(err)
	}
	return src, buf.Bytes()
}
