package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// TestCollectRefusesExistingOut: an explicit --out that exists (it could
// be one of the user's inputs), or its .mon.json, is not replaced
// without --force; the refusal comes before any connection.
func TestCollectRefusesExistingOut(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "")
	dir := t.TempDir()
	mine := filepath.Join(dir, "shop-gstat.txt")
	if err := os.WriteFile(mine, []byte("Database \"shop\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, nil, "collect", "--out", mine, "employee")
	if code != exitError || out != "" {
		t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out)
	}
	oneErrorLine(t, "collect", errs, "fbdiag: collect: "+mine+" exists; not replaced (--force replaces it)")
	if b, _ := os.ReadFile(mine); string(b) != "Database \"shop\"\n" {
		t.Errorf("user's file changed: %q", b)
	}
	// The sidecar alone is refused too.
	snap := filepath.Join(dir, "new.txt")
	if err := os.WriteFile(snap+".mon.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, nil, "collect", "--out", snap, "employee")
	if code != exitError {
		t.Errorf("sidecar: exit %d", code)
	}
	oneErrorLine(t, "collect", errs, "fbdiag: collect: "+snap+".mon.json exists; not replaced")
	// With --force the check passes and the next one (credentials) speaks.
	_, errs, code = runCLI(t, nil, "collect", "--force", "--out", mine, "employee")
	if code != exitError {
		t.Errorf("--force: exit %d", code)
	}
	oneErrorLine(t, "collect --force", errs, "fbdiag: no password: set ISC_PASSWORD")
}

// TestLiveCollectForce: --force replaces the snapshot and its sidecar.
func TestLiveCollectForce(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	t.Setenv("FBDIAG_SERVER", "")
	snap := filepath.Join(t.TempDir(), "shop.txt")
	for _, p := range []string{snap, snap + ".mon.json"} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--force", "--switches", "-h", "--out", snap, db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if text := readLiveFile(t, snap); !strings.HasPrefix(text, "# fbdiag collect: server "+s.Addr) {
		t.Errorf("snapshot not replaced: %.80q", text)
	}
	if mon := readLiveFile(t, snap+".mon.json"); !strings.Contains(mon, `"switches": "-h"`) {
		t.Errorf("sidecar not replaced: %.200q", mon)
	}
}

// TestGbakLogRefusesExisting: backup and restore follow collect's rule
// for --log: an existing file is refused before any connection (no
// password is asked), left as it was, and --force lets it through.
func TestGbakLogRefusesExisting(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "")
	dir := t.TempDir()
	mine := filepath.Join(dir, "shop-restore.log")
	const text = "gbak:opened file shop.fbk\n"
	if err := os.WriteFile(mine, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"backup", "--log", mine, "employee", "/tmp/e.fbk"},
		{"restore", "--log", mine, "/tmp/e.fbk", "/tmp/e.fdb"},
	} {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 1 and nothing", args[0], code, out)
		}
		oneErrorLine(t, args[0], errs, "fbdiag: "+args[0]+": "+mine+" exists; not replaced (--force replaces it)")
		if b, _ := os.ReadFile(mine); string(b) != text {
			t.Errorf("%s: user's file changed: %q", args[0], b)
		}
		force := append([]string{args[0], "--force"}, args[1:]...)
		_, errs, code = runCLI(t, nil, force...)
		if code != exitError {
			t.Errorf("%s --force: exit %d", args[0], code)
		}
		oneErrorLine(t, args[0]+" --force", errs, "fbdiag: no password: set ISC_PASSWORD")
	}
}

// TestLiveBackupForce: --force replaces an existing --log with the new log.
func TestLiveBackupForce(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	t.Setenv("FBDIAG_SERVER", "")
	fbk := livetest.TempPath(t, s, "force.fbk")
	log := filepath.Join(t.TempDir(), "backup.log")
	if err := os.WriteFile(log, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--force", "--log", log, db, fbk)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if text := readLiveFile(t, log); !strings.Contains(text, " writing index ORDERS_DATE_D\n") {
		t.Errorf("log not replaced: %.80q", text)
	}
}
