package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/report"
)

// The estimate comes from the newest complete earlier log of the same
// database in the log's folder: by the default name for a restore, by
// the database the log names for a backup.
func TestEarlierLogs(t *testing.T) {
	dir := t.TempDir()
	restore := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	backup := testutil.ReadTestdata(t, "fb30", "shop-gbak-backup-v-st.log")
	cut := restore[:strings.Index(string(restore), "creating indexes")]
	for name, data := range map[string][]byte{
		"shop-restore-20261201-100000.log":         restore,
		"shop-restore-20261202-100000.log":         cut, // newer, but incomplete
		"other-restore-20261203-100000.log":        restore,
		"shop-20261201-backup-20261201-100000.log": backup,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cur := filepath.Join(dir, "shop-restore-20261203-100000.log")
	if e := earlierRestoreLog(cur, "/var/lib/firebird/data/shop.fdb"); e == nil || filepath.Base(e.File) != "shop-restore-20261201-100000.log" || e.Total != 35.17 {
		t.Errorf("restore estimate from %+v", e)
	}
	if e := earlierRestoreLog(cur, "/data/nothing.fdb"); e != nil {
		t.Errorf("an estimate for another database: %s", e.File)
	}
	cur = filepath.Join(dir, "shop-20261203-backup-20261203-100000.log")
	if e := earlierBackupLog(cur, "/var/lib/firebird/data/shop.fdb"); e == nil || filepath.Base(e.File) != "shop-20261201-backup-20261201-100000.log" {
		t.Errorf("backup estimate from %+v", e)
	}
	if e := earlierBackupLog(cur, "/var/lib/firebird/data/other.fdb"); e != nil {
		t.Errorf("a backup estimate for another database: %s", e.File)
	}
}

// The JSON of a finished backup or restore, its timeline streamed from
// the log (writeGbakResult), has the bytes of report.WriteJSON on the
// result with the log read whole, for every gbak log of testdata and of
// the corpus, a log cut short, and a file with no gbak line in it; the
// reader's notices go to stderr alike.
func TestGbakResultStreamed(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join(testutil.Root(t), "testdata", "fb30", "*gbak*.log"))
	more, _ := filepath.Glob(filepath.Join(testutil.Root(t), "testdata", "gbak", "*.log"))
	logs = append(logs, more...)
	public, _ := filepath.Glob(filepath.Join(testutil.CorpusPath(t), "public", "gbak", "*.log")) // (none without the corpus)
	logs = append(logs, public...)
	junk := filepath.Join(t.TempDir(), "junk.log")
	if err := os.WriteFile(junk, []byte("not a gbak line\n\tnor this\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logs = append(logs, junk)
	if len(logs) < 4 {
		t.Fatalf("%d logs", len(logs))
	}
	run := &collect.GbakRun{Server: "db1:3050", Action: "restore", Database: "/data/x.fdb", BackupFile: "/data/x.fbk",
		Switches: "-c -v -st tdrw", Started: time.Date(2026, 12, 5, 1, 2, 3, 0, time.UTC), Lines: 177, Completed: true,
		LastStep: "finishing, closing, and going home", Replaced: true}
	for _, log := range logs {
		var want, wantErr bytes.Buffer
		tl, rerr := readGbakLog(nil, &wantErr, log, analyze.ReadGbakTimeline)
		if rerr == nil {
			if err := report.WriteJSON(&want, gbakResult{Run: run, Log: log, Timeline: tl}); err != nil {
				t.Fatal(err)
			}
		}
		var got, gotErr bytes.Buffer
		err := writeGbakResult(&env{stdout: &got, stderr: &gotErr}, run, log)
		if fmt.Sprint(err) != fmt.Sprint(rerr) || (log == junk) != (err != nil) {
			t.Fatalf("%s: %v; read whole: %v", log, err, rerr)
		}
		if got.String() != want.String() || gotErr.String() != wantErr.String() {
			t.Errorf("%s: %d bytes, stderr %q; read whole %d bytes, stderr %q", filepath.Base(log), got.Len(), gotErr.String(), want.Len(), wantErr.String())
		}
	}
}
