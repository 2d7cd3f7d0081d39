package parse

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		`gbak -b -g -v -user SYSDBA -password masterkey "localhost:c:\tmp\x.fdb"`:       `gbak -b -g -v -user SYSDBA -password *** "localhost:c:\tmp\x.fdb"`,
		`c:\Firebird\5.0>gstat server/3055:horses -u SYSDBA -p masterkey -h`:            `c:\Firebird\5.0>gstat server/3055:horses -u SYSDBA -p *** -h`,
		`gfix -user SYSDBA -pa "secret word" -sweep db`:                                 `gfix -user SYSDBA -pa *** -sweep db`,
		`fbsvcmgr localhost:service_mgr user SYSDBA password masterkey action_db_stats`: `fbsvcmgr localhost:service_mgr user SYSDBA password *** action_db_stats`,
		`ISC_PASSWORD=masterkey gstat -h db`:                                            `ISC_PASSWORD=*** gstat -h db`,
		`gbak -c -par 4 -v x.fbk db`:                                                    `gbak -c -par 4 -v x.fbk db`,
		`Page buffers 2048`:                                                             `Page buffers 2048`,
	} {
		if got := string(Redact([]byte(in))); got != want {
			t.Errorf("Redact(%q) = %q; want %q", in, got, want)
		}
	}
}

// The public Windows log starts with the gbak command line, password and
// all; the "skipped" notice quoted it.
func TestGbakSkippedLineRedacted(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "public", "gbak", "14_cli_backup_restore_verbose_windows.log"))
	if err != nil {
		t.Fatal(err)
	}
	r := NewGbakReader(bytes.NewReader(data), "14.log")
	for r.Next() {
	}
	got := r.Notices()[0].String()
	want := `14.log:1: skipped a line that is not gbak output: "gbak -b -g -v -user SYSDBA -password *** \"localhost:c:\\tmp\\t"`
	if got != want || strings.Contains(got, "masterkey") {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestGstatSkippedLineRedacted(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "public", "gstat", "02_fb5_header_remote_issue8282.txt"))
	if err != nil {
		t.Fatal(err)
	}
	reps, err := ReadGstat(bytes.NewReader(data), "8282.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := reps[0].Notices[0].String()
	want := `8282.txt:1: skipped a line that is not gstat output: "c:\\Firebird\\5.0>gstat server/3055:horses -u SYSDBA -p *** -h"`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Redact's quick test lets through every line the expression alone would
// change: the corpus's lines, the cases above in other cases, and those
// the fuzzer makes.
func FuzzRedactSame(f *testing.F) {
	for _, s := range []string{"gstat -P x", "GSTAT -PASSWORD x", "isc_password=x", "-pa\t\"a b\"", "paſſword x", "x-p y", "p-passwordx y"} {
		f.Add(s)
	}
	seen := map[string]bool{} // (22,812 lines, 2,386 of them different)
	for _, dir := range []string{"gbak", "gstat"} {
		files, _ := os.ReadDir(testutil.Corpus(f, "public", dir))
		for _, e := range files {
			data, _ := os.ReadFile(testutil.Corpus(f, "public", dir, e.Name()))
			for l := range strings.SplitSeq(string(data), "\n") {
				if !seen[l] {
					seen[l] = true
					f.Add(l)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		want := passwordRe().ReplaceAll([]byte(line), []byte("${1}${3}***"))
		if got := Redact([]byte(line)); !bytes.Equal(got, want) {
			t.Errorf("Redact(%q) = %q; the expression gives %q", line, got, want)
		}
	})
}
