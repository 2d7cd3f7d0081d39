package report

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// fleetSeries are the real gstat outputs a test fleet is made of, one
// list a database: the growth capture (5 runs 10 minutes apart), the
// shop before and after a sweep, and single runs of other databases
// (Firebird 2.5 and 3.0 test databases with -a, -r, -s, -f; the codes and
// records databases of testdata/gstat; a Windows one).
func fleetSeries(t testing.TB) [][]string {
	td := func(rel ...string) string { return testutil.Testdata(t, rel...) }
	pub := func(name string) string { return testutil.Corpus(t, "public", "gstat", name) }
	var grow []string
	for _, n := range []string{"00", "10", "20", "30", "40"} {
		grow = append(grow, td("growth", "grow-"+n+"-a-r.txt"))
	}
	out := [][]string{grow, {td("fb30", "shop-gstat-a-r.txt"), td("fb30", "shop-gstat-r-later.txt")}}
	for _, f := range []string{"fb30/shop-gstat-s-r.txt", "fb30/shop-gstat-i.txt", "fb30/shop-gstat-d.txt",
		"gstat/codes-4k-gstat-a-r.txt", "gstat/codes-8k-gstat-a-r.txt", "gstat/codes-16k-gstat-a-r.txt",
		"gstat/records-4k-gstat-r.txt", "gstat/records-8k-bigr-gstat-r.txt"} {
		out = append(out, []string{td(strings.Split(f, "/")...)})
	}
	for _, v := range []string{"25", "30"} {
		for _, sw := range []string{"a", "r", "s", "f"} {
			out = append(out, []string{pub("FirebirdSQL-fdb__gstat" + v + "-" + sw + ".out")})
		}
	}
	return append(out, []string{pub("fdcastel-PSFirebird__gstat-output.txt")})
}

var (
	fleetDatabaseLine = regexp.MustCompile(`(?m)^Database "[^"\n]*"`)
	fleetTimeLine     = regexp.MustCompile(`(?m)^Gstat execution time [^\r\n]*`)
)

// writeFleet writes dbs×snaps gstat files into dir: database j is
// /data/fleet/dbNN.fdb, its snapshot k taken k days after the first
// (2027-01-04, after every sample's creation date), each the next run of
// its series (a single run repeated: a database that did not change).
// Only the database path and the execution time lines are rewritten.
func writeFleet(t testing.TB, dir string, dbs, snaps int) {
	series := fleetSeries(t)
	base := time.Date(2027, 1, 4, 2, 0, 0, 0, time.UTC)
	for j := 0; j < dbs; j++ {
		ser := series[j%len(series)]
		for k := 0; k < snaps; k++ {
			raw, err := os.ReadFile(ser[k*len(ser)/snaps])
			if err != nil {
				t.Fatal(err)
			}
			s := fleetDatabaseLine.ReplaceAllLiteralString(string(raw), fmt.Sprintf(`Database "/data/fleet/db%02d.fdb"`, j))
			at := base.Add(time.Duration(k)*24*time.Hour + time.Duration(j)*time.Minute)
			s = fleetTimeLine.ReplaceAllLiteralString(s, "Gstat execution time "+at.Format(time.ANSIC))
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("db%02d-snap%02d.txt", j, k)), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Issue 15: a folder of 300 gstat snapshots of 30 databases makes a page
// of at most 4 MB: 30 database sections, each with its latest snapshot
// in full and its history (one diff, one trend, one set of charts).
func TestReportFleetScale(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	in := t.TempDir()
	writeFleet(t, in, 30, 10)
	start, cpu := time.Now(), testutil.CPUTime()
	ins, _, errs := Inputs([]string{in})
	if len(errs) > 0 || len(ins) != 300 {
		t.Fatalf("%d inputs, %v", len(ins), errs)
	}
	r := Build("fleet", "fbdiag test", ins)
	out := t.TempDir()
	if _, err := WriteDir(out, r, plot.Options{}); err != nil {
		t.Fatal(err)
	}
	elapsed, used := time.Since(start), testutil.CPUTime()-cpu
	st, err := os.Stat(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("300 snapshots of 30 databases: %d bytes, %d charts drawn of %d, %v (%v CPU)",
		st.Size(), len(r.Drawn()), len(r.Figures()), elapsed.Round(time.Millisecond), used.Round(time.Millisecond))
	if st.Size() > 4_000_000 {
		t.Errorf("page of %d bytes, over 4 MB", st.Size())
	}
	if len(r.Sections) != 30 || len(r.Databases) != 30 {
		t.Fatalf("%d sections, %d databases", len(r.Sections), len(r.Databases))
	}
	page, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Sections {
		if len(s.Database.Snapshots) != 10 || len(s.Sources) != 10 {
			t.Errorf("%s: %d snapshots", s.ID, len(s.Database.Snapshots))
		}
	}
	// The charts that did not fit are linked, each to its file; a
	// database's tables and size history charts are all embedded.
	linked := regexp.MustCompile(`<p class="linked"><a href="([^"]+)">`).FindAllStringSubmatch(string(page), -1)
	for _, m := range linked {
		if _, err := os.Stat(filepath.Join(out, m[1])); err != nil {
			t.Errorf("linked chart: %v", err)
		}
		if strings.HasPrefix(m[1], "tables-") || strings.HasPrefix(m[1], "history-size-") {
			t.Errorf("%s not embedded", m[1])
		}
	}
	note := fmt.Sprintf("<p class=\"muted\">%d charts are not embedded, to keep this page under 4 MB", len(linked))
	if len(linked) == 0 || !strings.Contains(string(page), note) {
		t.Errorf("%d charts linked; the summary lacks %q", len(linked), note)
	}
	// Each history once: the diff of the latest two, the trend of all.
	for _, want := range []string{"<h3>The latest snapshot and the one before (fbdiag gstat diff)</h3>", "<h3>Every snapshot (fbdiag gstat trend)</h3>"} {
		if n := strings.Count(string(page), want); n != 30 {
			t.Errorf("%d of %q, want one a database", n, want)
		}
	}
}

// BenchmarkReportFleet is the report of 300 gstat snapshots of 30
// databases, written to a folder, with its CPU time a report (the machine
// may be shared).
func BenchmarkReportFleet(b *testing.B) {
	in := b.TempDir()
	writeFleet(b, in, 30, 10)
	benchReportDir(b, in)
}

// BenchmarkReportCorpusDir is fbdiag report --out DIR ../shared/corpus
// (acceptance: 2 s on two cores).
func BenchmarkReportCorpusDir(b *testing.B) {
	benchReportDir(b, testutil.CorpusDir(b))
}

func benchReportDir(b *testing.B, in string) {
	out := b.TempDir()
	var size int64
	cpu := testutil.CPUTime()
	for i := 0; i < b.N; i++ {
		ins, _, errs := Inputs([]string{in})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		r := Build("bench", "fbdiag bench", ins)
		index, err := WriteDir(out, r, plot.Options{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(index)
		if err != nil {
			b.Fatal(err)
		}
		size = st.Size()
	}
	b.ReportMetric(float64(testutil.CPUTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(size), "page-bytes")
}
