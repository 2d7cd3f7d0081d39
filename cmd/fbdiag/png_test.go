package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

// The size every --png test asks for: not the default, so the flags are
// seen to reach the drawing.
var pngTestOpts = plot.Options{Width: 640, Height: 360, DPI: 96}

// pngCLI runs an analysis command with --png into a fresh folder and
// returns the folder and stdout.
func pngCLI(t *testing.T, cmd []string, files ...string) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "charts")
	args := append(slices.Clone(cmd), "--png", dir, "--width", "640", "--height", "360", "--dpi", "96")
	out, errs, code := runCLI(t, nil, append(args, files...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d, stderr %s", args, code, errs)
	}
	return dir, out
}

// checkCharts asserts that dir holds exactly the charts, each a PNG of
// the test size whose pixels are the chart's own drawing: what the
// chart's Plotted lists is what the file shows.
func checkCharts(t *testing.T, dir string, charts []*plot.Chart) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	for _, c := range charts {
		want = append(want, c.File())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for _, c := range charts {
		f, err := os.Open(filepath.Join(dir, c.File()))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.File(), err)
		}
		if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 360 {
			t.Errorf("%s: %dx%d, want 640x360", c.File(), b.Dx(), b.Dy())
		}
		raw, err := c.PNG(pngTestOpts)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := png.Decode(strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(img, ref) {
			t.Errorf("%s: pixels differ from the chart drawn from the analysis", c.File())
		}
	}
}

func plotted(t *testing.T, charts []*plot.Chart, kind plot.Kind, series string) *plot.Plotted {
	t.Helper()
	for _, c := range charts {
		if c.Kind == kind {
			if p := c.Series(series); p != nil {
				return p
			}
		}
	}
	t.Fatalf("no %s series %q", kind, series)
	return nil
}

// at is the value of the bar labelled name.
func at(t *testing.T, p *plot.Plotted, name string) float64 {
	t.Helper()
	i := slices.Index(p.Labels, name)
	if i < 0 {
		t.Fatalf("%s: no bar %q in %v", p.Name, name, p.Labels)
	}
	return p.Y[i]
}

func TestGstatPNG(t *testing.T) {
	path := shopPath(t)
	dir, out := pngCLI(t, []string{"gstat"}, path)
	if !strings.Contains(out, "ORDERS") {
		t.Errorf("the analysis is still printed; got %q", out[:min(len(out), 200)])
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, path)
	if err != nil {
		t.Fatal(err)
	}
	a := analyze.Gstat(reps[0], analyze.NewThresholds())
	charts, err := report.GstatCharts(a)
	if err != nil {
		t.Fatal(err)
	}
	checkCharts(t, dir, charts)
	if len(charts) != 3 {
		t.Fatalf("%d charts, want tables, indices and fill", len(charts))
	}
	// ORDERS: 808 pages of 8 KiB, 100000 records, 5000 back versions.
	i := slices.IndexFunc(a.Tables, func(s analyze.TableStats) bool { return s.Name == "ORDERS" })
	orders := a.Tables[i]
	if !eq(orders.SizeBytes, 6619136) || !eq(orders.Records, 100000) || !eq(orders.Versions, 5000) {
		t.Fatalf("ORDERS analysis changed: %+v", orders)
	}
	if v := at(t, plotted(t, charts, plot.KindTables, "size"), "ORDERS"); v != float64(*orders.SizeBytes)/(1<<20) {
		t.Errorf("ORDERS bar %v MiB, want %v", v, float64(*orders.SizeBytes)/(1<<20))
	}
	vers := plotted(t, charts, plot.KindTables, "versions per record")
	size := plotted(t, charts, plot.KindTables, "size")
	if k := slices.Index(size.Labels, "ORDERS"); vers.Y[k] != 0.05 {
		t.Errorf("ORDERS back versions per record %v, want 0.05 (5000 of 100000)", vers.Y[k])
	}
	if v := at(t, plotted(t, charts, plot.KindIndices, "largest"), "OL_ITEM"); v != 3.4609375 {
		t.Errorf("OL_ITEM %v MiB, want 3.4609375 (443 pages of 8 KiB)", v)
	}
}

