package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// The manual's gstat -e excerpt cuts the header page to "[..]": the text
// printed blanks for what it did not know ("page size , dialect ?",
// "OIT   OAT   OST   Next ") and a server default sweep interval.
func TestWriteGstatHeaderUnknownIsQuestionMark(t *testing.T) {
	path := testutil.Corpus(t, "public", "gstat", "FirebirdSQL-firebird-documentation__firebird-gstat-fb5-e.snippet.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, "fb5-e.txt")
	if err != nil || len(reps) != 2 {
		t.Fatalf("%d reports, %v", len(reps), err)
	}
	var b bytes.Buffer
	if err := WriteGstatRun(&b, Text, analyze.Gstat(reps[1], analyze.NewThresholds()), GstatOptions{}, 1, true); err != nil {
		t.Fatal(err)
	}
	want := "gstat analysis of fb5-e.txt, snapshot 2\n" +
		"Database        C:\\DB\\encrypteddb.fdb\n" +
		"ODS             ? (Firebird ?), page size ?, dialect ?\n" +
		"Page buffers    ?, forced writes unknown\n" +
		"Sweep interval  ?\n" +
		"Transactions    OIT ?  OAT ?  OST ?  Next ?\n" +
		"Gaps            OAT-OIT ?  OST-OIT ?  Next-OAT ?  Next-OST ?\n" +
		"Totals          0 tables, 0 indices\n"
	if out := b.String(); !strings.HasPrefix(out, "\n"+want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
