package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

func analyseFiles(t *testing.T, paths ...string) []*GstatAnalysis {
	t.Helper()
	var out []*GstatAnalysis
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(f, filepath.Base(p))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			out = append(out, Gstat(r, NewThresholds()))
		}
	}
	return out
}

// The embedded sample's seven snapshots are one database, shop.fdb: its
// findings once each with the number of snapshots that showed them, the
// back versions of the first snapshot resolved by the later ones.
func TestFleetOneDatabase(t *testing.T) {
	files, err := filepath.Glob(testutil.Testdata(t, "fb30", "shop-gstat-*.txt"))
	if err != nil || len(files) != 7 {
		t.Fatalf("%d samples, %v", len(files), err)
	}
	fl := Fleet(analyseFiles(t, files...))
	if len(fl) != 1 {
		t.Fatalf("%d databases", len(fl))
	}
	d := fl[0]
	if d.Database != "/var/lib/firebird/data/shop.fdb" || d.Verdict != VerdictAttention || len(d.Snapshots) != 7 ||
		d.Latest != "shop-gstat-r-later.txt" || d.Snapshots[0] != "shop-gstat-a-r.txt" {
		t.Errorf("%s %s latest %s snapshots %v", d.Database, d.Verdict, d.Latest, d.Snapshots)
	}
	if !strings.HasPrefix(d.Reason, "index-low-selectivity, index ORDERS_CARRIER on ORDERS: 11 distinct values in 95000 keys") {
		t.Errorf("reason %q", d.Reason)
	}
	if d.SizeBytes == nil || *d.SizeBytes != 63586304 || d.NextMinusOAT == nil || *d.NextMinusOAT != 0 || d.Versions == nil || *d.Versions != 0 {
		t.Errorf("size %v, Next-OAT %v, versions %v", d.SizeBytes, d.NextMinusOAT, d.Versions)
	}
	var got []string
	for _, f := range d.Findings {
		got = append(got, f.Rule+" "+f.Table+"."+f.Object+" "+string(f.Severity)+" ×"+strings.Repeat("|", f.Snapshots))
	}
	want := []string{
		"index-low-selectivity ORDERS.ORDERS_CARRIER warning ×||||",
		"index-sparse ORDERS.ORDERS_DATE_D warning ×||||",
		"index-sparse ORDERS.ORDERS_CARRIER warning ×||||",
		"table-fragments .CUSTOMER warning ×|||",
		"index-sparse CUSTOMER.RDB$PRIMARY2 warning ×||||",
		"index-max-dup ORDERS.ORDERS_CARRIER info ×||||",
	}
	testutil.EqualLines(t, "findings", got, want)
	got = nil
	for _, f := range d.Resolved {
		got = append(got, f.Rule+" "+f.Object)
	}
	if want := []string{"table-versions CUSTOMER", "table-versions STOCK", "table-version-length ORDERS"}; !slices.Equal(got, want) {
		t.Errorf("resolved %q, want %q", got, want)
	}
}

// Four databases' gstat files: four rows, worst first.
func TestFleetFourDatabases(t *testing.T) {
	fl := fleetOf(t, "FirebirdSQL-fdb__gstat30-a.out", "Delapro-DelaproImport__Firebird3oder4-fb3010-h.snippet.txt",
		"FirebirdSQL-fdb__gstat25-a.out", "05_fb21_doc_header_and_2x_table_index.txt")
	var got []string
	for _, d := range fl {
		got = append(got, d.Database+" "+d.Verdict)
	}
	want := []string{
		"/opt/firebird/examples/empbuild/employee.fdb attention",
		"/home/fdb/test/fbtest25.fdb attention",
		"/home/fdb/test/FBTEST30.FDB healthy",
		`C:\TEMP\SOHOTECH.FDB healthy`,
	}
	testutil.EqualLines(t, "fleet", got, want)
	if r := fl[1].Reason; r != "ods-old: ODS 11.2 is Firebird 2.5: out of maintenance" {
		t.Errorf("fbtest25: %q", r)
	}
	if r := fl[2].Reason; r != "no warning (16 tables, 39 indices checked)" {
		t.Errorf("FBTEST30: %q", r)
	}
	if r := fl[3].Reason; r != "no warning (header only checked)" {
		t.Errorf("SOHOTECH: %q", r)
	}
}

