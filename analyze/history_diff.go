package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/fbdiag/fbdiag/internal/units"
)

// SnapshotDiff is what changed between two gstat snapshots of one
// database. Its JSON form is the contract of docs/gstat-history-json.md.
type SnapshotDiff struct {
	Before SnapshotInfo `json:"before"`
	After  SnapshotInfo `json:"after"`
	// SecondsBetween is after − before execution time; null when either
	// time is unknown.
	SecondsBetween *float64 `json:"seconds_between"`
	// TransactionsBetween is the Next transaction delta; null when a
	// counter is missing or went backwards (a restore in between), when
	// the databases were created at different times (another database,
	// or a restore) or when the later snapshot was given first.
	TransactionsBetween *int64 `json:"transactions_between"`
	// TransactionsPerHour is TransactionsBetween over the time between.
	TransactionsPerHour *float64 `json:"transactions_per_hour"`
	// PerDayReliable is true when the snapshots are at least
	// history-rate.min_span apart: the rates per day of the tables
	// (records_per_day, size_bytes_per_day) are then shown; from
	// snapshots minutes apart they are kept here but not shown.
	PerDayReliable bool `json:"per_day_reliable"`
	// Counters are the header transaction counters and their gaps.
	Counters []CounterDiff `json:"counters"`
	// OATAgeHours estimates, in each snapshot, how long ago the oldest
	// active transaction started: (Next − OAT) / TransactionsPerHour;
	// null when the estimate falls outside what the headers allow
	// (OATAge says why).
	OATAgeHours FloatPair `json:"oat_age_hours"`
	// OATAge bounds the age of the oldest active transaction in each
	// snapshot by the creation date and the snapshot times.
	OATAge [2]OATAge `json:"oat_age"`
	// OATStuck is true when the oldest active transaction is the same in
	// both snapshots while Next moved on: that transaction was still
	// open when the later ones started, so it has been open at least
	// SecondsBetween, and it holds back garbage collection.
	OATStuck bool        `json:"oat_stuck"`
	Totals   TotalsDiff  `json:"totals"`
	Tables   []TableDiff `json:"tables"`
	Indices  []IndexDiff `json:"indices"`
	// FieldsOnlyBefore and FieldsOnlyAfter name the values only one
	// snapshot prints ("table.total_formats": 3.0+ only), typically after
	// a restore to a newer ODS; the others are compared.
	FieldsOnlyBefore []string `json:"fields_only_before"`
	FieldsOnlyAfter  []string `json:"fields_only_after"`
	// SizeComparable is false when the two sizes add up other things
	// (gstat -d has no indices, -s adds the system tables, -h has no
	// size): a warning says which; the size change is then no growth.
	SizeComparable bool `json:"size_comparable"`
	// FillComparable is false when one snapshot is of Firebird 6 (ODS 14)
	// and the other older: their average fill figures are computed
	// differently (a warning says how).
	FillComparable bool `json:"fill_comparable"`
	// WarningsAppeared and WarningsResolved are the health warnings only
	// the later or only the earlier snapshot has; WarningsChanged those
	// both have with another severity. A warning whose object the other
	// snapshot does not show (another gstat switch) is in none of them:
	// a warning says how many.
	WarningsAppeared []WarningChange `json:"warnings_appeared"`
	WarningsResolved []WarningChange `json:"warnings_resolved"`
	WarningsChanged  []WarningChange `json:"warnings_changed"`
	// Warnings say why figures may mislead (other database, time going
	// backwards, restore in between).
	Warnings []string `json:"warnings"`
}

// CounterDiff is one header counter in both snapshots.
type CounterDiff struct {
	// Name is the JSON name of the counter: oldest_transaction,
	// oldest_active, oldest_snapshot, next_transaction, oat_minus_oit,
	// ost_minus_oit, next_minus_oat.
	Name   string `json:"name"`
	Values Pair   `json:"values"`
	// Change is new − old; null for the four transaction numbers (OIT,
	// OAT, OST, Next) when the snapshots are of two databases or a
	// restore lies between them: the numbers start afresh there, and
	// their difference is no work done (the gaps still compare).
	Change *int64 `json:"change"`
}

