package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/collect/livetest"
)

// liveDirEntries lists a folder, temporary files included.
func liveDirEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// shopIndexNames are the indices of testdata/live/shop.sql, sorted.
var shopIndexNames = []string{"CUSTOMER_LAST", "OL_ITEM", "ORDERS_CARRIER", "ORDERS_DATE_D",
	"RDB$PRIMARY1", "RDB$PRIMARY2", "RDB$PRIMARY3", "RDB$PRIMARY4", "RDB$PRIMARY5", "RDB$PRIMARY6"}

// oneErrorLine checks that stderr is exactly one line starting with want.
func oneErrorLine(t *testing.T, what, stderr, want string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("%s: stderr = %q, want one line starting %q", what, stderr, want)
	}
}

func TestLiveCommandsWithoutPassword(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"collect", "--out", filepath.Join(dir, "s.txt"), "employee"},
		{"backup", "--log", filepath.Join(dir, "b.log"), "employee", "/tmp/e.fbk"},
		{"restore", "--log", filepath.Join(dir, "r.log"), "/tmp/e.fbk", "/tmp/e.fdb"},
	} {
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 1 and nothing", args[0], code, out)
		}
		oneErrorLine(t, args[0], errs, "fbdiag: no password: set ISC_PASSWORD")
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
}

