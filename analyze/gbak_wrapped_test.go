package analyze

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// A wrapped counter (Firebird #8027): gbak 3.0.11 printed line 2 of the
// public sample with reads 18446744073709550696 (−920) and writes −1,
// and line 3 the jump back (920, 1), measured from the bad value. The
// two lines fall on two steps, which read −920 and +920 pages: neither
// is the step's. Their sum, 0, is the metadata phase's.
func TestGbakWrappedCounterSplitOverTwoSteps(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "public", "gbak", "08_broken_stats_wraparound_issue8027.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stream := range []bool{false, true} {
		var steps []GbakStep
		var tl *Timeline
		if stream {
			tl, err = StreamGbakTimeline(bytes.NewReader(data), "08.log", GbakStream{Step: func(st *GbakStep) error {
				steps = append(steps, *st)
				return nil
			}})
		} else {
			tl, err = ReadGbakTimeline(bytes.NewReader(data), "08.log")
			if tl != nil {
				steps = tl.Steps
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != 3 {
			t.Fatalf("stream %v: %d steps; want 3", stream, len(steps))
		}
		for i, st := range steps[:2] {
			if st.Reads != nil || st.Writes != nil || !st.Wrapped {
				t.Errorf("stream %v: step %d (line %d) reads %v writes %v wrapped %v; want unknown (nil, nil, wrapped)",
					stream, i, st.Line, derefI(st.Reads), derefI(st.Writes), st.Wrapped)
			}
			if st.Seconds == nil || *st.Seconds != 0 {
				t.Errorf("stream %v: step %d seconds %v; want 0 (the time is not wrapped)", stream, i, derefF(st.Seconds))
			}
		}
		if len(tl.Phases) != 1 || tl.Phases[0].Reads == nil || *tl.Phases[0].Reads != 0 ||
			tl.Phases[0].Writes == nil || *tl.Phases[0].Writes != 0 || tl.Phases[0].Wrapped {
			t.Errorf("stream %v: phases %+v; want metadata with the pair's sum, 0 reads and 0 writes", stream, tl.Phases)
		}
		n := 0
		for _, nt := range tl.Notices {
			if strings.Contains(nt.Msg, "#8027") {
				n++
			}
		}
		if n != 2 {
			t.Errorf("stream %v: %d notices of #8027; want 2 (reads and writes of line 2): %v", stream, n, tl.Notices)
		}
	}
}

// In the 3.0.11 shop backup the three wrapped lines are progress lines
// of STOCK, ORDER_LINE and CUSTOMER, and the jump comes on the next
// step's line, which ends the same interval: the tables keep their
// figures (STOCK 465 reads) and nothing is unknown.
func TestGbakWrappedCounterWithinOneStep(t *testing.T) {
	tl, err := ReadGbakTimeline(bytes.NewReader(testutil.ReadTestdata(t, "fb30", "shop-gbak-backup-v-st.log")), "b.log")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{"STOCK": {465, 0}, "ORDER_LINE": {4557, 151}, "CUSTOMER": {398, 0}}
	for _, tb := range tl.Tables {
		w, ok := want[tb.Name]
		if !ok {
			continue
		}
		if tb.Wrapped || tb.Reads == nil || tb.Writes == nil || *tb.Reads != w[0] || *tb.Writes != w[1] {
			t.Errorf("%s reads %v writes %v wrapped %v; want %d, %d", tb.Name, derefI(tb.Reads), derefI(tb.Writes), tb.Wrapped, w[0], w[1])
		}
	}
	for _, st := range tl.Steps {
		if st.Wrapped {
			t.Errorf("line %d (%s) wrapped; want none", st.Line, st.Label())
		}
	}
	for _, p := range tl.Phases {
		if p.Name == PhaseData && (p.Reads == nil || *p.Reads != 6583 || p.Writes == nil || *p.Writes != 151) {
			t.Errorf("data phase reads %v writes %v; want 6583, 151", derefI(p.Reads), derefI(p.Writes))
		}
	}
	if tl.TotalReads == nil || *tl.TotalReads != 6752 {
		t.Errorf("total reads %v; want 6752 (the total line)", derefI(tl.TotalReads))
	}
}

// The pair across two phases: the wrapped line opens the data (it ends
// the metadata step before) and the jump ends the data step. Neither
// phase knows its share of the sum; the run's total, the sum of every
// delta, is right.
func TestGbakWrappedCounterAcrossPhases(t *testing.T) {
	log := "gbak: time     delta  reads  writes \n" +
		"gbak:    0.010  0.010      5      1 readied database /db/x.fdb for backup\n" +
		"gbak:    0.020  0.010      7      0 creating file /db/x.fbk\n" +
		"gbak:    0.030  0.010      3      0 starting transaction\n" +
		"gbak:    0.040  0.010      4      0 writing domain D1\n" +
		"gbak:    0.050  0.010 18446744073709551516 18446744073709551615     writing data for table T\n" +
		"gbak:    0.060  0.010    130      2 10 records written\n" +
		"gbak:    0.070  0.010      6      0     writing index I\n" +
		"gbak:    0.080  0.010      0      0 closing file, committing, and finishing. 1024 bytes written\n"
	tl, err := ReadGbakTimeline(strings.NewReader(log), "x.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range tl.Phases {
		switch p.Name {
		case PhaseMetadata, PhaseData:
			if p.Reads != nil || p.Writes != nil || !p.Wrapped {
				t.Errorf("%s phase reads %v writes %v wrapped %v; want unknown", p.Name, derefI(p.Reads), derefI(p.Writes), p.Wrapped)
			}
		}
	}
	// 5+7+3+4−100+130+6+0 reads, 1+0+0+0−1+2+0+0 writes
	if tl.TotalReads == nil || *tl.TotalReads != 55 || tl.TotalWrites == nil || *tl.TotalWrites != 2 {
		t.Errorf("totals %v reads, %v writes; want 55 and 2", derefI(tl.TotalReads), derefI(tl.TotalWrites))
	}
	if len(tl.Tables) != 1 || tl.Tables[0].Reads != nil || !tl.Tables[0].Wrapped {
		t.Errorf("tables %+v; want T with unknown reads", tl.Tables)
	}
}
