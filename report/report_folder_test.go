package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Benchmark runs in the current folder are titled with the folder's real
// name (or the one file's name), never "pgbench runs in .".
func TestBenchmarkSectionCurrentFolder(t *testing.T) {
	t.Chdir(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales"))
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"."}, "Throughput (degradation): pgbench runs in folder pgbench-scales"},
		{[]string{"pgbench-rw-scale1.txt", "pgbench-rw-scale10.txt"}, "Throughput (degradation): pgbench runs in folder pgbench-scales"},
		{[]string{"pgbench-rw-scale4.txt"}, "Throughput (degradation): pgbench runs in file pgbench-rw-scale4.txt"},
		{[]string{"../pgbench-scales"}, "Throughput (degradation): pgbench runs in folder pgbench-scales"},
	} {
		ins, _, errs := Inputs(c.paths)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		ss := benchmarkSections(ins)
		if len(ss) != 1 || ss[0].Title != c.want {
			var titles []string
			for _, s := range ss {
				titles = append(titles, s.Title)
			}
			t.Errorf("%v: sections %q, want one %q", c.paths, titles, c.want)
		}
	}
}

// The pgbench runs of a folder named "in" were "Throughput
// (degradation): pgbench runs in in", in the report's list of sections,
// heading and chart: the title says the folder is one.
func TestBenchmarkSectionFolderIn(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pgbench-rw-scale1.txt", "pgbench-rw-scale10.txt", "pgbench-rw-scale100.txt"} {
		b, err := os.ReadFile(filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ins, _, errs := Inputs([]string{in})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ss := benchmarkSections(ins)
	if want := "Throughput (degradation): pgbench runs in folder in"; len(ss) != 1 || ss[0].Title != want {
		var titles []string
		for _, s := range ss {
			titles = append(titles, s.Title)
		}
		t.Errorf("sections %q, want one %q", titles, want)
	}
}

// Two inputs of one name in two folders were two sections of one title,
// "Throughput (sweep): buffers.csv" twice in the list of sections; each
// title now names as much of its path as tells them apart. The gstat of
// a third file, of another name, keeps its title.
func TestSectionTitlesDistinct(t *testing.T) {
	bench := testutil.Testdata(t, "bench")
	r := buildReport(t, "titles", []string{filepath.Join(bench, "buffers.csv"), filepath.Join(bench, "sweep-w1", "buffers.csv"), filepath.Join(bench, "load.csv")})
	var titles []string
	for _, s := range r.Sections {
		titles = append(titles, s.Title)
	}
	want := []string{"Throughput (sweep): bench/buffers.csv", "Throughput (sweep): sweep-w1/buffers.csv", "Throughput (load): load.csv"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Errorf("titles %q, want %q", titles, want)
	}
	// One folder deeper when the folders share a name too.
	if got := pathTail("/a/x/run/buffers.csv", 3); got != "x/run/buffers.csv" {
		t.Errorf("pathTail = %q", got)
	}
}

// The runs of a folder are one section, titled by the folder: the
// corpus's bench and testdata/bench made two sections "Throughput (ab):
// pgbench runs in folder bench". Their titles name as much of the folders' paths
// as tells them apart, as two files of one name do.
func TestSectionTitlesDistinctFolders(t *testing.T) {
	corpus := filepath.Join(testutil.CorpusDir(t), "bench")
	bench := testutil.Testdata(t, "bench")
	r := buildReport(t, "titles", []string{corpus, bench})
	var pgbench []string
	for _, s := range r.Sections {
		if strings.HasPrefix(s.Title, "Throughput (ab): pgbench runs in") {
			pgbench = append(pgbench, s.Title)
		}
	}
	want := []string{"Throughput (ab): pgbench runs in folder corpus/bench", "Throughput (ab): pgbench runs in folder testdata/bench"}
	if strings.Join(pgbench, "\n") != strings.Join(want, "\n") {
		t.Errorf("titles %q, want %q", pgbench, want)
	}
}