func TestLiveCommandsUsage(t *testing.T) {
	t.Setenv("ISC_PASSWORD", "x")
	for _, args := range [][]string{
		{"collect"},
		{"collect", "a", "b"},
		{"collect", "--switches", "-q", "db"},
		{"collect", "--server", "host:", "db"},
		{"backup", "db"},
		{"restore", "--page-size", "3000", "a.fbk", "b.fdb"},
		{"restore", "--format", "xml", "a.fbk", "b.fdb"},
	} {
		if _, _, code := runCLI(t, nil, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// A password option would put the password where ps shows it.
func TestLiveCommandsTakeNoPasswordOption(t *testing.T) {
	for _, cmd := range []string{"collect", "backup", "restore"} {
		out, _, code := runCLI(t, nil, cmd, "--help")
		if code != exitOK {
			t.Fatalf("%s --help: exit %d", cmd, code)
		}
		for _, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > 100 {
				t.Errorf("%s --help: line wider than 100 columns: %q", cmd, l)
			}
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "--") &&
				(strings.Contains(f[0], "pass") || strings.Contains(f[0], "pw")) {
				t.Errorf("%s has a password option: %q", cmd, l)
			}
		}
		if !strings.Contains(out, "ISC_PASSWORD") {
			t.Errorf("%s --help does not say where the password comes from", cmd)
		}
	}
}

// noSecret fails when the password shows up in any output or file.
func noSecret(t *testing.T, secret string, texts map[string]string) {
	t.Helper()
	for name, s := range texts {
		if strings.Contains(s, secret) {
			t.Errorf("%s contains the password", name)
		}
	}
}

func readLiveFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLiveCollectCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	t.Setenv("FBDIAG_SERVER", "")
	dir := t.TempDir()
	snap := filepath.Join(dir, "shop.txt")
	out, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--out", snap, db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	text := readLiveFile(t, snap)
	mon := readLiveFile(t, snap+".mon.json")
	noSecret(t, s.Password, map[string]string{"stdout": out, "stderr": errs, "snapshot": text, "monitor": mon})
	if !strings.HasPrefix(text, "# fbdiag collect: server "+s.Addr) || !strings.Contains(text, "\nDatabase \""+db+"\"\n") {
		t.Errorf("snapshot starts %.200q", text)
	}
	var side struct {
		Snapshot struct{ Database, Switches string }
		Monitor  struct {
			Indices []struct{ Index string }
		}
		Selectivity []struct {
			Index      string
			UniqueKeys *int64 `json:"unique_keys"`
			Stale      bool
		}
	}
	if err := json.Unmarshal([]byte(mon), &side); err != nil {
		t.Fatal(err)
	}
	if side.Snapshot.Database != db || side.Snapshot.Switches != "-d -i -r" ||
		len(side.Monitor.Indices) != 10 || len(side.Selectivity) != 10 {
		t.Errorf("sidecar = %+v", side)
	}
	// Distinct keys by the schema's data; all indices were created on empty
	// tables, so RDB$STATISTICS is 0 and every one is stale.
	wantKeys := map[string]int64{"CUSTOMER_LAST": 100, "ORDERS_CARRIER": 11, "OL_ITEM": 5000,
		"RDB$PRIMARY4": 50000, "RDB$PRIMARY1": 5}
	for _, c := range side.Selectivity {
		if !c.Stale {
			t.Errorf("%s: not stale", c.Index)
		}
		if k, ok := wantKeys[c.Index]; ok && (c.UniqueKeys == nil || *c.UniqueKeys != k) {
			t.Errorf("%s: unique keys %v, want %d", c.Index, c.UniqueKeys, k)
		}
	}
	// The analysis is fbdiag gstat's, with the index kinds from the
	// catalogue, followed by the live figures and the statements to run.
	if !regexp.MustCompile(`\nTables +6\nIndices +10\nRecords +67705\n`).MatchString(out) {
		t.Errorf("output lacks the totals 6 tables, 10 indices, 67705 records:\n%s", out)
	}
	for _, want := range []string{"gstat analysis of " + snap,
		"oldest transaction (OIT)", "10 of 10 indices have stale stored selectivity",
		"  SET STATISTICS INDEX CUSTOMER_LAST;\n", "  SET STATISTICS INDEX RDB$PRIMARY2;\n",
		"kind: pk, fk, unique (constraint indices), plain or system, from RDB$RELATION_CONSTRAINTS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// CSV is one table: the live page I/O with --table io, the gstat
	// tables by default; OpenMetrics has the snapshot's figures.
	csvOut, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--out", filepath.Join(dir, "io.txt"), "--format", "csv", "--table", "io", db)
	if lines := strings.Split(csvOut, "\n"); code != exitOK || len(lines) != 3 || lines[0] != "reads,writes,fetches,marks,cache_hit_share" {
		t.Errorf("csv --table io: exit %d, %s\n%s", code, errs, csvOut)
	}
	om, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--out", filepath.Join(dir, "om.txt"), "--format", "openmetrics", db)
	if code != exitOK || !strings.Contains(om, "\nfbdiag_table_records{database=\""+db+"\",table=\"ORDER_LINE\"} ") || !strings.HasSuffix(om, "\n# EOF\n") {
		t.Errorf("openmetrics: exit %d, %s\n%s", code, errs, om)
	}
	// And the live figures a monitor watches: the ten stale indices the
	// text lists, no other attachment, no old transaction.
	for _, want := range []string{
		"\nfbdiag_indices_stale_statistics{database=\"" + db + "\"} 10\n",
		"\nfbdiag_attachments{database=\"" + db + "\"} 0\n",
		"\n# UNIT fbdiag_oldest_active_age_seconds seconds\nfbdiag_oldest_active_age_seconds{database=\"" + db + "\"} 0\n",
	} {
		if !strings.Contains(om, want) {
			t.Errorf("openmetrics lacks %q", want)
		}
	}
	// The gstat reader skips the preamble with one notice, which collect
	// does not repeat on stderr.
	if strings.Contains(errs, "not gstat output") {
		t.Errorf("stderr repeats the preamble notice: %s", errs)
	}
	// The catalogue says what each index serves: the primary keys are
	// INTEG_n constraints, the four others enforce nothing, and only those
	// get ALTER INDEX advice.
	out, errs, code = runCLI(t, nil, "collect", "--server", s.Addr, "--out", filepath.Join(dir, "shop2.txt"), "--format", "json", db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var full collectResult
	if err := json.Unmarshal([]byte(out), &full); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, tb := range full.Gstat.Tables {
		for _, ix := range tb.Indices {
			kinds[ix.Name] = ix.Kind + " " + ix.KindSource
			if ix.IsConstraintIndex() != (ix.Constraint != nil && strings.HasPrefix(*ix.Constraint, "INTEG_")) {
				t.Errorf("%s: kind %s, constraint %v", ix.Name, ix.Kind, ix.Constraint)
			}
		}
	}
	if kinds["RDB$PRIMARY2"] != "primary_key catalogue" || kinds["CUSTOMER_LAST"] != "plain catalogue" || len(kinds) != 10 {
		t.Errorf("kinds %v", kinds)
	}
	for _, w := range full.Gstat.Warnings {
		if strings.Contains(w.Advice, "ALTER INDEX RDB$") || strings.Contains(w.Advice, "if Firebird refuses") {
			t.Errorf("%s %s: %s", w.Rule, w.Object, w.Advice)
		}
	}
	// Without --out the snapshot gets a default name; JSON output parses.
	t.Chdir(dir)
	out, errs, code = runCLI(t, nil, "collect", "--server", s.Addr, "--switches", "-h", "--format", "json", db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res collectResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json output: %v", err)
	}
	if g := res.Gstat; g == nil || len(g.Notices) != 1 || g.Notices[0].Line != 1 ||
		!strings.Contains(g.Notices[0].Msg, "skipped 4 lines") || !strings.Contains(g.Notices[0].Msg, "# fbdiag collect: server") ||
		g.Header == nil || g.Header.Database == nil || *g.Header.Database != db {
		t.Errorf("gstat analysis of the -h snapshot: %+v", res.Gstat)
	}
	if !strings.HasPrefix(res.File, strings.TrimSuffix(filepath.Base(db), ".fdb")+"-") || !strings.HasSuffix(res.File, ".gstat.txt") {
		t.Errorf("default snapshot name %q", res.File)
	}
	if _, err := os.Stat(filepath.Join(dir, res.File)); err != nil {
		t.Error(err)
	}
}

func TestLiveBackupRestoreCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	fbk := livetest.TempPath(t, s, "shop.fbk")
	target := livetest.TempPath(t, s, "restored.fdb")
	dir := t.TempDir()
	blog, rlog := filepath.Join(dir, "backup.log"), filepath.Join(dir, "restore.log")
	bout, berr, code := runCLI(t, nil, "backup", "--server", s.Addr, "--log", blog, db, fbk)
	if code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, berr)
	}
	stop := watchCommandLines(t, s.Password)
	rout, rerr, code := runCLI(t, nil, "restore", "--server", s.Addr, "--log", rlog, "--format", "json", fbk, target)
	if seen := stop(); len(seen) > 0 {
		t.Errorf("%d command line(s) showed the password during the restore", len(seen))
	}
	if code != exitOK {
		t.Fatalf("restore: exit %d: %s", code, rerr)
	}
	btext, rtext := readLiveFile(t, blog), readLiveFile(t, rlog)
	noSecret(t, s.Password, map[string]string{"backup stdout": bout, "backup stderr": berr,
		"restore stdout": rout, "restore stderr": rerr, "backup log": btext, "restore log": rtext})
	for _, ix := range shopIndexNames {
		if !strings.Contains(rtext, " restoring index "+ix+"\n") || !strings.Contains(btext, " writing index "+ix+"\n") {
			t.Errorf("logs lack index %s", ix)
		}
	}
	if !strings.Contains(rtext, " finishing, closing, and going home\n") {
		t.Errorf("restore log is not complete")
	}
	// Finding 7 of the 3.0.11 review: the logs named the hidden temporary
	// file the server wrote (.shop.fbk.tmp-…), which is gone; they name
	// the backup file and the database, as gbak's own log would.
	if strings.Contains(btext, ".tmp-") || strings.Contains(rtext, ".tmp-") {
		t.Errorf("a log names a temporary file")
	}
	if !strings.Contains(btext, " creating file "+fbk+"\n") {
		t.Errorf("backup log lacks \"creating file %s\"", fbk)
	}
	if !strings.Contains(rtext, " created database "+target+", page_size ") {
		t.Errorf("restore log lacks \"created database %s\"", target)
	}
	// The backup's view is `fbdiag gbak LOG`'s, below the lines that say
	// what ran where, but for the hint that names the command (backup has
	// no --all).
	gout, gerr, code := runCLI(t, nil, "gbak", blog)
	if code != exitOK {
		t.Fatalf("gbak LOG: exit %d: %s", code, gerr)
	}
	gout = strings.ReplaceAll(gout, "(--all shows them)", "(fbdiag gbak --all LOG shows them)")
	if lines := strings.Split(gout, "\n"); len(lines) < 10 {
		t.Errorf("fbdiag gbak LOG: %q", gout)
	} else if missing := notInOrder(lines[1:], strings.Split(bout, "\n")); missing != "" {
		t.Errorf("the backup's view lacks %q of fbdiag gbak LOG's:\n%s\n---\n%s", missing, bout, gout)
	}
	// The timeline, as fbdiag gbak reads the log: completed, every index
	// built, every table's records.
	var res gbakResult
	if err := json.Unmarshal([]byte(rout), &res); err != nil {
		t.Fatalf("restore --format json: %v", err)
	}
	tl := res.Timeline
	if tl == nil || tl.Outcome != "completed" || tl.Kind == nil || *tl.Kind != "restore" || tl.Columns != "TDRW" {
		t.Fatalf("timeline = %+v", tl)
	}
	var built []string
	for _, ix := range tl.Indices {
		if !ix.Failed {
			built = append(built, ix.Name)
		}
	}
	slices.Sort(built)
	if got := strings.Join(built, " "); got != strings.Join(shopIndexNames, " ") {
		t.Errorf("indices built: %s\nwant %s", got, strings.Join(shopIndexNames, " "))
	}
	records := map[string]int64{}
	for _, tb := range tl.Tables {
		if tb.Records != nil {
			records[tb.Name] = *tb.Records
		}
	}
	for name, n := range map[string]int64{"WAREHOUSE": 5, "CUSTOMER": 3000, "ORDERS": 9500, "ORDER_LINE": 50000, "STOCK": 5000, "DOCS": 200} {
		if records[name] != n {
			t.Errorf("timeline: %s restored %d records, want %d", name, records[name], n)
		}
	}
	// Restoring again over the restored database needs --replace.
	again := filepath.Join(dir, "again.log")
	out, errs, code := runCLI(t, nil, "restore", "--server", s.Addr, "--log", again, fbk, target)
	if code != exitError || out != "" {
		t.Errorf("restore over an existing database: exit %d, stdout %q", code, out)
	}
	oneErrorLine(t, "restore without --replace", errs, "fbdiag: cannot restore to "+target+" on "+s.Addr+": database already exists")
	if _, err := os.Stat(again); !os.IsNotExist(err) {
		t.Errorf("log written for a refused restore: %v", err)
	}
	if _, errs, code := runCLI(t, nil, "restore", "--server", s.Addr, "--replace", "--log", again, fbk, target); code != exitOK {
		t.Errorf("restore --replace: exit %d: %s", code, errs)
	}
}

