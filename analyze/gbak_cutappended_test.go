package analyze

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The Windows session of the corpus (a gbak -b -v, then a gbak -c -v,
// logged to one file, no -st) without the backup's closing line: a
// backup killed before it finished, then a restore. It read "completed"
// (the restore's "finishing, closing, and going home") with "the file
// holds both backup and restore lines". The restore's first line starts
// another run; the backup is incomplete.
func TestReadGbakTimelineCutBackupThenRestore(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "public", "gbak", "14_cli_backup_restore_verbose_windows.log"))
	if err != nil {
		t.Fatal(err)
	}
	const closing = "gbak:closing file, committing, and finishing. 2560 bytes written\n"
	if !bytes.Contains(data, []byte(closing)) {
		t.Fatalf("the sample has no %q", closing)
	}
	cut := bytes.Replace(data, []byte(closing), nil, 1)
	for _, stream := range []bool{false, true} {
		var tl *Timeline
		if stream {
			tl, err = StreamGbakTimeline(bytes.NewReader(cut), "both2.log", GbakStream{})
		} else {
			tl, err = ReadGbakTimeline(bytes.NewReader(cut), "both2.log")
		}
		if err != nil {
			t.Fatal(err)
		}
		if tl.Kind == nil || *tl.Kind != "backup" || tl.Outcome != GbakIncomplete {
			t.Errorf("stream %v: kind %v outcome %s; want backup, incomplete", stream, derefS(tl.Kind), tl.Outcome)
		}
		for _, n := range tl.Notes {
			if strings.Contains(n, "both backup and restore") {
				t.Errorf("stream %v: note %q", stream, n)
			}
		}
		want := "both2.log:11: another gbak run starts here (a restore's first line; the backup before it has no closing line): " +
			"only the first is analysed; give each run its own file ('fbdiag gbak compare' compares them)"
		if n := len(tl.Notices); n == 0 || tl.Notices[n-1].String() != want {
			t.Errorf("stream %v: notices %v; want last %q", stream, tl.Notices, want)
		}
	}
}

func derefS(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
