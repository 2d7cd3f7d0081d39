package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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

// AbortAll removes the files being written, not the committed ones, and
// refuses new ones; RemoveStale removes what a killed run left under
// Create's names only.
func TestAbortAllAndRemoveStale(t *testing.T) {
	defer func() { open.aborted = false }()
	dir := t.TempDir()
	done := filepath.Join(dir, "done.png")
	if err := WriteBytes(done, []byte("x"), Options{}); err != nil {
		t.Fatal(err)
	}
	a, err := Create(filepath.Join(dir, "index.html"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Create(filepath.Join(dir, "chart.png"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.WriteString("<!DOCTYPE html>")
	// A stale file beside them: RemoveStale takes it, not the two.
	stale := filepath.Join(dir, ".old.png.tmp-12345")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveStale(dir, func(name string) bool { return filepath.Ext(name) == ".png" })
	if err != nil || !slices.Equal(removed, []string{stale}) {
		t.Errorf("RemoveStale = %q, %v; want %q", removed, err, stale)
	}
	got := AbortAll()
	slices.Sort(got)
	want := []string{a.Name(), b.Name()}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("AbortAll = %q, want %q", got, want)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"done.png"}) {
		t.Errorf("files %v, want only done.png", got)
	}
	if err := b.Commit(); err == nil {
		t.Error("Commit after AbortAll succeeded")
	}
	if _, err := Create(filepath.Join(dir, "late.png"), Options{}); !errors.Is(err, ErrAborted) {
		t.Errorf("Create after AbortAll: %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"done.png"}) {
		t.Errorf("files %v after the late writes, want only done.png", got)
	}
}

func TestTempOf(t *testing.T) {
	for in, want := range map[string]string{
		".index.html.tmp-123": "index.html", ".a.tmp-b.png.tmp-9": "a.tmp-b.png",
		".index.html.tmp-": "", "index.html.tmp-1": "", ".tmp-1": "", ".x.tmp-1a": "",
	} {
		got, ok := tempOf(in)
		if got != want || ok != (want != "") {
			t.Errorf("tempOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// Finish closes the complete file under its temporary name: the final
// name appears only at Commit, and Abort after Finish leaves nothing.
func TestFinishThenCommitOrAbort(t *testing.T) {
	dir := t.TempDir()
	keep, drop := filepath.Join(dir, "index.html"), filepath.Join(dir, "report.json")
	var files []*File
	for _, p := range []string{keep, drop} {
		f, err := Create(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("<p>new</p>")
		if err := f.Finish(); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if _, err := os.Stat(keep); !os.IsNotExist(err) {
		t.Fatalf("index.html named before Commit: %v", err)
	}
	if err := files[0].Commit(); err != nil {
		t.Fatal(err)
	}
	files[1].Abort()
	ents, _ := os.ReadDir(dir)
	if b, err := os.ReadFile(keep); err != nil || string(b) != "<p>new</p>" || len(ents) != 1 {
		t.Errorf("index.html %q (%v), %d files in the folder; want it alone", b, err, len(ents))
	}
}

// Replacing a file named through a symbolic link (--force onto a link
// to a log kept elsewhere) writes the file the link names, beside it,
// and keeps the link and the file's mode; NoReplace refuses the link
// without following or removing it.
func TestReplaceThroughSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	for _, c := range []struct{ name, target string }{
		{"same folder", filepath.Join(dir, "restore-1.log")},
		{"other folder", filepath.Join(other, "restore.log")},
	} {
		link := filepath.Join(dir, "latest.log")
		os.Remove(link)
		if err := os.WriteFile(c.target, []byte("old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(c.target, link); err != nil {
			t.Fatal(err)
		}
		if err := WriteBytes(link, []byte("old again\n"), Options{NoReplace: true}); !errors.Is(err, ErrExists) {
			t.Errorf("%s: NoReplace onto a link: %v", c.name, err)
		}
		if err := WriteBytes(link, []byte("new\n"), Options{}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: %s is no longer a link (%v, %v)", c.name, link, st.Mode(), err)
		}
		b, err := os.ReadFile(c.target)
		st, _ := os.Stat(c.target)
		if err != nil || string(b) != "new\n" || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: target %q (%v), mode %v; want \"new\\n\", -rw-------", c.name, b, err, st.Mode().Perm())
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"latest.log", "restore-1.log"}) {
		t.Errorf("files %v", got)
	}
	if got := names(t, other); !slices.Equal(got, []string{"restore.log"}) {
		t.Errorf("files in the other folder %v", got)
	}
}

// A link to a file not yet there (a dangling link, relative, through a
// second link) gets its file created where it points, as a shell's
// "> link" would; the links stay.
func TestReplaceThroughDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	hop := filepath.Join(dir, "hop.log")
	link := filepath.Join(dir, "latest.log")
	if err := os.Symlink("logs/restore.log", hop); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("hop.log", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(link, []byte("new\n"), Options{NoReplace: true}); !errors.Is(err, ErrExists) {
		t.Errorf("NoReplace onto a dangling link: %v", err)
	}
	if err := WriteBytes(link, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "logs", "restore.log"))
	if err != nil || string(b) != "new\n" {
		t.Errorf("logs/restore.log %q, %v", b, err)
	}
	for _, l := range []string{link, hop} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", l, err)
		}
	}
	if got := names(t, filepath.Join(dir, "logs")); !slices.Equal(got, []string{"restore.log"}) {
		t.Errorf("files in logs %v", got)
	}
}

// A replaced file keeps its mode (a private 0600 log stays private); a
// loop of links, a folder or a device is refused, not replaced.
func TestReplaceKeepsModeRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "restore.log")
	if err := os.WriteFile(p, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(p, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode after replace %v (%v), want -rw-------", st.Mode().Perm(), err)
	}
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	os.Symlink("b.log", a)
	os.Symlink("a.log", b)
	err := WriteBytes(a, []byte("x"), Options{})
	if err == nil || err.Error() != a+": too many levels of symbolic links (not written)" {
		t.Errorf("loop of links: %v", err)
	}
	sub := filepath.Join(dir, "logs")
	os.Mkdir(sub, 0o755)
	if err := WriteBytes(sub, []byte("x"), Options{}); err == nil || err.Error() != sub+": not a regular file (not replaced)" {
		t.Errorf("folder: %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.log", "b.log", "logs", "restore.log"}) {
		t.Errorf("files %v", got)
	}
}

// AbortAll, which a signal calls, waits for files being committed
// Together: the run ends with both committed, not the first new beside
// the second's earlier file (a report's report.json new, its page old).
func TestAbortAllWaitsForTogether(t *testing.T) {
	defer func() { open.aborted = false }()
	dir := t.TempDir()
	var files [2]*File
	for i, name := range []string{"report.json", "index.html"} {
		f, err := Create(filepath.Join(dir, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(name)
		files[i] = f
	}
	aborted := make(chan []string, 1)
	err := Together(func() error {
		if err := files[0].Commit(); err != nil {
			return err
		}
		go func() { aborted <- AbortAll() }()
		select {
		case got := <-aborted:
			t.Errorf("AbortAll returned %q while the files were committed", got)
		case <-time.After(50 * time.Millisecond):
		}
		return files[1].Commit()
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-aborted; len(got) != 0 {
		t.Errorf("AbortAll removed %q", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"index.html", "report.json"}) {
		t.Errorf("files %v, want index.html and report.json", got)
	}
}