func TestLiveFailuresCLI(t *testing.T) {
	s := livetest.Server(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	db := livetest.DataDir() + "/fbdiag-no-such.fdb"
	wrong := s.Password + "-wrong"
	// The server process may not read a file in the test's private folder.
	secret := filepath.Join(t.TempDir(), "secret.fdb")
	if err := os.WriteFile(secret, nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, password, server string
		args                   []string
		want                   string
	}{
		{"wrong password", wrong, s.Addr, []string{"collect", "--out", filepath.Join(dir, "a.txt"), db},
			"fbdiag: cannot connect to " + s.Addr + ": wrong user name or password"},
		{"server down", s.Password, down, []string{"collect", "--out", filepath.Join(dir, "b.txt"), db},
			"fbdiag: cannot connect to " + down + ": server not reachable"},
		{"unknown database", s.Password, s.Addr, []string{"collect", "--out", filepath.Join(dir, "c.txt"), db},
			"fbdiag: cannot attach to " + db + " on " + s.Addr + ": database not found"},
		{"unreadable database", s.Password, s.Addr, []string{"collect", "--out", filepath.Join(dir, "u.txt"), secret},
			"fbdiag: cannot attach to " + secret + " on " + s.Addr + ": permission denied"},
		{"backup server down", s.Password, down, []string{"backup", "--log", filepath.Join(dir, "d.log"), db, filepath.Join(t.TempDir(), "x.fbk")},
			"fbdiag: cannot connect to " + down + ": server not reachable"},
		{"restore wrong password", wrong, s.Addr, []string{"restore", "--log", filepath.Join(dir, "e.log"), "/tmp/x.fbk", db},
			"fbdiag: cannot connect to " + s.Addr + ": wrong user name or password"},
	} {
		t.Setenv("ISC_PASSWORD", c.password)
		args := append([]string{c.args[0], "--server", c.server}, c.args[1:]...)
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" {
			t.Errorf("%s: exit %d, stdout %q", c.name, code, out)
		}
		oneErrorLine(t, c.name, errs, c.want)
		noSecret(t, wrong, map[string]string{c.name: errs})
		noSecret(t, s.Password, map[string]string{c.name: errs})
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("files left after failures: %v", names)
	}
}

