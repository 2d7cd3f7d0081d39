package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
)

// writeServerFile writes a file where the server reads and writes (the
// tests run as root in CI, or as a member of the firebird group), one the
// server may overwrite, as it may its own backups.
func writeServerFile(t *testing.T, p, text string) {
	t.Helper()
	err := os.WriteFile(p, []byte(text), 0o666)
	if err == nil {
		err = os.Chmod(p, 0o666) // whatever the umask
	}
	if err != nil {
		t.Fatalf("writing %s in the server's folder: %v (run as root or in the firebird group)", p, err)
	}
}

// serverTemps lists fbdiag's temporary files beside a server path.
func serverTemps(t *testing.T, p string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".*"))
	return m
}

// backup and restore on one shop database: the backup file, a failed
// restore --replace, the gbak switches.
func TestLiveGbakCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	t.Run("existing backup file", func(t *testing.T) { backupExistingFile(t, s, db) })
	t.Run("restore --replace of garbage", func(t *testing.T) { restoreReplaceGarbage(t, s, db) })
	t.Run("switches", func(t *testing.T) { gbakSwitches(t, s, db) })
}

// An existing backup file is refused without --force and left as it was;
// --force replaces it, but only with the complete new backup.
func backupExistingFile(t *testing.T, s collect.Server, db string) {
	fbk := livetest.TempPath(t, s, "shop.fbk")
	const old = "yesterday's backup\n"
	writeServerFile(t, fbk, old)
	dir := t.TempDir()
	out, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", filepath.Join(dir, "b.log"), db, fbk)
	if code != exitError || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	oneErrorLine(t, "backup over a file", errs, "fbdiag: cannot back up "+db+" on "+s.Addr+": "+fbk+
		" exists; not replaced (--force replaces it once the new backup is complete)")
	if b, _ := os.ReadFile(fbk); string(b) != old {
		t.Errorf("the old backup changed: %q", b)
	}
	if names := liveDirEntries(t, dir); len(names) != 0 || len(serverTemps(t, fbk)) != 0 {
		t.Errorf("files left: %v %v", names, serverTemps(t, fbk))
	}
	out, errs, code = runCLI(t, nil, "backup", "--server", s.Addr, "--force", "--format", "json", "--log", filepath.Join(dir, "b.log"), db, fbk)
	if code != exitOK {
		t.Fatalf("--force: exit %d: %s", code, errs)
	}
	var res struct {
		Run struct {
			Replaced bool
			Switches string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.Run.Replaced || res.Run.Switches != "-b -v -st tdrw" {
		t.Errorf("run %+v, %v", res.Run, err)
	}
	if fi, err := os.Stat(fbk); err != nil || fi.Size() < 100000 || len(serverTemps(t, fbk)) != 0 {
		t.Errorf("after --force: %v, %v, temporary files %v", fi, err, serverTemps(t, fbk))
	}
}

// restore --replace of a garbage backup fails in gbak and leaves the
// original database intact and online.
func restoreReplaceGarbage(t *testing.T, s collect.Server, db string) {
	garbage := livetest.TempPath(t, s, "garbage.fbk")
	writeServerFile(t, garbage, strings.Repeat("not a backup\n", 1000))
	dir := t.TempDir()
	log := filepath.Join(dir, "r.log")
	out, errs, code := runCLI(t, nil, "restore", "--server", s.Addr, "--replace", "--log", log, garbage, db)
	if code != exitError || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	// gbak's "expected backup description record" alone did not say that
	// the file is no backup.
	oneErrorLine(t, "restore of garbage", errs, "fbdiag: cannot restore "+garbage+" to "+db+" on "+s.Addr+
		": "+garbage+" is not a gbak backup, or one whose start is damaged (gbak: expected backup description record")
	if !strings.Contains(errs, "; nothing left; "+db+" untouched") {
		t.Errorf("stderr %q does not say the original is untouched", errs)
	}
	if len(serverTemps(t, db)) != 0 {
		t.Errorf("temporary files left: %v", serverTemps(t, db))
	}
	// The arguments the wrong way round: the database given as the backup.
	other := livetest.TempPath(t, s, "other.fdb")
	_, errs, _ = runCLI(t, nil, "restore", "--server", s.Addr, "--log", filepath.Join(dir, "r2.log"), db, other)
	oneErrorLine(t, "restore of a database", errs, "fbdiag: cannot restore "+db+" to "+other+" on "+s.Addr+
		": "+db+" is a Firebird database, not a gbak backup (gbak: expected backup description record")
	// Online, with its data: collect reads it as before.
	out, errs, code = runCLI(t, nil, "collect", "--server", s.Addr, "--switches", "-r -t WAREHOUSE", "--format", "json",
		"--out", filepath.Join(dir, "after.txt"), db)
	if code != exitOK || !strings.Contains(out, `"read_only": false`) {
		t.Fatalf("collect after the failed restore: exit %d: %s", code, errs)
	}
	var res collectResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Gstat.Tables) != 1 || res.Gstat.Tables[0].Records == nil || *res.Gstat.Tables[0].Records != 5 {
		t.Errorf("WAREHOUSE after the failed restore: %+v", res.Gstat.Tables)
	}
}

// The gbak switches of the command line reach the run, each as its gbak
// switch; -par is refused on Firebird 3 before anything starts.
func gbakSwitches(t *testing.T, s collect.Server, db string) {
	fbk := livetest.TempPath(t, s, "meta.fbk")
	target := livetest.TempPath(t, s, "meta.fdb")
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--no-gc", "--metadata-only", "--non-transportable", "--ignore-limbo", "--skip-data", "DOCS", db, fbk},
			`-b -v -st tdrw -g -l -nt -m -skip_data "DOCS"`},
		{[]string{"restore", "--buffers", "300", "--inactive", "--one-at-a-time", "--use-all-space", "--read-only", "--page-size", "8192", fbk, target},
			"-c -v -st tdrw -p 8192 -bu 300 -i -o -use_all_space -mode read_only"},
	} {
		args := append([]string{c.args[0], "--server", s.Addr, "--format", "json", "--log", filepath.Join(dir, c.args[0]+".log")}, c.args[1:]...)
		out, errs, code := runCLI(t, nil, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.args[0], code, errs)
		}
		var res gbakResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Run.Switches != c.want || res.Timeline.Outcome != "completed" {
			t.Errorf("%s: switches %q, outcome %q, %v; want %q", c.args[0], res.Run.Switches, res.Timeline.Outcome, err, c.want)
		}
	}
	_, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--parallel", "2", "--log", filepath.Join(dir, "par.log"), db,
		livetest.TempPath(t, s, "par.fbk"))
	if code != exitError {
		t.Errorf("--parallel on Firebird 3: exit %d", code)
	}
	oneErrorLine(t, "--parallel", errs, "fbdiag: cannot back up "+db+" on "+s.Addr+": --parallel (gbak -par) needs Firebird 5.0 or later")
}

