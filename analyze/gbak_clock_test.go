package analyze

import (
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Finding 5: two remote restores, one run a side. gbak's clock ticks in
// whole milliseconds, so WAREHOUSE's data (0.001 s, then 0.000 s) and
// "started transaction" (0.001 s, then 0.009 s: ×9, all under 10 ms)
// read "~", not "faster" at −100 % or "slower" at +800 %; the database
// creation (0.089 s against 0.104 s by the time column) keeps its
// direction.
func TestGbakCompareWithinClock(t *testing.T) {
	var runs []GbakRun
	for _, name := range []string{"run1", "run2"} {
		runs = append(runs, GbakRun{Label: name, Timeline: timelineOf(t, testutil.Testdata(t, "restores", "restore-remote-"+name+".log"))})
	}
	c := CompareTimelines(runs...)
	for _, w := range []struct {
		key, word, direction, verdict string
		clock                         bool
	}{
		{"data|table|WAREHOUSE", "~", "same", "~ (within gbak's 1 ms clock, n=1+1, no test)", true},
		{"start_transaction||", "~", "same", "~ (within gbak's 1 ms clock, n=1+1, no test)", true},
		{"commit_metadata||", "~", "same", "~ (within gbak's 1 ms clock, n=1+1, no test)", true},
		{"create_database|database", "slower", "slower", "+16.85% (n=1+1, no test)", false},
	} {
		s := stepByKey(t, c, w.key)
		if s.Word() != w.word || s.Direction != w.direction || s.Verdict != w.verdict || s.WithinClock != w.clock || s.Significant {
			t.Errorf("%s: word %q direction %q verdict %q clock %v; want %+v", w.key, s.Word(), s.Direction, s.Verdict, s.WithinClock, w)
		}
	}
	// the ratio stays a figure of the medians
	if s := stepByKey(t, c, "data|table|WAREHOUSE"); s.Ratio == nil || *s.Ratio != 0 || !nearMs(s.Difference, -0.001) {
		t.Errorf("WAREHOUSE ratio %v difference %v", derefF(s.Ratio), derefF(s.Difference))
	}
	// With five runs a side the test decides: WAREHOUSE's data has a p.
	if s := stepByKey(t, remoteVsService(t), "data|table|WAREHOUSE"); s.WithinClock || s.P == nil {
		t.Errorf("5+5 runs: clock %v p %v", s.WithinClock, derefF(s.P))
	}
}
