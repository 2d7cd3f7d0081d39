package analyze

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// snapshotFile reads the only (or last) gstat run of a file.
func snapshotFile(t testing.TB, path string) *HistorySnapshot {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reps, err := parse.ReadGstat(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return NewHistorySnapshot(reps[len(reps)-1], SnapshotOptions{})
}

// snapshotText parses gstat text built in a test.
func snapshotText(t testing.TB, name, text string) *HistorySnapshot {
	t.Helper()
	reps, err := parse.ReadGstat(strings.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	return NewHistorySnapshot(reps[len(reps)-1], SnapshotOptions{})
}

func tableDiff(t *testing.T, d *SnapshotDiff, name string) TableDiff {
	t.Helper()
	for _, td := range d.Tables {
		if td.Name == name {
			return td
		}
	}
	t.Fatalf("table %s not in the diff", name)
	return TableDiff{}
}

func wantPair(t *testing.T, what string, p Pair, before, after int64) {
	t.Helper()
	if p[0] == nil || p[1] == nil || *p[0] != before || *p[1] != after {
		t.Errorf("%s = %s, want [%d, %d]", what, pairString(p), before, after)
	}
}

func pairString(p Pair) string {
	s := func(v *int64) string {
		if v == nil {
			return "null"
		}
		return strconv.FormatInt(*v, 10)
	}
	return "[" + s(p[0]) + ", " + s(p[1]) + "]"
}

// The real pair of corpus/fb30: gstat -a -r while back versions existed,
// then gstat -r 4 min 38 s later after garbage collection.
func TestDiffShopPair(t *testing.T) {
	before := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	after := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	d := Diff(before, after)

	// 14:09:54 → 14:14:32.
	if d.SecondsBetween == nil || *d.SecondsBetween != 278 {
		t.Fatalf("seconds_between = %v, want 278", d.SecondsBetween)
	}
	// Next transaction 18 → 26.
	if d.TransactionsBetween == nil || *d.TransactionsBetween != 8 {
		t.Fatalf("transactions_between = %v, want 8", d.TransactionsBetween)
	}
	wantRate := 8 / (278.0 / 3600)
	if d.TransactionsPerHour == nil || math.Abs(*d.TransactionsPerHour-wantRate) > 1e-9 {
		t.Errorf("transactions_per_hour = %v, want %.4f", d.TransactionsPerHour, wantRate)
	}
	if math.Abs(wantRate-103.597) > 0.001 {
		t.Errorf("rate %.4f, want about 103.597/hour", wantRate)
	}
	// Next − OAT: 18 − 17 = 1 before, 26 − 26 = 0 after. At 103.6 an
	// hour the first would be 35 s old, but the database was created at
	// 14:09:44, 10 s before the first snapshot (issue 13): the estimate is
	// left out and the age bounded by those 10 s. The OAT after (26) is
	// above the first snapshot's Next (18): it started after it.
	if a := d.OATAgeHours; a[0] != nil || a[1] == nil || *a[1] != 0 {
		t.Errorf("oat_age_hours = %v, want [null, 0]", a)
	}
	b, a := d.OATAge[0], d.OATAge[1]
	if b.EstimateHours != nil || *b.MinHours != 0 || math.Abs(*b.MaxHours-10.0/3600) > 1e-12 ||
		b.Note != "the database was created 10.000 s before; the rate estimate, 34.750 s, is longer than that: left out" {
		t.Errorf("oat age before %+v", b)
	}
	if a.EstimateHours == nil || *a.EstimateHours != 0 || *a.MinHours != 0 || math.Abs(*a.MaxHours-278.0/3600) > 1e-12 {
		t.Errorf("oat age after %+v", a)
	}
	counters := map[string]Pair{}
	for _, c := range d.Counters {
		counters[c.Name] = c.Values
	}
	wantPair(t, "oldest_transaction", counters["oldest_transaction"], 16, 25)
	wantPair(t, "oldest_active", counters["oldest_active"], 17, 26)
	wantPair(t, "next_transaction", counters["next_transaction"], 18, 26)
	wantPair(t, "next_minus_oat", counters["next_minus_oat"], 1, 0)

	orders := tableDiff(t, d, "ORDERS")
	if orders.Status != StatusChanged {
		t.Errorf("ORDERS status %s", orders.Status)
	}
	wantPair(t, "ORDERS records", orders.Records, 100000, 95000)
	wantPair(t, "ORDERS versions", orders.Versions, 5000, 0)
	wantPair(t, "ORDERS data pages", orders.DataPages, 808, 768)
	wantPair(t, "ORDERS size", orders.SizeBytes, 808*8192, 768*8192)
	if orders.BackVersions == nil || *orders.BackVersions != VersionsCollected {
		t.Errorf("ORDERS back versions %v, want collected", orders.BackVersions)
	}
	// −5000 records in 278 s is −1 553 957 records per day.
	if r := orders.RecordsPerDay; r == nil || math.Abs(*r-(-5000/(278.0/86400))) > 1e-6 {
		t.Errorf("ORDERS records_per_day = %v", r)
	}

	cust := tableDiff(t, d, "CUSTOMER")
	wantPair(t, "CUSTOMER versions", cust.Versions, 10000, 0)
	wantPair(t, "CUSTOMER records", cust.Records, 30000, 30000)
	wantPair(t, "CUSTOMER data pages", cust.DataPages, 392, 392)
	if cust.Status != StatusChanged {
		t.Errorf("CUSTOMER status %s, want changed (versions collected)", cust.Status)
	}
	if docs := tableDiff(t, d, "DOCS"); docs.Status != StatusUnchanged {
		t.Errorf("DOCS status %s, want unchanged", docs.Status)
	}
	if ch, ix := d.Count(StatusAdded); ch != 0 || ix != 0 {
		t.Errorf("added %d tables %d indices, want none", ch, ix)
	}
	if len(d.Tables) != 6 || len(d.Indices) != 10 {
		t.Errorf("%d tables, %d indices; want 6 and 10", len(d.Tables), len(d.Indices))
	}
	// Same ODS, same switches for the blocks: nothing only in one.
	if len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) != 0 {
		t.Errorf("fields only before %v, after %v", d.FieldsOnlyBefore, d.FieldsOnlyAfter)
	}
	if len(d.Warnings) != 0 {
		t.Errorf("warnings %q", d.Warnings)
	}
	for _, ix := range d.Indices {
		if ix.DepthGrew {
			t.Errorf("index %s: depth did not grow in the real pair", ix.Name)
		}
	}
}

// A renamed table is a drop plus a create, and a b-tree that gains a
// level is flagged. Built from the real -a -r output: ORDERS renamed to
// ORDERS_2026 with the same id, and CUSTOMER_LAST's depth edited 2 → 3.
func TestDiffRenameAndDepth(t *testing.T) {
	text := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	edited := strings.Replace(text, "ORDERS (130)", "ORDERS_2026 (130)", 1)
	edited = strings.Replace(edited, "Root page: 243, depth: 2,", "Root page: 243, depth: 3,", 1)
	d := Diff(snapshotText(t, "before.txt", text), snapshotText(t, "after.txt", edited))
	if d.SecondsBetween == nil || *d.SecondsBetween != 0 {
		t.Errorf("seconds_between %v, want 0", d.SecondsBetween)
	}
	if tableDiff(t, d, "ORDERS").Status != StatusDropped || tableDiff(t, d, "ORDERS_2026").Status != StatusAdded {
		t.Errorf("rename: ORDERS %s, ORDERS_2026 %s", tableDiff(t, d, "ORDERS").Status, tableDiff(t, d, "ORDERS_2026").Status)
	}
	if o := tableDiff(t, d, "ORDERS"); o.Records[0] == nil || *o.Records[0] != 100000 || o.Records[1] != nil {
		t.Errorf("dropped ORDERS records %s, want [100000, null]", pairString(o.Records))
	}
	var grew []string
	for _, ix := range d.Indices {
		if ix.DepthGrew {
			grew = append(grew, ix.Name)
			wantPair(t, ix.Name+" depth", ix.Depth, 2, 3)
		}
	}
	if !slices.Equal(grew, []string{"CUSTOMER_LAST"}) {
		t.Errorf("depth grew for %v, want [CUSTOMER_LAST]", grew)
	}
	// The indices of ORDERS stay matched by name: same index names.
	if tb, ix := d.Count(StatusAdded); tb != 1 || ix != 0 {
		t.Errorf("added: %d tables, %d indices; want 1, 0", tb, ix)
	}
}

// A Firebird 2.5 and a 3.0 run of the fdb test database (the public
// corpus; the database was recreated under 3.0, so ids and page size
// differ): the tables compare by name, and the fields only one version
// prints are named, though a snapshot keeps only its header of the
// parsed run (the analysis holds its tables).
func TestDiffAcrossVersions(t *testing.T) {
	before := snapshotFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat25-r.out"))
	after := snapshotFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-r.out"))
	for i, s := range []*HistorySnapshot{before, after} {
		if p := s.Parsed; p.Header == nil || len(p.Tables)+len(p.Indices) != 0 || len(s.Analysis.Tables) != 15+i {
			t.Fatalf("%s: parsed run kept with %d tables, %d indices; analysis %d tables, want %d", s.Analysis.File, len(p.Tables), len(p.Indices), len(s.Analysis.Tables), 15+i)
		}
	}
	d := Diff(before, after)
	if v := d.Before.FirebirdVersion; v == nil || *v != "2.5" {
		t.Errorf("before version %v", v)
	}
	if v := d.After.FirebirdVersion; v == nil || *v != "3.0" {
		t.Errorf("after version %v", v)
	}
	// Wed Apr  4 15:31:28 2018 → Wed Apr 04 15:42:35 2018.
	if d.SecondsBetween == nil || *d.SecondsBetween != 667 {
		t.Errorf("seconds_between %v, want 667", d.SecondsBetween)
	}
	// Next 1809 → 2144, but the 3.0 database is another file, created
	// at another time: Next moved in two databases, and 335 transactions
	// between the snapshots would be a figure of neither.
	if d.TransactionsBetween != nil || d.TransactionsPerHour != nil {
		t.Errorf("transactions_between %v, an hour %v, want null", d.TransactionsBetween, d.TransactionsPerHour)
	}
	if !slices.Contains(d.Warnings, "the databases were created at different times (2013-05-27 23:40:53 and 2015-11-27 11:19:39): another database, or a restore in between; no transactions are counted across them") {
		t.Errorf("warnings %q", d.Warnings)
	}
	// 15 tables in 2.5; 3.0 adds T5.
	if len(d.Tables) != 16 {
		t.Errorf("%d tables, want 16", len(d.Tables))
	}
	if t5 := tableDiff(t, d, "T5"); t5.Status != StatusAdded {
		t.Errorf("T5 %s, want added", t5.Status)
	}
	if n, _ := d.Count(StatusAdded); n != 1 {
		t.Errorf("%d tables added, want 1", n)
	}
	cust := tableDiff(t, d, "CUSTOMER")
	wantPair(t, "CUSTOMER records", cust.Records, 15, 15)
	// 1 data page of 4096 bytes, then 1 of 8192.
	wantPair(t, "CUSTOMER size", cust.SizeBytes, 4096, 8192)
	if cust.Fragments[0] != nil || cust.Fragments[1] == nil {
		t.Errorf("CUSTOMER fragments %s: 2.5 prints none, 3.0 does", pairString(cust.Fragments))
	}
	// The primary key of one table got another system name.
	if _, ix := d.Count(StatusAdded); ix != 1 {
		t.Errorf("%d indices added, want 1 (RDB$PRIMARY28)", ix)
	}
	if _, ix := d.Count(StatusDropped); ix != 1 {
		t.Errorf("%d indices dropped, want 1 (RDB$PRIMARY104)", ix)
	}
	for _, f := range []string{"header.checksum", "header.implementation_id", "header.bumped_transaction"} {
		if !slices.Contains(d.FieldsOnlyBefore, f) {
			t.Errorf("fields_only_before lacks %s: %v", f, d.FieldsOnlyBefore)
		}
	}
	for _, f := range []string{"header.system_change_number", "table.total_formats", "table.total_fragments",
		"table.compression_ratio", "index.clustering_factor", "index.root_page"} {
		if !slices.Contains(d.FieldsOnlyAfter, f) {
			t.Errorf("fields_only_after lacks %s: %v", f, d.FieldsOnlyAfter)
		}
	}
	for _, f := range []string{"table.total_records", "index.depth", "header.next_transaction"} {
		if slices.Contains(d.FieldsOnlyBefore, f) || slices.Contains(d.FieldsOnlyAfter, f) {
			t.Errorf("%s is printed by both versions", f)
		}
	}
	if !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.Contains(w, "ODS 11.2 and 12.0") }) {
		t.Errorf("warnings %q lack the ODS note", d.Warnings)
	}
}

