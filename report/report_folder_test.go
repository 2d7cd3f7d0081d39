package report

import (
	"path/filepath"
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
		{[]string{"."}, "Throughput (degradation): pgbench runs in pgbench-scales"},
		{[]string{"pgbench-rw-scale1.txt", "pgbench-rw-scale10.txt"}, "Throughput (degradation): pgbench runs in pgbench-scales"},
		{[]string{"pgbench-rw-scale4.txt"}, "Throughput (degradation): pgbench runs in pgbench-rw-scale4.txt"},
		{[]string{"../pgbench-scales"}, "Throughput (degradation): pgbench runs in pgbench-scales"},
	} {
		ins, errs := Inputs(c.paths)
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