// TotalsDiff sums tables and indices in both snapshots.
type TotalsDiff struct {
	Records    Pair `json:"records"`
	Versions   Pair `json:"versions"`
	DataPages  Pair `json:"data_pages"`
	TableBytes Pair `json:"table_bytes"`
	IndexBytes Pair `json:"index_bytes"`
	SizeBytes  Pair `json:"size_bytes"`
}

// Status of an object between two snapshots.
const (
	StatusChanged = "changed"
	StatusAdded   = "added"
	StatusDropped = "dropped"
	// StatusNotShown: the other snapshot shows no object of this kind at
	// all (gstat -d has no indices, -h no tables): neither added nor
	// dropped, not compared.
	StatusNotShown  = "not_shown"
	StatusUnchanged = "unchanged"
)

// Back version movements (TableDiff.BackVersions).
const (
	VersionsPilingUp  = "piling_up"
	VersionsCollected = "collected"
	VersionsSteady    = "steady"
)

// TableDiff is one table in both snapshots.
type TableDiff struct {
	Schema    string `json:"schema,omitempty"`
	Name      string `json:"name"`
	Status    string `json:"status"`
	Records   Pair   `json:"records"`
	Versions  Pair   `json:"versions"`
	Fragments Pair   `json:"fragments"`
	DataPages Pair   `json:"data_pages"`
	// SizeBytes is gstat's "Table size" (5.0.2+) or data pages × page
	// size, as in fbdiag gstat.
	SizeBytes  Pair `json:"size_bytes"`
	IndexBytes Pair `json:"index_bytes"`
	// AverageFill is gstat's average data page fill in percent; across a
	// Firebird 6 upgrade it does not compare (SnapshotDiff.FillComparable).
	AverageFill Pair `json:"average_fill"`

	RecordsChange   *int64 `json:"records_change"`
	VersionsChange  *int64 `json:"versions_change"`
	DataPagesChange *int64 `json:"data_pages_change"`
	SizeBytesChange *int64 `json:"size_bytes_change"`
	// RecordsPerDay and SizeBytesPerDay are the changes over the days
	// between the snapshots (null when the time is unknown).
	RecordsPerDay   *float64 `json:"records_per_day"`
	SizeBytesPerDay *float64 `json:"size_bytes_per_day"`
	// BackVersions is piling_up, collected or steady; null when a
	// snapshot lacks -r.
	BackVersions *string `json:"back_versions"`
}

// IndexDiff is one index in both snapshots.
type IndexDiff struct {
	TableSchema string `json:"table_schema,omitempty"`
	Table       string `json:"table"`
	Schema      string `json:"schema,omitempty"`
	Name        string `json:"name"`
	Status      string `json:"status"`
	Depth       Pair   `json:"depth"`
	LeafBuckets Pair   `json:"leaf_buckets"`
	Nodes       Pair   `json:"nodes"`
	TotalDup    Pair   `json:"total_dup"`
	MaxDup      Pair   `json:"max_dup"`
	SizeBytes   Pair   `json:"size_bytes"`
	// DepthGrew is true when the b-tree gained a level: every lookup
	// now reads one more page.
	DepthGrew bool `json:"depth_grew"`
}