// Every gstat sample of the public corpus compared with itself: nothing
// changed, nothing added or dropped, no field printed by one side only,
// whatever the version (1.5 to 6.0, RedDatabase) or the switches; the one
// warning says it is one run twice, with an execution time or without.
func TestDiffCorpusSelf(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ent := range ents {
		if ent.IsDir() || strings.HasSuffix(ent.Name(), ".md") {
			continue
		}
		path := filepath.Join(dir, ent.Name())
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := parse.ReadGstat(strings.NewReader(string(raw)), path)
		if err != nil || len(reps) == 0 {
			continue // not every file parses into a snapshot (noisy excerpts)
		}
		n++
		s := NewHistorySnapshot(reps[len(reps)-1], SnapshotOptions{})
		d := Diff(s, s)
		for _, st := range []string{StatusChanged, StatusAdded, StatusDropped} {
			if tb, ix := d.Count(st); tb+ix != 0 {
				t.Errorf("%s: %d tables and %d indices %s against itself", ent.Name(), tb, ix, st)
			}
		}
		same := []string{"both snapshots are the same gstat run (" + path + fmt.Sprintf(", run %d): nothing was compared", len(reps))}
		if len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) != 0 || !slices.Equal(d.Warnings, same) {
			t.Errorf("%s: fields %v %v, warnings %q", ent.Name(), d.FieldsOnlyBefore, d.FieldsOnlyAfter, d.Warnings)
		}
		if len(d.Tables) != len(s.Analysis.Tables) {
			t.Errorf("%s: %d tables in the diff, %d in the snapshot", ent.Name(), len(d.Tables), len(s.Analysis.Tables))
		}
	}
	t.Logf("%d corpus files compared with themselves", n)
	if n < 50 {
		t.Errorf("only %d corpus files compared", n)
	}
}

