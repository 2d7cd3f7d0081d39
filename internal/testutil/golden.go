package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports testutil:
// `go test ./view -update` rewrites the golden files its tests compare.
var update = flag.Bool("update", false, "rewrite the golden files with the output the tests get")

// Golden compares got with the file at path (relative to the test's
// package folder, as testdata/golden/gstat-shop.txt). With -update it
// writes got there instead, creating the folder. A mismatch reports the
// first line that differs and the line counts, and fails the test.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (go test -update writes it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	t.Errorf("%s differs (go test -update rewrites it): %s", path, firstDiff(string(want), string(got)))
}

// firstDiff describes the first line where want and got part.
func firstDiff(want, got string) string {
	wl, gl := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + quote(w, i < len(wl)) + "\n  got  " + quote(g, i < len(gl)) +
				"\n  (" + strconv.Itoa(len(wl)) + " lines wanted, " + strconv.Itoa(len(gl)) + " got)"
		}
	}
	return "same lines, different bytes"
}

func quote(s string, present bool) string {
	if !present {
		return "(end of file)"
	}
	return strconv.Quote(strings.TrimSuffix(s, "\n"))
}
