package analyze

import "fmt"

// withinClock says whether two medians of a step, one run a side (no
// test), differ by no more than gbak's clock can tell. gbak's -st time
// column is truncated to whole milliseconds (BurpGlobals::print_stats,
// burp.cpp), so a step's time, the difference of two readings, is within
// 1 ms of the truth either way: two readings of the same work can differ
// by 2 ms
// (gbak-compare.resolution), and a reading under 10 ms
// (gbak-compare.min_seconds) is known to no better than one tick in ten.
// 0.001 s against 0.008 s is ×8 of the clock, not of the step. With
// several runs a side the test decides, as for every other step.
func withinClock(base, other float64) bool {
	th := NewThresholds()
	d := other - base
	if d < 0 {
		d = -d
	}
	small := th.Get("gbak-compare", "min_seconds")
	return d <= th.Get("gbak-compare", "resolution")+1e-9 || base < small && other < small
}

// sameByClock makes v read "same", "~" in one word, for a difference
// within gbak's clock (withinClock); the ratio and the change stay, as
// figures of the medians.
func (v *GbakVersus) sameByClock(nb, no int) {
	v.WithinClock = true
	v.Direction = "same"
	v.Significant = false
	v.Verdict = fmt.Sprintf("~ (within gbak's 1 ms clock, n=%d+%d, no test)", nb, no)
}

// ClockNote is the footnote of a comparison with a step read "~" by
// withinClock or allUnderClock.
const ClockNote = "~ within gbak's clock (whole milliseconds): with one run a side, the step's times differ by 2 ms or less, " +
	"or are all under 10 ms; with more runs a side, every run took under 10 ms, and the step is not tested."