// A transaction left open: the later real snapshot with its Oldest
// active edited back to the first one's 17 (OIT and OST edited to match)
// while Next moved 18 → 26.
func TestDiffOATStuck(t *testing.T) {
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	later := strings.NewReplacer("\tOldest transaction\t25", "\tOldest transaction\t16",
		"\tOldest active\t\t26", "\tOldest active\t\t17", "\tOldest snapshot\t\t26", "\tOldest snapshot\t\t17").Replace(string(raw))
	if later == string(raw) {
		t.Fatal("header lines not found")
	}
	before := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	d := Diff(before, snapshotText(t, "later-oat-17.txt", later))
	if !d.OATStuck {
		t.Fatal("oat_stuck false")
	}
	want := "the oldest active transaction (17) did not move while 8 transactions started: it has been open at least 0:04:38 and holds back garbage collection"
	if len(d.Warnings) != 1 || d.Warnings[0] != want {
		t.Errorf("warnings %q", d.Warnings)
	}
	// Next − OAT grew from 1 to 9: 9 transactions at 103.6 an hour would
	// be 5 min 13 s, but the database was created 4 min 48 s before the
	// later snapshot (issue 13): the estimate is left out, and the age
	// lies between the 4 min 38 s between the snapshots and those 4 min
	// 48 s.
	age := d.OATAge[1]
	if d.OATAgeHours[1] != nil || age.EstimateHours != nil || math.Abs(*age.MinHours-278.0/3600) > 1e-12 ||
		math.Abs(*age.MaxHours-288.0/3600) > 1e-12 ||
		age.Note != "the database was created 0:04:48 before; it started before the first snapshot, 0:04:38 earlier; "+
			"the rate estimate, 0:05:13, is longer than that: left out" {
		t.Errorf("oat age after %+v", age)
	}
	// The real pair: OAT moved 17 → 26.
	if Diff(before, snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))).OATStuck {
		t.Error("real pair: oat_stuck true")
	}
}

