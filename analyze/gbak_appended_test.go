package analyze

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Two restore logs in one file (cat a.log b.log, or gbak ... >> log) were
// read as one run: data 68.414 s, 194.5% of the 35.170 s total, and every
// table twice. The first run is analysed and a notice points at the second.
func TestReadGbakTimelineStopsAtAppendedRun(t *testing.T) {
	one := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	tl, err := ReadGbakTimeline(bytes.NewReader(append(append([]byte(nil), one...), one...)), "two.log")
	if err != nil {
		t.Fatal(err)
	}
	if tl.TotalSeconds == nil || *tl.TotalSeconds != 35.170 || len(tl.Tables) != 6 {
		t.Errorf("total %v s, %d tables; want 35.170 and 6", tl.TotalSeconds, len(tl.Tables))
	}
	for _, p := range tl.Phases {
		if p.Name == "data" && !nearMs(p.Seconds, 34.207) {
			t.Errorf("data phase %v s; want 34.207", derefF(p.Seconds))
		}
	}
	want := "two.log:227: another gbak run starts here (time back from 35.170 to 0.000 s): only the first is analysed; " +
		"give each run its own file ('fbdiag gbak compare' compares them)"
	if n := len(tl.Notices); n == 0 || tl.Notices[n-1].String() != want {
		t.Errorf("notices %v; want last %q", tl.Notices, want)
	}
}
