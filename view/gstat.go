package view

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
)

// GstatTop is how many tables and indices the human formats show of a
// gstat analysis by default; the writers count the rest.
const GstatTop = 20

// GstatOptions are the reader's choices for the view of a gstat run.
type GstatOptions struct {
	// Sort orders the tables by one of analyze.TableSorts ("" is size)
	// and, within one severity, the indices (size: leaf pages; depth;
	// records and versions: nodes).
	Sort string
	// Top bounds the tables, the indices and the warnings text, markdown
	// and HTML show; 0 shows all. CSV and OpenMetrics always have every row.
	Top int
	// Several says the run is one of several: the title numbers it.
	Several bool
	// Kept, when set, holds what a GstatKeeper kept of a streamed run:
	// the analysis's Tables are then the kept ones and Kept.Indices the
	// indices to show; the totals count the rest.
	Kept *GstatKept
}

// Gstat lays out one gstat analysis: the header figures and totals, the
// tables (biggest first by opt.Sort), the indices (those with the worst
// warnings first, then by size), the problem lines gstat printed, the
// warnings, and the OpenMetrics families. The tables and indices are
// streamed from the analysis in the order chosen: the document holds no
// copy of their cells.
func Gstat(a *analyze.GstatAnalysis, opt GstatOptions) *Doc {
	title := a.File
	src := a.File
	if opt.Several {
		title += fmt.Sprintf(", snapshot %d", a.Report+1)
		src += "#" + strconv.Itoa(a.Report+1)
	}
	d := &Doc{
		Lead:          "gstat analysis of ",
		Title:         title,
		Source:        src,
		Main:          "tables",
		FindingsTitle: "Warnings",
		FindingsName:  "warnings",
		FindingsLimit: opt.Top,
		Headline:      gstatHeadline(a),
		MachineFields: gstatMachineFields(a),
	}
	d.Tables = append(d.Tables, gstatTablesTable(a, opt), gstatIndicesTable(a, opt))
	if len(a.Encryption) > 0 {
		d.Tables = append(d.Tables, gstatEncryptionTable(a))
	} else {
		d.Empty = append(d.Empty, gstatEncryptionTable(a))
	}
	if len(a.Findings) > 0 {
		d.Tables = append(d.Tables, gstatProblemsTable(a))
	} else {
		d.Empty = append(d.Empty, gstatProblemsTable(a))
	}
	for _, w := range a.Warnings {
		d.Findings = append(d.Findings, GstatFinding(w))
	}
	for _, sev := range []analyze.Severity{analyze.Critical, analyze.Warn, analyze.Info} {
		if n := a.WarningsOmitted[sev]; n > 0 {
			d.FindingsOmitted = append(d.FindingsOmitted, SeverityCount{Severity: string(sev), Count: n})
		}
	}
	d.Metrics = gstatMetrics(a)
	return d
}

// GstatFinding is a gstat warning as a finding: its object named with
// its kind ("index IX on T"), its figure in the warning's unit (a share
// in percent, bytes in IEC units), none for a flag in human formats. CSV
// writes the value, threshold and unit JSON has (MachineUnit, Flag).
func GstatFinding(w analyze.Warning) Finding {
	obj := w.Object
	if w.Table != "" {
		obj += " on " + w.Table
	}
	if w.Kind != w.Object { // "database", not "database database"
		obj = w.Kind + " " + obj
	}
	f := Finding{Severity: string(w.Severity), Rule: w.Rule, Object: obj, Unit: w.Unit,
		MachineUnit: w.Unit, Value: Num(w.Value), Threshold: Num(w.Threshold), Message: w.Reason, Advice: w.Advice, Source: w.Source}
	switch w.Unit {
	case "flag":
		f.Flag, f.Unit = true, ""
	case "share":
		f.Value, f.Threshold, f.Unit = Share(w.Value), Share(w.Threshold), ""
	case "share of RAM", "share of a page":
		f.Value, f.Threshold, f.Unit = Share(w.Value), Share(w.Threshold), strings.TrimPrefix(w.Unit, "share ")
	case "bytes":
		f.Value, f.Threshold, f.Unit = Bytes(int64(w.Value)), Bytes(int64(w.Threshold)), ""
	}
	return f
}

