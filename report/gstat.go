package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
)

// GstatOptions are the presentation choices of 'fbdiag gstat'.
type GstatOptions struct {
	// Sort orders tables (and indices) by one of analyze.TableSorts;
	// empty means "size".
	Sort string
	// Top limits the tables to the N biggest; 0 shows all.
	Top int
	// TopIndices limits the indices; 0 shows all (the command sets it
	// only when --top is given, as the index list is what a DBA reads
	// whole).
	TopIndices int
}

func (o GstatOptions) sort() string {
	if o.Sort == "" {
		return "size"
	}
	return o.Sort
}

// WriteGstat writes gstat analyses in any format. JSON is one document per
// snapshot: a single run is a plain object, several decode in a loop (as
// go list -json and jq expect). Text starts each snapshot with the header
// health block; CSV and markdown give the header as a table.
func WriteGstat(w io.Writer, f Format, all []*analyze.GstatAnalysis, opt GstatOptions) error {
	for i, a := range all {
		if err := WriteGstatRun(w, f, a, opt, i, len(all) > 1); err != nil {
			return err
		}
	}
	return nil
}

// WriteGstatRun prints the i-th of the analyses WriteGstat prints, for a
// caller that streams them; several says whether there is more than one.
func WriteGstatRun(w io.Writer, f Format, a *analyze.GstatAnalysis, opt GstatOptions, i int, several bool) error {
	if f == JSON {
		return WriteJSON(w, a)
	}
	if i > 0 {
		fmt.Fprintln(w)
	}
	if f == Text {
		WriteGstatHeader(w, a, several)
	}
	return WriteTables(w, f, GstatTables(a, f, opt)...)
}

// GstatTables lays out one analysis: the header (except in text, where
// WriteGstatHeader prints it as a block), the tables, the indices and the
// warnings.
func GstatTables(a *analyze.GstatAnalysis, f Format, opt GstatOptions) []*Table {
	var tables []*Table
	if f != Text {
		tables = append(tables, GstatHeaderTable(a))
	}
	if f != Text && len(a.Encryption) > 0 { // text has it in the header block
		tables = append(tables, GstatEncryptionTable(a))
	}
	return append(tables, GstatTablesTable(a, f, opt), GstatIndicesTable(a, f, opt), GstatWarningsTable(a, f))
}

// GstatEncryptionTable lists the gstat -e page counts (CSV, markdown).
func GstatEncryptionTable(a *analyze.GstatAnalysis) *Table {
	t := &Table{Name: "encryption", Title: "Encryption (gstat -e)", Columns: Cols("pages", ">total", ">encrypted", ">non-crypted")}
	for _, e := range a.Encryption {
		t.Add(e.Kind, strconv.FormatInt(e.Total, 10), strconv.FormatInt(e.Encrypted, 10), strconv.FormatInt(e.NonCrypted, 10))
	}
	return t
}

// WriteGstatHeader prints the header health block, as a DBA reads gstat -h.
// several adds the snapshot number to the title.
func WriteGstatHeader(w io.Writer, a *analyze.GstatAnalysis, several bool) {
	// A long path loses its start, not the file name, to fit 100 columns.
	const lead = "gstat analysis of "
	suffix := ""
	if several {
		suffix = fmt.Sprintf(", snapshot %d", a.Report+1)
	}
	fmt.Fprintf(w, "%s%s%s\n", lead, ClipLeft(a.File, 100-len(lead)-len(suffix)), suffix)
	if h := a.Header; h == nil {
		fmt.Fprintln(w, "No header page in the input.")
	} else {
		writeHeaderFields(w, h)
	}
	t := a.Totals
	totals := fmt.Sprintf("%d tables, %d indices", t.Tables, t.Indices)
	if t.Records != nil {
		totals += fmt.Sprintf(", %d records, %s versions", *t.Records, Int(t.Versions))
	}
	fmt.Fprintf(w, "Totals          %s\n", totals)
	if t.TableBytes != nil || t.IndexBytes != nil {
		fmt.Fprintf(w, "Size            tables %s, index leaf pages %s\n", Size(t.TableBytes), Size(t.IndexBytes))
	}
	if t.PrimaryPages != nil && t.DataPages != nil {
		fmt.Fprintf(w, "Data pages      %d: %d primary, %s secondary, %s swept (a sweep skips swept pages)\n",
			*t.DataPages, *t.PrimaryPages, Int(t.SecondaryPages), Int(t.SweptPages))
	}
	if len(a.Encryption) > 0 {
		var parts []string
		for _, e := range a.Encryption {
			parts = append(parts, fmt.Sprintf("%s %d/%d", strings.ToLower(e.Kind), e.Encrypted, e.Total))
		}
		fmt.Fprintf(w, "Encryption      %s pages encrypted\n", strings.Join(parts, ", "))
	}
	if len(a.Findings) > 0 {
		fmt.Fprintf(w, "gstat reported  %d problem line(s):\n", len(a.Findings))
		for _, f := range a.Findings {
			fmt.Fprintln(w, Clip(fmt.Sprintf("  line %d: %s", f.Line, f.Text), 100))
		}
	}
	fmt.Fprintln(w)
}