// One table and its one index are counted in the singular.
func TestFleetReasonSingular(t *testing.T) {
	fl := Fleet(analyseFiles(t, testutil.Corpus(t, "public", "gstat", "Banan4iG-firebird-qa__parallel-test_index.expected.txt")))
	if len(fl) != 1 || fl[0].Reason != "no warning (1 table, 1 index checked)" {
		t.Errorf("fleet %+v", fl)
	}
}

// A database none of whose snapshots shows anything the rules judge
// (firebird-qa's gstat -e outputs: encryption counts alone) is not
// healthy but unknown, listed after the databases with warnings and
// before the healthy ones; an index excerpt is healthy by its indices.
func TestFleetNothingToJudge(t *testing.T) {
	var got []string
	for _, d := range fleetOf(t, "04_fb5_index_stats_issue8404.txt", "Banan4iG-firebird-qa__test_encryption.expected_stdout_rdb5.expected.txt",
		"alexeykovyazin-hqbirdmcp__gstat-header-fb5.0.txt", "FirebirdSQL-fdb__gstat25-h.out") {
		got = append(got, d.Verdict+": "+d.Reason)
	}
	want := []string{
		"attention: ods-old: ODS 11.2 is Firebird 2.5: out of maintenance",
		"unknown: nothing to judge: no header page, no table or index statistics",
		"healthy: no warning (1 index checked)",
		"healthy: no warning (header only checked)",
	}
	testutil.EqualLines(t, "verdicts", got, want)
}

// fleetOf is the fleet of the corpus's public gstat files names.
func fleetOf(t *testing.T, names ...string) []Database {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(testutil.CorpusDir(t), "public", "gstat", n))
	}
	return Fleet(analyseFiles(t, paths...))
}

// A Firebird 6 database's worst finding names its index as gstat does,
// "index SCHEMA.X on SCHEMA.T": joined as "T.X" it read
// "PUBLIC.ORDERS.PUBLIC.ORDERS_CARRIER", a four-part name.
func TestFleetSchemaNames(t *testing.T) {
	fl := Fleet(analyseFiles(t, testutil.Testdata(t, "gstat", "shop-fb6-names.txt")))
	if len(fl) != 1 || !strings.HasPrefix(fl[0].Reason, "index-low-selectivity, index PUBLIC.ORDERS_CARRIER on PUBLIC.ORDERS: 11 distinct values") {
		t.Errorf("%d databases, reason %q", len(fl), fl[0].Reason)
	}
}

// The growth capture's five gstat -a -r runs with a gstat -d and a gstat -h
// run among them: a finding counts the snapshots that could show it, not
// the -h run (no tables, no indices) nor, for an index or record finding,
// the -d run (no index or record statistics): ORDERS_DATE_D was sparse in
// all five runs with indices, not "5 of 7". A -d run taken last resolves
// no index finding either.
func TestFleetFindingsCountTheSnapshotsThatCouldShowThem(t *testing.T) {
	files, err := filepath.Glob(testutil.Testdata(t, "growth", "grow-*.txt"))
	if err != nil || len(files) != 7 {
		t.Fatalf("%d samples, %v", len(files), err)
	}
	fl := Fleet(analyseFiles(t, files...))
	if len(fl) != 1 || len(fl[0].Snapshots) != 7 {
		t.Fatalf("%d databases", len(fl))
	}
	// Each finding with the snapshots that show it, then those resolved.
	findings := func(db Database) []string {
		var got []string
		for _, f := range db.Findings {
			got = append(got, fmt.Sprintf("%s %s %d of %d", f.Rule, f.Object, f.Snapshots, f.Of))
		}
		for _, f := range db.Resolved {
			got = append(got, fmt.Sprintf("resolved %s %s %d of %d", f.Rule, f.Object, f.Snapshots, f.Of))
		}
		return got
	}
	testutil.EqualLines(t, "findings", findings(fl[0]), []string{
		"index-low-selectivity ORDERS_CARRIER 4 of 5",
		"index-sparse ORDERS_DATE_D 5 of 5",
		"resolved table-versions STOCK 2 of 5",
	})

	// grow-10 -a -r, then grow-15 -d: the -d run has tables but no
	// indices and no record statistics.
	fl = Fleet(analyseFiles(t, testutil.Testdata(t, "growth", "grow-10-a-r.txt"), testutil.Testdata(t, "growth", "grow-15-d.txt")))
	testutil.EqualLines(t, "after a -d run", findings(fl[0]), []string{
		"index-low-selectivity ORDERS_CARRIER 1 of 1",
		"index-sparse ORDERS_DATE_D 1 of 1",
	})
}