// gstatHeadline is the header page and the totals, one figure a field,
// named as in the JSON contract.
func gstatHeadline(a *analyze.GstatAnalysis) []Field {
	var fs []Field
	add := func(key, label string, v Cell, detail string) {
		fs = append(fs, Field{Key: key, Label: label, Value: v, Detail: detail})
	}
	if h := a.Header; h != nil {
		add("database", "Database", StrP(h.Database), "")
		add("ods_version", "ODS", StrP(h.ODSVersion), "")
		add("firebird_version", "Firebird", StrP(h.FirebirdVersion), "")
		add("page_size", "Page size", BytesP(h.PageSize), "")
		dialect := Null(CountKind)
		if h.Dialect != nil {
			dialect = Int(int64(*h.Dialect))
		}
		add("dialect", "Dialect", dialect, "")
		detail := ""
		if h.PageBuffers != nil && *h.PageBuffers == 0 {
			detail = "(server default)"
		}
		add("page_buffers", "Page buffers", IntP(h.PageBuffers), detail)
		if h.PageCacheBytes != nil {
			add("page_cache_bytes", "Page cache", Bytes(*h.PageCacheBytes), pageCacheDetail(h))
		}
		if h.PageCacheTotalBytes != nil {
			detail := ""
			if h.RAMBytes != nil && *h.RAMBytes > 0 {
				detail = "of " + units.Size(*h.RAMBytes) + " RAM"
			}
			add("page_cache_total_bytes", "Page caches", Bytes(*h.PageCacheTotalBytes), detail)
		}
		// CSV has JSON's true, false or null; people the words.
		fw := Field{Key: "forced_writes", Label: "Forced writes", Value: boolCell(h.ForcedWrites), Unknown: "unknown"}
		switch {
		case h.ForcedWrites != nil && *h.ForcedWrites:
			fw.Human = "on"
		case h.ForcedWrites != nil:
			fw.Human = "OFF"
		case h.ODSVersion != nil:
			fw.Unknown = "unknown (no Attributes line)"
		}
		fs = append(fs, fw)
		f := Field{Key: "sweep_interval", Label: "Sweep interval", Value: IntP(h.SweepInterval)}
		switch {
		case h.SweepInterval == nil && h.ODSVersion != nil:
			f.Unknown = "not printed (server default 20000)"
		case h.SweepInterval != nil && *h.SweepInterval == 0:
			f.Detail = "(automatic sweep off)"
		}
		fs = append(fs, f)
		if len(h.Attributes) > 0 {
			add("attributes", "Attributes", Str(strings.Join(h.Attributes, ", ")), "")
		}
		if h.ExecutionTime != nil {
			add("execution_time", "gstat run", Time(*h.ExecutionTime), "")
		}
		if h.CreationDate != nil {
			detail := "(or restored)"
			if h.CreationDateUTC != nil && *h.CreationDateUTC {
				detail = "UTC (or restored)"
			}
			add("creation_date", "Created", Time(*h.CreationDate), detail)
		}
		add("oldest_transaction", "OIT", IntP(h.OldestTransaction), "(oldest interesting)")
		add("oldest_active", "OAT", IntP(h.OldestActive), "(oldest active)")
		add("oldest_snapshot", "OST", IntP(h.OldestSnapshot), "(oldest snapshot)")
		add("next_transaction", "Next", IntP(h.NextTransaction), "(next transaction)")
		add("oat_minus_oit", "OAT − OIT", IntP(h.OATMinusOIT), "")
		add("ost_minus_oit", "OST − OIT", IntP(h.OSTMinusOIT), "(the sweep gap)")
		add("next_minus_oat", "Next − OAT", IntP(h.NextMinusOAT), "(age of the oldest active transaction)")
		add("next_minus_ost", "Next − OST", IntP(h.NextMinusOST), "")
		if h.SweepGapShare != nil {
			add("sweep_gap_share", "Sweep gap", Share(*h.SweepGapShare), "of the sweep interval")
		}
		if h.TransactionIDUsed != nil && h.TransactionIDHeadroom != nil && h.TransactionIDLimit != nil {
			add("transaction_id_headroom", "Transaction IDs left", Int(*h.TransactionIDHeadroom),
				fmt.Sprintf("of the ODS limit %d (%s used)", *h.TransactionIDLimit, usedShare(*h.TransactionIDUsed)))
		}
		if h.TransactionsPerDay != nil && h.DatabaseAgeDays != nil {
			detail := fmt.Sprintf("over the %s days since creation or restore", units.Sig3(*h.DatabaseAgeDays))
			if h.ReadOnly != nil && *h.ReadOnly {
				// Firebird keeps a read-only database's header as it was
				// (Next stays put): the days since count against it.
				detail += "; read only: Next stopped when it was made read only, so this understates the rate while it was written"
			}
			add("transactions_per_day", "Transactions a day", Num(*h.TransactionsPerDay), detail)
		}
	}
	// A run without table or index blocks did not count them: gstat -h
	// prints the header only, -d no index statistics (0 would be read
	// as a count).
	t := a.Totals
	count := func(key, label string, n int, none string) {
		f := Field{Key: key, Label: label, Value: Int(int64(n))}
		if n == 0 {
			f.Value, f.Unknown = Null(CountKind), none
		}
		fs = append(fs, f)
	}
	noTables := "none printed (gstat -h and -e print the header only)"
	if t.Tables == 0 && t.Indices > 0 {
		// gstat prints every index under its table's line: index blocks
		// without one are an excerpt (issue 8404's), not a -h run.
		noTables = "none printed (an excerpt: gstat prints each index under its table's line)"
	}
	count("tables", "Tables", t.Tables, noTables)
	count("indices", "Indices", t.Indices, "none printed (gstat -d, -e and -h print no index statistics; -a and -i do)")
	if t.Records != nil {
		add("records", "Records", Int(*t.Records), "")
		add("versions", "Back versions", IntP(t.Versions), "")
	}
	if t.TableBytes != nil {
		add("table_bytes", "Size of tables", Bytes(*t.TableBytes), "")
	}
	if t.IndexBytes != nil {
		add("index_bytes", "Size of indices", Bytes(*t.IndexBytes), "(leaf pages)")
	}
	if t.DataPages != nil {
		detail := ""
		if t.PrimaryPages != nil {
			detail = fmt.Sprintf("(%d primary, %s secondary, %s swept: a sweep skips swept pages)",
				*t.PrimaryPages, IntP(t.SecondaryPages).orQ(), IntP(t.SweptPages).orQ())
		}
		add("data_pages", "Data pages", Int(*t.DataPages), detail)
	}
	if len(a.Findings) > 0 {
		add("problem_lines", "gstat problems", Int(int64(len(a.Findings))), "lines (see problems below)")
	}
	return fs
}

