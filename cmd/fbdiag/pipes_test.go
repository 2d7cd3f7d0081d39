package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// devFdPipe is what the shell's <(cat FILE) gives: a /dev/fd/N path of
// a pipe, written by a goroutine.
func devFdPipe(t *testing.T, data []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return fmt.Sprintf("/dev/fd/%d", r.Fd())
}

// fifo is a named pipe (mkfifo) written once by a goroutine.
func fifo(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := mkfifo(p); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() {
		// A writer still waiting for its reader is let go.
		if r, err := os.OpenFile(p, os.O_RDONLY|openNonblock, 0); err == nil {
			select {
			case <-done:
			case <-time.After(time.Second):
			}
			r.Close()
		}
	})
	return p
}

// Issue 12 A.4: every command reads each input once, so <(cat FILE) and
// a named FIFO give what the file gives. report read an input twice: the
// pipe was empty the second time ("no gstat output found") and a FIFO
// waited forever for a second writer.
func TestPipesReadOnce(t *testing.T) {
	files := map[string]string{
		"A": testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"),
		"B": testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
		"L": testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"),
		"M": testutil.Testdata(t, "restores", "restore-remote-run1.log"),
		"T": testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"),
	}
	cmds := [][]string{
		{"gstat", "--format", "json", "A"},
		{"gstat", "diff", "--format", "json", "A", "B"},
		{"gstat", "trend", "--format", "json", "A", "B"},
		{"gbak", "--format", "json", "L"},
		// Labelled: a run is named after its file, and /dev/fd/6 is "6".
		{"gbak", "compare", "--format", "json", "--label", "shop=L", "--label", "remote=M"},
		{"throughput", "--format", "json", "T"},
		{"detect", "--format", "json", "A", "L", "T"},
		{"report", "--out", "R", "--width", "400", "--height", "300", "--dpi", "72", "A", "B", "L", "T"},
	}
	for _, kind := range []string{"pipe", "fifo"} {
		for _, cmd := range cmds {
			name := kind + " " + strings.Join(cmd[:2], " ")
			dir := t.TempDir()
			var want, got []string
			shown := map[string]string{}
			paths := map[string]string{} // a key's pipe, made once
			pipeOf := func(a string) string {
				if p, ok := paths[a]; ok {
					return p
				}
				data, err := os.ReadFile(files[a])
				if err != nil {
					t.Fatal(err)
				}
				var p string
				if kind == "pipe" {
					p = devFdPipe(t, data)
				} else {
					p = fifo(t, dir, a, data)
				}
				paths[a], shown[p] = p, files[a]
				return p
			}
			for _, a := range cmd {
				label, key, isLabel := strings.Cut(a, "=")
				switch {
				case a == "R":
					want, got = append(want, filepath.Join(dir, "R1")), append(got, filepath.Join(dir, "R2"))
				case isLabel && files[key] != "":
					want, got = append(want, label+"="+files[key]), append(got, label+"="+pipeOf(key))
				case files[a] == "":
					want, got = append(want, a), append(got, a)
				default:
					want, got = append(want, files[a]), append(got, pipeOf(a))
				}
			}
			code, wantOut, wantErr := runCLIWithin(t, 30*time.Second, want...)
			if code != 0 {
				t.Fatalf("%s on files: exit %d: %s", name, code, wantErr)
			}
			code, out, errs := runCLIWithin(t, 30*time.Second, got...)
			if code != 0 {
				t.Errorf("%s: exit %d: %s", name, code, errs)
				continue
			}
			for p, f := range shown {
				out = strings.ReplaceAll(out, p, f)
			}
			if cmd[0] == "report" {
				// The summary: inputs, sections, charts, findings.
				wantOut = strings.SplitN(wantOut, "\n", 3)[1]
				out = strings.SplitN(out, "\n", 3)[1]
			}
			if out != wantOut {
				t.Errorf("%s: output differs from the files':\n%s\nwant\n%s", name, clipOut(out), clipOut(wantOut))
			}
		}
	}
}

func clipOut(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}
