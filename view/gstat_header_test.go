package view

import (
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// corpusGstat analyses the runs of a gstat file of the shared corpus,
// read in place.
func corpusGstat(t *testing.T, name, shown string) []*analyze.GstatAnalysis {
	t.Helper()
	f, err := os.Open(testutil.Corpus(t, "public", "gstat", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, shown)
	if err != nil {
		t.Fatal(err)
	}
	var out []*analyze.GstatAnalysis
	for _, r := range reps {
		out = append(out, analyze.Gstat(r, analyze.NewThresholds()))
	}
	return out
}

// The manual's gstat -e excerpt cuts the header page to "[..]": what it
// does not show is "?", never a blank ("page size , dialect") or a guess.
func TestGstatHeaderUnknownIsQuestionMark(t *testing.T) {
	runs := corpusGstat(t, "FirebirdSQL-firebird-documentation__firebird-gstat-fb5-e.snippet.txt", "fb5-e.txt")
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	got := string(render(t, Text, cliOptions, Gstat(runs[1], GstatOptions{Several: true})))
	want := "gstat analysis of fb5-e.txt, snapshot 2\n" +
		"Database        C:\\DB\\encrypteddb.fdb\n" +
		"ODS             ?\n" +
		"Firebird        ?\n" +
		"Page size       ?\n" +
		"Dialect         ?\n" +
		"Page buffers    ?\n" +
		"Forced writes   unknown\n" +
		"Sweep interval  ?\n" +
		"gstat run       2024-02-23 12:37:55\n" +
		"OIT             ? (oldest interesting)\n" +
		"OAT             ? (oldest active)\n" +
		"OST             ? (oldest snapshot)\n" +
		"Next            ? (next transaction)\n" +
		"OAT − OIT       ?\n" +
		"OST − OIT       ? (the sweep gap)\n" +
		"Next − OAT      ? (age of the oldest active transaction)\n" +
		"Next − OST      ?\n" +
		"Tables          none printed (gstat -h and -e print the header only)\n" +
		"Indices         none printed (gstat -d, -e and -h print no index statistics; -a and -i do)\n"
	if !strings.HasPrefix(got, want) {
		same(t, "header", got[:min(len(got), len(want))], want)
	}
}

// A sweep interval of 0 is not a denominator: the Firebird 1.5 header
// says the automatic sweep is off, with no share of it.
func TestGstatHeaderSweepDisabled(t *testing.T) {
	a := corpusGstat(t, "06_fb15_header_long_running_issue_firebird_support_2005.txt", "fb15.txt")[0]
	got := string(render(t, Text, cliOptions, Gstat(a, GstatOptions{})))
	for _, want := range []string{
		"\nSweep interval        0 (automatic sweep off)\n",
		"\nOST − OIT             295047 (the sweep gap)\n",
		"\nPage buffers          1000\n",
		"\nForced writes         unknown (no Attributes line)\n",
		"\nPage cache            3.91 MiB per cache: one with SuperServer, one per connection with Classic\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("header lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "of the sweep interval") {
		t.Errorf("a share of an interval of 0:\n%s", got)
	}
}

// Issue 8404's gstat -i excerpt has HORSE_IDX_BIRTHDAY's block without
// its table's line. No table was counted, but not because the run was
// -h or -e, as the text said beside "Indices 1": gstat prints each index
// under its table's line, so the text was cut.
func TestGstatHeaderIndicesWithoutTables(t *testing.T) {
	a := corpusGstat(t, "04_fb5_index_stats_issue8404.txt", "8404.txt")[0]
	got := string(render(t, Text, cliOptions, Gstat(a, GstatOptions{})))
	want := "gstat analysis of 8404.txt\n" +
		"Tables   none printed (an excerpt: gstat prints each index under its table's line)\n" +
		"Indices  1\n"
	if !strings.HasPrefix(got, want) {
		same(t, "header", got[:min(len(got), len(want))], want)
	}
}