// Issue 13: which health warnings the later snapshot no longer has. After
// garbage collection the back versions of CUSTOMER, STOCK and ORDERS (the
// whole-record versions of its deleted rows) are gone; nothing appeared. Against the gstat -d run nothing can be said: it has
// no index statistics and no -r figures.
func TestDiffWarnings(t *testing.T) {
	ar := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	d := Diff(ar, snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")))
	var got []string
	for _, w := range d.WarningsResolved {
		got = append(got, fmt.Sprintf("%s %s %s %v→%v", w.Rule, w.Object, w.Severity, *w.Values[0], w.Values[1]))
	}
	want := []string{"table-version-length ORDERS info 1.0470682090147587→<nil>",
		"table-versions CUSTOMER info 0.3333333333333333→<nil>", "table-versions STOCK info 0.3→<nil>"}
	if !slices.Equal(got, want) || len(d.WarningsAppeared) != 0 || len(d.WarningsChanged) != 0 {
		t.Errorf("resolved %q appeared %+v changed %+v", got, d.WarningsAppeared, d.WarningsChanged)
	}
	if w := d.WarningsResolved[1]; w.Threshold != 0.2 || w.Unit != "versions/record" || w.Kind != "table" {
		t.Errorf("CUSTOMER %+v", w)
	}
	dd := Diff(ar, snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-d.txt")))
	if len(dd.WarningsResolved)+len(dd.WarningsAppeared)+len(dd.WarningsChanged) != 0 ||
		!slices.Contains(dd.Warnings, "9 warnings not compared: the after snapshot does not show their objects "+
			"(other gstat switches: -d has no indices, -r adds back versions)") {
		t.Errorf("-a -r vs -d: resolved %+v appeared %+v, warnings %q", dd.WarningsResolved, dd.WarningsAppeared, dd.Warnings)
	}
}

// The shop's two snapshots given later first: Next went from 26 back to
// 18 only in the order given, not by a restore, so the one warning is on
// the order, and no transactions are counted (in the right order, 8).
func TestDiffGivenLaterFirst(t *testing.T) {
	earlier := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	later := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	d := Diff(later, earlier)
	if d.SecondsBetween == nil || *d.SecondsBetween != -278 || d.TransactionsBetween != nil || d.TransactionsPerHour != nil {
		t.Errorf("seconds %v, transactions %v, an hour %v", d.SecondsBetween, d.TransactionsBetween, d.TransactionsPerHour)
	}
	if want := []string{"the second snapshot is 0:04:38 older than the first: give the older one first"}; !slices.Equal(d.Warnings, want) {
		t.Errorf("warnings %q, want %q", d.Warnings, want)
	}
	d = Diff(earlier, later)
	if d.TransactionsBetween == nil || *d.TransactionsBetween != 8 || len(d.Warnings) != 0 {
		t.Errorf("in order: transactions %v, warnings %q", d.TransactionsBetween, d.Warnings)
	}
}

// gstat -d and -h of the shop ran in one second (14:14:21): in the order
// given, -d's Next 22 before -h's 21 read as a restore, and the daily rate
// was fitted on the last 11 seconds. Snapshots of one time are in the
// order of their Next transaction.
func TestTrendSameSecondByNext(t *testing.T) {
	var snaps []*HistorySnapshot
	for _, f := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt", "shop-gstat-d.txt", "shop-gstat-h.txt"} {
		snaps = append(snaps, snapshotFile(t, testutil.Testdata(t, "fb30", f)))
	}
	tr := TrendOf(snaps, 0)
	var order []int64
	for _, p := range tr.Transactions.Points {
		order = append(order, *p.NextTransaction)
	}
	if !slices.Equal(order, []int64{18, 21, 22, 26}) {
		t.Errorf("Next in the trend's order: %v", order)
	}
	if tt := tr.Transactions; tt.Restores != 0 || math.Abs(tt.Days*86400-278) > 1e-6 {
		t.Errorf("restores %d, counters over %v s", tt.Restores, tt.Days*86400)
	}
}

// From Firebird 4.0 the creation date gstat prints is UTC and the run
// time local: the shop pair as a 4.0 server would print it (ODS 13.0)
// has the same 10 s between creation and first snapshot only if the
// server runs at UTC. West of Greenwich the database is older than it
// reads, so those 10 s bound nothing: the bound widens by the 14 h a zone
// can be away from UTC, and the rate estimate of the first snapshot's
// Next − OAT, 34.75 s, which the 3.0 pair leaves out (TestDiffShopPair),
// stands.
func TestDiffOATBoundUTCCreation(t *testing.T) {
	ods13 := func(name string) *HistorySnapshot {
		raw := string(testutil.ReadTestdata(t, "fb30", name))
		text := strings.Replace(raw, "\tODS version\t\t12.0", "\tODS version\t\t13.0", 1)
		if text == raw {
			t.Fatal("ODS line not found")
		}
		return snapshotText(t, name, text)
	}
	d := Diff(ods13("shop-gstat-a-r.txt"), ods13("shop-gstat-r-later.txt"))
	b := d.OATAge[0]
	if b.EstimateHours == nil || math.Abs(*b.EstimateHours*3600-34.75) > 1e-9 || *b.MinHours != 0 ||
		math.Abs(*b.MaxHours-(14+10.0/3600)) > 1e-12 ||
		b.Note != "the database was created at most 14:00:10 before (its creation date is in UTC, the snapshot time local: up to 14:00:00 apart)" {
		t.Errorf("oat age before %+v", b)
	}
	if d.OATAgeHours[0] == nil {
		t.Error("oat_age_hours[0] null")
	}
}

// Firebird 6 warnings name their objects SCHEMA.NAME: a diff matches
// them with its tables (a 6.0 pair's CUSTOMER is not "gone") and with a
// 5.0 snapshot's bare names, as it matches the tables.
func TestDiffWarningsAcrossSchemas(t *testing.T) {
	fb6 := string(testutil.ReadTestdata(t, "gstat", "shop-fb6-names.txt"))
	const frag = "total fragments: 3125,"
	if !strings.Contains(fb6, frag) {
		t.Fatal("shop-fb6-names.txt: no CUSTOMER fragments line")
	}
	fewer := strings.Replace(fb6, frag, "total fragments: 100,", 1)
	d := Diff(snapshotText(t, "fb6-a.txt", fb6), snapshotText(t, "fb6-b.txt", fewer))
	if len(d.WarningsResolved) != 1 || d.WarningsResolved[0].Object != "PUBLIC.CUSTOMER" ||
		strings.Contains(d.WarningsResolved[0].Reason, "gone") || len(d.WarningsAppeared) != 0 {
		t.Errorf("6.0 pair: resolved %+v, appeared %+v", d.WarningsResolved, d.WarningsAppeared)
	}
	// The same database before the restore into 6.0: its names without a
	// schema are PUBLIC's.
	fb5 := strings.ReplaceAll(fb6, "\"PUBLIC\".", "")
	fb5 = strings.ReplaceAll(fb5, "\"", "")
	d = Diff(snapshotText(t, "fb5.txt", fb5), snapshotText(t, "fb6.txt", fb6))
	if len(d.WarningsResolved)+len(d.WarningsAppeared)+len(d.WarningsChanged) != 0 {
		t.Errorf("5.0 → 6.0: resolved %d, appeared %d, changed %d, want none", len(d.WarningsResolved), len(d.WarningsAppeared), len(d.WarningsChanged))
	}
}

// gstat -s lists the system tables and their indices, a run without it
// does not: the shop's -a -r run against its -s -r run, 4:27 later, had
// 36 tables and 54 indices "added". They were there all along: not
// shown, as an index is in a gstat -d run. The user tables still compare
// (ORDERS lost 5000 back versions); the user table's RDB$PRIMARY3 is no
// system index.
func TestDiffSystemTablesNotShown(t *testing.T) {
	ar := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	sr := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-s-r.txt"))
	for _, c := range []struct {
		name string
		d    *SnapshotDiff
	}{{"-a -r → -s -r", Diff(ar, sr)}, {"-s -r → -a -r", Diff(sr, ar)}} {
		count := func(status string) [2]int {
			tb, ix := c.d.Count(status)
			return [2]int{tb, ix}
		}
		got := [][2]int{count(StatusChanged), count(StatusAdded), count(StatusDropped), count(StatusUnchanged), count(StatusNotShown)}
		want := [][2]int{{3, 3}, {0, 0}, {0, 0}, {3, 7}, {36, 54}}
		if !slices.Equal(got, want) {
			t.Errorf("%s: changed, added, dropped, unchanged, not shown %v, want %v", c.name, got, want)
		}
		if td := tableDiff(t, c.d, "RDB$RELATIONS"); td.Status != StatusNotShown {
			t.Errorf("%s: RDB$RELATIONS %s", c.name, td.Status)
		}
		for _, ix := range c.d.Indices {
			if ix.Name == "RDB$PRIMARY3" && (ix.Status != StatusChanged || ix.Table != "ORDERS") {
				t.Errorf("%s: RDB$PRIMARY3 %+v", c.name, ix)
			}
		}
	}
}

// A diff of one run with itself read "unchanged" throughout and said
// nothing; two runs of one second (the shop's gstat -d and -h, 14:14:21)
// had a Next that moved and no rate, without a word why.
func TestDiffSameTime(t *testing.T) {
	ar := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	d := Diff(ar, ar)
	if want := []string{"both snapshots are the same gstat run (" + ar.Info().File + ", run 1): nothing was compared"}; !slices.Equal(d.Warnings, want) {
		t.Errorf("the same run: warnings %q, want %q", d.Warnings, want)
	}
	d = Diff(snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-h.txt")), snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-d.txt")))
	if d.TransactionsBetween == nil || *d.TransactionsBetween != 1 || d.TransactionsPerHour != nil ||
		!slices.Contains(d.Warnings, "both snapshots have the same execution time (2026-12-02 14:14:21): no time between them for a rate") {
		t.Errorf("-h then -d: transactions %v, an hour %v, warnings %q", d.TransactionsBetween, d.TransactionsPerHour, d.Warnings)
	}
}

