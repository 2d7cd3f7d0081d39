package analyze

import (
	"bytes"
	"encoding/json"
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
	if len(tl.Phases) != 1 || tl.Phases[0].Steps != 5 || tl.Phases[0].Unknown != 1 || !nearMs(tl.Phases[0].Seconds, 3774.992) {
		t.Fatalf("phases %+v", tl.Phases)
	}
}