// Diff compares two snapshots, before first.
func Diff(before, after *HistorySnapshot) *SnapshotDiff {
	d := &SnapshotDiff{
		Before: before.Info(), After: after.Info(),
		Counters: []CounterDiff{}, Tables: []TableDiff{}, Indices: []IndexDiff{},
		Warnings: []string{},
	}
	ba, aa := before.Analysis, after.Analysis
	same := d.Before.File == d.After.File && d.Before.Report == d.After.Report
	// A copy under another name (the same database, execution time,
	// counters and sizes) is the same run too, as trend counts it once.
	copied := !same && sameRun(before, after)
	if before.Time != nil && after.Time != nil {
		s := secondsBetween(*after.Time, *before.Time)
		d.SecondsBetween = &s
		switch {
		case s < 0:
			d.Warnings = append(d.Warnings, fmt.Sprintf("the second snapshot is %s older than the first: give the older one first", humanSeconds(-s)))
		case s == 0 && !same && !copied:
			d.Warnings = append(d.Warnings, fmt.Sprintf("both snapshots have the same %s (%s): no time between them for a rate",
				sameTimeWords(before, after), before.Time.Format(time.DateTime)))
		}
	}
	if same {
		// (Everything "unchanged" is no finding when one run was
		// compared with itself.)
		d.Warnings = append(d.Warnings, fmt.Sprintf("both snapshots are the same gstat run (%s, run %d): nothing was compared",
			d.Before.File, d.Before.Report+1))
	}
	if copied {
		d.Warnings = append(d.Warnings, fmt.Sprintf("both snapshots are the same gstat run (%s, run %d, and %s, run %d: "+
			"the same database, execution time, counters and sizes): nothing was compared",
			d.Before.File, d.Before.Report+1, d.After.File, d.After.Report+1))
	}
	if b, a := d.Before.Database, d.After.Database; b != nil && a != nil && *b != *a {
		d.Warnings = append(d.Warnings, fmt.Sprintf("different database paths: %q and %q", *b, *a))
	}
	d.counters(ba.Header, aa.Header)
	d.Totals = TotalsDiff{
		Records:    Pair{ba.Totals.Records, aa.Totals.Records},
		Versions:   Pair{ba.Totals.Versions, aa.Totals.Versions},
		DataPages:  Pair{ba.Totals.DataPages, aa.Totals.DataPages},
		TableBytes: Pair{ba.Totals.TableBytes, aa.Totals.TableBytes},
		IndexBytes: Pair{ba.Totals.IndexBytes, aa.Totals.IndexBytes},
		SizeBytes:  Pair{before.SizeBytes(), after.SizeBytes()},
	}
	bs, as := sideOf(before), sideOf(after)
	d.tables(bs, as)
	d.indices(bs, as)
	d.warnings(bs, as)
	d.FieldsOnlyBefore, d.FieldsOnlyAfter = fieldsOnlyInOne(before.printedFields(), after.printedFields())
	d.SizeComparable = true
	bb, ab := basisOf(before), basisOf(after)
	for _, c := range []struct {
		side  string
		this  sizeBasis
		other sizeBasis
	}{{"the later snapshot", ab, bb}, {"the earlier snapshot", bb, ab}} {
		// (A side is measured against one with a size: against a gstat -h
		// run, a -d run's sizes "came from data pages, the others from"
		// nothing, where the -h run's own reason is that it has no size.)
		if !c.other.sized && c.this.sized {
			continue
		}
		if why := c.this.differs(c.other); why != "" && (bb.sized || ab.sized) {
			d.SizeComparable = false
			d.Warnings = append(d.Warnings, "sizes do not compare: "+c.side+" has "+why)
			break
		}
	}
	d.PerDayReliable = d.SecondsBetween != nil && *d.SecondsBetween >= NewThresholds().Get("history-rate", "min_span")
	d.FillComparable = true
	if why, ok := fillBreak(d.Before.ODSVersion, d.After.ODSVersion); ok {
		d.FillComparable = false
		d.Warnings = append(d.Warnings, why)
	}
	d.odsWarning()
	return d
}

// odsWarning says when the snapshots are of two on-disk structures: two
// Firebird versions, or an upgrade between them (a restore, or Firebird
// 5.0 raising ODS 13.0 to 13.1 in place, which keeps path and creation
// date). It used to be said only when the fields printed differed, which
// 3.0 and 4.0 headers do not.
func (d *SnapshotDiff) odsWarning() {
	b, a := d.Before.ODSVersion, d.After.ODSVersion
	fields := len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) > 0
	if sameStr(b, a) || !fields && (b == nil || a == nil) {
		return
	}
	w := fmt.Sprintf("ODS %s and %s", strOr(b, "unknown"), strOr(a, "unknown"))
	if b != nil && a != nil {
		if vb, va := d.Before.FirebirdVersion, d.After.FirebirdVersion; vb != nil && va != nil && *vb != *va {
			w += fmt.Sprintf(" (Firebird %s and %s)", *vb, *va)
		}
		w += ": another Firebird version, or an upgrade in between"
		if fields {
			w += "; only the fields both print are compared"
		}
	} else {
		w += ": only the fields both print are compared"
	}
	d.Warnings = append(d.Warnings, w)
}

