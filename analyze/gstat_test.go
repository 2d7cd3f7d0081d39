package analyze

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// analyzeFile parses a gstat file, applies edit to its text first (nil:
// as published) and analyses every run in it with the default thresholds.
func analyzeFile(t testing.TB, path string, edit func(string) string) []*GstatAnalysis {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if edit != nil {
		edited := edit(text)
		if edited == text {
			t.Fatalf("%s: the edit changed nothing", path)
		}
		text = edited
	}
	reps, err := parse.ReadGstat(strings.NewReader(text), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) == 0 {
		t.Fatalf("%s: no gstat report", path)
	}
	out := make([]*GstatAnalysis, len(reps))
	for i, r := range reps {
		out[i] = Gstat(r, NewThresholds())
	}
	return out
}

func shop(t testing.TB) *GstatAnalysis {
	return analyzeFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), nil)[0]
}

func table(t testing.TB, a *GstatAnalysis, name string) *TableStats {
	t.Helper()
	for i := range a.Tables {
		if a.Tables[i].Name == name {
			return &a.Tables[i]
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}

func index(t testing.TB, a *GstatAnalysis, name string) *IndexStats {
	t.Helper()
	for i := range a.Tables {
		for j := range a.Tables[i].Indices {
			if a.Tables[i].Indices[j].Name == name {
				return &a.Tables[i].Indices[j]
			}
		}
	}
	t.Fatalf("no index %s", name)
	return nil
}

func wantInt(t *testing.T, what string, got *int64, want int64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = null, want %d", what, want)
	} else if *got != want {
		t.Errorf("%s = %d, want %d", what, *got, want)
	}
}

func wantFloat(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = null, want %g", what, want)
	} else if math.Abs(*got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %g, want %g", what, *got, want)
	}
}

