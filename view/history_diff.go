package view

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
)

// HistoryTop is how many tables and indices the human formats show of a
// gstat diff or trend by default; the writers count the rest.
const HistoryTop = 20

// HistoryOptions are the reader's choices for gstat diff and trend.
type HistoryOptions struct {
	// Top bounds the tables and indices text, markdown and HTML show;
	// 0 shows all. CSV always has every row.
	Top int
	// Changed lists in a diff's tables and indices only the objects that
	// changed, appeared or went (the report's history of many
	// snapshots); the objects-by-status table counts the others.
	Changed bool
}

// HistoryDiff lays out what changed between two gstat snapshots, the
// first (old) being the baseline: the time and transactions between
// them, the size change, the age of each oldest active transaction, the
// two snapshots, the objects by status, the header counters, the tables
// (those that changed first, biggest size change first), the indices
// (those whose b-tree grew a level first), the health warnings that
// changed and the fields only one snapshot prints. The figures and
// verdicts are the analysis' (docs/gstat-history-json.md).
func HistoryDiff(d *analyze.SnapshotDiff, opt HistoryOptions) *Doc {
	doc := &Doc{
		Lead:          "gstat diff: ",
		Title:         d.Before.File + " → " + d.After.File,
		Source:        d.After.File,
		Main:          "tables",
		FindingsTitle: "Comparison warnings",
		FindingsName:  "warnings",
		Headline:      diffHeadline(d),
	}
	doc.Tables = append(doc.Tables, diffSnapshotsTable(d), diffCountsTable(d), diffCountersTable(d))
	for _, t := range []*Table{diffTablesTable(d, opt), diffIndicesTable(d, opt)} {
		if opt.Changed && t.Total > 0 && !hasRows(t) {
			// Nothing changed: the counts table says how many.
			doc.Notes = append(doc.Notes, map[string]string{"tables": "No table", "indices": "No index"}[t.Name]+" changed, appeared or went.")
			continue
		}
		doc.Tables = append(doc.Tables, t)
	}
	doc.Tables = append(doc.Tables, diffWarningChanges(d, opt))
	if len(d.FieldsOnlyBefore)+len(d.FieldsOnlyAfter) > 0 {
		doc.Tables = append(doc.Tables, diffFieldsTable(d, opt))
	} else {
		// (CSV --table fields_only is its header, not an error, for two
		// snapshots that print the same fields.)
		doc.Empty = append(doc.Empty, diffFieldsTable(d, opt))
	}
	for _, w := range d.Warnings {
		doc.Findings = append(doc.Findings, comparisonWarning("gstat-diff", w))
	}
	for i, side := range []string{"old", "new"} {
		if a := d.OATAge[i]; a.EstimateHours == nil && a.Note != "" {
			doc.Notes = append(doc.Notes, "OAT age, "+side+": "+a.Note+".")
		}
	}
	return doc
}

// hasRows reports whether a table has a row to show.
func hasRows(t *Table) bool {
	for range t.All() {
		return true
	}
	return false
}

// sizeWhat says what a snapshot's size adds up: the tables alone when
// the run printed no index statistics (gstat -d, -t).
func sizeWhat(in analyze.SnapshotInfo) string {
	if in.SizeBytes != nil && in.IndexBytes == nil {
		return "(tables only: no index statistics)"
	}
	return "(tables + indices)"
}