// Ctrl-C in the middle of a backup cancels it on the server, leaves no
// backup file, and keeps the log so far as LOG.partial, which fbdiag
// gbak reads as incomplete.
func TestLiveInterruptKeepsPartialLog(t *testing.T) {
	s := livetest.Server(t)
	big := livetest.BigDatabase(t, s, livetest.BigRows)
	fbk := livetest.TempPath(t, s, "big.fbk")
	dir := t.TempDir()
	log := filepath.Join(dir, "big-backup.log")
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		out, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", log, big, fbk)
		done <- result{code, out, errs}
	}()
	// Interrupt once the log has data lines: the command listens for
	// the signal (signal.NotifyContext) from before it creates the log.
	deadline := time.Now().Add(30 * time.Second)
	for sent := false; !sent; {
		if time.Now().After(deadline) {
			t.Fatal("the backup log never showed a data line")
		}
		select {
		case r := <-done:
			t.Fatalf("the backup ended before the interrupt: exit %d: %s", r.code, r.errs)
		default:
		}
		tmps, _ := filepath.Glob(filepath.Join(dir, ".big-backup.log.tmp-*"))
		for _, p := range tmps {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), " records written\n") {
				if err := interruptSelf(); err != nil {
					t.Skipf("interrupt: %v", err)
				}
				sent = true
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	r := <-done
	if r.code != exitError || r.out != "" {
		t.Errorf("exit %d, stdout %q", r.code, r.out)
	}
	oneErrorLine(t, "interrupted backup", r.errs, "fbdiag: cannot back up "+big+" on "+s.Addr+": interrupted; gbak's last step: ")
	if !strings.Contains(r.errs, "; the backup was cancelled on the server (its attachment ") ||
		!strings.HasSuffix(r.errs, " untouched; the log so far ("+strings.TrimSpace(between(r.errs, "the log so far (", ")"))+") is "+log+".partial\n") {
		t.Errorf("stderr %q", r.errs)
	}
	if _, err := os.Stat(fbk); !os.IsNotExist(err) || len(serverTemps(t, fbk)) != 0 {
		t.Errorf("backup files left: %v, %v", err, serverTemps(t, fbk))
	}
	if names := liveDirEntries(t, dir); strings.Join(names, " ") != "big-backup.log.partial" {
		t.Errorf("files in the log folder: %v", names)
	}
	out, errs, code := runCLI(t, nil, "gbak", "--format", "json", log+".partial")
	var tl struct{ Outcome string }
	if err := json.Unmarshal([]byte(out), &tl); code != exitOK || err != nil || tl.Outcome != "incomplete" {
		t.Errorf("fbdiag gbak on the partial log: exit %d, outcome %q, %v: %s", code, tl.Outcome, err, errs)
	}
}

