package analyze

import (
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func stepOf(t *testing.T, tl *Timeline, line int) GbakStep {
	t.Helper()
	for _, st := range tl.Steps {
		if st.Line == line {
			return st
		}
	}
	t.Fatalf("no step at line %d", line)
	return GbakStep{}
}

// gbak prints "created database" and "started transaction" (restore) and
// "closing file, committing, and finishing" (backup) after the work:
// their own line's time and I/O are theirs. The 3.0.11 restore created
// its database in 0.066 s and 667 writes (line 6), not "backup version
// is 10" (line 5); the backup's flush of the .fbk took 0.025 s (line
// 238), not "writing names mapping" (line 237).
func TestGbakLinesPrintedAfterTheWork(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	checks := []struct {
		line          int
		start, sec    float64
		reads, writes int64
	}{
		{5, 0.023, 0, 0, 0},       // backup version is 10: nothing between it and the creation
		{6, 0.023, 0.066, 0, 667}, // created database
		{7, 0.090, 0.004, 0, 2},   // started transaction, then the database's attributes up to line 8
	}
	for _, c := range checks {
		st := stepOf(t, tl, c.line)
		if !nearMs(st.Start, c.start) || !nearMs(st.Seconds, c.sec) || !is(st.Reads, c.reads) || !is(st.Writes, c.writes) || st.Phase != PhaseOpen {
			t.Errorf("line %d %q: start %v, %v s, %v reads, %v writes, %s; want %+v", c.line, st.Message,
				derefF(st.Start), derefF(st.Seconds), derefI(st.Reads), derefI(st.Writes), st.Phase, c)
		}
	}

	tl = timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if st := stepOf(t, tl, 237); !nearMs(st.Seconds, 0) || !is(st.Reads, 0) {
		t.Errorf("writing names mapping: %v s %v reads, want 0 s 0 reads", derefF(st.Seconds), derefI(st.Reads))
	}
	// the flush (0.025 s on its own line) and the commit after it (up to
	// the total line, whose counters are absolute: reads unknown)
	if st := stepOf(t, tl, 238); st.Kind != parse.GbakFinish || st.Phase != PhaseFinish || !nearMs(st.Start, 2.167) ||
		!nearMs(st.Seconds, 0.027) || st.Reads != nil {
		t.Errorf("closing file: start %v, %v s, %v reads, phase %s", derefF(st.Start), derefF(st.Seconds), derefI(st.Reads), st.Phase)
	}
	for _, p := range tl.Phases {
		if p.Name == PhaseMetadata && !nearMs(p.Seconds, 0.007) || p.Name == PhaseFinish && !nearMs(p.Seconds, 0.027) {
			t.Errorf("phase %s: %v s", p.Name, derefF(p.Seconds))
		}
	}
}
