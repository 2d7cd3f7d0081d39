package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/report"
)

// A gstat header or a gbak log given to 'fbdiag throughput' was read as a
// result table: exit 0 with nothing on stdout (gstat) or an analysis of the
// gbak statistic columns. Both are refused, naming the right command.
func TestThroughputRefusesGstatAndGbak(t *testing.T) {
	cases := []struct{ file, want string }{
		{testutil.Testdata(t, "fb30", "shop-gstat-h.txt"),
			`shop-gstat-h.txt: gstat output (line 3: "Gstat execution time Wed Dec  2 14:14:2…"), not for 'fbdiag throughput': use 'fbdiag gstat'`},
		{testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log"),
			`shop-gbak-restore-v-st.log: gbak output (line 1: "gbak: time     delta  reads  writes"), not for 'fbdiag throughput': use 'fbdiag gbak'`},
	}
	for _, c := range cases {
		out, errs, code := runCLI(t, nil, "throughput", c.file)
		if code != 1 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want 1 and %q", c.file, code, len(out), errs, c.want)
		}
	}
}

// A binary file (here the test binary itself, an executable like /bin/ls)
// made 'fbdiag gstat' print an analysis of the --help text inside it with
// exit 0, and 'fbdiag throughput' read its "Exit status" lines as runs.
func TestBinaryInputRefused(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"gstat", "gbak", "throughput"} {
		out, errs, code := runCLI(t, nil, cmd, exe)
		want := exe + ": binary data (NUL bytes outside UTF-16 text): not the text output"
		if code != 1 || out != "" || !strings.HasPrefix(errs, "fbdiag: "+want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q", cmd, code, len(out), errs)
		}
		_, errs, code = runCLI(t, data, cmd, "-")
		if code != 1 || !strings.Contains(errs, "<stdin>: binary data") {
			t.Errorf("%s -: exit %d, stderr %q", cmd, code, errs)
		}
	}
	// UTF-16 is full of NUL bytes and is still text.
	out, errs, code := runCLI(t, utf16le(t, "shop-gstat-h.txt"), "gstat", "-")
	if code != 0 || !strings.Contains(out, "\nOIT                   20 (oldest interesting)\nOAT                   21 (oldest active)\n") {
		t.Errorf("UTF-16 stdin: exit %d, stderr %q\n%s", code, errs, out)
	}
}

func utf16le(t *testing.T, name string) []byte {
	t.Helper()
	data := testutil.ReadTestdata(t, "fb30", name)
	b := []byte{0xFF, 0xFE}
	for _, r := range string(data) {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// A directory opened fine and failed on the first read as "dir:1: read
// dir: is a directory". (throughput walks folders: TestThroughputFolder.)
func TestDirectoryInputRefused(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"gstat", "gbak"} {
		_, errs, code := runCLI(t, nil, cmd, dir)
		if want := "fbdiag: " + dir + ": is a directory, not a file\n"; code != 1 || errs != want {
			t.Errorf("%s: exit %d, stderr %q; want %q", cmd, code, errs, want)
		}
	}
}

// Throughput notices were printed "fbdiag: notice: file:line: ...", unlike
// gstat's and gbak's, so an editor or CI log could not jump to the line.
func TestThroughputNoticeFileLine(t *testing.T) {
	file := testutil.Corpus(t, "bench", "pgbench-aggregate-log.txt")
	_, errs, code := runCLI(t, nil, "throughput", file)
	want := file + ":1: pgbench aggregate log: tps is the mean of 2 full intervals (first and last dropped as partial)\n"
	if code != 0 || !strings.HasPrefix(errs, want) {
		t.Errorf("exit %d, stderr %q; want it to start with %q", code, errs, want)
	}
	// One full interval: it read "the mean of 1 full intervals".
	rate := testutil.Corpus(t, "bench", "pgbench-aggregate-rate-log.txt")
	_, errs, _ = runCLI(t, nil, "throughput", file, rate)
	if want := "\n" + rate + ":1: pgbench aggregate log: tps is the mean of 1 full interval (first and last dropped as partial)\n"; !strings.Contains(errs, want) {
		t.Errorf("stderr %q; want it to hold %q", errs, want)
	}
}

// A throughput that stops with an error still says what its readers
// said: the rate-limited pgbench log printed the error alone.
func TestThroughputErrorKeepsReaderNotices(t *testing.T) {
	file := testutil.Corpus(t, "bench", "pgbench-aggregate-rate-log.txt")
	_, errs, code := runCLI(t, nil, "throughput", file)
	want := file + ":1: pgbench aggregate log: tps is the mean of 1 full interval (first and last dropped as partial)\n" +
		"fbdiag: every run was made under a rate limit (pgbench -R): their tps is the schedule's rate, not the server's capacity: nothing to compare\n"
	if code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
}

// The load verdict was one line of 117 columns.
func TestThroughputLoadVerdictWraps(t *testing.T) {
	rel := filepath.Join("..", "..", "testdata", "seeds", "degradation-load-sata.csv")
	out, errs, code := runCLI(t, nil, "throughput", rel)
	want := "load speed median 3.36 MiB/s (95 % interval 3.28–3.42; all 3.25–3.65), no significant trend over\n" +
		"  size (-0.7 % per doubling, p=0.200); the 1.77 TiB point has leverage 0.929 (above 0.5): it alone\n" +
		"  sets the slope\n"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stderr %q, output lacks %q:\n%s", code, errs, want, out)
	}
	assertWidth(t, out)
}

