package report

import (
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/view"
)

// TestWritePNGs is what an analysis command's --png DIR does: the charts
// of one restore log and one seed table, written as PNG of the asked size.
func TestWritePNGs(t *testing.T) {
	gb := gbakCharts(t, "fb30", "shop-gbak-restore-v-st.log")
	tp := view.Throughput(seedResult(t, "page-buffers-1.7tb.csv"), "page-buffers-1.7tb.csv").Charts
	dir := filepath.Join(t.TempDir(), "png")
	paths, err := WritePNGs(dir, append(gb, tp...), plot.Options{Width: 640, Height: 360, DPI: 96})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"restore-timeline-shop-gbak-restore-v-st.log.png", "sweep-page-buffers-1.7tb.csv.png"}
	if len(paths) != len(want) {
		t.Fatalf("paths %v", paths)
	}
	for i, p := range paths {
		if filepath.Base(p) != want[i] {
			t.Errorf("file %s, want %s", filepath.Base(p), want[i])
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != 640 || cfg.Height != 360 {
			t.Errorf("%s: %v %dx%d", p, err, cfg.Width, cfg.Height)
		}
	}
}

// The mark WritePNGs adds keeps the file a valid PNG and is what lets a
// later run replace it; a file without it is refused.
func TestWritePNGsMark(t *testing.T) {
	dir := t.TempDir()
	charts := gbakCharts(t, "fb30", "shop-gbak-restore-v-st.log")
	paths, err := WritePNGs(dir, charts, smallCharts)
	if err != nil || len(paths) != 1 {
		t.Fatalf("%v %v", paths, err)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
		t.Fatalf("marked PNG: %v", err)
	}
	if ours, err := isOurPNG(paths[0]); !ours || err != nil {
		t.Errorf("own chart not recognised: %v", err)
	}
	if _, err := WritePNGs(dir, charts, plot.Options{}); err != nil {
		t.Errorf("own chart not replaced: %v", err)
	}
	if err := os.WriteFile(paths[0], []byte("\x89PNG\r\n\x1a\nsomeone else's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WritePNGs(dir, charts, plot.Options{}); !errors.Is(err, ErrNotOurs) {
		t.Errorf("foreign file: err %v, want ErrNotOurs", err)
	}
}
