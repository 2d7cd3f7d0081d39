package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// An incomplete file is kept as NAME.partial, then NAME.partial-2, never
// replacing one; a complete one is refused over an existing file with
// NoReplace; an aborted one leaves nothing.
func TestKeepAsPartial(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "restore.log")
	for i, want := range []string{p + ".partial", p + ".partial-2"} {
		f, err := Create(p, Options{NoReplace: true})
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("gbak: line " + string(rune('1'+i)) + "\n")
		got, err := f.KeepAs(".partial")
		if err != nil || got != want {
			t.Fatalf("KeepAs = %q, %v; want %q", got, err, want)
		}
	}
	if b, _ := os.ReadFile(p + ".partial"); string(b) != "gbak: line 1\n" {
		t.Errorf("first partial log replaced: %q", b)
	}
	f, err := Create(p, Options{NoReplace: true})
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if err := WriteBytes(p, []byte("done\n"), Options{NoReplace: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(p, []byte("again\n"), Options{NoReplace: true}); !errors.Is(err, ErrExists) {
		t.Errorf("NoReplace over an existing file: %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"restore.log", "restore.log.partial", "restore.log.partial-2"}) {
		t.Errorf("files %v", got)
	}
}
