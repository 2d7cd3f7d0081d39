package analyze

import (
	"os"
	"strings"
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
// its database in 0.067 s (0.090 − 0.023 by the time column; the line's
// delta, truncated on its own, reads 0.066) and 667 writes (line 6), not
// "backup version is 10" (line 5); the backup's flush of the .fbk took
// 0.026 s (line 238), not "writing names mapping" (line 237).
func TestGbakLinesPrintedAfterTheWork(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"))
	checks := []struct {
		line          int
		start, sec    float64
		reads, writes int64
	}{
		{5, 0.023, 0, 0, 0},       // backup version is 10: nothing between it and the creation
		{6, 0.023, 0.067, 0, 667}, // created database
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
	// the flush (0.025 s and 3 reads on its own line) and the commit
	// after it (up to the total line: 1 read, TestGbakRunIOAddsUp)
	if st := stepOf(t, tl, 238); st.Kind != parse.GbakFinish || st.Phase != PhaseFinish || !nearMs(st.Start, 2.167) ||
		!nearMs(st.Seconds, 0.027) || !is(st.Reads, 4) {
		t.Errorf("closing file: start %v, %v s, %v reads, phase %s", derefF(st.Start), derefF(st.Seconds), derefI(st.Reads), st.Phase)
	}
	// metadata: 153 steps from 0.033 to 0.074 s by the time column; their
	// deltas, each truncated to the millisecond, add up to 0.007 s
	for _, p := range tl.Phases {
		if p.Name == PhaseMetadata && !nearMs(p.Seconds, 0.041) || p.Name == PhaseFinish && !nearMs(p.Seconds, 0.027) {
			t.Errorf("phase %s: %v s", p.Name, derefF(p.Seconds))
		}
	}
}

// The step the total line closes gets what was read and written after
// the last line before it: the total line's counters are the run's, so
// that is the total minus every delta. The backup's "closing file,
// committing, and finishing" read 3 pages on its own line (the flush)
// and 1 after it (the commit): 6752 − 6751. "readied database" is
// printed after the attachment, whose 41 reads are on its line. The
// steps and the phases then add up to the run's Page reads and writes;
// before, the closing step had none (null) and the attachment's were in
// no step (6707 of 6752 reads).
func TestGbakRunIOAddsUp(t *testing.T) {
	type stepIO struct {
		line          int
		sec           float64
		reads, writes int64
	}
	cases := []struct {
		path          []string
		reads, writes int64
		steps         []stepIO
	}{
		{[]string{"fb30", "shop-gbak-backup-v-st.log"}, 6752, 152, []stepIO{
			{2, 0.027, 41, 0},  // readied database: the attachment
			{3, 0.001, 0, 0},   // creating file: 0.027 to 0.028 (delta 0.000)
			{237, 0, 0, 0},     // writing names mapping
			{238, 0.027, 4, 0}, // closing file: 3 on its line, 1 after (the commit)
		}},
		{[]string{"bench", "backup-w1-after-runs.log"}, 33023, 19784, []stepIO{
			{2, 0.004, 59, 0},
			{700, 0.076, 4, 0}, // 3 on its line, 1 after
		}},
		{[]string{"fb30", "shop-gbak-restore-v-st.log"}, 10944, 8373, []stepIO{
			{6, 0.067, 0, 667}, // created database
			{7, 0.004, 0, 2},   // started transaction
			{223, 0, 0, 0},     // finishing, closing, and going home: nothing after it
		}},
	}
	for _, c := range cases {
		tl := timelineOf(t, testutil.Testdata(t, c.path...))
		name := c.path[1]
		if !is(tl.TotalReads, c.reads) || !is(tl.TotalWrites, c.writes) {
			t.Fatalf("%s: totals %v %v", name, derefI(tl.TotalReads), derefI(tl.TotalWrites))
		}
		for _, w := range c.steps {
			st := stepOf(t, tl, w.line)
			if !nearMs(st.Seconds, w.sec) || !is(st.Reads, w.reads) || !is(st.Writes, w.writes) {
				t.Errorf("%s line %d %q: %v s %v reads %v writes, want %+v", name, w.line, st.Message,
					derefF(st.Seconds), derefI(st.Reads), derefI(st.Writes), w)
			}
		}
		var sr, sw, pr, pw int64
		var ss, ps float64
		for _, st := range tl.Steps {
			if st.Kind == parse.GbakOnlineFlags {
				continue // the restore's line 225, after the total line: nothing measures it
			}
			if st.Seconds != nil {
				ss += *st.Seconds
			}
			if st.Reads == nil || st.Writes == nil {
				t.Errorf("%s line %d %q: reads %v writes %v", name, st.Line, st.Message, derefI(st.Reads), derefI(st.Writes))
				continue
			}
			sr += *st.Reads
			sw += *st.Writes
		}
		for _, p := range tl.Phases {
			if p.Reads == nil || p.Writes == nil {
				t.Errorf("%s phase %s: reads %v writes %v", name, p.Name, p.Reads, p.Writes)
				continue
			}
			pr += *p.Reads
			pw += *p.Writes
			if p.Seconds != nil {
				ps += *p.Seconds
			}
		}
		// and their times to the run's: the time column telescopes, where
		// each truncated delta loses up to 1 ms (the backup's 164 steps:
		// 2.158 s by their deltas)
		if !nearMs(tl.TotalSeconds, ss) || !nearMs(tl.TotalSeconds, ps) {
			t.Errorf("%s: steps add up to %.3f s, phases %.3f s; the run %v s", name, ss, ps, derefF(tl.TotalSeconds))
		}
		if sr != c.reads || sw != c.writes || pr != c.reads || pw != c.writes {
			t.Errorf("%s: steps add up to %d reads %d writes, phases %d %d; the run %d %d", name, sr, sw, pr, pw, c.reads, c.writes)
		}
	}
}

// When the deltas do not add up to the total (a log that starts after
// gbak's first line), what came after the closing line is not known:
// the step keeps its own line's 3 reads and 0 writes.
func TestGbakClosingStepOfAnExcerpt(t *testing.T) {
	b, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	text := lines[0] + strings.Join(lines[235:], "") // the header, then "writing SQL roles" (line 236) to the end
	tl, err := ReadGbakTimeline(strings.NewReader(text), "tail.log")
	if err != nil {
		t.Fatal(err)
	}
	st := stepOf(t, tl, 4) // closing file (the excerpt's line 4)
	if st.Kind != parse.GbakFinish || !nearMs(st.Seconds, 0.027) || !is(st.Reads, 3) || !is(st.Writes, 0) {
		t.Errorf("closing file %q: %v s %v reads %v writes, want 0.027 s 3 0", st.Message, derefF(st.Seconds), derefI(st.Reads), derefI(st.Writes))
	}
}

// Public 01 (fbsvcmgr backup, the test author's ". . ." for the lines
// between) ends with the closing line at 0.847, delta 0.109, 2 reads, 0
// writes. The work it reports began at the line before it in gbak's
// output, 0.738 (time − delta), not at the last line kept (0.024, line
// 7), and its own line, whole, is its cost: it read start 0.024 and cost
// unknown, and the finish phase had no time.
func TestGbakLineAfterTheWorkAfterAGap(t *testing.T) {
	tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", "01_fb3_backup_stats_tdrw_fbsvcmgr.log"))
	st := stepOf(t, tl, 9)
	if st.Kind != parse.GbakFinish || !nearMs(st.Start, 0.738) || !nearMs(st.Seconds, 0.109) || !is(st.Reads, 2) || !is(st.Writes, 0) {
		t.Errorf("closing line: start %v, %v s, %v reads, %v writes", derefF(st.Start), derefF(st.Seconds), derefI(st.Reads), derefI(st.Writes))
	}
	// The step before the gap stays unknown: its line's interval is cut.
	if st := stepOf(t, tl, 7); st.Seconds != nil || st.Reads != nil {
		t.Errorf("domain RDB$11: %v s, %v reads", derefF(st.Seconds), derefI(st.Reads))
	}
	fin := tl.Phases[len(tl.Phases)-1]
	if fin.Name != PhaseFinish || fin.Unknown != 0 || !nearMs(fin.Seconds, 0.109) || !is(fin.Reads, 2) {
		t.Errorf("finish phase %+v", fin)
	}
}