func writeHeaderFields(w io.Writer, h *analyze.HeaderStats) {
	if h.Database != nil {
		fmt.Fprintf(w, "Database        %s\n", ClipLeft(*h.Database, 100-16))
	}
	dialect := "?"
	if h.Dialect != nil {
		dialect = strconv.Itoa(*h.Dialect)
	}
	fmt.Fprintf(w, "ODS             %s (Firebird %s), page size %s, dialect %s\n",
		Str(h.ODSVersion), Str(h.FirebirdVersion), intQ(h.PageSize), dialect)
	buffers := intQ(h.PageBuffers)
	if h.PageBuffers != nil && *h.PageBuffers == 0 {
		buffers = "0 (server default)"
	}
	fw := "unknown"
	switch {
	case h.ForcedWrites != nil:
		fw = map[bool]string{true: "on", false: "OFF"}[*h.ForcedWrites]
	case h.ODSVersion != nil:
		fw = "unknown (no Attributes line)"
	}
	fmt.Fprintf(w, "Page buffers    %s, forced writes %s\n", buffers, fw)
	if h.PageCacheBytes != nil {
		cache := analyze.SizeText(float64(*h.PageCacheBytes)) + " per cache"
		switch {
		case h.Architecture == nil:
			cache += " (SuperServer: one; Classic, SuperClassic: one per connection)"
		case h.PageCacheTotalBytes == nil:
			cache += ", one per connection (" + *h.Architecture + ")"
		case *h.Architecture == analyze.SuperServer:
			cache += ", one for all connections (superserver)"
		default:
			cache += fmt.Sprintf(", %s for %d connections (%s)", analyze.SizeText(float64(*h.PageCacheTotalBytes)), *h.Connections, *h.Architecture)
		}
		if h.PageCacheTotalBytes != nil && h.RAMBytes != nil {
			cache += fmt.Sprintf(", %.0f%% of %s RAM", 100*float64(*h.PageCacheTotalBytes)/float64(*h.RAMBytes), analyze.SizeText(float64(*h.RAMBytes)))
		}
		fmt.Fprintf(w, "Page cache      %s\n", cache)
	}
	sweep := Int(h.SweepInterval)
	switch {
	case h.SweepInterval == nil && h.ODSVersion == nil:
		sweep = "?" // header lines cut from an excerpt: nothing to say
	case h.SweepInterval == nil:
		sweep = "not printed (server default 20000)"
	case *h.SweepInterval == 0:
		sweep = "0 (automatic sweep off)"
	}
	fmt.Fprintf(w, "Sweep interval  %s\n", sweep)
	if attrs := strings.Join(h.Attributes, ", "); attrs != "" {
		fmt.Fprintf(w, "Attributes      %s\n", attrs)
	}
	fmt.Fprintf(w, "Transactions    OIT %s  OAT %s  OST %s  Next %s\n",
		intQ(h.OldestTransaction), intQ(h.OldestActive), intQ(h.OldestSnapshot), intQ(h.NextTransaction))
	fmt.Fprintf(w, "Gaps            OAT-OIT %s  OST-OIT %s  Next-OAT %s  Next-OST %s\n",
		intQ(h.OATMinusOIT), intQ(h.OSTMinusOIT), intQ(h.NextMinusOAT), intQ(h.NextMinusOST))
	switch {
	case h.SweepGapShare != nil:
		fmt.Fprintf(w, "Sweep gap       OST-OIT is %.0f%% of the sweep interval\n", *h.SweepGapShare*100)
	case h.SweepInterval != nil && *h.SweepInterval == 0 && h.OSTMinusOIT != nil:
		fmt.Fprintf(w, "Sweep gap       OST-OIT %d; the automatic sweep is disabled (interval 0)\n", *h.OSTMinusOIT)
	}
	if h.TransactionIDUsed != nil {
		fmt.Fprintf(w, "Transaction IDs %.4f%% of the ODS limit %d used, %d left\n",
			*h.TransactionIDUsed*100, *h.TransactionIDLimit, *h.TransactionIDHeadroom)
	}
	if h.TransactionsPerDay != nil {
		fmt.Fprintf(w, "Rate            %.0f transactions per day over the %.1f days since creation or restore\n",
			*h.TransactionsPerDay, *h.DatabaseAgeDays)
	}
}

