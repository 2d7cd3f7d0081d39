package view

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/bigfile"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// keptView is the gbak view of a log streamed through a GbakKeeper.
func keptView(t *testing.T, data []byte, name string, top, steps, list int) *Doc {
	t.Helper()
	k := NewGbakKeeper(steps, list)
	tl, err := analyze.StreamGbakTimeline(bytes.NewReader(data), name, k.Stream())
	if err != nil {
		t.Fatal(err)
	}
	return Gbak(tl, GbakOptions{Top: top, Kept: k.Kept()})
}

// The view of a streamed log, keeping only what it shows, writes what the
// view of the whole timeline writes: text and markdown for several --top
// and with --all, every CSV table keeping its own rows, on every gbak log
// of testdata and the corpus and on a restore log of 96 tables and
// thousands of steps of tied costs (internal/bigfile). It has no chart
// unless the keeper gathered its input (WithChart), the same as the
// whole timeline's.
func TestGbakKeeperSameView(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(t), "public", "gbak", "*"))
	for _, g := range []string{"fb30/shop-gbak-*.log", "gbak/*.log", "restores/*.log", "seeds/restore-*.log"} {
		m, _ := filepath.Glob(testutil.Testdata(t, g))
		files = append(files, m...)
	}
	inputs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	var big bytes.Buffer
	src := inputs["shop-gbak-restore-v-st.log"]
	n, err := bigfile.GbakRestore(&big, src, 300<<10)
	if err != nil || n < 90 {
		t.Fatal(n, err)
	}
	inputs["big.log"] = big.Bytes()
	compared := 0
	for name, data := range inputs {
		tl, err := analyze.ReadGbakTimeline(bytes.NewReader(data), name)
		if err != nil {
			continue
		}
		compared++
		for _, top := range []int{1, 3, GbakTop, 50} {
			whole := Gbak(tl, GbakOptions{Top: top})
			kept := keptView(t, data, name, top, top, GbakListTop)
			if len(kept.Charts) != 0 {
				t.Errorf("%s: the kept view has %d charts", name, len(kept.Charts))
			}
			for _, f := range []Format{Text, Markdown} {
				opt := Options{MoreHint: " (--all shows them)"}
				same(t, fmt.Sprintf("%s %s --top %d", name, f, top), write(t, f, opt, kept), write(t, f, opt, whole))
			}
		}
		k := NewGbakKeeper(0, 0).WithChart()
		stl, err := analyze.StreamGbakTimeline(bytes.NewReader(data), name, k.Stream())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := k.Kept().chart.finish(stl), GbakTimelineChart(tl, GbakChartSteps); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: chart input\n%+v\nwant\n%+v", name, got, want)
		}
		whole := Gbak(tl, GbakOptions{})
		if d := Gbak(stl, GbakOptions{Kept: k.Kept()}); len(d.Charts) != len(whole.Charts) {
			t.Errorf("%s: %d charts, want %d", name, len(d.Charts), len(whole.Charts))
		}
		all := keptView(t, data, name, 0, -1, -1)
		for _, f := range []Format{Text, Markdown} {
			same(t, fmt.Sprintf("%s %s --all", name, f), write(t, f, Options{All: true}, all), write(t, f, Options{All: true}, whole))
		}
		for _, c := range []struct {
			table       string
			steps, list int
		}{{"steps", -1, 0}, {"tables", 0, -1}, {"indices", 0, -1}, {"phases", 0, 0}, {"summary", 0, 0}, {"findings", 0, 0}} {
			opt := Options{Table: c.table}
			var want bytes.Buffer
			werr := Write(&want, CSV, opt, whole)
			var got bytes.Buffer
			gerr := Write(&got, CSV, opt, keptView(t, data, name, 0, c.steps, c.list))
			if (werr == nil) != (gerr == nil) || got.String() != want.String() {
				t.Errorf("%s: CSV --table %s differs (%v, %v)", name, c.table, gerr, werr)
			}
		}
	}
	if compared < 30 {
		t.Errorf("%d logs compared", compared)
	}
}

// The command's CSV of every step sorts them on disk (StepsOnDisk): the
// bytes of the whole timeline's CSV, no step held by the keeper, on the
// restore logs of testdata and a big one, with the sorter's memory made
// small enough that the steps go through its files (15 of the big
// log's 982 held at once).
func TestGbakStepsOnDisk(t *testing.T) {
	defer func(b int) { stepRowBudget = b }(stepRowBudget)
	stepRowBudget = 2 << 10
	files, _ := filepath.Glob(testutil.Testdata(t, "restores/*.log"))
	src, big := testutil.BigGbak(t, 300<<10)
	inputs := map[string][]byte{"big.log": big, "shop-gbak-restore-v-st.log": src}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	steps := 0
	for name, data := range inputs {
		tl, err := analyze.ReadGbakTimeline(bytes.NewReader(data), name)
		if err != nil {
			t.Fatal(name, err)
		}
		k := NewGbakKeeper(-1, 0).StepsOnDisk()
		stl, err := analyze.StreamGbakTimeline(bytes.NewReader(data), name, k.Stream())
		if err != nil {
			t.Fatal(name, err)
		}
		kept := k.Kept()
		if len(kept.Steps) != 0 || kept.StepCount != len(tl.Steps) {
			t.Errorf("%s: %d steps held, %d counted, want 0 and %d", name, len(kept.Steps), kept.StepCount, len(tl.Steps))
		}
		opt := Options{Table: "steps"}
		want := write(t, CSV, opt, Gbak(tl, GbakOptions{}))
		got := write(t, CSV, opt, Gbak(stl, GbakOptions{Kept: kept}))
		same(t, name+" CSV steps on disk", got, want)
		if err := kept.Err(); err != nil {
			t.Error(name, err)
		}
		if held := kept.disk.rows.MaxHeld(); len(tl.Steps) > 500 && held > 50 {
			t.Errorf("%s: %d of %d steps held at once", name, held, len(tl.Steps))
		}
		steps += len(tl.Steps)
	}
	if len(inputs) < 5 || steps < 2000 {
		t.Errorf("%d logs, %d steps", len(inputs), steps)
	}
}