func TestGstatShopFigures(t *testing.T) {
	a := shop(t)
	h := a.Header
	if h == nil {
		t.Fatal("no header")
	}
	wantInt(t, "page_size", h.PageSize, 8192)
	if h.ODSVersion == nil || *h.ODSVersion != "12.0" || h.FirebirdVersion == nil || *h.FirebirdVersion != "3.0" {
		t.Errorf("ODS %v Firebird %v, want 12.0 and 3.0", h.ODSVersion, h.FirebirdVersion)
	}
	wantInt(t, "oldest_transaction", h.OldestTransaction, 16)
	wantInt(t, "oldest_active", h.OldestActive, 17)
	wantInt(t, "oldest_snapshot", h.OldestSnapshot, 17)
	wantInt(t, "next_transaction", h.NextTransaction, 18)
	wantInt(t, "oat_minus_oit", h.OATMinusOIT, 1)
	wantInt(t, "ost_minus_oit", h.OSTMinusOIT, 1)
	wantInt(t, "next_minus_oat", h.NextMinusOAT, 1)
	wantInt(t, "next_minus_ost", h.NextMinusOST, 1)
	// No "Sweep interval" clumplet in this header: the server default
	// (20000) is what the gap is compared with, the interval stays null.
	if h.SweepInterval != nil {
		t.Errorf("sweep_interval = %d, want null (not printed)", *h.SweepInterval)
	}
	wantFloat(t, "sweep_gap_share", h.SweepGapShare, 1.0/20000)
	wantInt(t, "transaction_id_limit", h.TransactionIDLimit, 1<<48-1)
	wantInt(t, "transaction_id_headroom", h.TransactionIDHeadroom, 1<<48-1-18)
	if h.ForcedWrites == nil || !*h.ForcedWrites {
		t.Errorf("forced_writes = %v, want true", h.ForcedWrites)
	}
	if h.TransactionsPerDay != nil {
		t.Errorf("transactions_per_day = %g; created 10 s before the run, want null", *h.TransactionsPerDay)
	}

	c := table(t, a, "CUSTOMER")
	if c.ID != 129 {
		t.Errorf("CUSTOMER id %d, want 129", c.ID)
	}
	wantInt(t, "CUSTOMER records", c.Records, 30000)
	wantInt(t, "CUSTOMER versions", c.Versions, 10000)
	wantInt(t, "CUSTOMER max_versions", c.MaxVersions, 1)
	wantInt(t, "CUSTOMER data_pages", c.DataPages, 392)
	wantInt(t, "CUSTOMER size_bytes", c.SizeBytes, 392*8192)
	if c.SizeSource == nil || *c.SizeSource != "data_pages" {
		t.Errorf("CUSTOMER size_source %v, want data_pages", c.SizeSource)
	}
	wantFloat(t, "CUSTOMER versions_per_record", c.VersionsPerRecord, 10000.0/30000)
	wantFloat(t, "CUSTOMER fragments_per_record", c.FragmentsPerRecord, 3125.0/30000)
	wantInt(t, "CUSTOMER index_bytes", c.IndexBytes, (23+37)*8192)
	if d := table(t, a, "DOCS"); len(d.BlobLevels) != 3 || d.BlobLevels[0] != 2000 || d.BlobLevels[2] != 0 {
		t.Errorf("DOCS blob levels %v, want [2000 0 0]", d.BlobLevels)
	}

	ix := index(t, a, "CUSTOMER_LAST")
	if ix.Table != "CUSTOMER" {
		t.Errorf("CUSTOMER_LAST table %q", ix.Table)
	}
	wantInt(t, "CUSTOMER_LAST depth", ix.Depth, 2)
	wantInt(t, "CUSTOMER_LAST nodes", ix.Nodes, 30000)
	wantInt(t, "CUSTOMER_LAST total_dup", ix.TotalDup, 29000)
	wantInt(t, "CUSTOMER_LAST max_dup", ix.MaxDup, 29)
	wantInt(t, "CUSTOMER_LAST unique_keys", ix.UniqueKeys, 1000)
	wantInt(t, "CUSTOMER_LAST size_bytes", ix.SizeBytes, 23*8192)
	wantFloat(t, "CUSTOMER_LAST selectivity", ix.Selectivity, 0.001)
	wantFloat(t, "CUSTOMER_LAST dup_ratio", ix.DupRatio, 29000.0/30000)
	wantFloat(t, "CUSTOMER_LAST max_dup_share", ix.MaxDupShare, 29.0/30000)
	wantFloat(t, "CUSTOMER_LAST clustering_ratio", ix.ClusteringRatio, 1.00)
	wantFloat(t, "CUSTOMER_LAST light_share", ix.LightShare, 12.0/23)
	wantFloat(t, "ORDERS_DATE_D light_share", index(t, a, "ORDERS_DATE_D").LightShare, 189.0/190)

	tot := a.Totals
	if tot.Tables != 6 || tot.Indices != 10 {
		t.Errorf("totals %d tables %d indices, want 6 and 10", tot.Tables, tot.Indices)
	}
	wantInt(t, "total records", tot.Records, 30000+2000+100000+500000+50000+5)
	wantInt(t, "total versions", tot.Versions, 10000+5000+15000)
	wantInt(t, "total data pages", tot.DataPages, 392+328+808+4552+464+1)
	wantInt(t, "total table bytes", tot.TableBytes, (392+328+808+4552+464+1)*8192)
	wantInt(t, "total leaf pages", tot.LeafPages, 23+37+2+75+190+62+443+412+31+1)
}

