package collect_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// fbdiag killed with SIGKILL during a backup (the OOM killer, timeout -s
// KILL) leaves the server's temporary file, which the server completes:
// a hidden .NAME.tmp-* as large as the backup, one per kill, that no
// later run mentioned while the disk filled. The next backup to that
// name warns of each, and leaves it: it may be another run's, going on.
func TestLiveBackupNamesLeftovers(t *testing.T) {
	s := localServer(t, "the temporary files are fbdiag's only on this machine")
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "shop.fbk")
	left := filepath.Join(filepath.Dir(fbk), "."+filepath.Base(fbk)+".tmp-1bbab5eed049")
	other := filepath.Join(filepath.Dir(fbk), "."+filepath.Base(fbk)+".tmp-mine")
	for _, p := range []string{left, other} {
		if err := os.WriteFile(p, make([]byte, 2_500_000), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, time.Time{}, time.Date(2026, 12, 6, 7, 17, 27, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
	}
	var warnings []string
	s.Warn = func(msg string) { warnings = append(warnings, msg) }
	if _, err := s.Backup(ctxT(t), db, fbk, collect.BackupOptions{}, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	want := left + " (2.5 MB, 2026-12-06 07:17:27 UTC) was left by an earlier backup or restore that did not end (fbdiag killed?); delete it unless one to " + fbk + " is running now"
	var ours []string
	for _, w := range warnings {
		if !strings.Contains(w, "not encrypted") {
			ours = append(ours, w)
		}
	}
	if len(ours) != 1 || ours[0] != want {
		t.Errorf("warnings %q\nwant %q", ours, want)
	}
	for _, p := range []string{left, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v; want it left alone", p, err)
		}
	}
}