func TestGbakPNG(t *testing.T) {
	path := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	dir, _ := pngCLI(t, []string{"gbak"}, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := analyze.ReadGbakTimeline(f, path)
	if err != nil {
		t.Fatal(err)
	}
	charts := view.Gbak(tl, view.GbakOptions{}).Charts
	checkCharts(t, dir, charts)
	spans := plotted(t, charts, plot.KindRestoreTimeline, "spans")
	// ORDER_LINE's data: 24.882 s, the longest step of the restore.
	if d := at(t, spans, "ORDER_LINE"); d != 24.882 || d != slices.Max(spans.Y) {
		t.Errorf("ORDER_LINE span %v, want 24.882 s, the longest", d)
	}
}

// A backup's charts are named for a backup (finding 9: the shop backup's
// timeline was restore-timeline-…, a compare of two backups
// restore-comparison-compare.png); a restore's keep their names.
func TestGbakBackupPNGNames(t *testing.T) {
	b := testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log")
	r := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	b2 := filepath.Join(t.TempDir(), "again.log")
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b2, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd, files []string
		want       string
	}{
		{[]string{"gbak"}, []string{b}, "backup-timeline-shop-gbak-backup-v-st.log.png"},
		{[]string{"gbak"}, []string{r}, "restore-timeline-shop-gbak-restore-v-st.log.png"},
		{[]string{"gbak", "compare"}, []string{b, b2}, "backup-comparison-compare.png"},
		{[]string{"gbak", "compare"}, []string{r, r}, "restore-comparison-compare.png"},
	} {
		dir := t.TempDir()
		_, errs, code := runCLI(t, nil, slices.Concat(c.cmd, []string{"--png", dir}, c.files)...)
		names, _ := filepath.Glob(filepath.Join(dir, "*.png"))
		if code != 0 || len(names) != 1 || filepath.Base(names[0]) != c.want {
			t.Errorf("%v: exit %d, %v; want %s: %s", c.cmd, code, names, c.want, errs)
		}
	}
}

func TestGbakComparePNG(t *testing.T) {
	a := testutil.Testdata(t, "seeds", "restore-balanced.log")
	b := testutil.Testdata(t, "seeds", "restore-high-performance.log")
	dir, _ := pngCLI(t, []string{"gbak", "compare"}, a, b)
	var runs []analyze.GbakRun
	for i, p := range []string{a, b} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := analyze.ReadGbakTimeline(f, p)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, analyze.GbakRun{Label: []string{"balanced", "high-performance"}[i], Timeline: tl})
	}
	charts := view.GbakCompare(analyze.CompareTimelines(runs...), view.GbakCompareOptions{}).Charts
	checkCharts(t, dir, charts)
	// The seed's slowest index: 0:20:58 balanced (the baseline), 0:10:23
	// high performance, labelled ×0.495 faster as the text has it.
	want := map[string]float64{"balanced": 1258.271, "high-performance": 622.882}
	var found bool
	for _, p := range charts[0].Plotted {
		for i, l := range p.Labels {
			if strings.Contains(l, "INDMF_TAG_PLC_DATA_DT_D") {
				found = true
				if p.Y[i] != want[p.Name] {
					t.Errorf("%s %s: %v s, want %v", p.Name, l, p.Y[i], want[p.Name])
				}
			}
		}
	}
	if !found {
		t.Errorf("INDMF_TAG_PLC_DATA_DT_D not plotted: %+v", charts[0].Plotted)
	}
}

