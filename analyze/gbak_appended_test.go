package analyze

import (
	"bytes"
	"fmt"
	"os"
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

// A backup and then its restore logged to one file, without the time
// column (nothing goes back): the restore's lines were steps of the
// backup, its table data twice and its index build as the backup's. The
// second run starts with the first line that opens a run after the
// first's closing one.
func TestReadGbakTimelineStopsAfterFinish(t *testing.T) {
	for _, c := range []struct {
		file             string
		tables, finished int
		at               int
	}{
		{"12_fb6_services_backup_restore_verbose.log", 1, 12, 14},
		{"14_cli_backup_restore_verbose_windows.log", 0, 8, 12},
	} {
		data, err := os.ReadFile(testutil.Corpus(t, "public", "gbak", c.file))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := ReadGbakTimeline(bytes.NewReader(data), c.file)
		if err != nil {
			t.Fatal(err)
		}
		if tl.Kind == nil || *tl.Kind != "backup" || len(tl.Tables) != c.tables || len(tl.Indices) != 0 {
			t.Errorf("%s: kind %v, %d tables, %d index builds; want backup, %d, 0", c.file, tl.Kind, len(tl.Tables), len(tl.Indices), c.tables)
		}
		want := fmt.Sprintf("%s:%d: another gbak run starts here (the run before it finished at line %d): only the first is analysed; "+
			"give each run its own file ('fbdiag gbak compare' compares them)", c.file, c.at, c.finished)
		if n := len(tl.Notices); n == 0 || tl.Notices[n-1].String() != want {
			t.Errorf("%s: notices %v; want last %q", c.file, tl.Notices, want)
		}
	}
}
