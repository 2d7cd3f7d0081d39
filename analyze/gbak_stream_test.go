package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		errs, warns := []string{}, []string{}
		got, gerr := StreamGbakTimeline(bytes.NewReader(data), path, GbakStream{
			Step:    func(s *GbakStep) error { steps = append(steps, *s); return nil },
			Table:   func(tb *GbakTable) error { tables = append(tables, *tb); return nil },
			Index:   func(ix *GbakIndex) error { indices = append(indices, *ix); return nil },
			Error:   func(m string) error { errs = append(errs, m); return nil },
			Warning: func(m string) error { warns = append(warns, m); return nil },
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
		if len(got.Errors)+len(got.Warnings) > 0 {
			t.Errorf("%s: the streamed timeline keeps %d errors and %d warnings", path, len(got.Errors), len(got.Warnings))
		}
		if got.ErrorCount != len(want.Errors) || want.ErrorCount != len(want.Errors) ||
			got.WarningCount != len(want.Warnings) || want.WarningCount != len(want.Warnings) {
			t.Errorf("%s: counted %d and %d errors, %d and %d warnings; want %d, %d", path,
				want.ErrorCount, got.ErrorCount, want.WarningCount, got.WarningCount, len(want.Errors), len(want.Warnings))
		}
		got.Steps, got.Tables, got.Indices, got.Errors, got.Warnings = steps, tables, indices, errs, warns
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

// An error or a warning is handed on once no later line can continue it,
// when the next one of its kind begins or at the end: an indented ERROR
// line continues the last error even after a WARNING (and a warning
// after an error); after a step line an indented one begins anew. The
// handed-on messages are those ReadGbakTimeline keeps.
func TestStreamGbakMessagesInterleaved(t *testing.T) {
	log := strings.Join([]string{
		"gbak:opened file x.fbk",
		"gbak: ERROR:first error",
		"gbak: WARNING:a warning",
		"gbak: ERROR:    continues the first error",
		"gbak: WARNING:    continues the warning",
		"gbak:restoring table T",
		"gbak: WARNING:    a new warning after a step",
		"gbak: ERROR:    a new error: the step ended the first",
		"gbak:cannot commit index IX_A",
		"gbak: ERROR:why IX_A failed",
		"gbak: ERROR:Exiting before completion due to errors",
		"",
	}, "\n")
	want, err := ReadGbakTimeline(strings.NewReader(log), "x.log")
	if err != nil {
		t.Fatal(err)
	}
	wantErrs := []string{"first error; continues the first error", "a new error: the step ended the first",
		"cannot commit index IX_A: why IX_A failed", "Exiting before completion due to errors"}
	wantWarns := []string{"a warning; continues the warning", "a new warning after a step"}
	if !slices.Equal(want.Errors, wantErrs) || !slices.Equal(want.Warnings, wantWarns) {
		t.Fatalf("read whole: errors %q, warnings %q", want.Errors, want.Warnings)
	}
	var errs, warns []string
	var order []string
	got, err := StreamGbakTimeline(strings.NewReader(log), "x.log", GbakStream{
		Error:   func(m string) error { errs = append(errs, m); order = append(order, "E"); return nil },
		Warning: func(m string) error { warns = append(warns, m); order = append(order, "W"); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(errs, wantErrs) || !slices.Equal(warns, wantWarns) || got.ErrorCount != 4 || got.WarningCount != 2 ||
		len(got.Errors)+len(got.Warnings) > 0 || got.Outcome != GbakFailed {
		t.Errorf("streamed: errors %q, warnings %q, counted %d and %d, kept %q %q, outcome %s",
			errs, warns, got.ErrorCount, got.WarningCount, got.Errors, got.Warnings, got.Outcome)
	}
	// The first warning was complete when the second began, three errors
	// when the next one did; the last of each at the end.
	if s := strings.Join(order, ""); s != "WEEEEW" {
		t.Errorf("handed on in the order %s", s)
	}
	// A receiver's error stops the reading and is returned.
	stop := errors.New("stop")
	if tl, err := StreamGbakTimeline(strings.NewReader(log), "x.log", GbakStream{Error: func(string) error { return stop }}); err != stop || tl != nil {
		t.Errorf("a failing Error: %v, %v", tl, err)
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

// A comparison's steps keep no error or warning of their run (the
// comparison shows none): the timeline only counts them, and its outcome
// is the same.
func TestGbakRunStepsDropMessages(t *testing.T) {
	data := bytes.Repeat([]byte("gbak: ERROR:an error\ngbak: WARNING:a warning\n"), 1000)
	steps := &GbakRunSteps{}
	tl, err := StreamGbakTimeline(bytes.NewReader(data), "errors.log", steps.Stream())
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Errors)+len(tl.Warnings) != 0 || tl.ErrorCount != 1000 || tl.WarningCount != 1000 || tl.Outcome != GbakFailed {
		t.Errorf("kept %d errors and %d warnings, counted %d and %d, outcome %s",
			len(tl.Errors), len(tl.Warnings), tl.ErrorCount, tl.WarningCount, tl.Outcome)
	}
}