func TestThroughputPNG(t *testing.T) {
	path := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	dir, out := pngCLI(t, []string{"throughput", "--format", "json"}, path)
	var res analyze.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not the JSON alone: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, runs, _, err := parse.ReadThroughput(f, path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := analyze.Throughput(analyze.Input{Tables: tables, Runs: runs}, analyze.Options{})
	if err != nil {
		t.Fatal(err)
	}
	charts := view.Throughput(r, filepath.Base(path)).Charts
	checkCharts(t, dir, charts)
	if charts[0].File() != "size-throughput-degradation-throughput-sata.csv.png" {
		t.Errorf("file %s", charts[0].File())
	}
	if len(charts[0].Plotted) == 0 || len(charts[0].Plotted[0].Y) == 0 {
		t.Fatalf("nothing plotted: %+v", charts[0].Plotted)
	}
}

// A file of the user's under a chart's name stops --png before anything
// is written; fbdiag's own charts are replaced on the next run.
func TestPNGKeepsUserFile(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "indices-shop-gstat-a-r.txt.png")
	if err := os.WriteFile(mine, []byte("my slide\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, nil, "gstat", "--png", dir, shopPath(t))
	if code != 1 || !strings.Contains(errs, "was not written by fbdiag") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(mine); string(b) != "my slide\n" {
		t.Errorf("user file replaced: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables-shop-gstat-a-r.txt.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a chart was written before the check: %v", err)
	}
	os.Remove(mine)
	for range 2 {
		if _, errs, code := runCLI(t, nil, "gstat", "--png", dir, shopPath(t)); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	}
}

func TestPNGFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"gstat", "--png", t.TempDir(), "--width", "10"},
		{"gbak", "--png", t.TempDir(), "--dpi", "5000"},
		{"throughput", "--png", t.TempDir(), "--height", "9000"},
	} {
		path := shopPath(t)
		if _, _, code := runCLI(t, nil, append(args, path)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// gstat trend --png: the history charts of the real pair, at the size
// asked, drawn from the trend's figures.
func TestGstatTrendPNG(t *testing.T) {
	a, b := shopPath(t), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")
	dir, _ := pngCLI(t, []string{"gstat", "trend"}, a, b)
	var snaps []*analyze.HistorySnapshot
	for _, p := range []string{a, b} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(f, p)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, analyze.NewHistorySnapshot(reps[0], analyze.SnapshotOptions{}))
	}
	charts, err := view.HistoryTrendCharts(analyze.TrendOf(snaps, 0), view.HistoryTop)
	if err != nil {
		t.Fatal(err)
	}
	checkCharts(t, dir, charts)
	// STOCK's 15000 back versions, collected by the second snapshot.
	if v := plotted(t, charts, plot.KindHistoryVersions, "STOCK"); len(v.Y) != 2 || v.Y[0] != 15000 || v.Y[1] != 0 {
		t.Errorf("STOCK back versions %v, want [15000 0]", v.Y)
	}
}

// TestGstatPNGBig: --png on a 16 MiB gstat -a -r (12,576 tables grown
// from the fb30 sample), with text and with JSON, draws the charts the
// whole analysis draws while the run is read table by table: the peak
// memory of the process stays under 80 MB (a whole analysis took 6.6
// times the input, 105 MB here, and 660 MB at 100 MiB; 32 MiB, as this
// test read before, took twice the CPU to tell the same).
func TestGstatPNGBig(t *testing.T) {
	t.Parallel() // (a process of its own: beside the live tests, which mostly wait)
	path, a := bigGstatRun(t, 16<<20)
	charts, err := report.GstatCharts(a)
	if err != nil {
		t.Fatal(err)
	}
	a = nil
	for _, format := range []string{"text", "json"} {
		dir := filepath.Join(t.TempDir(), format)
		rss := runPeakTo(t, nil, "gstat", "--format", format, "--png", dir, "--width", "640", "--height", "360", "--dpi", "96", path)
		checkCharts(t, dir, charts)
		t.Logf("%s: peak %d MB", format, rss>>10)
		if rss > 80<<10 && !testutil.Race { // (the race detector's shadow memory doubles it)
			t.Errorf("%s --png: peak RSS %d MB, want at most 80", format, rss>>10)
		}
	}
}

// readPeakKB reads what a helper run wrote to peakRSSEnv ("123456 kB").
func readPeakKB(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kb int
	if _, err := fmt.Sscanf(string(b), "%d kB", &kb); err != nil {
		t.Fatalf("%s: %q: %v", path, b, err)
	}
	return kb
}
