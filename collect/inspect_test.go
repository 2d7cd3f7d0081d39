package collect

import (
	"errors"
	"testing"
)

// Finding 3: a file the server cannot open as a database was taken for
// absent on a target fbdiag cannot look at, then restored over "in create
// mode" and reported as a partial database to delete. Only the server's
// "No such file or directory" means absent.
func TestAbsentOnlyWhenNoSuchFile(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want bool
	}{
		{"I/O error during \"open\" operation for file \"/d/x.fdb\"\nError while trying to open file\nNo such file or directory", true},
		{"I/O error during \"CreateFile (open)\" operation for file \"D:\\DB\\X.FDB\"\nError while trying to open file\nThe system cannot find the file specified.", true},
		{"file /d/alnew.fdb is not a valid database", false},
		{"I/O error during \"open\" operation for file \"/d/x.fdb\"\nError while trying to open file\nCan't open database file", false},
		{"I/O error during \"open\" operation for file \"/d/x.fdb\"\nError while trying to open file\nPermission denied", false},
	} {
		if got := absent(errors.New(c.msg)); got != c.want {
			t.Errorf("absent(%q) = %v, want %v", c.msg, got, c.want)
		}
	}
}