// A gstat -h run has no size; diffed before a run with one, the later run
// was measured against it first: "the later snapshot has table sizes from
// data pages × page size, the others from  (the 5.0.2+ Table size line
// comes with -r)", a reason about nothing. The reason is the -h run's.
func TestDiffSizeReasonOfTheUnsizedSide(t *testing.T) {
	h := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	for _, later := range []string{"shop-gstat-d.txt", "shop-gstat-r-later.txt"} {
		d := Diff(h, snapshotFile(t, testutil.Testdata(t, "fb30", later)))
		var got []string
		for _, w := range d.Warnings {
			if strings.HasPrefix(w, "sizes do not compare") {
				got = append(got, w)
			}
		}
		if want := []string{"sizes do not compare: the earlier snapshot has no table statistics (gstat -h or -e): no size"}; d.SizeComparable || !slices.Equal(got, want) {
			t.Errorf("-h then %s: comparable %v, %q, want %q", later, d.SizeComparable, got, want)
		}
	}
}

// The shop's pair, then a third snapshot four hours later of the database
// restored at 17:00 (creation date Dec 2, 2026 17:00:00): its Next, 40,
// is above the old 26, as a young database restored can have. The trend
// fitted 108 transactions a day across the two databases and warned that
// transaction 26 had been open 4:00:00, though the 26 of the restored
// database is another transaction. A new creation date is a restore, as
// gstat diff counts no transactions across one.
func TestTrendRestoreByCreationDate(t *testing.T) {
	raw := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt"))
	restored := strings.NewReplacer("14:14:32 2026", "18:14:32 2026", "Creation date\t\tDec 2, 2026 14:09:44", "Creation date\t\tDec 2, 2026 17:00:00",
		"Next transaction\t26", "Next transaction\t40").Replace(raw)
	if restored == raw || strings.Count(restored, "17:00:00")+strings.Count(restored, "\t40\n") != 2 {
		t.Fatal("the edit did not take")
	}
	tr := TrendOf([]*HistorySnapshot{snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")),
		snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")), snapshotText(t, "restored.txt", restored)}, 0)
	tt := tr.Transactions
	// (No stuck transaction: the restore is said, and nothing else.)
	want := "between 2026-12-02 14:14:32 and 2026-12-02 18:14:32: the creation date changed from 2026-12-02 14:09:44 to 2026-12-02 17:00:00: " +
		"the database was restored (or replaced); transactions are counted from the later snapshot on"
	if tt.Restores != 1 || tt.PerDay != nil || tt.StuckOldestActive != nil || !slices.Equal(tr.Warnings, []string{want}) {
		t.Errorf("restores %d, a day %v, stuck %v, warnings %q", tt.Restores, tt.PerDay, tt.StuckOldestActive, tr.Warnings)
	}
}

// The shop's database was 61.1 MiB, then 60.6 MiB: with --until 61MiB it
// read "reached" on 14:09:54, as would a database a purge or a restore
// brought back under the target. Reached is where the last size is, since
// the first of the sizes at or above it after the last one below.
func TestTrendReachedIsTheLastSize(t *testing.T) {
	snaps := []*HistorySnapshot{snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")),
		snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))}
	tr := TrendOf(snaps, 61<<20)
	if fc := tr.Database.Forecast; fc == nil || fc.Status != ForecastRefused || fc.Date != nil {
		t.Errorf("61 MiB: %+v", fc)
	}
	// ORDERS 6.31 then 6.00 MiB: 6 MiB reached since the first, both
	// being at or above it; 6.2 MiB, which only the first is, not.
	orders := func(tr *Trend) *Forecast {
		for i := range tr.Tables {
			if tr.Tables[i].Name == "ORDERS" {
				return tr.Tables[i].Forecast
			}
		}
		return nil
	}
	if fc := orders(TrendOf(snaps, 6502195)); fc == nil || fc.Status != ForecastRefused {
		t.Errorf("ORDERS at 6.2 MiB: %+v", fc)
	}
	tr = TrendOf(snaps, 6<<20)
	if fc := orders(tr); fc == nil || fc.Status != ForecastReached || fc.Date == nil ||
		fc.Date.Format("2006-01-02 15:04:05") != "2026-12-02 14:09:54" || *fc.DaysAfterLast*86400 != -278 {
		t.Errorf("ORDERS at 6 MiB: %+v", fc)
	}
	if fc := tr.Database.Forecast; fc == nil || fc.Status != ForecastReached || fc.Date.Format("2006-01-02 15:04:05") != "2026-12-02 14:09:54" {
		t.Errorf("the database at 6 MiB: %+v", fc)
	}
}

