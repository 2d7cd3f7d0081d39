package analyze

import (
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The manual's gstat -e excerpt cuts the header to "[..]": read_only was
// false, a value the file does not give; forced_writes was already null.
func TestHeaderReadOnlyUnknownWhenCut(t *testing.T) {
	for _, c := range []struct {
		dir, file string
		want      string
	}{
		{"public/gstat", "FirebirdSQL-firebird-documentation__firebird-gstat-fb5-e.snippet.txt", "<nil> <nil>"},
		{"fb30", "shop-gstat-h.txt", "false true"},
	} {
		var path string
		if c.dir == "fb30" {
			path = testutil.Testdata(t, "fb30", c.file)
		} else {
			path = testutil.Corpus(t, "public", "gstat", c.file)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(f, c.file)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := Gstat(reps[0], NewThresholds()).Header
		got := fmtBool(h.ReadOnly) + " " + fmtBool(h.ForcedWrites)
		if got != c.want {
			t.Errorf("%s: read_only forced_writes = %s; want %s", c.file, got, c.want)
		}
	}
}

func fmtBool(b *bool) string {
	if b == nil {
		return "<nil>"
	}
	if *b {
		return "true"
	}
	return "false"
}
