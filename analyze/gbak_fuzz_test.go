package analyze

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// FuzzGbakTimeline analyses and compares arbitrary logs seeded from the
// real ones: no panic, JSON always encodable (no NaN or Inf), an outcome
// always given. The seeds are excerpts (on the whole logs it ran 6 to 10
// inputs in two minutes), as they are, with lone CRs, huge numbers and
// long names, and a log cut inside a table.
func FuzzGbakTimeline(f *testing.F) {
	for _, s := range testutil.FuzzSeeds(f, testutil.GbakSeed) {
		f.Add(s)
	}
	data := testutil.ReadTestdata(f, "seeds", "restore-balanced.log")
	f.Add(data)
	f.Add([]byte("gbak:    0.1  0.1  0  0 restoring domain A\ngbak:    100000000000000  0.001  0  0 committing metadata\n"))
	f.Add([]byte("gbak:    3.747  0.001      0      0 restoring data for table ORDER_LINE\ngbak:    4.424  0.676      0      0    10000 records restored\n"))
	f.Add([]byte("gbak:cannot commit index PK\ngbak: ERROR:violation\ngbak: ERROR:    key\ngbak:Exiting before completion due to errors\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tl, err := ReadGbakTimeline(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		switch tl.Outcome {
		case GbakCompleted, GbakFailed, GbakIncomplete:
		default:
			t.Fatalf("outcome %q", tl.Outcome)
		}
		if _, err := json.Marshal(tl); err != nil {
			t.Fatal(err)
		}
		c := CompareTimelines(GbakRun{Label: "a", Timeline: tl}, GbakRun{Label: "b", Timeline: tl}, GbakRun{Label: "b", Timeline: tl})
		if _, err := json.Marshal(c); err != nil {
			t.Fatal(err)
		}
	})
}