// gstat 3.0 and later print "Gstat completion time" last: a run without
// it was cut short (a disk full, a gstat killed), and its size counts the
// tables before the cut. The shop's -a -r run cut after 100 lines, beside
// the whole run of the same second, made the trend's database 6.11 MiB
// then 61.1 MiB (+900.1 %); on a tie the cut run, given later, was even
// the reference. A cut run's size is left out, a whole run the
// reference; gstat diff says the sizes do not compare.
func TestCutRunLeftOut(t *testing.T) {
	raw := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	cut := snapshotText(t, "cut.txt", strings.Join(strings.SplitAfter(raw, "\n")[:100], ""))
	whole := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	want := "no Gstat completion time, which gstat prints last: the run was cut short, its size counts the tables before the cut"
	for _, snaps := range [][]*HistorySnapshot{{whole, cut}, {cut, whole}} {
		tr := TrendOf(snaps, 0)
		if len(tr.LeftOut) != 1 || tr.LeftOut[0].File != "cut.txt" || tr.LeftOut[0].Reason != want {
			t.Errorf("left out %+v", tr.LeftOut)
		}
	}
	d := Diff(whole, cut)
	if d.SizeComparable || !slices.Contains(d.Warnings, "sizes do not compare: the later snapshot has "+want) {
		t.Errorf("diff: comparable %v, warnings %q", d.SizeComparable, d.Warnings)
	}
	// A 2.5 run prints no completion time: it is whole.
	if s := snapshotFile(t, filepath.Join(testutil.CorpusDir(t), "public", "gstat", "FirebirdSQL-fdb__gstat25-a.out")); s.cut() {
		t.Error("a 2.5 run read as cut")
	}
}