// gstatMachineFields are the figures of the JSON header and totals the
// CSV summary adds to the headline's: those text gives in a Detail (the
// transaction-id limit and share used, the age the transactions a day
// rest on, the data pages' split) and the header words a script checks.
// Appended to the summary in this order (a contract): a row is never
// removed or moved, a null value is an empty cell.
func gstatMachineFields(a *analyze.GstatAnalysis) []Field {
	var fs []Field
	add := func(key string, v Cell) { fs = append(fs, Field{Key: key, Label: key, Value: v}) }
	if h := a.Header; h != nil {
		add("transaction_id_limit", IntP(h.TransactionIDLimit))
		add("transaction_id_used_share", NumP(h.TransactionIDUsed))
		add("database_age_days", NumP(h.DatabaseAgeDays))
		add("read_only", boolCell(h.ReadOnly))
		add("shutdown_mode", StrP(h.ShutdownMode))
		add("backup_state", StrP(h.BackupState))
		add("creation_date_utc", boolCell(h.CreationDateUTC))
	}
	t := a.Totals
	add("primary_pages", IntP(t.PrimaryPages))
	add("secondary_pages", IntP(t.SecondaryPages))
	add("swept_pages", IntP(t.SweptPages))
	add("leaf_pages", IntP(t.LeafPages))
	return fs
}

// boolCell is a flag as JSON writes it, "true" or "false"; null for nil.
func boolCell(p *bool) Cell {
	if p == nil {
		return Null(TextKind)
	}
	return Str(strconv.FormatBool(*p))
}