// A connection lost mid-stream leaves neither snapshot nor temporary file.
func TestLiveConnectionLostCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	dir := t.TempDir()
	addr, sent := livetest.CuttingProxy(t, s.Addr, 0)
	if _, errs, code := runCLI(t, nil, "collect", "--server", addr, "--out", filepath.Join(dir, "whole.txt"), db); code != exitOK {
		t.Fatalf("through the proxy: exit %d: %s", code, errs)
	}
	os.Remove(filepath.Join(dir, "whole.txt"))
	os.Remove(filepath.Join(dir, "whole.txt.mon.json"))
	// The second connection is the statistics service (the monitoring
	// attachment comes first): cut it at 80%, in the middle of gstat's text.
	conns := sent()
	if len(conns) != 2 {
		t.Fatalf("connections through the proxy: %v, want SQL and the service", conns)
	}
	cut := conns[1] * 8 / 10
	addr, _ = livetest.CuttingProxyOn(t, s.Addr, 1, cut)
	out, errs, code := runCLI(t, nil, "collect", "--server", addr, "--out", filepath.Join(dir, "cut.txt"), db)
	if code != exitError || out != "" {
		t.Errorf("cut after %d bytes: exit %d, stdout %q", cut, code, out)
	}
	oneErrorLine(t, "connection lost", errs, "fbdiag: cannot read statistics of "+db+" on "+addr+": connection lost")
	if !strings.Contains(errs, "connection lost") {
		t.Errorf("stderr %q does not say the connection was lost", errs)
	}
	if names := liveDirEntries(t, dir); len(names) != 0 {
		t.Errorf("files left after a lost connection: %v", names)
	}
}