func assertWidth(t *testing.T, out string) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
}

// A long file name made the first line of 'fbdiag gstat' wider than 100
// columns (18 of the 51 corpus gstat files); it now loses the start of its
// directory, never the base name.
func TestGstatLongPathFits(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-h.txt")
	name := t.TempDir() + "/" + strings.Repeat("x", 60) + "-shop-gstat-h.txt"
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, nil, "gstat", name)
	first, _, _ := strings.Cut(out, "\n")
	if code != 0 || !strings.HasPrefix(first, "gstat analysis of …") || !strings.HasSuffix(first, "xxxxx-shop-gstat-h.txt") ||
		len([]rune(first)) != 100 {
		t.Errorf("exit %d, first line %q", code, first)
	}
	if !strings.Contains(out, "\nDatabase              /var/lib/firebird/data/shop.fdb\n") {
		t.Errorf("database line changed:\n%s", out)
	}
	assertWidth(t, out)
}

// "fbdiag gstat - -" printed the analysis of standard input, then failed
// on the second, empty read with exit 1.
func TestStdinOnce(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-h.txt")
	for _, cmd := range [][]string{{"gstat"}, {"gstat", "diff"}, {"gstat", "trend"}, {"throughput"}} {
		out, errs, code := runCLI(t, data, append(cmd, "-", "-")...)
		want := "fbdiag: " + strings.Join(cmd, " ") + ": standard input (-) can be read only once\n"
		if code != 2 || out != "" || !strings.HasPrefix(errs, want) {
			t.Errorf("%v - -: exit %d, stdout %d bytes, stderr %q", cmd, code, len(out), errs)
		}
	}
}