// orQ is the cell for people, "?" when unknown.
func (c Cell) orQ() string {
	if c.Null {
		return "?"
	}
	return c.Human()
}

// usedShare prints a tiny share of the transaction ID space readably.
func usedShare(s float64) string {
	if s > 0 && s < 0.001 {
		return "under 0.1 %"
	}
	return Share(s).Human()
}

// pageCacheDetail says how many caches the server opens.
func pageCacheDetail(h *analyze.HeaderStats) string {
	switch {
	case h.Architecture == nil:
		return "per cache: one with SuperServer, one per connection with Classic"
	case *h.Architecture == analyze.SuperServer:
		return "one for all connections (superserver)"
	case h.Connections != nil:
		return fmt.Sprintf("per connection, %s (%s)", units.Count(*h.Connections, "connection"), *h.Architecture)
	}
	return "per connection (" + *h.Architecture + ")"
}

// byName compares names in natural order (RDB$PRIMARY2 before
// RDB$PRIMARY10).
func byName(a, b string) int { return units.Compare(a, b) }

// sortedTables are the tables in opt.Sort order, ties in natural name
// order; pointers, so that 75,000 tables are not copied.
func sortedTables(a *analyze.GstatAnalysis, by string) []*analyze.TableStats {
	ts := make([]*analyze.TableStats, len(a.Tables))
	for i := range a.Tables {
		ts[i] = &a.Tables[i]
	}
	slices.SortStableFunc(ts, tableOrder(by))
	return ts
}

