package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// Finding 5 of the 3.0.11 review: a DATABASE or BACKUP_FILE given as
// isql-fb takes it, HOST:PATH or HOST/PORT:PATH, was sent to the server
// as it was and failed with "unavailable database". The server in front
// is the one connected to (here a listener answering HTTP: the error
// names its port, not localhost:3050).
func TestLiveCommandsServerInFrontOfPath(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "x")
	addr := fakeHTTPServer(t)
	host, port, _ := net.SplitHostPort(addr)
	hp := host + "/" + port + ":"
	dir := t.TempDir()
	want := "fbdiag: cannot connect to " + addr + ": not a Firebird server"
	for _, args := range [][]string{
		{"collect", "--out", filepath.Join(dir, "c.txt"), hp + "/data/x.fdb"},
		{"collect", "--server", addr, "--out", filepath.Join(dir, "c.txt"), hp + "/data/x.fdb"},
		{"backup", "--force", "--log", filepath.Join(dir, "b.log"), hp + "/data/x.fdb", hp + "/data/x.fbk"},
		{"backup", "--force", "--log", filepath.Join(dir, "b.log"), hp + "/data/x.fdb", "/data/x.fbk"},
		{"restore", "--log", filepath.Join(dir, "r.log"), "/data/x.fbk", hp + "/data/x.fdb"},
		// bench's help says so too (credentialsHelp); its commands sent
		// "HOST/PORT:/data/x.fdb" to localhost:3050
		{"bench", "init", "--warehouses", "1", hp + "/data/x.fdb"},
		{"bench", "run", "--duration", "1s", hp + "/data/x.fdb"},
		{"bench", "sweep", "--buffers", "256", "--out", filepath.Join(dir, "s.csv"), hp + "/data/x.fdb"},
	} {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		oneErrorLine(t, strings.Join(args, " "), errs, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"collect", "--server", "db1", "--out", filepath.Join(dir, "c.txt"), "localhost:/data/x.fdb"},
			`fbdiag: collect: DATABASE "localhost:/data/x.fdb" names the server localhost:3050, --server db1 another (db1:3050): give the server once`},
		{[]string{"backup", "--log", filepath.Join(dir, "b.log"), "db1:/data/x.fdb", "db2:/data/x.fbk"},
			`fbdiag: backup: DATABASE "db1:/data/x.fdb" names the server db1:3050, BACKUP_FILE "db2:/data/x.fbk" another (db2:3050)`},
		{[]string{"restore", "--log", filepath.Join(dir, "r.log"), "/data/x.fbk", "localhost:"},
			`fbdiag: restore: DATABASE "localhost:" names the server localhost:3050 but no path after it`},
		{[]string{"bench", "run", "--server", "db1", "localhost:/data/x.fdb"},
			`fbdiag: bench run: DATABASE "localhost:/data/x.fdb" names the server localhost:3050, --server db1 another (db1:3050): give the server once`},
		{[]string{"collect", "--out", filepath.Join(dir, "c.txt"), "inet://localhost/data/x.fdb"},
			`fbdiag: collect: DATABASE "inet://localhost/data/x.fdb" is a Firebird URL (inet://): give the server with --server and the path alone`},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != exitError || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want %d", c.args, code, out, exitError)
		}
		oneErrorLine(t, strings.Join(c.args, " "), errs, c.want)
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
}

// The same against the live server: collect, backup and restore with
// the server in front of their paths, in each of its forms.
func TestLiveServerInFrontOfPathCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	hp := host + "/" + port + ":"
	if port == "3050" {
		hp = host + ":"
	}
	fbk := livetest.TempPath(t, s, "shop.fbk")
	target := livetest.TempPath(t, s, "restored.fdb")
	dir := t.TempDir()
	snap := filepath.Join(dir, "h.txt")
	if _, errs, code := runCLI(t, nil, "collect", "--switches", "-h", "--out", snap, hp+db); code != exitOK {
		t.Fatalf("collect %s: exit %d: %s", hp+db, code, errs)
	}
	if text := readLiveFile(t, snap); !strings.Contains(text, "# fbdiag collect: database "+db+"\n") {
		t.Errorf("snapshot starts %.200q, want the database %s", text, db)
	}
	if _, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", filepath.Join(dir, "b.log"), hp+db, hp+fbk); code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "restore", "--log", filepath.Join(dir, "r.log"), fbk, host+"/"+port+":"+target); code != exitOK {
		t.Fatalf("restore: exit %d: %s", code, errs)
	}
}
