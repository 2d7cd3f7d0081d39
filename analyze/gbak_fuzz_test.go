package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// FuzzGbakTimeline analyses and compares arbitrary logs seeded from the
// real ones: no panic, JSON always encodable (no NaN or Inf), an outcome
// always given.
func FuzzGbakTimeline(f *testing.F) {
	for _, p := range [][]string{
		{"fb30", "shop-gbak-restore-v-st.log"},
		{"fb30", "shop-gbak-backup-v-st.log"},
		{"seeds", "restore-balanced.log"},
	} {
		data, err := os.ReadFile(testutil.Testdata(f, p...))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
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
		c := CompareTimelines(GbakRun{"a", tl}, GbakRun{"b", tl}, GbakRun{"b", tl})
		if _, err := json.Marshal(c); err != nil {
			t.Fatal(err)
		}
	})
}