// fileBytes, which decides whether a gstat run backs its heap with huge
// pages, counts regular files, standard input redirected from one, and
// not a pipe, a directory or a file that is not there.
func TestFileBytes(t *testing.T) {
	ar, h := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-h.txt")
	if got := fileBytes(nil, []string{ar, h}); got != 8619+621 {
		t.Errorf("fileBytes(a-r, h) = %d, want %d", got, 8619+621)
	}
	f, err := os.Open(ar)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := fileBytes(f, []string{"-", filepath.Dir(ar), filepath.Join(t.TempDir(), "none")}); got != 8619 {
		t.Errorf("fileBytes(< a-r, a folder, a missing file) = %d, want 8619", got)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := fileBytes(r, []string{"-"}); got != 0 {
		t.Errorf("fileBytes(a pipe) = %d, want 0", got)
	}
	if got := fileBytes(strings.NewReader("x"), []string{"-"}); got != 0 {
		t.Errorf("fileBytes(a reader) = %d, want 0", got)
	}
}

// The report backs its heap with huge pages by the size of the files its
// inputs are read from: a folder's files, a file cut in parts once.
func TestInputFiles(t *testing.T) {
	dir := testutil.Testdata(t, "fb30")
	ins, _, errs := report.Inputs([]string{dir})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	want, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if files := inputFiles(ins); !slices.Equal(files, want) {
		t.Errorf("inputFiles of %s = %v, want its %d files", dir, files, len(want))
	}
	// Seed article 003 is read as four parts (two tables, two gbak
	// excerpts), its file counted once.
	mixed := testutil.Testdata(t, "mixed", "003_f44fd1243848db85.txt")
	parts, _, _ := report.Inputs([]string{mixed})
	if files := inputFiles(parts); len(parts) != 4 || !slices.Equal(files, []string{mixed}) {
		t.Errorf("inputFiles of %d parts of %s = %v, want the file once", len(parts), mixed, files)
	}
	if keptHeap(1<<20) != 32<<20 || keptHeap(100<<20) != 400<<20 || keptHeap(1<<30) != 1<<30 {
		t.Errorf("keptHeap(1 MiB, 100 MiB, 1 GiB) = %d, %d, %d", keptHeap(1<<20), keptHeap(100<<20), keptHeap(1<<30))
	}
}

// 'fbdiag gstat shop.fdb' (the database, not gstat's output about it) read
// the system tables' "-" lines of its pages as gstat errors: a CRITICAL
// gstat-error verdict, exit 0. A gzip'd gstat output was "NUL bytes" with
// no word of gunzip.
func TestDatabaseAndCompressedInputRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nightly stats")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	// The header page of a database Firebird 3.0.11 created: page type
	// 1, page size 8192 at 0x10, ODS 12 | 0x8000 at 0x12.
	page := make([]byte, 8192)
	copy(page, []byte{1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x20, 0x0c, 0x80, 3, 0, 0, 0})
	fdb := filepath.Join(dir, "shop.fdb")
	if err := os.WriteFile(fdb, append(page, text...), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(text)
	w.Close()
	gzName := filepath.Join(dir, "stats.txt.gz")
	if err := os.WriteFile(gzName, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"gstat"}, {"gbak"}, {"gstat", "diff", testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")}} {
		out, errs, code := runCLI(t, nil, append(cmd, fdb)...)
		want := "fbdiag: " + fdb + ": binary data (a Firebird database file, ODS 12, 8192-byte pages): run gstat -a -r on it and give fbdiag gstat's output\n"
		if code != 1 || out != "" || errs != want {
			t.Errorf("%v shop.fdb: exit %d, stdout %d bytes, stderr %q; want 1 and %q", cmd, code, len(out), errs, want)
		}
		out, errs, code = runCLI(t, nil, append(cmd, gzName)...)
		want = "fbdiag: " + gzName + ": binary data (gzip-compressed): decompress it first: gunzip -c '" + gzName + "' | fbdiag … -\n"
		if code != 1 || out != "" || errs != want {
			t.Errorf("%v stats.txt.gz: exit %d, stdout %d bytes, stderr %q; want 1 and %q", cmd, code, len(out), errs, want)
		}
	}
}

// 'fbdiag gstat' given a gbak log, or 'fbdiag gbak' given a gstat output
// or a result table, said "no gstat output found" / "no gbak output
// found (… was the log made with -v?)", the latter after a notice of the
// 251 lines it skipped; 'fbdiag throughput' names the right command, and
// now so do they.
func TestGstatAndGbakNameTheCommandOfTheInput(t *testing.T) {
	gbakLog := testutil.Testdata(t, "fb30", "shop-gbak-restore-v-st.log")
	gstatOut := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	table := testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")
	const (
		isGbak  = `gbak output (line 1: "gbak: time     delta  reads  writes")`
		isGstat = `gstat output (line 3: "Gstat execution time Wed Dec  2 14:09:5…")`
		isTable = `a result table (comma-separated table with 3 columns, header line 1: "db,size_gb,ops_per_s")`
	)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gstat", gbakLog}, gbakLog + ": " + isGbak + ", not for 'fbdiag gstat': use 'fbdiag gbak'"},
		{[]string{"gstat", "--format", "json", gbakLog}, gbakLog + ": " + isGbak + ", not for 'fbdiag gstat': use 'fbdiag gbak'"},
		{[]string{"gstat", table}, table + ": " + isTable + ", not for 'fbdiag gstat': use 'fbdiag throughput'"},
		{[]string{"gbak", gstatOut}, gstatOut + ": " + isGstat + ", not for 'fbdiag gbak': use 'fbdiag gstat'"},
		{[]string{"gbak", "--format", "csv", table}, table + ": " + isTable + ", not for 'fbdiag gbak': use 'fbdiag throughput'"},
		{[]string{"gbak", "compare", gbakLog, gstatOut}, gstatOut + ": " + isGstat + ", not for 'fbdiag gbak': use 'fbdiag gstat'"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if want := "fbdiag: " + c.want + "\n"; code != 1 || out != "" || errs != want {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 1 and %q", c.args, code, len(out), errs, want)
		}
	}
	// Standard input too.
	_, errs, code := runCLI(t, testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log"), "gstat", "-")
	if want := "fbdiag: <stdin>: " + isGbak + ", not for 'fbdiag gstat': use 'fbdiag gbak'\n"; code != 1 || errs != want {
		t.Errorf("gstat -: exit %d, stderr %q; want %q", code, errs, want)
	}
}
