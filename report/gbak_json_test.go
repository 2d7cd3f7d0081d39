package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gbakLogs are the gbak logs of the corpus and of testdata.
func gbakLogs(t *testing.T) []string {
	corpus := testutil.CorpusDir(t)
	return globAll(t, "gbak logs", 30,
		filepath.Join(corpus, "public", "gbak", "*.log"),
		filepath.Join(corpus, "public", "gbak", "*.txt"),
		filepath.Join(corpus, "seeds", "restore-*.log"),
		testutil.Testdata(t, "fb30", "shop-gbak-*.log"),
		testutil.Testdata(t, "gbak", "*.log"),
		testutil.Testdata(t, "restores", "*.log"))
}

// globAll is the files the patterns match, in their order; fewer than
// least fails the test ("%d what found").
func globAll(t testing.TB, what string, least int, patterns ...string) []string {
	t.Helper()
	var files []string
	for _, g := range patterns {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < least {
		t.Fatalf("%d %s found", len(files), what)
	}
	return files
}

// Streamed, every gbak log of the corpus and of testdata, and their
// variants (lone CR, huge numbers, long names), gives the bytes WriteJSON
// gives for the whole timeline: with the tables and indices spooled in
// memory and in a temporary file.
func TestGbakJSONStreamed(t *testing.T) {
	defer func(n int) { spoolMem = n }(spoolMem)
	for _, path := range gbakLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for v, text := range testutil.Variants(data) {
			name := filepath.Base(path)
			tl, err := analyze.ReadGbakTimeline(bytes.NewReader(text), name)
			if err != nil {
				t.Fatalf("%s #%d: %v", name, v, err)
			}
			var want bytes.Buffer
			if err := WriteJSON(&want, tl); err != nil {
				t.Fatal(err)
			}
			for _, mem := range []int{1 << 20, 64} {
				spoolMem = mem
				var got bytes.Buffer
				sum, err := WriteGbakJSON(&got, bytes.NewReader(text), name, analyze.GbakStream{})
				if err != nil {
					t.Fatalf("%s #%d: %v", name, v, err)
				}
				if got.String() != want.String() {
					t.Fatalf("%s #%d, spool %d: streamed JSON differs from WriteJSON's%s", name, v, mem, firstDifference(want.String(), got.String()))
				}
				if sum.Outcome != tl.Outcome || len(sum.Notices) != len(tl.Notices) || sum.Steps != nil || sum.Tables != nil {
					t.Errorf("%s #%d: the timeline returned: %s, %d notices, %d steps", name, v, sum.Outcome, len(sum.Notices), len(sum.Steps))
				}
			}
		}
	}
}

func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return "\nwant …" + a[lo:min(i+80, len(a))] + "\n got …" + b[lo:min(i+80, len(b))]
}

// An index gbak activates twice, failing the second time after a later
// step: "cannot commit index" marks both builds failed, the first after
// it was spooled. The streamed JSON says so as WriteJSON does.
func TestGbakJSONFailedLater(t *testing.T) {
	log := testutil.GbakIndexFailedLater
	tl, err := analyze.ReadGbakTimeline(strings.NewReader(log), "x.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Indices) != 4 || !tl.Indices[0].Failed || tl.Indices[1].Failed || !tl.Indices[2].Failed || tl.Indices[3].Failed {
		t.Fatalf("indices %+v", tl.Indices)
	}
	var want, got bytes.Buffer
	if err := WriteJSON(&want, tl); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteGbakJSON(&got, strings.NewReader(log), "x.log", analyze.GbakStream{}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("streamed JSON differs%s", firstDifference(want.String(), got.String()))
	}
}

// A file without a single gbak line writes nothing and fails as it did.
func TestGbakJSONNotGbak(t *testing.T) {
	var got bytes.Buffer
	_, err := WriteGbakJSON(&got, strings.NewReader("hello\nworld\n"), "x.txt", analyze.GbakStream{})
	if err == nil || !strings.Contains(err.Error(), "no gbak output found") || got.Len() != 0 {
		t.Fatalf("%q, %v", got.String(), err)
	}
}

// BenchmarkGbakJSON reads, analyses and writes as JSON an 8 MiB restore
// log made of the fb30 sample's data section (internal/bigfile, as
// tools/make-big): what gbak --format json does.
func BenchmarkGbakJSON(b *testing.B) {
	_, data := testutil.BigGbak(b, 8<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tl, err := WriteGbakJSON(io.Discard, bytes.NewReader(data), "big.log", analyze.GbakStream{})
		if err != nil || tl.Outcome != analyze.GbakCompleted {
			b.Fatal(err)
		}
	}
}

// failingReader returns data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// A read error after the first steps ends the document with what was
// read (valid JSON, the steps so far) and is returned; before any gbak
// line nothing is written.
func TestGbakJSONReadError(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	cut := bytes.Index(data, []byte("restoring data for table ORDER_LINE"))
	var got bytes.Buffer
	tl, err := WriteGbakJSON(&got, &failingReader{data[:cut], os.ErrDeadlineExceeded}, "x.log", analyze.GbakStream{})
	if err == nil || !strings.Contains(err.Error(), "i/o timeout") || tl == nil || tl.Outcome != analyze.GbakIncomplete {
		t.Fatalf("%v, %v", tl, err)
	}
	var doc struct {
		Steps   []analyze.GbakStep `json:"steps"`
		Outcome string             `json:"outcome"`
	}
	if err := json.Unmarshal(got.Bytes(), &doc); err != nil || len(doc.Steps) < 10 || doc.Outcome != "incomplete" {
		t.Fatalf("%d steps, %q, %v", len(doc.Steps), doc.Outcome, err)
	}
	got.Reset()
	_, err = WriteGbakJSON(&got, &failingReader{nil, os.ErrDeadlineExceeded}, "x.log", analyze.GbakStream{})
	if err == nil || got.Len() != 0 {
		t.Fatalf("%q, %v", got.String(), err)
	}
}