// intQ is Int with "?" for unknown: in the header block a blank reads as
// a layout slip ("page size , dialect 3").
func intQ(p *int64) string {
	if p == nil {
		return "?"
	}
	return Int(p)
}

// GstatHeaderTable gives the header as field/value rows (CSV, markdown),
// the field names those of the JSON contract.
func GstatHeaderTable(a *analyze.GstatAnalysis) *Table {
	t := &Table{Name: "header", Title: "Header " + a.File, Columns: Cols("field", "value")}
	t.Add("file", a.File)
	t.Add("snapshot", strconv.Itoa(a.Report+1))
	if h := a.Header; h != nil {
		fw := ""
		if h.ForcedWrites != nil {
			fw = strconv.FormatBool(*h.ForcedWrites)
		}
		t.Add("database", Str(h.Database))
		t.Add("ods_version", Str(h.ODSVersion))
		t.Add("firebird_version", Str(h.FirebirdVersion))
		t.Add("page_size", Int(h.PageSize))
		t.Add("page_buffers", Int(h.PageBuffers))
		t.Add("forced_writes", fw)
		t.Add("sweep_interval", Int(h.SweepInterval))
		t.Add("oldest_transaction", Int(h.OldestTransaction))
		t.Add("oldest_active", Int(h.OldestActive))
		t.Add("oldest_snapshot", Int(h.OldestSnapshot))
		t.Add("next_transaction", Int(h.NextTransaction))
		t.Add("oat_minus_oit", Int(h.OATMinusOIT))
		t.Add("ost_minus_oit", Int(h.OSTMinusOIT))
		t.Add("next_minus_oat", Int(h.NextMinusOAT))
		t.Add("next_minus_ost", Int(h.NextMinusOST))
		t.Add("sweep_gap_share", Float(h.SweepGapShare, 4))
		t.Add("database_age_days", Float(h.DatabaseAgeDays, 1))
		t.Add("transactions_per_day", Float(h.TransactionsPerDay, 0))
		t.Add("page_cache_bytes", Int(h.PageCacheBytes))
		t.Add("page_cache_total_bytes", Int(h.PageCacheTotalBytes))
	}
	return t
}

