package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// docExample is one "$ fbdiag ..." block of the manual in doc.go and the
// output shown under it.
type docExample struct {
	line int
	args []string
	want []string
}

// docExamples reads the code blocks of doc.go that start with "$ fbdiag".
// A block ends at the next line of prose or the next command.
func docExamples(t *testing.T) []docExample {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	var cur *docExample
	end := func() {
		if cur == nil {
			return
		}
		for len(cur.want) > 0 && cur.want[len(cur.want)-1] == "" {
			cur.want = cur.want[:len(cur.want)-1]
		}
		out = append(out, *cur)
		cur = nil
	}
	for i, l := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(l, "//\t$ fbdiag "):
			end()
			cur = &docExample{line: i + 1, args: strings.Fields(strings.TrimPrefix(l, "//\t$ fbdiag "))}
		case cur != nil && l == "//":
			cur.want = append(cur.want, "")
		case cur != nil && strings.HasPrefix(l, "//\t"):
			cur.want = append(cur.want, strings.TrimPrefix(l, "//\t"))
		default:
			end()
		}
	}
	end()
	return out
}

// matchElided compares output lines with a shown example in which a line
// "..." stands for any number of lines.
func matchElided(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		if len(want) == 1 {
			return true
		}
		for j := range got {
			if got[j] == want[1] && matchElided(want[1:], got[j:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchElided(want[1:], got[1:])
}

// TestDocExamples runs every example of the manual from the repository
// root, so that the manual shows what fbdiag prints today.
func TestDocExamples(t *testing.T) {
	examples := docExamples(t)
	if len(examples) < 7 {
		t.Fatalf("found %d examples in doc.go, want at least 7", len(examples))
	}
	t.Chdir(testutil.Root(t))
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, "_"), func(t *testing.T) {
			for _, a := range ex.args {
				if strings.HasPrefix(a, "testdata") {
					if _, err := os.Stat(filepath.FromSlash(a)); err != nil {
						t.Fatalf("doc.go:%d: %v", ex.line, err)
					}
				}
			}
			out, errs, code := runCLI(t, nil, ex.args...)
			if code != exitOK {
				t.Fatalf("doc.go:%d: exit %d: %s", ex.line, code, errs)
			}
			got := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if !matchElided(ex.want, got) {
				t.Errorf("doc.go:%d: fbdiag %s prints\n%s\nwhich the manual does not show", ex.line, strings.Join(ex.args, " "), out)
			}
		})
	}
}

func TestMatchElided(t *testing.T) {
	got := []string{"Index builds", "RDB$PRIMARY6", "RDB$PRIMARY5", "", "Slowest 3 steps"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"Index builds", "RDB$PRIMARY6", "...", "Slowest 3 steps"}, true},
		{[]string{"Index builds", "..."}, true},
		{[]string{"Index builds", "RDB$PRIMARY5", "..."}, false},
		{[]string{"Index builds", "...", "Slowest 4 steps"}, false},
		{[]string{"Index builds", "RDB$PRIMARY6"}, false}, // no elision: all lines shown
	} {
		if matchElided(c.want, got) != c.ok {
			t.Errorf("matchElided(%q) = %v", c.want, !c.ok)
		}
	}
}