// numbersApart withdraws the change of the transaction numbers of two
// snapshots whose numbering does not continue (another database, a
// restore between them): "next transaction 18 → 2141, change 2123" beside
// "no transactions are counted across them".
func (d *SnapshotDiff) numbersApart() {
	for i := range d.Counters {
		switch d.Counters[i].Name {
		case "oldest_transaction", "oldest_active", "oldest_snapshot", "next_transaction":
			d.Counters[i].Change = nil
		}
	}
}

func (d *SnapshotDiff) counters(b, a *HeaderStats) {
	if b == nil && a == nil {
		return
	}
	get := func(h *HeaderStats, f func(*HeaderStats) *int64) *int64 {
		if h == nil {
			return nil
		}
		return f(h)
	}
	for _, c := range []struct {
		name string
		f    func(*HeaderStats) *int64
	}{
		{"oldest_transaction", func(h *HeaderStats) *int64 { return h.OldestTransaction }},
		{"oldest_active", func(h *HeaderStats) *int64 { return h.OldestActive }},
		{"oldest_snapshot", func(h *HeaderStats) *int64 { return h.OldestSnapshot }},
		{"next_transaction", func(h *HeaderStats) *int64 { return h.NextTransaction }},
		{"oat_minus_oit", func(h *HeaderStats) *int64 { return h.OATMinusOIT }},
		{"ost_minus_oit", func(h *HeaderStats) *int64 { return h.OSTMinusOIT }},
		{"next_minus_oat", func(h *HeaderStats) *int64 { return h.NextMinusOAT }},
	} {
		p := Pair{get(b, c.f), get(a, c.f)}
		d.Counters = append(d.Counters, CounterDiff{Name: c.name, Values: p, Change: p.Change()})
	}
	next := Pair{get(b, func(h *HeaderStats) *int64 { return h.NextTransaction }),
		get(a, func(h *HeaderStats) *int64 { return h.NextTransaction })}
	created := [2]*time.Time{createdAt(b), createdAt(a)}
	if created[0] != nil && created[1] != nil && !created[0].Equal(*created[1]) {
		d.numbersApart() // (whichever was given first)
	}
	if ch := next.Change(); ch != nil {
		switch {
		case d.SecondsBetween != nil && *d.SecondsBetween < 0:
			// (Given the later first: the warning on the order says so,
			// and Next's move, either way, is not the work between them.)
		case *ch < 0:
			d.Warnings = append(d.Warnings, fmt.Sprintf("Next transaction went back from %d to %d: the database was restored (or replaced) in between",
				*next[0], *next[1]))
			d.numbersApart()
		case created[0] != nil && created[1] != nil && !created[0].Equal(*created[1]):
			// Another database, or a restore (which makes a new database
			// and numbers its transactions afresh) between the snapshots:
			// Next moved in two databases, not by the work of one.
			d.Warnings = append(d.Warnings, fmt.Sprintf("the databases were created at different times (%s and %s): another database, or a restore in between; no transactions are counted across them",
				created[0].Format(time.DateTime), created[1].Format(time.DateTime)))
		default:
			d.TransactionsBetween = ch
		}
	}
	oat := Pair{get(b, func(h *HeaderStats) *int64 { return h.OldestActive }),
		get(a, func(h *HeaderStats) *int64 { return h.OldestActive })}
	if d.TransactionsBetween != nil && *d.TransactionsBetween > 0 && oat[0] != nil && oat[1] != nil && *oat[0] == *oat[1] {
		d.OATStuck = true
		open := "the time between the snapshots"
		if d.SecondsBetween != nil && *d.SecondsBetween > 0 {
			open = humanSeconds(*d.SecondsBetween)
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("the oldest active transaction (%d) did not move while %s started: "+
			"it has been open at least %s and holds back garbage collection", *oat[0], units.Count(*d.TransactionsBetween, "transaction"), open))
	}
	rate := 0.0
	if d.TransactionsBetween != nil && d.SecondsBetween != nil && *d.SecondsBetween > 0 {
		rate = float64(*d.TransactionsBetween) / (*d.SecondsBetween / 3600)
		d.TransactionsPerHour = &rate
	}
	d.oatAges(b, a, rate)
}

