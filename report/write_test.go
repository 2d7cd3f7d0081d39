package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func TestWriteBuildsTablesOnlyWhenAsked(t *testing.T) {
	built := 0
	tables := func() []*Table {
		built++
		tb := &Table{Name: "t", Columns: Cols("item", ">value")}
		tb.Add("page size", "8192")
		return []*Table{tb}
	}
	var b bytes.Buffer
	if err := Write(&b, JSON, map[string]int{"page_size": 8192}, tables); err != nil {
		t.Fatal(err)
	}
	if built != 0 || b.String() != "{\n  \"page_size\": 8192\n}\n" {
		t.Errorf("JSON built tables %d times, wrote %q", built, b.String())
	}
	b.Reset()
	if err := Write(&b, CSV, nil, tables); err != nil {
		t.Fatal(err)
	}
	if built != 1 || b.String() != "table,item,value\nt,page size,8192\n" {
		t.Errorf("CSV: built %d times, wrote %q", built, b.String())
	}
}

func TestWriteNotices(t *testing.T) {
	var b bytes.Buffer
	WriteNotices(&b, "fbdiag: notice: ", []parse.Notice{
		{File: "restore.log", Line: 12, Msg: "wrapped counter repaired"},
		{File: "<stdin>", Msg: "no header line"},
	})
	if want := "fbdiag: notice: restore.log:12: wrapped counter repaired\nfbdiag: notice: <stdin>: no header line\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// A chart of the earlier report in the folder that this one does not
// draw is removed: the A/B chart of restore-page-buffers.csv stayed
// beside the page after its section became a sweep. A PNG the earlier
// page did not name, fbdiag's (--png) or a user's, stays.
func TestWriteDirRemovesStaleCharts(t *testing.T) {
	seeds := testutil.Testdata(t, "seeds")
	dir := t.TempDir()
	write := func(files ...string) {
		t.Helper()
		var paths []string
		for _, f := range files {
			paths = append(paths, filepath.Join(seeds, f))
		}
		ins, _, errs := Inputs(paths)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if _, err := WriteDir(dir, Build("r", "fbdiag test", ins), smallCharts); err != nil {
			t.Fatal(err)
		}
	}
	write("power-plan-tpcc.tsv", "page-buffers-1.7tb.csv")
	for _, f := range []string{"ab-power-plan-tpcc.tsv.png", "sweep-page-buffers-1.7tb.csv.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	// A --png chart (marked) and a user's picture, neither on the page.
	marked, err := os.ReadFile(filepath.Join(dir, "ab-power-plan-tpcc.tsv.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tables-other.png"), marked, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.png"), []byte("\x89PNG not fbdiag's"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("page-buffers-1.7tb.csv")
	for f, want := range map[string]bool{
		"ab-power-plan-tpcc.tsv.png":       false,
		"sweep-page-buffers-1.7tb.csv.png": true,
		"tables-other.png":                 true,
		"mine.png":                         true,
	} {
		if _, err := os.Stat(filepath.Join(dir, f)); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", f, err == nil, want)
		}
	}
}

// A chart name the earlier page gives is a file of the report's folder
// only: a page whose figure id spells a path in character references
// (fig-..&#47;NAME.png) does not remove a marked chart outside it.
func TestWriteDirStaleChartsStayInFolder(t *testing.T) {
	seeds := testutil.Testdata(t, "seeds")
	parent := t.TempDir()
	dir := filepath.Join(parent, "rep")
	ins, _, errs := Inputs([]string{filepath.Join(seeds, "page-buffers-1.7tb.csv")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := WriteDir(dir, Build("r", "fbdiag test", ins), smallCharts); err != nil {
		t.Fatal(err)
	}
	marked, err := os.ReadFile(filepath.Join(dir, "sweep-page-buffers-1.7tb.csv.png"))
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(parent, "outside.png")
	if err := os.WriteFile(outside, marked, 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, IndexFile)
	page, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page = bytes.Replace(page, []byte("</body>"), []byte(`<figure id="fig-..&#47;outside.png"></figure></body>`), 1)
	if err := os.WriteFile(index, page, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir, Build("r", "fbdiag test", ins), smallCharts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("a chart outside the report's folder was removed: %v", err)
	}
}