// The transaction numbers of two databases (or of one restored between
// the snapshots) start afresh: "next transaction 18 → 2141, change 2123"
// stood beside "no transactions are counted across them". Their change
// is withdrawn, in either order; the gaps still compare, and one
// database's numbers keep theirs (18 → 26: 8).
func TestDiffNumbersOfTwoDatabases(t *testing.T) {
	shop := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"))
	other := snapshotFile(t, testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out"))
	for _, d := range []*SnapshotDiff{Diff(shop, other), Diff(other, shop)} {
		for _, c := range d.Counters {
			gap := strings.Contains(c.Name, "_minus_")
			if gap == (c.Change == nil) {
				t.Errorf("%s: change %v", c.Name, derefI(c.Change))
			}
		}
	}
	later := snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	for _, c := range Diff(shop, later).Counters {
		if c.Name == "next_transaction" && (c.Change == nil || *c.Change != 8) {
			t.Errorf("one database: next_transaction change %v", derefI(c.Change))
		}
	}
}

// Two header pages of one tool's samples, Firebird 3.0 (ODS 12.0) and 4.0
// (ODS 13.0): gstat -h of both prints the same fields, and the diff used to
// say nothing of the version change (only when fields differed). An
// in-place minor upgrade (ODS 13.0 → 13.1 under Firebird 5) keeps the path
// and creation date, so only the ODS tells it.
func TestDiffAcrossVersionsSameFields(t *testing.T) {
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
	before := snapshotFile(t, filepath.Join(dir, "alexeykovyazin-hqbirdmcp__gstat-header-fb3.0.txt"))
	after := snapshotFile(t, filepath.Join(dir, "alexeykovyazin-hqbirdmcp__gstat-header-fb4.0.txt"))
	d := Diff(before, after)
	if len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) != 0 {
		t.Fatalf("fields only in one: %q %q", d.FieldsOnlyBefore, d.FieldsOnlyAfter)
	}
	want := "ODS 12.0 and 13.0 (Firebird 3.0 and 4.0): another Firebird version, or an upgrade in between"
	if !slices.Contains(d.Warnings, want) {
		t.Errorf("warnings %q, want %q", d.Warnings, want)
	}
	// Across 2.5 → 3.0 the fields differ too.
	d = Diff(snapshotFile(t, filepath.Join(dir, "FirebirdSQL-fdb__gstat25-r.out")), snapshotFile(t, filepath.Join(dir, "FirebirdSQL-fdb__gstat30-r.out")))
	want = "ODS 11.2 and 12.0 (Firebird 2.5 and 3.0): another Firebird version, or an upgrade in between; only the fields both print are compared"
	if !slices.Contains(d.Warnings, want) {
		t.Errorf("warnings %q, want %q", d.Warnings, want)
	}
	// The same version on both sides: no such warning.
	shop := snapshotFile(t, testutil.Corpus(t, "fb30", "shop-gstat-a-r.txt"))
	later := snapshotFile(t, testutil.Corpus(t, "fb30", "shop-gstat-r-later.txt"))
	for _, w := range Diff(shop, later).Warnings {
		if strings.HasPrefix(w, "ODS ") {
			t.Errorf("same ODS warned: %q", w)
		}
	}
}

