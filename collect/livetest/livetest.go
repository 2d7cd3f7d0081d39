// Package livetest connects the tests to a live Firebird server and builds
// their databases from testdata/live. Without a server the tests skip with
// a message saying how to run them; with FBDIAG_LIVE=1 (as .ci/run sets)
// they fail instead, so CI cannot pass by skipping.
package livetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// DefaultDataDir is where Debian's server may create databases (owned by
// the firebird user); FBDIAG_LIVE_DIR overrides it.
const DefaultDataDir = "/var/lib/firebird/3.0/data"

const howTo = "live tests need a Firebird server: start it, export ISC_USER/ISC_PASSWORD " +
	"(e.g. set -a; . /etc/firebird/3.0/SYSDBA.password; set +a) and FBDIAG_LIVE=1 " +
	"(or run .ci/run); FBDIAG_SERVER picks the server (default localhost), see docs/live.md"

// Mandatory reports whether FBDIAG_LIVE=1 makes the live tests required.
func Mandatory() bool { return os.Getenv("FBDIAG_LIVE") == "1" }

// Server returns the live server, after checking that it answers. It skips
// the test when no server is configured or reachable, or fails it when
// FBDIAG_LIVE=1. The test holds the live test lock shared until it ends,
// so that a test that kills the server (ExclusiveServer) waits for it.
func Server(t testing.TB) collect.Server {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		if Mandatory() {
			t.Fatalf("FBDIAG_LIVE=1 but "+format, args...)
		}
		t.Skipf("skipped: "+format+"; "+howTo, args...)
	}
	pw := os.Getenv("ISC_PASSWORD")
	if pw == "" {
		unavailable("ISC_PASSWORD is not set")
	}
	// (After the credentials: a test that will skip does not wait for
	// the lock.)
	holdShared(t)
	user := os.Getenv("ISC_USER")
	if user == "" {
		user = collect.DefaultUser
	}
	addr, err := collect.ParseServer(os.Getenv("FBDIAG_SERVER"))
	if err != nil {
		t.Fatalf("FBDIAG_SERVER: %v", err)
	}
	s := collect.Server{Addr: addr, User: user, Password: pw}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.Version(ctx); err != nil {
		unavailable("the server does not answer: %v", err)
	}
	return s
}

// DataDir is the server folder the tests create their files in.
func DataDir() string {
	if d := os.Getenv("FBDIAG_LIVE_DIR"); d != "" {
		return d
	}
	return DefaultDataDir
}

// TempPath returns a fresh server path in DataDir for a database or
// backup and removes whatever the test leaves there.
func TempPath(t testing.TB, s collect.Server, name string) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	p := path.Join(DataDir(), "fbdiag-test-"+hex.EncodeToString(b[:])+"-"+name)
	t.Cleanup(func() {
		Remove(t, s, p)
		// fbdiag's temporary files beside it, which a test that failed
		// half-way may leave (a server still writing one writes into an
		// unlinked file then, and leaves nothing).
		tmps, _ := filepath.Glob(filepath.Join(path.Dir(p), "."+path.Base(p)+".*"))
		for _, tmp := range tmps {
			os.Remove(tmp)
		}
	})
	return p
}

// ShopDatabase creates a database from testdata/live/shop.sql (known
// data, see the file) and removes it when the test ends. In a package
// whose TestMain runs Main, against a server whose files this process
// can read and write (a local server, the tests run as root or as
// firebird, as in CI), the script runs once a process and each test gets
// a copy of that database (makeCopy); otherwise each runs the script.
func ShopDatabase(t testing.TB, s collect.Server) string {
	t.Helper()
	p := TempPath(t, s, "shop.fdb")
	makeCopy(t, s, p, "shop", runShopScript)
	return p
}

// runShopScript creates the shop database at p.
func runShopScript(t testing.TB, s collect.Server, p string) {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, "live", "shop.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The script runs with forced writes off, then they are put back on,
	// as a new database has them: a sync write per committed statement
	// took half the 1.1 s of each of the suite's sixteen shop databases.
	if _, err := s.CreateEmpty(ctx, p); err != nil {
		t.Fatalf("creating the test database: %v", err)
	}
	if err := s.SetForcedWrites(ctx, p, false); err != nil {
		t.Fatalf("creating the test database: %v", err)
	}
	db, err := s.Pool(ctx, p, 1)
	if err != nil {
		t.Fatalf("creating the test database: %v", err)
	}
	err = s.RunScript(ctx, db, p, f)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.SetForcedWrites(ctx, p, true)
	}
	if err != nil {
		t.Fatalf("creating the test database: %v", err)
	}
}