// GstatTablesTable lists the tables in opt.Sort order, the opt.Top first.
func GstatTablesTable(a *analyze.GstatAnalysis, f Format, opt GstatOptions) *Table {
	by := opt.sort()
	ts := slices.Clone(a.Tables)
	analyze.SortTables(ts, by)
	title := fmt.Sprintf("Tables by %s", by)
	if opt.Top > 0 && len(ts) > opt.Top {
		title = fmt.Sprintf("Top %d of %d tables by %s", opt.Top, len(ts), by)
		ts = ts[:opt.Top]
	}
	// Text fits 100 columns: names are clipped and the index size is left
	// to the other formats.
	text := f == Text
	cols := []string{"table", ">records", ">versions", ">ver/rec", ">max ver", ">frag/rec", ">pages", ">fill", ">size"}
	if !text {
		cols = append(cols, ">index size", ">primary pages", ">secondary pages", ">swept pages")
	}
	t := &Table{Name: "tables", Title: title, Columns: Cols(cols...)}
	for _, x := range ts {
		fill := ""
		if x.AverageFill != nil {
			fill = strconv.Itoa(*x.AverageFill) + "%"
		}
		row := []string{x.Name, Int(x.Records), Int(x.Versions), Float(x.VersionsPerRecord, 2),
			Int(x.MaxVersions), Float(x.FragmentsPerRecord, 2), Int(x.DataPages), fill, Size(x.SizeBytes)}
		if text {
			row[0] = Clip(x.Name, 20)
		} else {
			row = append(row, Size(x.IndexBytes), Int(x.PrimaryPages), Int(x.SecondaryPages), Int(x.SweptPages))
		}
		t.Add(row...)
	}
	if len(ts) == 0 {
		t.Notes = append(t.Notes, "(no table blocks: run gstat -a -r for table statistics)")
	}
	return t
}

