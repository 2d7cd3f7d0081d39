package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestGstatLanesReadInOrderBig: an input the lanes cannot cut past its
// head (LF line ends, then lone CR ones: no LF to cut at) is read in
// order to its end on one worker, its table records going back to the
// pool they are taken from. Taken from none, they went into one pool and
// stayed there: 311 MB of RSS for 300 MiB. 32 MiB are enough to tell:
// 38 MB both ways, against 53 (text) and 62 MB (JSON) with the records
// put back into a pool nothing takes from; 64 MiB took twice the CPU.
// (That such an input reads as it does whole: analyze's
// TestStreamGstatAgrees.)
func TestGstatLanesReadInOrderBig(t *testing.T) {
	t.Parallel() // (a process of its own)
	_, data := bigGstatFile(t, 32<<20)
	head := bytes.Index(data[256<<10:], []byte("\n\n")) + 256<<10 + 2
	in := append(data[:head:head], bytes.ReplaceAll(data[head:], []byte("\n"), []byte("\r"))...)
	path := filepath.Join(t.TempDir(), "cr.txt")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		rss := runPeakTo(t, nil, "gstat", "--format", format, path)
		t.Logf("%s: peak %d MB", format, rss>>10)
		if rss > 48<<10 && !testutil.Race { // (the race detector's shadow memory doubles it)
			t.Errorf("%s: peak RSS %d MB, want at most 48", format, rss>>10)
		}
	}
}