// The FB 5.0.2+ "Table size" line wins over data pages × page size.
func TestGstatTableSizeLine(t *testing.T) {
	a := analyzeFile(t, testutil.Corpus(t, "public", "gstat", "03_fb5_2plus_table_blob_stats_new_format_pr8394.txt"), nil)[0]
	if a.Header != nil {
		t.Errorf("excerpt without header gave header %+v", a.Header)
	}
	b := a.Tables[0]
	wantInt(t, "BLOBS size_bytes", b.SizeBytes, 101924864)
	if b.SizeSource == nil || *b.SizeSource != "table_size" {
		t.Errorf("size_source %v, want table_size", b.SizeSource)
	}
	if len(b.BlobLevels) != 3 || b.BlobLevels[0] != 3 || b.BlobLevels[1] != 6 || b.BlobLevels[2] != 1 {
		t.Errorf("blob levels %v, want [3 6 1]", b.BlobLevels)
	}
	// The second, truncated block has no data pages and no page size:
	// its size is unknown, not zero.
	if s := a.Tables[1]; s.SizeBytes != nil || s.SizeSource != nil {
		t.Errorf("truncated block size %v source %v, want null", s.SizeBytes, s.SizeSource)
	}
}

// Firebird 1.5 header from a list archive: the gaps of a database whose
// oldest active transaction is 253838 transactions old, and the 32-bit
// transaction limit of ODS 10.
func TestGstatFB15Header(t *testing.T) {
	a := analyzeFile(t, testutil.Corpus(t, "public", "gstat", "06_fb15_header_long_running_issue_firebird_support_2005.txt"), nil)[0]
	h := a.Header
	wantInt(t, "oat_minus_oit", h.OATMinusOIT, 319143-22951)
	wantInt(t, "ost_minus_oit", h.OSTMinusOIT, 317998-22951)
	wantInt(t, "next_minus_oat", h.NextMinusOAT, 572981-319143)
	wantInt(t, "next_minus_ost", h.NextMinusOST, 572981-317998)
	wantInt(t, "sweep_interval", h.SweepInterval, 0)
	wantInt(t, "transaction_id_limit", h.TransactionIDLimit, 1<<31-1)
	if h.FirebirdVersion == nil || *h.FirebirdVersion != "1.5" {
		t.Errorf("firebird_version %v, want 1.5", h.FirebirdVersion)
	}
	// A dialect 3 header prints an Attributes line, empty or not: this
	// one was cut by the list archive, so forced writes are unknown.
	if h.ForcedWrites != nil || h.ReadOnly != nil {
		t.Errorf("forced_writes %v, read_only %v; want null (no Attributes line)", h.ForcedWrites, h.ReadOnly)
	}
	// The automatic sweep is disabled: no share of an interval of 0.
	if h.SweepGapShare != nil {
		t.Errorf("sweep_gap_share = %g with sweep interval 0, want null", *h.SweepGapShare)
	}
}

func TestFirebirdVersion(t *testing.T) {
	for _, c := range []struct {
		major, minor int
		want         string
	}{{10, 1, "1.5"}, {11, 1, "2.1"}, {11, 2, "2.5"}, {12, 0, "3.0"}, {13, 0, "4.0"}, {13, 1, "5.0"}, {14, 0, "6.0"}, {99, 0, ""}} {
		if got := FirebirdVersion(c.major, c.minor, ""); got != c.want {
			t.Errorf("ODS %d.%d: %q, want %q", c.major, c.minor, got, c.want)
		}
	}
	if got := FirebirdVersion(12, 3, "RedDatabase"); got != "RedDatabase (Firebird 3.0 ODS)" {
		t.Errorf("RedDatabase 12.3: %q", got)
	}
}

func TestSortTables(t *testing.T) {
	a := shop(t)
	order := func(by string) string {
		ts := append([]TableStats(nil), a.Tables...)
		if err := SortTables(ts, by); err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(ts))
		for i := range ts {
			names[i] = ts[i].Name
		}
		return strings.Join(names, " ")
	}
	for by, want := range map[string]string{
		"size":     "ORDER_LINE ORDERS STOCK CUSTOMER DOCS WAREHOUSE",
		"records":  "ORDER_LINE ORDERS STOCK CUSTOMER DOCS WAREHOUSE",
		"versions": "STOCK CUSTOMER ORDERS DOCS ORDER_LINE WAREHOUSE",
		"depth":    "CUSTOMER DOCS ORDERS ORDER_LINE STOCK WAREHOUSE",
	} {
		if got := order(by); got != want {
			t.Errorf("sort by %s: %s, want %s", by, got, want)
		}
	}
	if err := SortTables(a.Tables, "name"); err == nil {
		t.Error("unknown sort accepted")
	}
}