// BigRows is the row count of BigDatabase: enough that a backup takes
// more than a second on the test machines (1.4 s on Debian's Firebird
// 3.0.11, 2 cores), so that it can be interrupted or killed mid-way.
const BigRows = 300000

// BigDatabase creates a database of one table BIG (ID primary key, S a
// 100-character string, N an indexed number) with rows records,
// generated by the server in one EXECUTE BLOCK, and removes it when the
// test ends. Under Main, as ShopDatabase's, the first of a process is
// made so and the others are copies of it.
func BigDatabase(t testing.TB, s collect.Server, rows int) string {
	t.Helper()
	p := TempPath(t, s, "big.fdb")
	makeCopy(t, s, p, fmt.Sprintf("big%d", rows), func(t testing.TB, s collect.Server, p string) { createBig(t, s, p, rows) })
	return p
}

// createBig creates BigDatabase's database at p.
func createBig(t testing.TB, s collect.Server, p string, rows int) {
	t.Helper()
	// The indices come after the data: one sort each instead of an
	// update per row.
	script := fmt.Sprintf(`CREATE TABLE BIG (ID INTEGER NOT NULL, S VARCHAR(100), N INTEGER);
SET TERM ^ ;
EXECUTE BLOCK AS DECLARE I INTEGER = 0;
BEGIN
  WHILE (I < %d) DO BEGIN INSERT INTO BIG VALUES (:I, LPAD(:I, 100, 'x'), MOD(:I, 1000)); I = I + 1; END
END^
SET TERM ; ^
ALTER TABLE BIG ADD PRIMARY KEY (ID);
CREATE INDEX BIG_N ON BIG (N);
`, rows)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.CreateDatabase(ctx, p, strings.NewReader(script)); err != nil {
		t.Fatalf("creating the big test database: %v", err)
	}
}

// Remove deletes a test file on the server. The file is on this machine
// when the server is local: removing it directly works when the tests
// run as root or as firebird (as in CI); otherwise isql-fb drops the
// database through the server, with credentials from the environment.
func Remove(t testing.TB, s collect.Server, p string) {
	t.Helper()
	err := os.Remove(p)
	if err == nil || os.IsNotExist(err) {
		return
	}
	if !strings.HasSuffix(p, ".fdb") {
		t.Logf("cannot remove %s: %v", p, err)
		return
	}
	cmd := exec.Command("isql-fb", "-q", connString(s.Addr, p))
	cmd.Stdin = strings.NewReader("DROP DATABASE;\n")
	cmd.Env = append(os.Environ(), "ISC_USER="+s.User, "ISC_PASSWORD="+s.Password)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("cannot drop %s: %v: %s", p, err, out)
	}
}

// Fbstat runs the server's own gstat (Debian: fbstat) on database through
// the server, with the credentials in its environment (never argv).
func Fbstat(t testing.TB, s collect.Server, database string, switches ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("fbstat")
	if err != nil {
		if bin, err = exec.LookPath("gstat"); err != nil {
			if Mandatory() {
				t.Fatal("FBDIAG_LIVE=1 but fbstat/gstat is not installed (Debian: firebird3.0-utils)")
			}
			t.Skip("fbstat/gstat not installed (Debian: firebird3.0-utils)")
		}
	}
	cmd := exec.Command(bin, append(switches, connString(s.Addr, database))...)
	cmd.Env = append(os.Environ(), "ISC_USER="+s.User, "ISC_PASSWORD="+s.Password)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", bin, switches, err)
	}
	return out
}

// Gfix runs gfix with the switches on database, as a DBA runs the gfix
// the advice names (the test's credentials in ISC_USER and ISC_PASSWORD,
// the database as host/port:path).
func Gfix(t testing.TB, s collect.Server, database string, switches ...string) {
	t.Helper()
	bin, err := exec.LookPath("gfix")
	if err != nil {
		if Mandatory() {
			t.Fatal("FBDIAG_LIVE=1 but gfix is not installed (Debian: firebird3.0-utils)")
		}
		t.Skip("gfix not installed (Debian: firebird3.0-utils)")
	}
	cmd := exec.Command(bin, append(switches, connString(s.Addr, database))...)
	cmd.Env = append(os.Environ(), "ISC_USER="+s.User, "ISC_PASSWORD="+s.Password)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gfix %v: %v: %s", switches, err, out)
	}
}

// connString is the client tools' form host/port:path.
func connString(addr, p string) string {
	if prefix := collect.ClientPrefix(addr); prefix != "" {
		return prefix + p
	}
	return addr + ":" + p
}