func (d *SnapshotDiff) perDay(change *int64) *float64 {
	if change == nil || d.SecondsBetween == nil || *d.SecondsBetween <= 0 {
		return nil
	}
	return ptr(float64(*change) / (*d.SecondsBetween / 86400))
}

// pairOf is one figure of an object before and after; the side where the
// object does not exist is null.
func pairOf[T any](before, after *T, f func(*T) *int64) Pair {
	var p Pair
	if before != nil {
		p[0] = f(before)
	}
	if after != nil {
		p[1] = f(after)
	}
	return p
}

// matched pairs the records of two runs by key: each of the later run
// with its match in the earlier (nil when none), then those of the
// earlier no later one matched, with nil.
func matched[T any](b, a *pile[T], key func(*T) objectKey) [][2]*T {
	old := make(map[objectKey]*T, b.len())
	for i := range b.len() {
		r := b.at(i)
		old[key(r)] = r
	}
	seen := make(map[objectKey]bool, a.len())
	pairs := make([][2]*T, 0, a.len())
	for i := range a.len() {
		r := a.at(i)
		k := key(r)
		seen[k] = true
		pairs = append(pairs, [2]*T{old[k], r})
	}
	for i := range b.len() {
		if r := b.at(i); !seen[key(r)] {
			pairs = append(pairs, [2]*T{r, nil})
		}
	}
	return pairs
}

func (d *SnapshotDiff) tables(b, a *diffSide) {
	// The pairs are matched, put in name order, then made: sorting the
	// made diffs moved 200-byte records a hundred thousand times.
	pairs := matched(&b.tables, &a.tables, (*diffTable).key)
	shown := func(m [2]*diffTable) *diffTable { return cmp.Or(m[0], m[1]) }
	slices.SortStableFunc(pairs, func(x, y [2]*diffTable) int {
		tx, ty := shown(x), shown(y)
		return cmp.Or(units.Compare(tx.schema, ty.schema), units.Compare(tx.name, ty.name))
	})
	d.Tables = make([]TableDiff, 0, len(pairs))
	for _, m := range pairs {
		bt, at := m[0], m[1]
		t := shown(m)
		td := TableDiff{Schema: t.schema, Name: t.name}
		pair := func(bit uint8, f func(*diffTable) *int64) Pair {
			return pairOf(bt, at, func(t *diffTable) *int64 { return t.get(bit, f(t)) })
		}
		td.Records = pair(dRecords, func(t *diffTable) *int64 { return &t.records })
		td.Versions = pair(dVersions, func(t *diffTable) *int64 { return &t.versions })
		td.Fragments = pair(dFragments, func(t *diffTable) *int64 { return &t.fragments })
		td.DataPages = pair(dDataPages, func(t *diffTable) *int64 { return &t.dataPages })
		td.SizeBytes = pair(dSize, func(t *diffTable) *int64 { return &t.sizeBytes })
		td.IndexBytes = pair(dIndexBytes, func(t *diffTable) *int64 { return &t.indexBytes })
		td.AverageFill = pair(dFill, func(t *diffTable) *int64 { return &t.averageFill })
		switch {
		case bt == nil && b.hides(at.name, b.tables.len()), at == nil && a.hides(bt.name, a.tables.len()):
			td.Status = StatusNotShown
		case bt == nil:
			td.Status = StatusAdded
		case at == nil:
			td.Status = StatusDropped
		case td.Records.Differs() || td.Versions.Differs() || td.Fragments.Differs() ||
			td.DataPages.Differs() || td.SizeBytes.Differs():
			td.Status = StatusChanged
		case !td.Records.Known() && !td.Versions.Known() && !td.Fragments.Known() &&
			!td.DataPages.Known() && !td.SizeBytes.Known():
			// A side lists the table without its figures (gstat -i prints
			// a table's name above its indices): nothing compared is no
			// "unchanged".
			td.Status = StatusNotShown
		default:
			td.Status = StatusUnchanged
		}
		td.RecordsChange = td.Records.Change()
		td.VersionsChange = td.Versions.Change()
		td.DataPagesChange = td.DataPages.Change()
		td.SizeBytesChange = td.SizeBytes.Change()
		td.RecordsPerDay = d.perDay(td.RecordsChange)
		td.SizeBytesPerDay = d.perDay(td.SizeBytesChange)
		if c := td.VersionsChange; c != nil {
			switch {
			case *c > 0:
				td.BackVersions = strPtr(VersionsPilingUp)
			case *c < 0:
				td.BackVersions = strPtr(VersionsCollected)
			default:
				td.BackVersions = strPtr(VersionsSteady)
			}
		}
		d.Tables = append(d.Tables, td)
	}
}

