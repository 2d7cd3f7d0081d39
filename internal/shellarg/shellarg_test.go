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