// watchCommandLines scans the command lines (what ps shows) of this
// process and its children until stop is called, which returns those that
// held secret. (Other users' processes on the machine are not ours to
// judge.)
func watchCommandLines(t *testing.T, secret string) (stop func() []string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc: command lines cannot be watched")
	}
	done := make(chan struct{})
	result := make(chan []string)
	go func() {
		var seen []string
		for {
			paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range paths {
				if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(secret)) && ownProcess(filepath.Dir(p)) {
					seen = append(seen, string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
				}
			}
			select {
			case <-done:
				result <- seen
				return
			default:
			}
		}
	}()
	return func() []string {
		close(done)
		return <-result
	}
}

// The watcher does see a child whose command line holds the secret. (The
// child lives 2 s: with 0.3 s, under a load of 10 to 12 the watcher's
// goroutine once got no turn while it lived.)
func TestWatchCommandLinesSeesChildren(t *testing.T) {
	stop := watchCommandLines(t, "fbdiag-secret-4711")
	if err := exec.Command("sh", "-c", "sleep 2", "fbdiag-secret-4711").Run(); err != nil {
		t.Skipf("sh: %v", err)
	}
	if seen := stop(); len(seen) == 0 {
		t.Error("a child with the secret on its command line went unnoticed")
	}
}

