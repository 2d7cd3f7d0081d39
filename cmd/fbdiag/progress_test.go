package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// lockedBuffer is a bytes.Buffer the ticker goroutine may write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The line is drawn from a timer: while an index builds and gbak prints
// nothing, the clock and the time on the step go on; a state that came
// right after another is not dropped.
func TestProgressLineTicks(t *testing.T) {
	var buf lockedBuffer
	p := startProgressLine(&buf, "restore", nil, true, 20*time.Millisecond)
	now := time.Now()
	p.show(collect.Progress{Phase: collect.PhaseData, Table: "WAREHOUSE", Records: 10, Step: "10 records restored", At: now})
	p.show(collect.Progress{Phase: collect.PhaseIndices, Index: "RDB$FOREIGN12", Step: "activating and creating deferred index RDB$FOREIGN12",
		Kind: parse.GbakActivateIndex, At: now})
	time.Sleep(150 * time.Millisecond)
	p.done()
	draws := strings.Split(buf.String(), "\r\x1b[K")
	if len(draws) < 4 {
		t.Fatalf("%d draws in 150 ms at a 20 ms tick: %q", len(draws), buf.String())
	}
	last := draws[len(draws)-2] // the final one is the clearing
	if !strings.Contains(last, "restore  indices  index RDB$FOREIGN12") || strings.Contains(buf.String(), "WAREHOUSE") {
		t.Errorf("last draw %q (all: %q)", last, buf.String())
	}
	if draws[1] == last {
		t.Errorf("the clock did not move: %q", draws)
	}
	// A table name from the database cannot drive the terminal.
	buf = lockedBuffer{}
	p = startProgressLine(&buf, "backup", nil, true, 10*time.Millisecond)
	p.show(collect.Progress{Phase: collect.PhaseData, Table: "EVIL\x1b]0;owned\x07", Records: 1, At: time.Now()})
	time.Sleep(50 * time.Millisecond)
	p.done()
	if out := buf.String(); !strings.Contains(out, `EVIL\x1b]0;owned\x07: 1 record`+"\r") || strings.Contains(out, "\x07") {
		t.Errorf("raw control characters on the terminal: %q", out)
	}
}

func TestProgressText(t *testing.T) {
	b := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	est, ok := analyze.NewEstimate(strings.NewReader(string(b)), "shop-restore.log")
	if !ok {
		t.Fatal("no estimate from the shop restore")
	}
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		p       collect.Progress
		elapsed time.Duration
		now     time.Time
		est     *analyze.Estimate
		want    string
	}{
		{collect.Progress{}, 0, at, nil, "     0.0s  restore  starting"},
		{collect.Progress{Phase: collect.PhaseData, Table: "ORDER_LINE", Records: 10000, Step: "10000 records restored",
			Kind: parse.GbakRecords, Elapsed: 4424 * time.Millisecond, At: at}, 4500 * time.Millisecond, at, est,
			"     4.5s  restore  data  ORDER_LINE: 10000 records  ~31s left"},
		// 21 s into one index build, as slow as the earlier run at that
		// point: its rest, 0.458 s, is long over.
		{collect.Progress{Phase: collect.PhaseIndices, Index: "OL_ITEM", Step: "activating and creating deferred index OL_ITEM",
			Kind: parse.GbakActivateIndex, Elapsed: 34712 * time.Millisecond, At: at}, 55700 * time.Millisecond, at.Add(21 * time.Second), est,
			"    55.7s  restore  indices  index OL_ITEM (21s)  ~0s left"},
		{collect.Progress{Phase: collect.PhaseMetadata, Step: "restoring table NEW_TABLE", Kind: parse.GbakMetadata, At: at},
			time.Second, at, est, "     1.0s  restore  metadata  restoring table NEW_TABLE"},
	} {
		got := progressText("restore", c.p, c.p.Step != "", c.elapsed, c.est, c.now)
		if got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