// gstat -i lists each table by name with its indices but no table figures
// (corpus fb30 shop-gstat-i.txt): against the -a -r run the six tables
// read "unchanged", a verdict on figures one side does not have: ORDERS
// had 100000 records at 14:09:54 and 95000 in the -r run of 14:14:32.
func TestDiffTablesWithoutFiguresNotShown(t *testing.T) {
	full := snapshotFile(t, testutil.Corpus(t, "fb30", "shop-gstat-a-r.txt"))
	idx := snapshotFile(t, testutil.Corpus(t, "fb30", "shop-gstat-i.txt"))
	for _, d := range []*SnapshotDiff{Diff(full, idx), Diff(idx, full)} {
		if len(d.Tables) != 6 {
			t.Fatalf("%d tables, want 6", len(d.Tables))
		}
		for _, td := range d.Tables {
			if td.Status != StatusNotShown {
				t.Errorf("%s → %s: %s %s, want not_shown", d.Before.File, d.After.File, td.Name, td.Status)
			}
		}
		if n, _ := d.Count(StatusNotShown); n != 6 {
			t.Errorf("%d tables not shown, want 6", n)
		}
		// The indices have their figures on both sides: 3 changed, 7 not.
		changed, same := 0, 0
		for _, id := range d.Indices {
			switch id.Status {
			case StatusChanged:
				changed++
			case StatusUnchanged:
				same++
			}
		}
		if changed != 3 || same != 7 {
			t.Errorf("indices %d changed, %d unchanged, want 3 and 7", changed, same)
		}
	}
	orders := tableDiff(t, Diff(full, idx), "ORDERS")
	if orders.Records[0] == nil || *orders.Records[0] != 100000 || orders.Records[1] != nil {
		t.Errorf("ORDERS records %s, want [100000, null]", pairString(orders.Records))
	}
}

// A copy of a run under another name (the DBA's archive of the same
// snapshot) is the same run: it got the warning of two runs of one second,
// "no time between them for a rate", and every object read unchanged as
// if the database had stood still. It now gets the one a file given twice
// gets, as trend counts such a copy once.
func TestDiffCopyIsTheSameRun(t *testing.T) {
	src := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	cp := filepath.Join(t.TempDir(), "archive-shop.txt")
	if err := os.WriteFile(cp, testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := Diff(snapshotFile(t, src), snapshotFile(t, cp))
	want := []string{"both snapshots are the same gstat run (" + src + ", run 1, and " + cp +
		", run 1: the same database, execution time, counters and sizes): nothing was compared"}
	if !slices.Equal(d.Warnings, want) {
		t.Errorf("warnings %q, want %q", d.Warnings, want)
	}
	// Two runs of one second that differ are still two runs.
	d = Diff(snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-h.txt")), snapshotFile(t, testutil.Testdata(t, "fb30", "shop-gstat-d.txt")))
	for _, w := range d.Warnings {
		if strings.HasPrefix(w, "both snapshots are the same gstat run") {
			t.Errorf("-h and -d: %q", w)
		}
	}
}