func (d *SnapshotDiff) indices(b, a *diffSide) {
	// Index names are unique per schema; the table schema stands for the
	// index schema, which gstat does not print separately.
	pairs := matched(&b.indices, &a.indices, (*diffIndex).key)
	// The table shown is the later snapshot's (an index moved to another
	// table), the names those of the earlier.
	table := func(m [2]*diffIndex) string { return cmp.Or(m[1], m[0]).table }
	slices.SortStableFunc(pairs, func(x, y [2]*diffIndex) int {
		rx, ry := cmp.Or(x[0], x[1]), cmp.Or(y[0], y[1])
		return cmp.Or(units.Compare(rx.tableSchema, ry.tableSchema), units.Compare(table(x), table(y)), units.Compare(rx.name, ry.name))
	})
	d.Indices = make([]IndexDiff, 0, len(pairs))
	for _, m := range pairs {
		bix, aix := m[0], m[1]
		r := cmp.Or(bix, aix)
		id := IndexDiff{TableSchema: r.tableSchema, Table: table(m), Name: r.name}
		pair := func(bit uint8, f func(*diffIndex) *int64) Pair {
			return pairOf(bix, aix, func(x *diffIndex) *int64 { return x.get(bit, f(x)) })
		}
		id.Depth = pair(dDepth, func(x *diffIndex) *int64 { return &x.depth })
		id.LeafBuckets = pair(dLeafBuckets, func(x *diffIndex) *int64 { return &x.leafBuckets })
		id.Nodes = pair(dNodes, func(x *diffIndex) *int64 { return &x.nodes })
		id.TotalDup = pair(dTotalDup, func(x *diffIndex) *int64 { return &x.totalDup })
		id.MaxDup = pair(dMaxDup, func(x *diffIndex) *int64 { return &x.maxDup })
		id.SizeBytes = pair(dIndexSize, func(x *diffIndex) *int64 { return &x.sizeBytes })
		switch {
		case bix == nil && b.hides(aix.table, b.indices.len()), aix == nil && a.hides(bix.table, a.indices.len()):
			id.Status = StatusNotShown
		case bix == nil:
			id.Status = StatusAdded
		case aix == nil:
			id.Status = StatusDropped
		case id.Depth.Differs() || id.LeafBuckets.Differs() || id.Nodes.Differs() ||
			id.TotalDup.Differs() || id.MaxDup.Differs():
			id.Status = StatusChanged
		default:
			id.Status = StatusUnchanged
		}
		if c := id.Depth.Change(); c != nil && *c > 0 {
			id.DepthGrew = true
		}
		d.Indices = append(d.Indices, id)
	}
}

// hides tells whether a side that lists n objects of a kind leaves out
// one of table's: it lists none of that kind (gstat -h has no tables, -d
// no indices), or table is a system table and the side lists none (gstat
// without -s). Such an object is not shown there, neither created nor
// dropped.
func (d *diffSide) hides(table string, n int) bool {
	return n == 0 || IsSystemTable(table) && !d.system
}

// Count returns how many tables or indices have a status.
func (d *SnapshotDiff) Count(status string) (tables, indices int) {
	for _, t := range d.Tables {
		if t.Status == status {
			tables++
		}
	}
	for _, ix := range d.Indices {
		if ix.Status == status {
			indices++
		}
	}
	return tables, indices
}

func sameStr(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func strOr(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

// humanSeconds prints a time span in a message as every output prints a
// duration (units.Seconds): "3.000 s", "0:04:38", "3d 0:00:00".
func humanSeconds(s float64) string { return units.Seconds(s) }

// createdAt is h's creation date, nil when h or it is missing.
func createdAt(h *HeaderStats) *time.Time {
	if h == nil {
		return nil
	}
	return h.CreationDate
}
