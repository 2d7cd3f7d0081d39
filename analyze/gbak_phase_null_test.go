package analyze

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestGbakPhaseUnknownSecondsNull: a phase whose every step has an
// unknown cost has seconds null (JSON null), not 0. The first line of a
// seed restore log alone is such a log (its one step has no following
// line); the whole excerpt sums the four known steps.
func TestGbakPhaseUnknownSecondsNull(t *testing.T) {
	b := testutil.ReadTestdata(t, "seeds", "restore-balanced.log")
	first := b[:bytes.IndexByte(b, '\n')+1]
	tl, err := ReadGbakTimeline(bytes.NewReader(first), "restore-balanced.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Phases) != 1 || tl.Phases[0].Name != PhaseIndices || tl.Phases[0].Steps != 1 ||
		tl.Phases[0].Unknown != 1 || tl.Phases[0].Seconds != nil {
		t.Fatalf("phases %+v", tl.Phases)
	}
	js, err := json.Marshal(tl.Phases[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"seconds":null`) {
		t.Errorf("json %s", js)
	}
	tl, err = ReadGbakTimeline(bytes.NewReader(b), "restore-balanced.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Phases) != 1 || tl.Phases[0].Steps != 5 || tl.Phases[0].Unknown != 1 || !nearMs(tl.Phases[0].Seconds, 3774.995) {
		t.Fatalf("phases %+v", tl.Phases)
	}
}

// A log of -st w has page writes and no time: its phases sum the writes
// their steps have (a step's are on the next line; the last one's, the
// total line's 799 minus every delta, 0); reads, which no line has, are
// null.
func TestGbakPhaseWritesWithoutTime(t *testing.T) {
	text := "gbak: writes\n" +
		"gbak:      0 opened file x.fbk\n" +
		"gbak:      0 transportable backup -- data in XDR format\n" +
		"gbak:      0 backup version is 11\n" +
		"gbak:    781 created database x.fdb, page_size 8192 bytes\n" +
		"gbak:      2 started transaction\n" +
		"gbak:      0 restoring domain RDB$1\n" +
		"gbak:      5 restoring domain RDB$2\n" +
		"gbak:     11 finishing, closing, and going home\n" +
		"gbak:    799 total statistics\n"
	tl, err := ReadGbakTimeline(strings.NewReader(text), "w.log")
	if err != nil {
		t.Fatal(err)
	}
	type phase struct {
		name           string
		steps, unknown int
		writes         any
	}
	var got []phase
	for _, p := range tl.Phases {
		if p.Seconds != nil || p.Reads != nil {
			t.Errorf("%s: seconds %v, reads %v, want null", p.Name, p.Seconds, p.Reads)
		}
		var w any
		if p.Writes != nil {
			w = *p.Writes
		}
		got = append(got, phase{p.Name, p.Steps, p.Unknown, w})
	}
	want := []phase{{PhaseOpen, 5, 5, int64(783)}, {PhaseMetadata, 2, 2, int64(16)}, {PhaseFinish, 1, 1, int64(0)}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("phases %v, want %v", got, want)
	}
	js, err := json.Marshal(tl.Phases[2])
	if err != nil || !strings.Contains(string(js), `"reads":null,"writes":0`) {
		t.Errorf("finish json %s (%v)", js, err)
	}
}
