package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ want, got, diff string }{
		{"a\nb\n", "a\nc\n", "line 2:\n  want \"b\"\n  got  \"c\"\n  (3 lines wanted, 3 got)"},
		{"a\n", "a\nb\n", "line 2:\n  want \"\"\n  got  \"b\"\n  (2 lines wanted, 3 got)"},
		{"a\nb\n", "a\n", "line 2:\n  want \"b\"\n  got  \"\"\n  (3 lines wanted, 2 got)"},
		{"a\nb", "a\nb\n", "line 2:\n  want \"b\"\n  got  \"b\"\n  (2 lines wanted, 3 got)"},
	} {
		if d := firstDiff(c.want, c.got); d != c.diff {
			t.Errorf("firstDiff(%q, %q) =\n%s\nwant\n%s", c.want, c.got, d, c.diff)
		}
	}
}

// Golden passes on the file's exact bytes and, with -update, writes them.
func TestGolden(t *testing.T) {
	p := filepath.Join(t.TempDir(), "golden", "x.txt")
	old := *update
	defer func() { *update = old }()
	*update = true
	Golden(t, p, []byte("one\ntwo\n"))
	*update = false
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "one\ntwo\n" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	Golden(t, p, []byte("one\ntwo\n"))
}