func diffHeadline(d *analyze.SnapshotDiff) []Field {
	between := Field{Key: "seconds_between", Label: "Between", Value: SecP(d.SecondsBetween), Unknown: "unknown"}
	if d.SecondsBetween == nil {
		between.Detail = "(a snapshot has no execution time)"
	}
	fs := []Field{between}
	size := d.Totals.SizeBytes
	if size[0] != nil || size[1] != nil {
		detail := ""
		if !d.SizeComparable {
			detail = "(not comparable: see the warnings)"
		}
		// (A gstat -d run's size is its tables alone: "tables +
		// indices" beside it misread its 50.8 MiB against the -a run's
		// 60.6.)
		newWhat := ""
		if w := sizeWhat(d.After); w != sizeWhat(d.Before) {
			newWhat = w
		}
		fs = append(fs,
			Field{Key: "size_old_bytes", Label: "Size, old", Value: BytesP(size[0]), Detail: sizeWhat(d.Before)},
			Field{Key: "size_new_bytes", Label: "Size, new", Value: BytesP(size[1]), Detail: newWhat},
			Field{Key: "size_change_bytes", Label: "Size change", Value: BytesP(size.Change()), Detail: detail},
			Field{Key: "size_change", Label: "Size change, relative", Value: ChangeP(size.Relative()), Detail: detail})
	}
	moved := "(a snapshot has no Next transaction)"
	for _, c := range d.Counters {
		if c.Name == "next_transaction" && c.Values[0] != nil && c.Values[1] != nil && d.TransactionsBetween == nil {
			moved = "(not counted: see the warnings)" // (both known: a warning says why)
		}
	}
	switch t := d.TransactionsBetween; {
	case t != nil && *t == 0:
		moved = "(Next transaction did not move)"
	case t != nil:
		moved = "(Next transaction moved)"
	}
	// A rate an hour from minutes is shown as trend shows its rate a
	// day: from an hour or more (history-rate.min_span), else the same
	// report said 104 an hour in its diff and "not shown" in its trend.
	perHour := Field{Key: "transactions_per_hour", Label: "Transactions an hour", Value: NumP(d.TransactionsPerHour)}
	if d.TransactionsPerHour != nil && !d.PerDayReliable {
		perHour.Value, perHour.Unknown = Null(NumberKind), "not shown"
		perHour.Detail = "(" + shortSpan("counters", *d.SecondsBetween/86400) + ")"
	}
	fs = append(fs,
		Field{Key: "transactions_between", Label: "Transactions", Value: IntP(d.TransactionsBetween), Detail: moved},
		perHour)
	for i, side := range []string{"old", "new"} {
		a := d.OATAge[i]
		if a.EstimateHours == nil && a.MaxHours == nil {
			continue
		}
		f := Field{Key: "oat_age_" + side + "_seconds", Label: "OAT age, " + side,
			Value: SecP(hoursToSeconds(a.EstimateHours)), Detail: oatAgeDetail(a), Unknown: "no estimate"}
		if gap := counterValue(d, "next_minus_oat", i); a.EstimateHours != nil && *a.EstimateHours == 0 && gap != nil && *gap == 0 {
			// (0 s read as a transaction just begun: the oldest active was the
			// latest to start when the header was written)
			f.Human, f.Detail = "none older than the latest (OAT = Next)", ""
		}
		fs = append(fs, f)
	}
	return fs
}

// counterValue is counter name's value in snapshot i (0 old, 1 new).
func counterValue(d *analyze.SnapshotDiff, name string, i int) *int64 {
	for _, c := range d.Counters {
		if c.Name == name {
			return c.Values[i]
		}
	}
	return nil
}

func hoursToSeconds(h *float64) *float64 {
	if h == nil {
		return nil
	}
	s := *h * 3600
	return &s
}

// comparisonWarning is a warning of diff or trend on the snapshots
// themselves (another database, a restore in between): a finding without
// a figure.
func comparisonWarning(rule, msg string) Finding {
	return Finding{Severity: string(analyze.Warn), Rule: rule, Object: "snapshots",
		Value: Null(NumberKind), Threshold: Null(NumberKind), Message: msg}
}

