package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
)

// progressTick is how often the progress line is redrawn. It is drawn
// from a timer, not from gbak's lines: an index build prints nothing for
// as long as it takes, and the clock must go on.
const progressTick = 250 * time.Millisecond

// progressLine shows a running backup or restore on one rewritten
// terminal line: time elapsed, phase, current step (the table and its
// records, the index being built) and, with an earlier log, the time
// left. The service reports states; the line shows the latest at every
// tick, so no update is lost. Off when stderr is not a terminal.
type progressLine struct {
	w      io.Writer
	action string
	est    *analyze.Estimate
	start  time.Time

	mu    sync.Mutex
	cur   collect.Progress
	have  bool
	shown bool

	stop chan struct{}
	wg   sync.WaitGroup
}

func newProgressLine(w io.Writer, action string, est *analyze.Estimate) *progressLine {
	return startProgressLine(w, action, est, collect.IsTerminal(w), progressTick)
}

func startProgressLine(w io.Writer, action string, est *analyze.Estimate, on bool, tick time.Duration) *progressLine {
	p := &progressLine{w: w, action: action, est: est, start: time.Now(), stop: make(chan struct{})}
	if !on {
		return p
	}
	if est != nil {
		fmt.Fprintf(w, "fbdiag: estimating the time left from %s (%.0fs)\n", printable.String(est.File), est.Total)
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-t.C:
				p.draw(now)
			}
		}
	}()
	return p
}

// show records the state after a line; the ticker draws it.
func (p *progressLine) show(pr collect.Progress) {
	p.mu.Lock()
	p.cur, p.have = pr, true
	p.mu.Unlock()
}

func (p *progressLine) draw(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Names come from the database: escaped, so that none can drive the
	// terminal; the line is cut to 99 columns on a rune.
	s := []rune(printable.String(progressText(p.action, p.cur, p.have, now.Sub(p.start), p.est, now)))
	if len(s) > 99 {
		s = s[:99]
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", string(s))
	p.shown = true
}

// done stops the ticker and clears the line.
func (p *progressLine) done() {
	close(p.stop)
	p.wg.Wait()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// progressText is one state as shown: "  45.2s  restore  indices  OL_ITEM
// (21.0s)  ~3s left".
func progressText(action string, pr collect.Progress, have bool, elapsed time.Duration, est *analyze.Estimate, now time.Time) string {
	s := fmt.Sprintf("%8.1fs  %s", elapsed.Seconds(), action)
	if !have {
		return s + "  starting"
	}
	since := now.Sub(pr.At)
	step := pr.Step
	switch {
	case pr.Phase == collect.PhaseData && pr.Table != "":
		step = pr.Table + ": " + units.Count(pr.Records, "record")
	case pr.Phase == collect.PhaseIndices && pr.Index != "":
		step = "index " + pr.Index
	}
	if since >= 2*time.Second {
		step += fmt.Sprintf(" (%.0fs)", since.Seconds())
	}
	s += "  " + pr.Phase + "  " + step
	if est != nil {
		key := analyze.StepKey(pr.Step, pr.Table, pr.Kind, pr.Occurrence)
		if left, ok := est.Remaining(key, pr.Elapsed.Seconds(), since.Seconds()); ok {
			s += fmt.Sprintf("  ~%.0fs left", left)
		}
	}
	return s
}