// tableOrder is the order of the tables table: biggest first by the key,
// unknown values last, ties in natural name order.
func tableOrder(by string) func(x, y *analyze.TableStats) int {
	return func(x, y *analyze.TableStats) int {
		kx, okx := tableKey(by, x)
		ky, oky := tableKey(by, y)
		if okx != oky {
			if okx {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(ky, kx); c != 0 {
			return c
		}
		return byName(x.QualifiedName(), y.QualifiedName())
	}
}

// tableKey is the figure the tables are sorted by, and whether it is
// known.
func tableKey(by string, t *analyze.TableStats) (int64, bool) {
	switch by {
	case "records":
		return known(t.Records)
	case "versions":
		return known(t.Versions)
	case "depth":
		return analyze.MaxDepth(t)
	}
	return known(t.SizeBytes)
}

func known(p *int64) (int64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// gstatTableColumns are the columns of the tables table.
var gstatTableColumns = []Column{
	{Key: "table", Title: "table", Max: 14},
	{Key: "records", Title: "records", Kind: CountKind},
	{Key: "versions", Title: "versions", Kind: CountKind},
	{Key: "versions_per_record", Title: "ver/rec", Kind: NumberKind},
	{Key: "max_versions", Title: "max ver", Kind: CountKind},
	{Key: "fragments_per_record", Title: "frag/rec", Kind: NumberKind},
	{Key: "data_pages", Title: "pages", Kind: CountKind},
	{Key: "fill_share", Title: "fill", Kind: PercentKind},
	{Key: "size_bytes", Title: "size", Kind: BytesKind},
	{Key: "index_bytes", Title: "index size", Kind: BytesKind},
}

func gstatTablesTable(a *analyze.GstatAnalysis, opt GstatOptions) *Table {
	by := cmp.Or(opt.Sort, "size")
	ts := sortedTables(a, by)
	t := &Table{
		Name:    "tables",
		Title:   "Tables by " + by,
		Noun:    "tables",
		Limit:   opt.Top,
		Total:   a.Totals.Tables,
		Columns: namesLeft(gstatTableColumns, slices.ContainsFunc(ts, func(t *analyze.TableStats) bool { return t.Schema != "" })),
		Stream: func(yield func([]Cell) bool) {
			for _, x := range ts {
				if !yield(tableCells(x)) {
					return
				}
			}
		},
	}
	if len(ts) == 0 {
		t.Notes = append(t.Notes, "(no table blocks: run gstat -a -r for table statistics)")
	}
	return t
}

// tableCells is a table's row of the tables table.
func tableCells(x *analyze.TableStats) []Cell { return appendTableCells(make([]Cell, 0, 10), x) }

// appendTableCells appends the cells tableCells returns to out.
func appendTableCells(out []Cell, x *analyze.TableStats) []Cell {
	fill := Null(PercentKind)
	if x.AverageFill != nil {
		fill = Percent(*x.AverageFill)
	}
	return append(out, Str(x.QualifiedName()), IntP(x.Records), IntP(x.Versions), NumP(x.VersionsPerRecord),
		IntP(x.MaxVersions), NumP(x.FragmentsPerRecord), IntP(x.DataPages), fill,
		BytesP(x.SizeBytes), BytesP(x.IndexBytes))
}

// warnedKey is the key of worstIndexWarnings for an index: its table and
// name as its warnings name them, with the schema in Firebird 6.
func warnedKey(ix *analyze.IndexStats) [2]string {
	return [2]string{ix.QualifiedTable(), ix.QualifiedName()}
}

// worstIndexWarnings maps an index (table and name) to the rank of its
// worst warning of ws (Severity.Rank); nil when none is an index's.
func worstIndexWarnings(ws []analyze.Warning) map[[2]string]int {
	var m map[[2]string]int
	for _, w := range ws {
		if w.Kind == "index" {
			if m == nil {
				m = map[[2]string]int{}
			}
			k := [2]string{w.Table, w.Object}
			m[k] = max(m[k], w.Severity.Rank())
		}
	}
	return m
}

// sortedIndices are every index, attached or not: those with the worst
// warnings first, then biggest first (leaf pages; depth with Sort "depth",
// nodes with "records" or "versions"), then by name in natural order.
func sortedIndices(a *analyze.GstatAnalysis, by string, kept *GstatKept) []*analyze.IndexStats {
	var ixs []*analyze.IndexStats
	if kept != nil {
		ixs = slices.Clone(kept.Indices)
	} else {
		for i := range a.Tables {
			for j := range a.Tables[i].Indices {
				ixs = append(ixs, &a.Tables[i].Indices[j])
			}
		}
		for i := range a.UnattachedIndices {
			ixs = append(ixs, &a.UnattachedIndices[i])
		}
	}
	worst := worstIndexWarnings(a.Warnings)
	if kept != nil {
		worst = kept.Worst
	}
	sortIndices(ixs, by, worst)
	return ixs
}

// sortIndices puts the indices in the order of the indices table: the
// worst warning first, then biggest first, then by name and table in
// natural order. Each index's rank is looked up once, not per comparison.
func sortIndices(ixs []*analyze.IndexStats, by string, worst map[[2]string]int) {
	rs := make([]rankedIndex, len(ixs))
	for i, ix := range ixs {
		rs[i] = rankedIndex{worst[warnedKey(ix)], indexKey(by, ix), ix}
	}
	slices.SortStableFunc(rs, compareRanked)
	for i := range rs {
		ixs[i] = rs[i].ix
	}
}

// rankedIndex is an index with what the indices table orders it by.
type rankedIndex struct {
	rank int
	size int64
	ix   *analyze.IndexStats
}

func compareRanked(x, y rankedIndex) int {
	if c := cmp.Compare(y.rank, x.rank); c != 0 {
		return c
	}
	if c := cmp.Compare(y.size, x.size); c != 0 {
		return c
	}
	if c := byName(x.ix.QualifiedName(), y.ix.QualifiedName()); c != 0 {
		return c
	}
	return byName(x.ix.QualifiedTable(), y.ix.QualifiedTable())
}

// indexKey is the figure the indices are sorted by within a severity
// (leaf pages; depth by depth; nodes by records or versions), -1 when
// unknown.
func indexKey(by string, ix *analyze.IndexStats) int64 {
	var p *int64
	switch by {
	case "depth":
		p = ix.Depth
	case "records", "versions":
		p = ix.Nodes
	default:
		p = ix.LeafBuckets
	}
	if p == nil {
		return -1
	}
	return *p
}

// indexKinds are the short names of index kinds that text, markdown and
// HTML print; the note under the table says what they mean. CSV prints
// the kind itself, JSON's word (analyze.IndexPrimaryKey, …).
var indexKinds = map[string]string{
	analyze.IndexPrimaryKey: "pk", analyze.IndexForeignKey: "fk", analyze.IndexUnique: "unique",
	analyze.IndexPlain: "plain", analyze.IndexSystem: "system", analyze.IndexUnknown: "?",
}

// gstatIndexColumns are the columns of the indices table.
var gstatIndexColumns = []Column{
	{Key: "index", Title: "index", Max: 16},
	{Key: "table", Title: "table", Max: 12},
	{Key: "kind", Title: "kind", Human: true},
	{Key: "kind", Title: "kind", Machine: true}, // (the same key: CSV has JSON's word, the others the short name)
	{Key: "depth", Title: "depth", Kind: CountKind},
	{Key: "leaf_pages", Title: "leaf", Kind: CountKind},
	{Key: "nodes", Title: "nodes", Kind: CountKind},
	{Key: "selectivity", Title: "select", Kind: NumberKind},
	{Key: "dup_share", Title: "dup", Kind: ShareKind},
	{Key: "max_dup", Title: "max dup", Kind: CountKind},
	{Key: "size_bytes", Title: "size", Kind: BytesKind},
}

func gstatIndicesTable(a *analyze.GstatAnalysis, opt GstatOptions) *Table {
	ixs := sortedIndices(a, cmp.Or(opt.Sort, "size"), opt.Kept)
	t := &Table{
		Name:    "indices",
		Title:   "Indices, those with warnings first",
		Noun:    "indices",
		Limit:   opt.Top,
		Total:   a.Totals.Indices,
		Columns: namesLeft(gstatIndexColumns, slices.ContainsFunc(ixs, func(ix *analyze.IndexStats) bool { return ix.Schema != "" })),
		Stream: func(yield func([]Cell) bool) {
			for _, ix := range ixs {
				if !yield(indexCells(ix)) {
					return
				}
			}
		},
	}
	switch {
	case len(ixs) == 0 && a.Totals.Tables > 0:
		// gstat -d prints none, and -a none for tables without an index:
		// the text cannot tell which.
		t.Notes = append(t.Notes, "(no index blocks: gstat -d prints none, nor does -a where no table has an index; gstat -a lists each index)")
	case len(ixs) == 0:
		t.Notes = append(t.Notes, "(no index blocks: run gstat -a for index statistics)")
	default:
		t.Notes = append(t.Notes, kindNote(ixs))
	}
	return t
}

// indexCells is an index's row of the indices table.
func indexCells(ix *analyze.IndexStats) []Cell { return appendIndexCells(make([]Cell, 0, 11), ix) }

// appendIndexCells appends the cells indexCells returns to out.
func appendIndexCells(out []Cell, ix *analyze.IndexStats) []Cell {
	kind, ok := indexKinds[ix.Kind]
	if !ok {
		kind = ix.Kind
	}
	return append(out, Str(ix.QualifiedName()), Str(ix.QualifiedTable()), Str(kind), Str(ix.Kind), IntP(ix.Depth), IntP(ix.LeafBuckets), IntP(ix.Nodes),
		NumP(ix.Selectivity), ShareP(ix.DupRatio), IntP(ix.MaxDup), BytesP(ix.SizeBytes))
}

// kindNote says where the kinds come from: the catalogue, or the names
// Firebird gives constraint indices, which leave user-chosen names open.
func kindNote(ixs []*analyze.IndexStats) string {
	for _, ix := range ixs {
		if ix.KindSource == analyze.KindFromCatalogue {
			return "kind: pk, fk, unique (constraint indices), plain or system, from RDB$RELATION_CONSTRAINTS where listed, else from the index name"
		}
	}
	return "kind: pk, fk, unique from the names Firebird gives constraint indices (RDB$PRIMARYn, RDB$FOREIGNn, RDB$n); " +
		"? a name of the user's choosing, plain or a named constraint's (fbdiag collect reads the catalogue)"
}

// gstatEncryptionTable lists the gstat -e page counts.
func gstatEncryptionTable(a *analyze.GstatAnalysis) *Table {
	t := &Table{Name: "encryption", Title: "Encryption (gstat -e)", Noun: "page count lines", Columns: []Column{
		{Key: "pages", Title: "pages"}, {Key: "total", Title: "total", Kind: CountKind},
		{Key: "encrypted", Title: "encrypted", Kind: CountKind}, {Key: "non_crypted", Title: "non-crypted", Kind: CountKind},
		{Key: "db_problem", Title: "DB problem", Human: true},
		{Key: "db_problem", Title: "DB problem", Machine: true}}} // (the same key: CSV has JSON's true or false, the others yes or no)
	for _, e := range a.Encryption {
		t.Rows = append(t.Rows, []Cell{Str(e.Kind), Int(e.Total), Int(e.Encrypted), Int(e.NonCrypted), yesNo(e.DBProblem), boolCell(&e.DBProblem)})
	}
	return t
}

// gstatProblemsTable lists the lines where gstat reported corruption or
// an error.
func gstatProblemsTable(a *analyze.GstatAnalysis) *Table {
	t := &Table{Name: "problems", Title: "Problems gstat reported", Noun: "problem lines", Columns: []Column{
		{Key: "line", Title: "line", Kind: CountKind}, {Key: "kind", Title: "kind"},
		{Key: "table", Title: "table", Max: 14}, {Key: "text", Title: "text", Max: 60},
		// (JSON's page numbers, appended: the text gives them to people)
		{Key: "page", Title: "page", Kind: CountKind, Machine: true},
		{Key: "from_page", Title: "from page", Kind: CountKind, Machine: true}}}
	for _, f := range a.Findings {
		t.Rows = append(t.Rows, []Cell{Int(int64(f.Line)), Str(f.Kind), Str(f.Table), Str(f.Text), IntP(f.Page), IntP(f.FromPage)})
	}
	return t
}

// GstatDatabase is the database label of the metrics: the path the
// header names, else the input's name. Two runs with the same label are
// two states of one database.
func GstatDatabase(a *analyze.GstatAnalysis) string {
	if a.Header != nil && a.Header.Database != nil {
		return *a.Header.Database
	}
	return a.File
}

// gstatMetrics are the OpenMetrics families of one run: transaction
// counters and gaps, page size, sizes, warnings by severity, per table
// and per index figures. A figure gstat did not print has no sample.
func gstatMetrics(a *analyze.GstatAnalysis) []MetricFamily {
	db := []Label{{"database", GstatDatabase(a)}}
	one := func(name, help, unit string, p *int64) MetricFamily {
		return MetricFamily{Name: name, Help: help, Type: Gauge, Unit: unit, Samples: func(yield func(Sample) bool) {
			if p != nil {
				yield(Sample{Labels: db, Value: float64(*p)})
			}
		}}
	}
	var fs []MetricFamily
	if h := a.Header; h != nil {
		fs = append(fs,
			one("fbdiag_oldest_transaction", "Oldest interesting transaction (OIT) on the header page", "", h.OldestTransaction),
			one("fbdiag_oldest_active", "Oldest active transaction (OAT) on the header page", "", h.OldestActive),
			one("fbdiag_oldest_snapshot", "Oldest snapshot (OST) on the header page", "", h.OldestSnapshot),
			one("fbdiag_next_transaction", "Next transaction on the header page", "", h.NextTransaction),
			one("fbdiag_oat_minus_oit", "Oldest active minus oldest interesting transaction", "", h.OATMinusOIT),
			one("fbdiag_ost_minus_oit", "Oldest snapshot minus oldest interesting transaction (the sweep gap)", "", h.OSTMinusOIT),
			one("fbdiag_next_minus_oat", "Next minus oldest active transaction (age of the oldest active transaction)", "", h.NextMinusOAT),
			one("fbdiag_next_minus_ost", "Next minus oldest snapshot transaction", "", h.NextMinusOST),
			one("fbdiag_page_size_bytes", "Database page size", "bytes", h.PageSize),
		)
	}
	t := a.Totals
	fs = append(fs,
		one("fbdiag_tables_size_bytes", "Size of the tables' data pages", "bytes", t.TableBytes),
		one("fbdiag_indices_size_bytes", "Size of the indices' leaf pages", "bytes", t.IndexBytes),
		MetricFamily{Name: "fbdiag_warnings", Help: "Health warnings of the gstat analysis by severity (fbdiag rules lists them)", Type: Gauge,
			Samples: func(yield func(Sample) bool) {
				for _, sev := range []analyze.Severity{analyze.Critical, analyze.Warn, analyze.Info} {
					n := a.WarningsOmitted[sev] // (those a stream did not keep)
					for _, w := range a.Warnings {
						if w.Severity == sev {
							n++
						}
					}
					if !yield(Sample{Labels: []Label{db[0], {"severity", string(sev)}}, Value: float64(n)}) {
						return
					}
				}
			}},
	)
	for _, m := range gstatTableMetrics {
		fs = append(fs, MetricFamily{Name: m.name, Help: m.help, Type: Gauge, Unit: m.unit, Samples: func(yield func(Sample) bool) {
			for i := range a.Tables {
				x := &a.Tables[i]
				if p := m.get(x); p != nil && !yield(Sample{Labels: tableLabels(db[0], x), Value: float64(*p)}) {
					return
				}
			}
		}})
	}
	for _, m := range gstatIndexMetrics {
		fs = append(fs, MetricFamily{Name: m.name, Help: m.help, Type: Gauge, Samples: func(yield func(Sample) bool) {
			each := func(ix *analyze.IndexStats) bool {
				p := m.get(ix)
				return p == nil || yield(Sample{Labels: indexLabels(db[0], ix), Value: float64(*p)})
			}
			for i := range a.Tables {
				for j := range a.Tables[i].Indices {
					if !each(&a.Tables[i].Indices[j]) {
						return
					}
				}
			}
			for i := range a.UnattachedIndices {
				if !each(&a.UnattachedIndices[i]) {
					return
				}
			}
		}})
	}
	return fs
}

// objectMetric is a family with a sample per table or index.
type objectMetric[T any] struct {
	name, help, unit string
	get              func(*T) *int64
}

// gstatTableMetrics are the families with a sample per table, in the
// order they are written.
var gstatTableMetrics = [...]objectMetric[analyze.TableStats]{
	{"fbdiag_table_records", "Primary record versions of the table", "", func(t *analyze.TableStats) *int64 { return t.Records }},
	{"fbdiag_table_versions", "Back versions of the table's records", "", func(t *analyze.TableStats) *int64 { return t.Versions }},
	{"fbdiag_table_data_pages", "Data pages of the table", "", func(t *analyze.TableStats) *int64 { return t.DataPages }},
	{"fbdiag_table_size_bytes", "Size of the table (data pages times page size, or gstat's table size)", "bytes", func(t *analyze.TableStats) *int64 { return t.SizeBytes }},
}

// gstatIndexMetrics are the families with a sample per index, written
// after the tables'.
var gstatIndexMetrics = [...]objectMetric[analyze.IndexStats]{
	{"fbdiag_index_depth", "Depth of the index b-tree", "", func(ix *analyze.IndexStats) *int64 { return ix.Depth }},
	{"fbdiag_index_leaf_pages", "Leaf pages (buckets) of the index", "", func(ix *analyze.IndexStats) *int64 { return ix.LeafBuckets }},
	{"fbdiag_index_nodes", "Nodes (keys) of the index", "", func(ix *analyze.IndexStats) *int64 { return ix.Nodes }},
	{"fbdiag_index_max_dup", "Most keys sharing one value in the index", "", func(ix *analyze.IndexStats) *int64 { return ix.MaxDup }},
}

func tableLabels(db Label, t *analyze.TableStats) []Label {
	if t.Schema != "" {
		return []Label{db, {"schema", t.Schema}, {"table", t.Name}}
	}
	return []Label{db, {"table", t.Name}}
}

func indexLabels(db Label, ix *analyze.IndexStats) []Label {
	if ix.Schema != "" {
		return []Label{db, {"schema", ix.Schema}, {"table", ix.Table}, {"index", ix.Name}}
	}
	return []Label{db, {"table", ix.Table}, {"index", ix.Name}}
}

// namesLeft clips the name columns (index, table) from the left when the
// names have their schema (Firebird 6): "PUBLIC.RDB$PRIM…" and
// "PUBLIC.ORDE…" told neither indices nor ORDERS from ORDER_LINE apart.
func namesLeft(cols []Column, schemas bool) []Column {
	if !schemas {
		return cols
	}
	cols = slices.Clone(cols)
	for i := range cols {
		if cols[i].Key == "index" || cols[i].Key == "table" {
			cols[i].ClipLeft = true
		}
	}
	return cols
}
