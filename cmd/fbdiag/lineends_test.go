package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func loneCR(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r")) }

// copyFolder writes the files of src into dst through conv.
func copyFolder(t *testing.T, src, dst string, conv func([]byte) []byte) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(src, "*.txt"))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(p)), conv(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The pgbench scale sweep with lone CRs: 'detect' recognised every file
// but 'throughput' refused them ("no table and no benchmark result
// found"). They now give the JSON of the LF files, figure for figure.
func TestThroughputLoneCRPgbench(t *testing.T) {
	src := filepath.Join(testutil.CorpusDir(t), "bench", "pgbench-scales")
	dir := t.TempDir()
	lf, cr := filepath.Join(dir, "lf"), filepath.Join(dir, "cr")
	copyFolder(t, src, lf, func(b []byte) []byte { return b })
	copyFolder(t, src, cr, loneCR)

	want, errs, code := runCLI(t, nil, "throughput", "--format", "json", lf)
	if code != 0 || !strings.Contains(want, `"y": 1740.173002`) || strings.Count(want, `"source": `) < 12 {
		t.Fatalf("LF: exit %d, %s\n%s", code, errs, want)
	}
	got, errs, code := runCLI(t, nil, "throughput", "--format", "json", cr)
	if code != 0 || errs != "" {
		t.Fatalf("lone CR: exit %d, %s", code, errs)
	}
	if got = strings.ReplaceAll(got, cr, lf); got != want {
		t.Errorf("lone CR JSON differs from LF:\n%s\nwant\n%s", got, want)
	}
	out, _, code := runCLI(t, nil, "detect", cr)
	if code != 0 || strings.Count(out, "benchmark  pgbench") != 12 {
		t.Errorf("detect: exit %d\n%s", code, out)
	}
}

// bigShop is the fb30 gstat output with its table blocks repeated n
// times, the tables renamed NAME_i.
func bigShop(t *testing.T, n int) []byte {
	src := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	s := string(src)
	start, end := strings.Index(s, "CUSTOMER (129)"), strings.Index(s, "Gstat completion time")
	var b bytes.Buffer
	b.WriteString(s[:start])
	for i := range n {
		r := strings.NewReplacer(" (1", fmt.Sprintf("_%d (1", i))
		b.WriteString(r.Replace(s[start:end]))
	}
	b.WriteString(s[end:])
	return b.Bytes()
}

// A 2 MB gstat output with lone CRs was one 1 MiB line cut short: 794 of
// 1,500 tables, a "line longer than 1048576 bytes cut" notice, exit 0,
// in 10 s. It reads as the LF file does.
func TestGstatLoneCRBig(t *testing.T) {
	data := bigShop(t, 250)
	if len(data) != 1_980_990 {
		t.Fatalf("%d bytes", len(data))
	}
	want, errs, code := runCLI(t, data, "gstat", "--format", "json", "-")
	if code != 0 || errs != "" || strings.Count(want, `"name": `) != 4000 || !strings.Contains(want, `"name": "WAREHOUSE_249"`) {
		t.Fatalf("LF: exit %d, %s, %d names", code, errs, strings.Count(want, `"name": `))
	}
	got, errs, code := runCLI(t, loneCR(data), "gstat", "--format", "json", "-")
	if code != 0 || errs != "" {
		t.Fatalf("lone CR: exit %d, %s", code, errs)
	}
	if got != want {
		t.Errorf("lone CR: %d names, want 4000", strings.Count(got, `"name": `))
	}
}

// A 1 MB restore log with lone CRs (ORDER_LINE's progress over 16,000
// lines) took 13 s and was cut at 1 MiB: 159,820,000 records, outcome
// "incomplete". It reads as the LF file does.
func TestGbakLoneCR(t *testing.T) {
	src := testutil.ReadTestdata(t, "fb30", "shop-gbak-restore-v-st.log")
	head, _, ok := strings.Cut(string(src), "restoring data for table ORDER_LINE\n")
	if !ok {
		t.Fatal("no ORDER_LINE in the log")
	}
	var b strings.Builder
	b.WriteString(head + "restoring data for table ORDER_LINE\n")
	ms := 3747
	for k := 1; k <= 16000; k++ {
		ms += 600
		fmt.Fprintf(&b, "gbak: %4d.%03d  0.600      0      0    %d records restored\n", ms/1000, ms%1000, k*10000)
	}
	fmt.Fprintf(&b, "gbak: %4d.%03d  0.001      0      0 finishing, closing, and going home\n", ms/1000, ms%1000+1)
	data := []byte(b.String())
	if len(data) != 1_049_821 {
		t.Fatalf("%d bytes", len(data))
	}
	want, errs, code := runCLI(t, data, "gbak", "--format", "json", "-")
	if code != 0 || !strings.Contains(want, `"records": 160000000`) || !strings.Contains(want, `"outcome": "completed"`) {
		t.Fatalf("LF: exit %d, %s\n%s", code, errs, want)
	}
	got, errs, code := runCLI(t, loneCR(data), "gbak", "--format", "json", "-")
	if code != 0 || got != want {
		t.Errorf("lone CR: exit %d, %s\n%.2000s", code, errs, got)
	}
}
