package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 12 A.2: a gbak step claiming 10¹⁴ s hung gbak --png and report
// (one tick per day of the span, memory without bound); 10⁸ s took
// 0.4 s. Both end well within seconds now, with the chart written.
func TestGbakPNGHugeTime(t *testing.T) {
	dir := t.TempDir()
	for _, secs := range []string{"100000000.0", "100000000000000"} {
		log := filepath.Join(dir, "huge-"+secs[:10]+".log")
		text := "gbak:    0.1  0.1  0  0 restoring domain A\ngbak:    " + secs + "  0.001  0  0 committing metadata\n"
		if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "png-"+secs[:10])
		start := time.Now()
		code, _, errs := runCLIWithin(t, 20*time.Second, "gbak", "--png", out, "--width", "400", "--height", "300", "--dpi", "72", log)
		if code != 0 || !strings.Contains(errs, "wrote "+filepath.Join(out, "restore-timeline-huge-"+secs[:10]+".log.png")) {
			t.Errorf("gbak --png %s: exit %d, stderr %q", secs, code, errs)
		}
		r := filepath.Join(dir, "report-"+secs[:10])
		code, stdout, errs := runCLIWithin(t, 20*time.Second, "report", "--out", r, "--width", "400", "--height", "300", "--dpi", "72", log)
		if code != 0 || !strings.Contains(stdout, "1 input, 1 section, 1 chart;") {
			t.Errorf("report %s: exit %d, stdout %q, stderr %q", secs, code, stdout, errs)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s s: gbak --png and report took %s", secs, el)
		}
	}
}
