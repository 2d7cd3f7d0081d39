package analyze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Public 16 (firebird#8003): gbak 5.0.1 -z against a 3.0.11 server fails
// with "table id 51 is not defined" and nothing else; -z printed both
// versions, and the advice names them and the gbak to run. The same log
// with a 5.0 server, or an older gbak (the downgrade path), gets none.
func TestGbakNewerThanServerAdvice(t *testing.T) {
	path := testutil.Corpus(t, "public", "gbak", "16_gbak_z_version_issue8003.log")
	tl := timelineOf(t, path)
	want := "gbak 5.0 (WI-V5.0.1.1333 Firebird 5.0) ran against a Firebird 3.0 server (WI-V3.0.11.33666 Firebird 3.0): " +
		"a gbak newer than the server asks for system tables and columns the server does not have (firebird#8003: " +
		"\"table id 51 is not defined\", Firebird 4.0's RDB$PUBLICATIONS, with a 3.0 server; firebird#8128: \"invalid request BLR\" " +
		"with a 2.5 server); run the gbak of the server's own version, 3.0"
	if len(tl.Advice) != 1 || tl.Advice[0] != (GbakAdvice{Message: "table id 51 is not defined", Advice: want}) {
		t.Errorf("advice %+v", tl.Advice)
	}
	if len(tl.Steps) != 3 || tl.Steps[2].Object != "server" || tl.Steps[2].Name != "WI-V3.0.11.33666 Firebird 3.0" || tl.Steps[2].Line != 4 {
		t.Errorf("steps %+v", tl.Steps)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to string }{
		{"same version", `"WI-V3.0.11.33666 Firebird 3.0"`, `"WI-V5.0.1.1333 Firebird 5.0"`},
		{"older gbak", "gbak version WI-V5.0.1.1333 Firebird 5.0", "gbak version WI-V2.5.9.27139 Firebird 2.5"},
	} {
		p := filepath.Join(t.TempDir(), "z.log")
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), c.from, c.to)), 0o644); err != nil {
			t.Fatal(err)
		}
		if tl := timelineOf(t, p); len(tl.Advice) != 0 || len(tl.Errors) != 1 {
			t.Errorf("%s: advice %+v, errors %q", c.name, tl.Advice, tl.Errors)
		}
	}
}
