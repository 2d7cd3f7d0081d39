// Package testutil finds the test inputs: the files copied into testdata/
// (made for this project) and the shared corpus beside the checkout
// (../shared/corpus, others' published outputs that are never copied).
package testutil

import (
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Root is the repository root (the folder holding go.mod).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's folder")
		}
		dir = parent
	}
}

// Testdata returns the path of a file under the repository's testdata/.
func Testdata(t testing.TB, rel ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Root(t), "testdata"}, rel...)...)
}

// ReadTestdata returns the bytes of a file under the repository's
// testdata/ (as Testdata names it), failing the test when it cannot be
// read.
func ReadTestdata(tb testing.TB, rel ...string) []byte {
	tb.Helper()
	b, err := os.ReadFile(Testdata(tb, rel...))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// CorpusPath returns where the shared corpus is looked for:
// $FBDIAG_CORPUS, else ../shared/corpus beside the checkout; it may be
// absent (a glob in it then finds nothing).
func CorpusPath(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("FBDIAG_CORPUS"); dir != "" {
		return dir
	}
	return filepath.Join(Root(t), "..", "shared", "corpus")
}

// CorpusDir returns CorpusPath, skipping the test with a message when
// the corpus is absent.
func CorpusDir(t testing.TB) string {
	t.Helper()
	dir := CorpusPath(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not found at %s (set FBDIAG_CORPUS or place shared/ beside the checkout): %v", dir, err)
	}
	return dir
}

// Corpus returns the path of a file in the shared corpus, skipping the
// test when the corpus is absent and failing it when the file is missing.
func Corpus(t testing.TB, rel ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{CorpusDir(t)}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("corpus file missing: %v", err)
	}
	return p
}

// SeedArticle returns the seed article whose name starts with prefix
// ("000") in ../shared/seeds beside the corpus, skipping the test when it
// is absent.
func SeedArticle(t testing.TB, prefix string) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(CorpusDir(t)), "seeds")
	m, _ := filepath.Glob(filepath.Join(dir, prefix+"_*.txt"))
	if len(m) != 1 {
		t.Skipf("seed article %s_*.txt not found in %s", prefix, dir)
	}
	return m[0]
}

// TextVariants makes n variants of ref, seeded by seed: up to three
// insertions of a prefix of insert (which may hold bytes to escape and
// runes cut short) at random places, the whole cut at a random length.
func TextVariants(ref, insert string, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var out []string
	for range n {
		b := []byte(ref)
		for range rng.IntN(4) {
			i := rng.IntN(len(b) + 1)
			b = append(b[:i], append([]byte(insert[:rng.IntN(len(insert)+1)]), b[i:]...)...)
		}
		out = append(out, string(b[:rng.IntN(len(b)+1)]))
	}
	return out
}

// WaitGoroutines fails tb unless the number of goroutines falls back to
// before within five seconds: those a stream or a sorter started end
// just after it returns. what says which run of the test it was.
func WaitGoroutines(tb testing.TB, before int, what string) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		tb.Errorf("%s: %d goroutines after it returned, %d before", what, n, before)
	}
}

// ClosedAddr is a local address nothing listens on: a connection to it is
// refused at once.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