// GstatIndicesTable lists every index, attached or not, biggest first
// (deepest first with Sort "depth", most nodes with "records"/"versions").
func GstatIndicesTable(a *analyze.GstatAnalysis, f Format, opt GstatOptions) *Table {
	var ixs []analyze.IndexStats
	for _, t := range a.Tables {
		ixs = append(ixs, t.Indices...)
	}
	ixs = append(ixs, a.UnattachedIndices...)
	by := opt.sort()
	key := func(ix *analyze.IndexStats) int64 {
		switch by {
		case "depth":
			return orMinus1(ix.Depth)
		case "records", "versions":
			return orMinus1(ix.Nodes)
		}
		return orMinus1(ix.LeafBuckets)
	}
	slices.SortStableFunc(ixs, func(x, y analyze.IndexStats) int {
		if kx, ky := key(&x), key(&y); kx != ky {
			if kx > ky {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	title := "Indices"
	if opt.TopIndices > 0 && len(ixs) > opt.TopIndices {
		title = fmt.Sprintf("Top %d of %d indices", opt.TopIndices, len(ixs))
		ixs = ixs[:opt.TopIndices]
	}
	// Text fits 100 columns: clipped names, and unique keys (1/selectivity)
	// and the clustering ratio only in the other formats.
	text := f == Text
	cols := []string{"index", "table", "kind", "kind from", ">depth", ">needs", ">leaf", ">nodes", ">unique", ">selectivity", ">dup", ">max dup", ">clust", ">size"}
	if text {
		cols = []string{"index", "table", "kind", ">depth", ">leaf", ">nodes", ">select", ">dup", ">max dup", ">size"}
	}
	t := &Table{Name: "indices", Title: title, Columns: Cols(cols...)}
	if len(ixs) == 0 {
		t.Notes = append(t.Notes, "(no index blocks: run gstat -a for index statistics)")
	} else if text {
		t.Notes = append(t.Notes, Wrap(kindNote(ixs), "", 100)...)
	}
	for _, ix := range ixs {
		dup := ""
		if ix.DupRatio != nil {
			dup = fmt.Sprintf("%.0f%%", *ix.DupRatio*100)
		}
		sel := ""
		if ix.Selectivity != nil {
			sel = strconv.FormatFloat(*ix.Selectivity, 'g', 3, 64)
		}
		if text {
			t.Add(Clip(ix.Name, 20), Clip(ix.Table, 14), kindShort[ix.Kind], Int(ix.Depth), Int(ix.LeafBuckets), Int(ix.Nodes),
				sel, dup, Int(ix.MaxDup), Size(ix.SizeBytes))
			continue
		}
		t.Add(ix.Name, ix.Table, ix.Kind, ix.KindSource, Int(ix.Depth), Int(ix.NeededDepth), Int(ix.LeafBuckets), Int(ix.Nodes), Int(ix.UniqueKeys),
			sel, dup, Int(ix.MaxDup), Float(ix.ClusteringRatio, 2), Size(ix.SizeBytes))
	}
	return t
}

// kindShort names an index's kind in the text table's narrow column; the
// note under the table says what the codes mean.
var kindShort = map[string]string{
	analyze.IndexPrimaryKey: "pk", analyze.IndexForeignKey: "fk", analyze.IndexUnique: "unique",
	analyze.IndexPlain: "plain", analyze.IndexSystem: "system", analyze.IndexUnknown: "?",
}

// kindNote says where the kinds come from: the catalogue, or the names
// Firebird gives constraint indices, which leave user-chosen names open.
func kindNote(ixs []analyze.IndexStats) string {
	for _, ix := range ixs {
		if ix.KindSource == analyze.KindFromCatalogue {
			return "kind: pk, fk, unique (constraint indices), plain or system, from RDB$RELATION_CONSTRAINTS where listed, else from the index name"
		}
	}
	return "kind: pk, fk, unique from the names Firebird gives constraint indices (RDB$PRIMARYn, RDB$FOREIGNn, RDB$n); " +
		"? a name of the user's choosing, plain or a named constraint's (fbdiag collect reads the catalogue)"
}

// orMinus1 sorts unknown figures after every known one.
func orMinus1(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// GstatWarningsTable lists the warnings: a table in CSV and markdown, in
// text one block per warning wrapped to 100 columns, as its reason and
// advice are sentences, and the source of each rule once, at the end.
func GstatWarningsTable(a *analyze.GstatAnalysis, f Format) *Table {
	t := &Table{Name: "warnings", Title: fmt.Sprintf("Warnings (%d)", len(a.Warnings))}
	if f != Text {
		t.Columns = Cols("severity", "rule", "object", "table", ">value", ">threshold", "unit", "reason", "advice", "source")
		for _, w := range a.Warnings {
			t.Add(string(w.Severity), w.Rule, w.Object, w.Table, Num(w.Value), Num(w.Threshold), w.Unit, w.Reason, w.Advice, w.Source)
		}
		return t
	}
	var rules []string
	sources := map[string][]string{}
	for _, w := range a.Warnings {
		obj := w.Object
		if w.Table != "" {
			obj += " on " + w.Table
		}
		op := ">="
		switch {
		case w.Value > w.Threshold:
			op = ">"
		case w.Value < w.Threshold:
			op = "<"
		}
		what := w.Kind + " " + obj
		if w.Kind == w.Object {
			what = obj // "database", not "database database"
		}
		line := fmt.Sprintf("%-8s %s  %s", strings.ToUpper(string(w.Severity)), w.Rule, what)
		if w.Unit != "flag" { // a flag has no figure worth printing
			line += fmt.Sprintf(": %s %s %s %s", Num(w.Value), op, Num(w.Threshold), w.Unit)
		}
		t.Notes = append(t.Notes, line)
		t.Notes = append(t.Notes, Wrap(w.Reason, "         ", 100)...)
		if w.Advice != "" {
			t.Notes = append(t.Notes, Wrap("do: "+w.Advice, "         ", 100)...)
		}
		// One source per rule and threshold, cited once below.
		if !slices.Contains(sources[w.Rule], w.Source) {
			if len(sources[w.Rule]) == 0 {
				rules = append(rules, w.Rule)
			}
			sources[w.Rule] = append(sources[w.Rule], w.Source)
		}
	}
	if len(rules) > 0 {
		t.Notes = append(t.Notes, "Sources")
		for _, r := range rules {
			for _, src := range sources[r] {
				t.Notes = append(t.Notes, Wrap(r+": "+src, "         ", 100)...)
			}
		}
	}
	if len(a.Warnings) == 0 {
		t.Notes = append(t.Notes, "none")
	}
	return t
}
