package analyze

import (
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Public 06 (firebird#8140): gbak -par 4 on a server whose firebird.conf
// has MaxParallelWorkers = 1 logs "use up to 4 parallel workers", then a
// warning, and restores with one worker. The warning had no advice; fbdiag gives it.
func TestGbakParallelWorkersAdvice(t *testing.T) {
	tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", "06_fb5_restore_TD_parallel_warning_issue8140.log"))
	if len(tl.Warnings) != 1 {
		t.Fatalf("warnings %q", tl.Warnings)
	}
	want := "the run had at most 1 parallel worker, not the 4 of -par: MaxParallelWorkers in the server's firebird.conf " +
		"(Firebird 5.0, default 1) caps -par; set MaxParallelWorkers = 4 there and restart the server (SuperServer, SuperClassic; " +
		"Classic reads it at the next connection), or give -par 1"
	if got := GbakMessageAdvice(tl.Warnings[0]); got != want {
		t.Errorf("advice %q", got)
	}
	// The timeline's advice carries it with the warning it answers (the
	// finding's advice in every output, JSON's advice[]), not the notes.
	if len(tl.Advice) != 1 || tl.Advice[0] != (GbakAdvice{Message: tl.Warnings[0], Advice: want}) || len(tl.Notes) != 0 {
		t.Errorf("advice %+v, notes %+v", tl.Advice, tl.Notes)
	}
	if got := GbakMessageAdvice("segment buffer length shorter than expected"); got != "" {
		t.Errorf("advice for another message: %q", got)
	}
}