func mustReport(t testing.TB, in input) *parse.GstatReport {
	t.Helper()
	f, err := os.Open(in.path(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, in.name)
	if err != nil || len(reps) == 0 {
		t.Fatalf("%s: %v (%d reports)", in.name, err, len(reps))
	}
	return reps[0]
}

// Transactions per day need both dates: fdb's 2.5 header was created
// May 27, 2013 23:40:53 and read Wed Apr  4 15:29:10 2018, Next 1807.
func TestGstatTransactionsPerDay(t *testing.T) {
	a := analyzeFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-h.out"), nil)[0]
	created := time.Date(2013, 5, 27, 23, 40, 53, 0, time.UTC)
	run := time.Date(2018, 4, 4, 15, 29, 10, 0, time.UTC)
	wantFloat(t, "transactions_per_day", a.Header.TransactionsPerDay, 1807/run.Sub(created).Hours()*24)
	wantInt(t, "oat_minus_oit", a.Header.OATMinusOIT, 1807-204)
	if a.Header.FirebirdVersion == nil || *a.Header.FirebirdVersion != "2.5" {
		t.Errorf("firebird_version %v, want 2.5", a.Header.FirebirdVersion)
	}
}

// Forced writes are judged only from an Attributes line. The shop header
// shows "force write"; with the line removed (a dialect 3 header always
// has one) nothing is known; the QA template's empty line shows them off.
func TestForcedWritesFromALine(t *testing.T) {
	for _, c := range []struct {
		in   input
		edit func(string) string
		want string
	}{
		{shopHead, nil, "true"},
		{shopHead, replace("\tAttributes\t\tforce write\n", ""), "<nil>"},
		{fb15, nil, "<nil>"},
		{input{"public", "Banan4iG-firebird-qa__test_header.expected.txt"}, nil, "false"},
		{jira12355, replaceLast("\tAttributes\t\tforce write\r\n", ""), "false"},
	} {
		as := analyzeFile(t, c.in.path(t), c.edit)
		a := as[len(as)-1]
		if got := fmtBool(a.Header.ForcedWrites); got != c.want {
			t.Errorf("%s (edited %v): forced_writes %s, want %s", c.in.name, c.edit != nil, got, c.want)
		}
		fired := false
		for _, w := range a.Warnings {
			fired = fired || w.Rule == "forced-writes-off"
		}
		if fired != (c.want == "false") {
			t.Errorf("%s: forced-writes-off fired %v", c.in.name, fired)
		}
	}
}

// The age and the rate need dates far enough apart. fdb's 3.0 header:
// Nov 27, 2015 11:19:39 to Apr 04 2018 15:41:34, Next 2141, both local.
// The Firebird 6 header is 2 h "old", but 4.0+ prints the creation date
// in UTC and the run in local time: refused. The 5.0 header of the horses
// database: Aug 5 09:12:46 to Oct 14 11:21:54, 70 days, Next 1461.
func TestDatabaseAge(t *testing.T) {
	age := func(in input) *HeaderStats { return analyzeFile(t, in.path(t), nil)[0].Header }
	h := age(input{"public", "FirebirdSQL-fdb__gstat30-h.out"})
	days := time.Date(2018, 4, 4, 15, 41, 34, 0, time.UTC).Sub(time.Date(2015, 11, 27, 11, 19, 39, 0, time.UTC)).Hours() / 24
	wantFloat(t, "database_age_days", h.DatabaseAgeDays, days)
	wantFloat(t, "transactions_per_day", h.TransactionsPerDay, 2141/days)
	for _, in := range []input{{"public", "01_fb6_header_and_table_issue8773.txt"}, {"public", "fdcastel-PSFirebird__gstat-output.txt"}, shopHead} {
		if h := age(in); h.DatabaseAgeDays != nil || h.TransactionsPerDay != nil {
			t.Errorf("%s: age %v, rate %v; want null", in.name, h.DatabaseAgeDays, h.TransactionsPerDay)
		}
	}
	h = age(fb5Horses)
	days = time.Date(2024, 10, 14, 11, 21, 54, 0, time.UTC).Sub(time.Date(2024, 8, 5, 9, 12, 46, 0, time.UTC)).Hours() / 24
	wantFloat(t, "transactions_per_day", h.TransactionsPerDay, 1461/days)
}

// Primary, secondary and swept pages (3.0+): DOCS keeps its 2000 small
// blobs on 307 secondary pages, CUSTOMER its versions and fragments on
// 24; nothing has been swept since the data were written.
func TestGstatPageKinds(t *testing.T) {
	a := shop(t)
	wantInt(t, "totals.primary_pages", a.Totals.PrimaryPages, 6203)
	wantInt(t, "totals.secondary_pages", a.Totals.SecondaryPages, 342)
	wantInt(t, "totals.swept_pages", a.Totals.SweptPages, 0)
	wantInt(t, "DOCS secondary_pages", table(t, a, "DOCS").SecondaryPages, 307)
	wantInt(t, "CUSTOMER secondary_pages", table(t, a, "CUSTOMER").SecondaryPages, 24)
	// SMALLU after its update: 6 of 288 primary pages swept.
	r := analyzeFile(t, records4k.path(t), nil)[0]
	wantInt(t, "SMALLU swept_pages", table(t, r, "SMALLU").SweptPages, 6)
	wantInt(t, "BIGR big_record_pages", table(t, r, "BIGR").BigRecordPages, 300)
}

// Which creation dates are UTC. hqbirdmcp's three servers read one
// database at 23:04 local: 3.0's gstat prints it created at 22:55:41,
// 4.0's and 5.0's at 20:55:41 and :42, the header's UTC timestamp as
// stored; fdb's 3.0 header prints local time; a header without an ODS
// line cannot say.
func TestCreationDateUTC(t *testing.T) {
	for _, c := range []struct {
		in   input
		want string
	}{
		{input{"public", "alexeykovyazin-hqbirdmcp__gstat-header-fb3.0.txt"}, "false"},
		{input{"public", "alexeykovyazin-hqbirdmcp__gstat-header-fb4.0.txt"}, "true"},
		{input{"public", "alexeykovyazin-hqbirdmcp__gstat-header-fb5.0.txt"}, "true"},
		{input{"public", "fdcastel-PSFirebird__gstat-output.txt"}, "true"},
		{input{"public", "01_fb6_header_and_table_issue8773.txt"}, "true"},
		{input{"public", "FirebirdSQL-fdb__gstat30-h.out"}, "false"},
		{shopHead, "false"},
	} {
		h := analyzeFile(t, c.in.path(t), nil)[0].Header
		if got := fmtBool(h.CreationDateUTC); got != c.want {
			t.Errorf("%s: creation_date_utc %s, want %s", c.in.name, got, c.want)
		}
	}
	noODS := func(s string) string {
		return regexp.MustCompile(`(?m)^\s*ODS version.*\n`).ReplaceAllString(s, "")
	}
	h := analyzeFile(t, input{"public", "alexeykovyazin-hqbirdmcp__gstat-header-fb5.0.txt"}.path(t), noODS)[0].Header
	if h.CreationDate == nil || h.CreationDateUTC != nil || h.CreationZoneSlack() != 14*time.Hour {
		t.Errorf("no ODS line: creation %v, utc %s, slack %v; want a date, null, 14h", h.CreationDate, fmtBool(h.CreationDateUTC), h.CreationZoneSlack())
	}
}