// between returns the text of s after start up to end.
func between(s, start, end string) string {
	_, after, _ := strings.Cut(s, start)
	before, _, _ := strings.Cut(after, end)
	return before
}

// Finding 4: only SIGINT was caught. SIGTERM (kill, timeout, systemd)
// and SIGHUP (a closed ssh session) ended fbdiag at once: exit 143/129,
// no message, the backup not cancelled, its hidden temporary file and the
// temporary log left. They now act as Ctrl-C.
func TestLiveTermAndHupInterrupt(t *testing.T) {
	s := livetest.Server(t)
	big := livetest.BigDatabase(t, s, livetest.BigRows)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		fbk := livetest.TempPath(t, s, "big.fbk")
		dir := t.TempDir()
		log := filepath.Join(dir, "big-backup.log")
		cmd := fbdiagCommand(t, "backup", "--server", s.Addr, "--log", log, big, fbk)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		deadline := time.Now().Add(30 * time.Second)
	wait:
		for {
			select {
			case err = <-done:
				t.Fatalf("%v: the backup ended before the signal: %v: %s", sig, err, stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("%v: the backup log never showed a data line", sig)
			}
			tmps, _ := filepath.Glob(filepath.Join(dir, ".big-backup.log.tmp-*"))
			for _, p := range tmps {
				if b, _ := os.ReadFile(p); strings.Contains(string(b), " records written\n") {
					cmd.Process.Signal(sig)
					err = <-done
					break wait
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		if code := cmd.ProcessState.ExitCode(); code != exitError {
			t.Errorf("%v: exit %d (%v), want 1", sig, code, err)
		}
		errs := stderr.String()
		oneErrorLine(t, sig.String(), errs, "fbdiag: cannot back up "+big+" on "+s.Addr+": interrupted; gbak's last step: ")
		if !strings.Contains(errs, "; the backup was cancelled on the server (its attachment ") ||
			!strings.HasSuffix(errs, " untouched; the log so far ("+between(errs, "the log so far (", ")")+") is "+log+".partial\n") {
			t.Errorf("%v: stderr %q", sig, errs)
		}
		if _, err := os.Stat(fbk); !os.IsNotExist(err) || len(serverTemps(t, fbk)) != 0 {
			t.Errorf("%v: backup files left: %v, %v", sig, err, serverTemps(t, fbk))
		}
		if names := liveDirEntries(t, dir); strings.Join(names, " ") != "big-backup.log.partial" {
			t.Errorf("%v: files in the log folder: %v", sig, names)
		}
	}
}

// Finding 3: a run that failed before gbak created anything told the user
// to delete a "partial database" or "partial backup" at the target, which
// could be their own file. Before "created database" / "creating file"
// the error says that nothing was created. (A target in a folder not
// visible here is written directly by the server, as for a remote one.)
func TestLiveNothingCreatedAdvice(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	nodir := livetest.TempPath(t, s, "nodir")
	fbk := livetest.TempPath(t, s, "shop.fbk")
	dir := t.TempDir()
	if _, errs, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", filepath.Join(dir, "b.log"), db, fbk); code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, errs)
	}
	nosuch := livetest.TempPath(t, s, "nosuch.fbk")
	target, fbkTarget := nodir+"/x.fdb", nodir+"/x.fbk"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"restore", fbk, target}, "; gbak stopped before creating " + target + ": nothing was created\n"},
		{[]string{"restore", nosuch, target}, "; gbak stopped before creating " + target + ": nothing was created\n"},
		{[]string{"backup", "--force", db, fbkTarget}, "; gbak stopped before creating " + fbkTarget + ": nothing was created or changed\n"},
	} {
		args := append([]string{c.args[0], "--server", s.Addr, "--log", filepath.Join(dir, "x.log")}, c.args[1:]...)
		_, errs, code := runCLI(t, nil, args...)
		if code != exitError || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want one line ending %q", c.args, code, errs, c.want)
		}
	}
}
