package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/collect"
)

// Ctrl-C in collect said "cannot read statistics of X on S:
// interrupted" and no more, where backup and restore say what they
// left: collect leaves no snapshot, and an existing one (--force) as it
// was. (Seen with kill -INT 0.03 to 0.09 s into a collect of the fb30
// shop database.)
func TestCollectInterruptedSaysWhatWasKept(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.txt")
	interrupted := func() error {
		return &collect.Error{Op: "read statistics of", Object: "/data/shop.fdb", Server: "localhost:3050", Kind: collect.KindInterrupted}
	}
	const head = "cannot read statistics of /data/shop.fdb on localhost:3050: interrupted"
	if got, want := nothingWritten(interrupted(), out).Error(), head+"; nothing written"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if err := os.WriteFile(out, []byte("an earlier snapshot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := nothingWritten(interrupted(), out).Error(), head+"; nothing written; "+out+" untouched"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Other failures say what failed, as before.
	lost := &collect.Error{Op: "read statistics of", Object: "/data/shop.fdb", Server: "localhost:3050", Kind: collect.KindLost, Detail: "EOF"}
	if got, want := nothingWritten(lost, out).Error(), "cannot read statistics of /data/shop.fdb on localhost:3050: connection lost (EOF)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