// oatAgeDetail says what bounds the age of an oldest active transaction;
// the notes say why an estimate was left out.
func oatAgeDetail(a analyze.OATAge) string {
	var parts []string
	if a.MinHours != nil && *a.MinHours > 0 {
		parts = append(parts, "at least "+units.Seconds(*a.MinHours*3600))
	}
	if a.MaxHours != nil {
		parts = append(parts, "at most "+units.Seconds(*a.MaxHours*3600))
	}
	if len(parts) == 0 {
		return ""
	}
	if a.EstimateHours == nil && a.Note != "" {
		return "(" + strings.Join(parts, ", ") + "; see the notes)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// snapshotColumns describe a snapshot; diff and trend share them.
var snapshotColumns = []Column{
	{Key: "snapshot", Title: "snapshot", Max: 20},
	{Key: "time", Title: "time", Kind: TimeKind},
	{Key: "dated_by", Title: "dated"},
	{Key: "ods", Title: "ODS"},
	{Key: "tables", Title: "tables", Kind: CountKind},
	{Key: "size_bytes", Title: "size", Kind: BytesKind},
}

// snapshotCells are the cells of snapshotColumns.
func snapshotCells(label string, s analyze.SnapshotInfo) []Cell {
	return []Cell{Str(label), TimeP(s.Time), datedBy(s), StrP(s.ODSVersion), countP(s.Tables), BytesP(s.SizeBytes)}
}

// countP is a count, null for nil: a snapshot's tables or indices when
// the run printed none (gstat -h), empty as in fbdiag gstat, not 0.
func countP(p *int) Cell {
	if p == nil {
		return Null(CountKind)
	}
	return Int(int64(*p))
}

// snapshotLabels name snapshots by the part of their file names that
// differs (testdata/growth/grow-00-a-r.txt and grow-10-a-r.txt are
// 00-a-r and 10-a-r): of the base names when they differ, else of the
// paths; the common prefix and suffix are cut at a separator (/ \\ - _ .
// or a space), so that words stay whole. Runs of one file are told apart
// by their number (#2). A single file keeps its base name.
func snapshotLabels(ss []analyze.SnapshotInfo) []string {
	// The base names, when they tell the files apart.
	name := func(f string) string { return filepath.Base(filepath.ToSlash(f)) }
	runs, bases := map[string]int{}, map[string]string{}
	for _, s := range ss {
		runs[s.File]++
		bases[name(s.File)] = s.File
	}
	if len(bases) < len(runs) {
		name = func(f string) string { return f }
	}
	var files [][]rune
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s.File] {
			seen[s.File] = true
			files = append(files, []rune(name(s.File)))
		}
	}
	pre, suf := 0, 0
	if len(files) > 1 {
		pre, suf = commonEnds(files)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		var l string
		if len(files) > 1 {
			r := []rune(name(s.File))
			l = string(r[pre : len(r)-suf])
		}
		if l == "" {
			l = filepath.Base(filepath.ToSlash(s.File))
		}
		if runs[s.File] > 1 {
			l += "#" + strconv.Itoa(s.Report+1)
		}
		out[i] = l
	}
	return out
}

