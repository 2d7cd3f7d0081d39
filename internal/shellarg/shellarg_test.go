package shellarg

import (
	"runtime"
	"testing"
)

// The paths of the advice's commands are one word each for the shell of
// the server's system: a POSIX path in double quotes had $ and ` expanded
// by sh ("/data/$db.fbk" restored from the file named by $db), and a
// quote in it ended the word.
func TestWord(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/backup/shop.fbk", "/backup/shop.fbk"},
		{"localhost:/var/lib/firebird/data/shop.fdb", "localhost:/var/lib/firebird/data/shop.fdb"},
		{"/backup/pk 1.fbk", "'/backup/pk 1.fbk'"},
		{"/data/$db.fbk", "'/data/$db.fbk'"},
		{"/data/`date`.fbk", "'/data/`date`.fbk'"},
		{"/data/o'brien.fdb", `'/data/o'\''brien.fdb'`},
		{`C:\DATA\SHOP.FDB`, `C:\DATA\SHOP.FDB`},
		{`C:\Program Files\Firebird\employee.fdb`, `"C:\Program Files\Firebird\employee.fdb"`},
		{`d:\fbdata\5.0\horses & co.fdb`, `"d:\fbdata\5.0\horses & co.fdb"`},
		{"server:C:/data/x.fdb", "server:C:/data/x.fdb"},
	} {
		if got := Word(c.in); got != c.want {
			t.Errorf("Word(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A local file name is quoted for this machine's shell: on a POSIX
// system a backslash is a byte of the name, kept in single quotes (bare,
// sh drops it: fbdiag gbak a\b.log reads ab.log), not taken for a
// Windows path.
func TestLocal(t *testing.T) {
	cases := []struct{ in, posix, windows string }{
		{"shop-restore.log", "shop-restore.log", "shop-restore.log"},
		{"/var/log/fb/restore.log.partial", "/var/log/fb/restore.log.partial", "/var/log/fb/restore.log.partial"},
		{`logs\a\b.log`, `'logs\a\b.log'`, `logs\a\b.log`},
		{"stats 1.txt.gz", "'stats 1.txt.gz'", `"stats 1.txt.gz"`},
		{"it's.log", `'it'\''s.log'`, "it's.log"},
		{"", "''", `""`},
	}
	for _, c := range cases {
		want := c.posix
		if runtime.GOOS == "windows" {
			want = c.windows
		}
		if got := Local(c.in); got != want {
			t.Errorf("Local(%q) = %s, want %s", c.in, got, want)
		}
	}
}

// A database behind a client tool's host/port prefix is typed where
// fbdiag runs: quoted for this machine's shell, whatever the server's
// path looks like (a Windows server's path bare in a POSIX shell lost
// its backslashes). Without a prefix it is the server's, as Word.
func TestClient(t *testing.T) {
	cases := []struct{ prefix, path, posix, windows string }{
		{"win/3050:", `C:\DATA\X.FDB`, `'win/3050:C:\DATA\X.FDB'`, `win/3050:C:\DATA\X.FDB`},
		{"localhost/3050:", "/srv/fb data/x.fdb", "'localhost/3050:/srv/fb data/x.fdb'", `"localhost/3050:/srv/fb data/x.fdb"`},
		{"localhost/3050:", "/data/x.fdb", "localhost/3050:/data/x.fdb", "localhost/3050:/data/x.fdb"},
		{"", `C:\DATA\X.FDB`, `C:\DATA\X.FDB`, `C:\DATA\X.FDB`},
		{"", "/data/$db.fdb", "'/data/$db.fdb'", "'/data/$db.fdb'"},
	}
	for _, c := range cases {
		want := c.posix
		if runtime.GOOS == "windows" {
			want = c.windows
		}
		if got := Client(c.prefix, c.path); got != want {
			t.Errorf("Client(%q, %q) = %s, want %s", c.prefix, c.path, got, want)
		}
	}
}