// An index gbak builds twice and whose commit fails after a later step:
// the keeper marks both builds failed, as the whole timeline does.
func TestGbakKeeperFailedLater(t *testing.T) {
	log := testutil.GbakIndexFailedLater
	for _, list := range []int{-1, 2, GbakListTop} {
		d := keptView(t, []byte(log), "x.log", 10, 10, list)
		got := write(t, CSV, Options{Table: "indices"}, d)
		want := "index,seconds,reads,writes,state,failed\nIX_A,0.01,5,1,failed,true\nIX_A,0.01,5,1,failed,true\nIX_A,0.01,5,1,ok,false\nIX_B,0.01,5,1,ok,false\n"
		if list == 2 {
			want = "index,seconds,reads,writes,state,failed\nIX_A,0.01,5,1,failed,true\nIX_A,0.01,5,1,failed,true\n"
		}
		if strings.ReplaceAll(got, "\r\n", "\n") != want {
			t.Errorf("list %d:\n%s\nwant\n%s", list, got, want)
		}
	}
}

// A keeper bounded to n errors and warnings (WithMessages) keeps the
// first n of each, the timeline none, and the view shows the first
// Doc.FindingsLimit and counts the rest by severity: the error lines of
// Firebird issue 8263's failed restore, repeated 50 times (150 errors),
// with the warning of issue 8140's log after them.
func TestGbakKeeperMessages(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gbak")
	errLog, err := os.ReadFile(filepath.Join(dir, "15_fb5_classic_parallel_restore_error_issue8263.log"))
	if err != nil {
		t.Fatal(err)
	}
	data := append(bytes.Repeat(errLog, 50), "gbak: WARNING:Wrong parallel workers value 4, valid range are from 1 to 1\n"...)
	k := NewGbakKeeper(10, GbakListTop).WithMessages(100)
	tl, err := analyze.StreamGbakTimeline(bytes.NewReader(data), "restore-errors.log", k.Stream())
	if err != nil {
		t.Fatal(err)
	}
	kept := k.Kept()
	if tl.ErrorCount != 150 || tl.WarningCount != 1 || len(tl.Errors)+len(tl.Warnings) != 0 ||
		len(kept.Errors) != 100 || len(kept.Warnings) != 1 || tl.Outcome != analyze.GbakFailed {
		t.Fatalf("counted %d errors and %d warnings, the timeline kept %d and %d, the keeper %d and %d; outcome %s",
			tl.ErrorCount, tl.WarningCount, len(tl.Errors), len(tl.Warnings), len(kept.Errors), len(kept.Warnings), tl.Outcome)
	}
	d := Gbak(tl, GbakOptions{Kept: kept})
	if len(d.Findings) != 101 || d.FindingsLimit != 100 || !reflect.DeepEqual(d.FindingsOmitted, []SeverityCount{{"critical", 50}}) {
		t.Fatalf("%d findings, limit %d, omitted %+v", len(d.Findings), d.FindingsLimit, d.FindingsOmitted)
	}
	var b bytes.Buffer
	if err := Write(&b, Text, Options{MoreHint: " (--all shows them)"}, d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Errors and warnings (151)\n",
		"\n100 of 151 errors and warnings shown (--all shows them); not shown: 50 critical, 1 warning\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text without %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "CRITICAL gbak-error"); n != 100 {
		t.Errorf("%d errors shown, want 100", n)
	}
	// Unbounded (--all), the keeper keeps every one, as the whole
	// timeline does.
	all := keptView(t, data, "restore-errors.log", 10, -1, -1)
	whole, err := analyze.ReadGbakTimeline(bytes.NewReader(data), "restore-errors.log")
	if err != nil {
		t.Fatal(err)
	}
	if w := Gbak(whole, GbakOptions{}); !reflect.DeepEqual(all.Findings, w.Findings) || len(w.Findings) != 151 || all.FindingsOmitted != nil {
		t.Errorf("kept whole: %d findings (omitted %+v), the whole timeline's %d", len(all.Findings), all.FindingsOmitted, len(w.Findings))
	}
}