// commonEnds are the lengths of the prefix and the suffix all names
// share, each ending (starting) at a separator, and never overlapping.
func commonEnds(names [][]rune) (pre, suf int) {
	sep := func(r rune) bool { return strings.ContainsRune("/\\-_. ", r) }
	shortest := len(names[0])
	for _, n := range names {
		shortest = min(shortest, len(n))
	}
	same := func(at func([]rune) rune) bool {
		for _, n := range names[1:] {
			if at(n) != at(names[0]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < shortest && same(func(n []rune) rune { return n[i] }); i++ {
		if sep(names[0][i]) {
			pre = i + 1
		}
	}
	for i := 1; i <= shortest-pre && same(func(n []rune) rune { return n[len(n)-i] }); i++ {
		if sep(names[0][len(names[0])-i]) {
			suf = i
		}
	}
	return pre, suf
}

// datedBy says where a snapshot's time comes from: the gstat run's
// execution time, or its file's modification time.
func datedBy(s analyze.SnapshotInfo) Cell {
	switch {
	case s.TimeSource == nil:
		return Null(TextKind)
	case *s.TimeSource == analyze.TimeFromFile:
		return Str("file")
	}
	return Str("gstat")
}

func diffSnapshotsTable(d *analyze.SnapshotDiff) *Table {
	t := &Table{Name: "snapshots", Title: "Snapshots (old is the baseline)",
		Columns: append(append([]Column{{Key: "side", Title: ""}}, snapshotColumns...),
			Column{Key: "indices", Title: "indices", Kind: CountKind},
			Column{Key: "firebird", Title: "Firebird"})}
	ss := []analyze.SnapshotInfo{d.Before, d.After}
	labels := snapshotLabels(ss)
	for i, s := range ss {
		row := append([]Cell{Str([]string{"old", "new"}[i])}, snapshotCells(labels[i], s)...)
		t.Rows = append(t.Rows, append(row, countP(s.Indices), StrP(s.FirebirdVersion)))
	}
	if d.Before.TimeSource != nil && *d.Before.TimeSource == analyze.TimeFromFile ||
		d.After.TimeSource != nil && *d.After.TimeSource == analyze.TimeFromFile {
		t.Notes = append(t.Notes, "dated by file: the run has no execution time, its file's modification time stands for it")
	}
	return t
}

// diffStatuses are the statuses of an object between two snapshots, in
// the order the tables show them.
var diffStatuses = []string{analyze.StatusChanged, analyze.StatusAdded, analyze.StatusDropped, analyze.StatusUnchanged, analyze.StatusNotShown}

func diffCountsTable(d *analyze.SnapshotDiff) *Table {
	t := &Table{Name: "counts", Title: "Objects by status", Columns: []Column{{Key: "objects", Title: "objects"}}}
	for _, st := range diffStatuses {
		t.Columns = append(t.Columns, Column{Key: st, Title: strings.ReplaceAll(st, "_", " "), Kind: CountKind})
	}
	tables, indices := []Cell{Str("tables")}, []Cell{Str("indices")}
	for _, st := range diffStatuses {
		tb, ix := d.Count(st)
		tables, indices = append(tables, Int(int64(tb))), append(indices, Int(int64(ix)))
	}
	t.Rows = [][]Cell{tables, indices}
	t.Notes = append(t.Notes, "matched by schema and name: a renamed object is dropped and added; "+
		"not shown: the other snapshot has no statistics of that kind (gstat -d has no indices, -h no tables, -i no table figures, a run without -s no system tables)")
	return t
}

// counterNames name the header counters for people.
var counterNames = map[string]string{
	"oldest_transaction": "oldest transaction (OIT)",
	"oldest_active":      "oldest active (OAT)",
	"oldest_snapshot":    "oldest snapshot (OST)",
	"next_transaction":   "next transaction",
	"oat_minus_oit":      "OAT − OIT",
	"ost_minus_oit":      "OST − OIT (sweep gap)",
	"next_minus_oat":     "Next − OAT",
}

func diffCountersTable(d *analyze.SnapshotDiff) *Table {
	t := &Table{Name: "counters", Title: "Transaction counters", Rows: [][]Cell{}, Columns: []Column{
		{Key: "counter", Title: "counter"}, {Key: "key", Title: "key"},
		{Key: "old", Title: "old", Kind: CountKind}, {Key: "new", Title: "new", Kind: CountKind},
		{Key: "change", Title: "change", Kind: CountKind}}}
	withdrawn := false
	for _, c := range d.Counters {
		t.Rows = append(t.Rows, []Cell{Str(cmp.Or(counterNames[c.Name], c.Name)), Str(c.Name), IntP(c.Values[0]), IntP(c.Values[1]), IntP(c.Change)})
		withdrawn = withdrawn || c.Change == nil && c.Values[0] != nil && c.Values[1] != nil
	}
	if withdrawn {
		t.Notes = append(t.Notes, "change: none for transaction numbers that start afresh between the snapshots (another database, or a restore: see the warnings)")
	}
	if len(d.Counters) == 0 {
		t.Notes = append(t.Notes, "no header page in either snapshot")
	}
	return t
}

// historyName is a table as diff and trend name it: with its schema
// (Firebird 6).
func historyName(schema, name string) string {
	if schema != "" {
		return schema + "." + name
	}
	return name
}

// latest is the later value of a pair; the earlier one only for an
// object the later snapshot does not have or show (status dropped or
// not_shown). An object both show keeps the later snapshot's gap: a gstat
// -d run after a -a -r one prints no records or back versions, and the
// earlier run's 5000 read as the later one's.
func latest(status string, p analyze.Pair) *int64 {
	if status == analyze.StatusDropped || status == analyze.StatusNotShown {
		return cmp.Or(p[1], p[0])
	}
	return p[1]
}

// statusRank puts the objects that changed, appeared or went before
// those that did not.
func statusRank(s string) int {
	if s == analyze.StatusUnchanged || s == analyze.StatusNotShown {
		return 1
	}
	return 0
}

// magnitude orders changes by size, unknown last.
func magnitude(p *int64) int64 {
	if p == nil {
		return -1
	}
	return max(*p, -*p)
}

func diffTablesTable(d *analyze.SnapshotDiff, opt HistoryOptions) *Table {
	rows := make([]*analyze.TableDiff, len(d.Tables))
	for i := range d.Tables {
		rows[i] = &d.Tables[i]
	}
	slices.SortStableFunc(rows, func(a, b *analyze.TableDiff) int {
		return cmp.Or(cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
			cmp.Compare(magnitude(b.SizeBytesChange), magnitude(a.SizeBytesChange)),
			units.Compare(historyName(a.Schema, a.Name), historyName(b.Schema, b.Name)))
	})
	all := len(rows)
	if opt.Changed {
		// Sorted: those that changed, appeared or went come first.
		n := 0
		for n < len(rows) && statusRank(rows[n].Status) == 0 {
			n++
		}
		rows = rows[:n]
	}
	t := &Table{
		Total: all,
		Name:  "tables",
		Title: "Tables, those that changed first, biggest size change first",
		Noun:  "tables",
		Limit: opt.Top,
		Columns: []Column{
			{Key: "table", Title: "table", Max: 16},
			{Key: "status", Title: "status"},
			{Key: "records", Title: "records", Kind: CountKind},
			{Key: "records_change", Title: "Δ records", Kind: CountKind},
			{Key: "versions", Title: "versions", Kind: CountKind},
			{Key: "back_versions", Title: "garbage"},
			{Key: "size_change_bytes", Title: "Δ size", Kind: BytesKind},
			{Key: "size_change", Title: "Δ size %", Kind: ChangeKind},
			{Key: "size_bytes_per_day", Title: "a day", Kind: BytesKind},
		},
		Stream: func(yield func([]Cell) bool) {
			for _, td := range rows {
				garbage := Null(TextKind)
				if td.BackVersions != nil {
					garbage = Str(strings.ReplaceAll(*td.BackVersions, "_", " "))
				}
				perDay := Null(BytesKind)
				if td.SizeBytesPerDay != nil && d.PerDayReliable {
					perDay = bytesOf(*td.SizeBytesPerDay)
				}
				if !yield([]Cell{Str(historyName(td.Schema, td.Name)), Str(td.Status), IntP(latest(td.Status, td.Records)), IntP(td.RecordsChange),
					IntP(latest(td.Status, td.Versions)), garbage, BytesP(td.SizeBytesChange), ChangeP(td.SizeBytes.Relative()), perDay}) {
					return
				}
			}
		},
	}
	t.Notes = append(t.Notes, "records, versions: in the new snapshot, empty where it does not print them (gstat without -r); the old one's for a table dropped or not shown; garbage: back versions piling up, collected or steady")
	if !d.PerDayReliable && d.SecondsBetween != nil && *d.SecondsBetween > 0 {
		t.Notes = append(t.Notes, perDayNote(*d.SecondsBetween, "the snapshots are"))
	}
	switch {
	case all == 0:
		t.Notes = append(t.Notes, "no table statistics in either snapshot (gstat -a or -d has them)")
	case len(rows) < all:
		t.Notes = append(t.Notes, "the tables that did not change are counted by status above, not listed")
	}
	return t
}

// perDayNote says why a rate per day is not shown.
func perDayNote(seconds float64, what string) string {
	return fmt.Sprintf("a day: not shown, %s %s apart, under %s (history-rate.min_span); the JSON has the figures",
		what, units.Seconds(seconds), units.Seconds(analyze.NewThresholds().Get("history-rate", "min_span")))
}

func diffIndicesTable(d *analyze.SnapshotDiff, opt HistoryOptions) *Table {
	rows := make([]*analyze.IndexDiff, len(d.Indices))
	for i := range d.Indices {
		rows[i] = &d.Indices[i]
	}
	grew := func(ix *analyze.IndexDiff) int {
		if ix.DepthGrew {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(rows, func(a, b *analyze.IndexDiff) int {
		return cmp.Or(cmp.Compare(grew(a), grew(b)), cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
			cmp.Compare(magnitude(b.LeafBuckets.Change()), magnitude(a.LeafBuckets.Change())),
			units.Compare(a.Name, b.Name), units.Compare(a.Table, b.Table))
	})
	all := len(rows)
	if opt.Changed {
		// Those whose b-tree grew a level come first whatever their
		// status; then the changed ones.
		keep := rows[:0:0]
		for _, ix := range rows {
			if ix.DepthGrew || statusRank(ix.Status) == 0 {
				keep = append(keep, ix)
			}
		}
		rows = keep
	}
	t := &Table{
		Total: all,
		Name:  "indices",
		Title: "Indices, those whose b-tree grew a level first, then those that changed",
		Noun:  "indices",
		Limit: opt.Top,
		Columns: []Column{
			{Key: "index", Title: "index", Max: 16},
			{Key: "table", Title: "table", Max: 12},
			{Key: "status", Title: "status"},
			{Key: "depth", Title: "depth", Kind: CountKind},
			{Key: "depth_change", Title: "Δ depth", Kind: CountKind},
			{Key: "leaf_pages", Title: "leaf", Kind: CountKind},
			{Key: "leaf_pages_change", Title: "Δ leaf", Kind: CountKind},
			{Key: "nodes", Title: "nodes", Kind: CountKind},
			{Key: "nodes_change", Title: "Δ nodes", Kind: CountKind},
			{Key: "max_dup", Title: "max dup", Kind: CountKind},
		},
		Stream: func(yield func([]Cell) bool) {
			for _, ix := range rows {
				if !yield([]Cell{Str(ix.Name), Str(historyName(ix.TableSchema, ix.Table)), Str(ix.Status),
					IntP(latest(ix.Status, ix.Depth)), IntP(ix.Depth.Change()), IntP(latest(ix.Status, ix.LeafBuckets)), IntP(ix.LeafBuckets.Change()),
					IntP(latest(ix.Status, ix.Nodes)), IntP(ix.Nodes.Change()), IntP(latest(ix.Status, ix.MaxDup))}) {
					return
				}
			}
		},
	}
	for _, ix := range rows {
		if ix.DepthGrew {
			t.Notes = append(t.Notes, "Δ depth 1: the b-tree grew a level, so every lookup reads one more page")
			break
		}
	}
	switch {
	case all == 0:
		t.Notes = append(t.Notes, "no index statistics in either snapshot (gstat -a or -i has them)")
	case len(rows) < all:
		t.Notes = append(t.Notes, "the indices that did not change are counted by status above, not listed")
	}
	return t
}

// warningValue is a rule's figure in its unit: a share in percent, bytes
// in IEC units, others as figures with the unit beside them.
func warningValue(p *float64, unit string) Cell {
	switch {
	case p == nil && unit == "share":
		return Null(ShareKind)
	case p == nil:
		return Null(NumberKind)
	case unit == "share":
		return Share(*p)
	case unit == "bytes":
		return bytesOf(*p)
	}
	return Num(*p)
}

// diffWarningChanges lists the warnings that appeared, changed severity or
// were resolved, the most severe first (a severity change counts at the
// worse of its two), so that the human formats' first opt.Top rows are
// the ones to read: a critical that appeared is not left out behind a
// thousand infos that were resolved.
func diffWarningChanges(d *analyze.SnapshotDiff, opt HistoryOptions) *Table {
	t := &Table{Name: "warning_changes", Title: "Health warnings that changed", Noun: "warning changes", Limit: opt.Top, Rows: [][]Cell{}, Columns: []Column{
		{Key: "change", Title: "change"}, {Key: "severity", Title: "severity"}, {Key: "severity_old", Title: "was"},
		{Key: "rule", Title: "rule", Max: 20}, {Key: "object", Title: "object", Max: 16},
		{Key: "value_old", Title: "old", Kind: NumberKind}, {Key: "value_new", Title: "new", Kind: NumberKind},
		{Key: "threshold", Title: "limit", Kind: NumberKind}, {Key: "unit", Title: "unit", Max: 15}}}
	type change struct {
		change string
		w      *analyze.WarningChange
	}
	var all []change
	for _, l := range []struct {
		change string
		ws     []analyze.WarningChange
	}{{"appeared", d.WarningsAppeared}, {"severity", d.WarningsChanged}, {"resolved", d.WarningsResolved}} {
		for i := range l.ws {
			all = append(all, change{l.change, &l.ws[i]})
		}
	}
	rank := func(w *analyze.WarningChange) int {
		r := w.Severity.Rank()
		if w.SeverityBefore != nil {
			r = max(r, w.SeverityBefore.Rank())
		}
		return r
	}
	// (Stable: the order of the kinds above, then analyze's within each.)
	slices.SortStableFunc(all, func(a, b change) int { return cmp.Compare(rank(b.w), rank(a.w)) })
	for _, c := range all {
		w := c.w
		obj := w.Object
		if w.Table != "" {
			obj += " on " + w.Table // (as gstat names it: "T.X" reads as SCHEMA.NAME)
		}
		if w.Kind != w.Object {
			obj = w.Kind + " " + obj
		}
		was := Null(TextKind)
		if w.SeverityBefore != nil {
			was = Str(string(*w.SeverityBefore))
		}
		unit := w.Unit
		if unit == "share" || unit == "bytes" || unit == "flag" {
			unit = ""
		}
		t.Rows = append(t.Rows, []Cell{Str(c.change), Str(string(w.Severity)), was, Str(w.Rule), Str(obj),
			warningValue(w.Values[0], w.Unit), warningValue(w.Values[1], w.Unit), warningValue(&w.Threshold, w.Unit), Str(unit)})
	}
	if len(t.Rows) == 0 {
		t.Notes = append(t.Notes, "none")
	} else {
		t.Notes = append(t.Notes, "old, new: the rule's figure in each snapshot, empty where the rule did not fire")
		if opt.Top > 0 && len(t.Rows) > opt.Top {
			t.Notes = append(t.Notes, fmt.Sprintf("in all: %d appeared, %d changed severity, %d resolved; the most severe first",
				len(d.WarningsAppeared), len(d.WarningsChanged), len(d.WarningsResolved)))
		}
	}
	return t
}

func diffFieldsTable(d *analyze.SnapshotDiff, opt HistoryOptions) *Table {
	t := &Table{Name: "fields_only", Title: "Fields only one snapshot prints (not compared)", Noun: "fields", Limit: opt.Top,
		Columns: []Column{{Key: "only_in", Title: "only in"}, {Key: "field", Title: "field"}}}
	for _, f := range d.FieldsOnlyBefore {
		t.Rows = append(t.Rows, []Cell{Str("old"), Str(f)})
	}
	for _, f := range d.FieldsOnlyAfter {
		t.Rows = append(t.Rows, []Cell{Str("new"), Str(f)})
	}
	return t
}