// ownProcess reports whether /proc/PID is this process or a descendant.
func ownProcess(procDir string) bool {
	self := os.Getpid()
	for range 64 {
		pid, err := strconv.Atoi(filepath.Base(procDir))
		if err != nil || pid <= 1 {
			return false
		}
		if pid == self {
			return true
		}
		stat, err := os.ReadFile(filepath.Join(procDir, "stat"))
		if err != nil {
			return false
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 {
			return false
		}
		procDir = filepath.Join("/proc", f[1])
	}
	return false
}

// --server takes Firebird's own HOST/PORT form as well as HOST:PORT.
func TestLiveServerHostSlashPort(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, server := range []string{host + "/" + port, net.JoinHostPort(host, port)} {
		snap := filepath.Join(t.TempDir(), "h.txt")
		_, errs, code := runCLI(t, nil, "collect", "--server", server, "--switches", "-h", "--out", snap, db)
		if code != exitOK {
			t.Errorf("--server %s: exit %d: %s", server, code, errs)
			continue
		}
		if text := readLiveFile(t, snap); !strings.HasPrefix(text, "# fbdiag collect: server "+s.Addr+" (") {
			t.Errorf("--server %s: snapshot starts %.80q, want server %s", server, text, s.Addr)
		}
	}
}

// --wire-crypt and --auth: collect reports the login plugin and the wire
// as the server and the driver report them, and refuses what the server
// cannot give. Debian's Firebird 3 has AuthServer = Srp and WireCrypt =
// Required with Arc4.
func TestLiveConnectionSecurityCLI(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	dir := t.TempDir()
	out, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--wire-crypt", "required", "--auth", "srp256,srp",
		"--switches", "-h", "--format", "json", "--out", filepath.Join(dir, "ok.txt"), db)
	if code != exitOK {
		t.Fatalf("--wire-crypt required: exit %d: %s", code, errs)
	}
	var res struct {
		Snapshot struct {
			WireCrypt  string `json:"wire_crypt"`
			WireCipher string `json:"wire_cipher"`
		}
		Monitor struct {
			Connection struct {
				AuthMethod    *string `json:"auth_method"`
				WireEncrypted *bool   `json:"wire_encrypted"`
				WireCipher    string  `json:"wire_cipher"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	c := res.Monitor.Connection
	if res.Snapshot.WireCrypt != "required" || res.Snapshot.WireCipher != "Arc4" || c.WireCipher != "Arc4" ||
		c.AuthMethod == nil || *c.AuthMethod != "Srp" || c.WireEncrypted == nil || !*c.WireEncrypted {
		t.Errorf("snapshot %+v, connection %+v (auth %v, encrypted %v)", res.Snapshot, c, ptrString(c.AuthMethod), c.WireEncrypted)
	}
	out, _, code = runCLI(t, nil, "collect", "--server", s.Addr, "--switches", "-h", "--out", filepath.Join(dir, "text.txt"), db)
	// (The view aligns the field's value with the other fields'.)
	if want := regexp.MustCompile(`(?m)^connection +login Srp, wire encrypted \(Arc4\); services wire Arc4; --wire-crypt enabled$`); code != exitOK || !want.MatchString(out) {
		t.Errorf("text output lacks %q:\n%s", want, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--wire-crypt", "disabled"}, "fbdiag: cannot connect to " + s.Addr +
			": wire encryption refused: --wire-crypt disabled and the server's WireCrypt setting do not match"},
		{[]string{"--auth", "Srp256"}, "fbdiag: cannot connect to " + s.Addr +
			": login refused: no authentication plugin both sides accept (offered Srp256;"},
	} {
		args := append(append([]string{"collect", "--server", s.Addr}, c.args...), "--out", filepath.Join(dir, "refused.txt"), db)
		out, errs, code := runCLI(t, nil, args...)
		if code != exitError || out != "" {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
		oneErrorLine(t, strings.Join(c.args, " "), errs, c.want)
		noSecret(t, s.Password, map[string]string{"stderr": errs})
	}
	for _, args := range [][]string{{"--wire-crypt", "on"}, {"--auth", "Win_Sspi"}} {
		if _, _, code := runCLI(t, nil, append(append([]string{"collect"}, args...), db)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if names := liveDirEntries(t, dir); strings.Join(names, " ") != "ok.txt ok.txt.mon.json text.txt text.txt.mon.json" {
		t.Errorf("files: %v", names)
	}
}

func ptrString(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// notInOrder is the first of want that got does not hold after the one
// before it ("" when got holds every line of want, in order).
func notInOrder(want, got []string) string {
	i := 0
	for _, w := range want {
		for i < len(got) && got[i] != w {
			i++
		}
		if i == len(got) {
			return w
		}
		i++
	}
	return ""
}
