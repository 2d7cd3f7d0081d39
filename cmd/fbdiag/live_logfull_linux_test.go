package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// The backup completes, but its log fills the disk of its folder (a
// tmpfs of 64 KiB with 8 KiB left). The log, cut after some lines, was
// given its final name and the error said "the log is LOG": a log that
// looks complete, without its last lines. It is now kept as
// LOG.partial, as the log of a run that ended early, and the error says
// how many of gbak's lines it holds.
func TestLiveBackupLogOnFullDisk(t *testing.T) {
	s := livetest.Server(t)
	dir := smallDisk(t, 8<<10)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "shop.fbk")
	log := filepath.Join(dir, "b.log")
	out, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", log, db, fbk)
	if code != exitError || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	re := regexp.MustCompile(`^fbdiag: cannot write the log of the backup of ` + regexp.QuoteMeta(db+" on "+s.Addr) +
		`: write \S+: no space left on device; the backup itself is complete: ` + regexp.QuoteMeta(fbk) +
		`; the log so far \((\d+) of (\d+) lines\) is ` + regexp.QuoteMeta(log+".partial") + "\n$")
	m := re.FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("stderr %q\nwant %s", errs, re)
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Errorf("%s: %v; want no log under the name of a complete one", log, err)
	}
	b, err := os.ReadFile(log + ".partial")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); m[1] != strconv.Itoa(n) || n == 0 || m[1] == m[2] {
		t.Errorf("the partial log has %d lines; the error says %s of %s", n, m[1], m[2])
	}
	if fi, err := os.Stat(fbk); err != nil || fi.Size() < 100<<10 {
		t.Errorf("the backup %s: %v; want the complete backup", fbk, err)
	}
}

// collect's snapshot fills the disk of its folder (a tmpfs with 4 KiB
// left, the shop's gstat -a -r is larger). The error blamed the server:
// "cannot read statistics of DB on localhost:3050: write
// ./.s.txt.tmp-123: no space left on device". It now names the file
// fbdiag could not write and says that nothing was written.
func TestLiveCollectSnapshotOnFullDisk(t *testing.T) {
	s := livetest.Server(t)
	dir := smallDisk(t, 4<<10)
	db := livetest.ShopDatabase(t, s)
	snap := filepath.Join(dir, "s.txt")
	out, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--out", snap, db)
	if code != exitError || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	if want := "fbdiag: cannot write the snapshot " + snap + ": no space left on device; nothing written\n"; errs != want {
		t.Errorf("stderr %q\nwant   %q", errs, want)
	}
	if names := liveDirEntries(t, dir); len(names) != 1 {
		t.Errorf("in the folder: %q, want only the filler", names)
	}
}

// smallDisk mounts a tmpfs of 64 KiB in a temporary folder and fills it
// up to left bytes; the test is skipped where it cannot mount (not root).
func smallDisk(t *testing.T, left int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	fill := int64(st.Bavail)*st.Bsize - left
	if err := os.WriteFile(filepath.Join(dir, "fill"), make([]byte, fill), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
