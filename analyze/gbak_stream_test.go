package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// StreamGbakTimeline hands on every step, table and index
// ReadGbakTimeline keeps, in the same order, and returns the same
// figures: on every gbak log of testdata and the corpus.
func TestStreamGbakTimelineSame(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "public", "gbak", "*"))
	for _, g := range []string{"fb30/shop-gbak-*.log", "gbak/*.log", "restores/*.log", "seeds/restore-*.log"} {
		m, _ := filepath.Glob(testutil.Testdata(t, g))
		files = append(files, m...)
	}
	n := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := ReadGbakTimeline(bytes.NewReader(data), path)
		var steps []GbakStep
		var tables []GbakTable
		var indices []GbakIndex
		got, gerr := StreamGbakTimeline(bytes.NewReader(data), path, GbakStream{
			Step:  func(s *GbakStep) error { steps = append(steps, *s); return nil },
			Table: func(tb *GbakTable) error { tables = append(tables, *tb); return nil },
			Index: func(ix *GbakIndex) error { indices = append(indices, *ix); return nil },
		})
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: errors %v and %v", path, werr, gerr)
		}
		if werr != nil {
			continue
		}
		n++
		if got.Steps != nil || got.Tables != nil || got.Indices != nil {
			t.Errorf("%s: the streamed timeline keeps %d steps", path, len(got.Steps))
		}
		got.Steps, got.Tables, got.Indices = steps, tables, indices
		if got.Steps == nil {
			got.Steps = []GbakStep{}
		}
		if got.Tables == nil {
			got.Tables = []GbakTable{}
		}
		if got.Indices == nil {
			got.Indices = []GbakIndex{}
		}
		if a, b := jsonOf(t, want), jsonOf(t, got); a != b {
			t.Errorf("%s: streamed timeline differs", path)
		}
	}
	if n < 30 {
		t.Errorf("%d logs compared", n)
	}
}

// A receiver's error stops the reading and is returned.
func TestStreamGbakTimelineStops(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	n := 0
	tl, err := StreamGbakTimeline(bytes.NewReader(data), "x", GbakStream{Step: func(*GbakStep) error {
		if n++; n == 3 {
			return os.ErrClosed
		}
		return nil
	}})
	if err != os.ErrClosed || tl != nil || n != 3 {
		t.Errorf("%v, %v after %d steps", tl, err, n)
	}
}

// benchGbakInput is an 8 MiB restore log made of the fb30 sample's data
// section (internal/bigfile, as tools/make-big): 23,142 steps.
func benchGbakInput(b *testing.B) []byte {
	_, big := testutil.BigGbak(b, 8<<20)
	return big
}

// BenchmarkStreamGbak reads and analyses a restore log step by step
// (what gbak --format json does before writing each step); steps/op is
// the number handed on.
func BenchmarkStreamGbak(b *testing.B) {
	data := benchGbakInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = 0
		tl, err := StreamGbakTimeline(bytes.NewReader(data), "big", GbakStream{
			Step: func(*GbakStep) error { n++; return nil },
		})
		if err != nil || tl.Outcome != GbakCompleted || n == 0 {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(n), "steps/op")
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
