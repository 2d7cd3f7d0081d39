package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// A stream that keeps the 5 worst warnings of 4 MiB of the shop sample's
// blocks (3,150 tables) writes the reasons of few of the others: the
// workers leave out those under the published floor. (Those evaluated
// before the first floor, at most the batches in flight, 512 tables,
// have theirs.) What it keeps
// and counts is GstatWith's, as if every reason had been written.
func TestStreamFloorSkipsText(t *testing.T) {
	buf, whole := bigSample(t)

	var got *GstatAnalysis
	tables, fired, textless := 0, 0, 0
	err := StreamGstat(bytes.NewReader(buf), "big", NewThresholds(), GstatOptions{}, GstatStream{
		WarningLimit: 5,
		Table: func(a *GstatAnalysis, _ *TableStats) error {
			tables++
			for _, w := range a.TableWarnings() {
				fired++
				if w.Reason == "" {
					textless++
				}
			}
			return nil
		},
		Run: func(a *GstatAnalysis, _ *parse.GstatReport) error { got = a; return nil },
	})
	if err != nil || got == nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got.Warnings)
	w, _ := json.Marshal(whole.Warnings[:5])
	if !bytes.Equal(g, w) || got.Totals.Warnings != len(whole.Warnings) {
		t.Fatalf("kept %s (%d in all)\nwant %s (%d)", g, got.Totals.Warnings, w, len(whole.Warnings))
	}
	for _, w := range got.Warnings {
		if w.Reason == "" || w.Advice == "" {
			t.Errorf("a kept warning without its text: %+v", w)
		}
	}
	t.Logf("%d tables, %d warnings fired, %d without text", tables, fired, textless)
	if tables != 3150 || fired != len(whole.Warnings) || textless < fired*8/10 {
		t.Errorf("%d tables, %d of %d warnings fired without text; want 3150 tables and at least 80 %% without", tables, textless, fired)
	}
}

// TestStreamCountWarnings: a stream that only counts its warnings gets the
// counts, by severity, of the whole analysis, and its workers write no
// reason or advice (fired warnings without text; header ones excepted).
func TestStreamCountWarnings(t *testing.T) {
	buf, whole := bigSample(t)
	want := map[Severity]int{}
	for _, w := range whole.Warnings {
		want[w.Severity]++
	}

	var got *GstatAnalysis
	fired, withText := 0, 0
	err := StreamGstat(bytes.NewReader(buf), "big", NewThresholds(), GstatOptions{}, GstatStream{
		CountWarnings: true,
		Table: func(a *GstatAnalysis, _ *TableStats) error {
			for _, w := range a.TableWarnings() {
				fired++
				if w.Reason != "" || w.Advice != "" {
					withText++
				}
			}
			return nil
		},
		Run: func(a *GstatAnalysis, _ *parse.GstatReport) error { got = a; return nil },
	})
	if err != nil || got == nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 0 || !maps.Equal(got.WarningsOmitted, want) || got.Totals.Warnings != len(whole.Warnings) {
		t.Errorf("kept %d warnings, counted %v (%d in all); want none kept, %v (%d)", len(got.Warnings), got.WarningsOmitted, got.Totals.Warnings, want, len(whole.Warnings))
	}
	if fired != 4725 || withText != 0 {
		t.Errorf("%d table warnings fired, %d with text; want 4725, none with text", fired, withText)
	}
}

// TestStreamIndexWarningsOnly: a stream that counts its warnings for the
// indices alone gets, table by table, the index warnings the whole
// analysis has, with their severities, and none of the tables'.
func TestStreamIndexWarningsOnly(t *testing.T) {
	buf, whole := bigSample(t)
	type key struct {
		rule, object, table string
		sev                 Severity
	}
	want := map[key]int{}
	tables := 0
	for _, w := range whole.Warnings {
		switch w.Kind {
		case "index":
			want[key{w.Rule, w.Object, w.Table, w.Severity}]++
		case "table":
			tables++
		}
	}
	got := map[key]int{}
	err := StreamGstat(bytes.NewReader(buf), "big", NewThresholds(), GstatOptions{}, GstatStream{
		CountWarnings:     true,
		IndexWarningsOnly: true,
		Table: func(a *GstatAnalysis, _ *TableStats) error {
			for _, w := range a.TableWarnings() {
				if w.Kind != "index" {
					t.Errorf("%s warning %s on %s fired", w.Kind, w.Rule, w.Object)
				}
				got[key{w.Rule, w.Object, w.Table, w.Severity}]++
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 1000 || tables < 1000 || !maps.Equal(got, want) {
		t.Errorf("%d index warnings fired, want %d (of %d, and %d of tables)", len(got), len(want), len(whole.Warnings), tables)
	}
}

// bigSample is the fb30 sample grown to 4 MiB (3,150 tables) and its
// whole analysis.
func bigSample(t *testing.T) ([]byte, *GstatAnalysis) {
	t.Helper()
	_, big := testutil.BigGstat(t, 4<<20)
	reps, err := parse.ReadGstat(bytes.NewReader(big), "big")
	if err != nil || len(reps) != 1 {
		t.Fatal(len(reps), err)
	}
	return big, GstatWith(reps[0], NewThresholds(), GstatOptions{})
}

// TestStreamErrorClosesSpill: a stream that a receiver stops in the
// middle of a run leaves no temporary file of its warnings open (the
// sorter of their keys, written to a file past sunkBudget). Linux only:
// it counts the process's open files.
func TestStreamErrorClosesSpill(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	defer func(b int) { sunkBudget = b }(sunkBudget)
	sunkBudget = 4 << 10
	buf, _ := bigSample(t)
	openFiles := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	before := openFiles()
	stop := errors.New("enough")
	tables := 0
	err := StreamGstat(bytes.NewReader(buf), "big", NewThresholds(), GstatOptions{}, GstatStream{
		CountWarnings: true,
		Table: func(*GstatAnalysis, *TableStats) error {
			if tables++; tables == 2000 {
				return stop
			}
			return nil
		},
	})
	if err != stop {
		t.Fatalf("StreamGstat = %v, want %v", err, stop)
	}
	if after := openFiles(); after != before {
		t.Errorf("%d files open after the stream, %d before", after, before)
	}
}
