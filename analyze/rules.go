package analyze

import (
	"fmt"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// Rule describes one health rule: what it looks at and what it means.
// Its limits are the thresholds whose Rule is its ID.
type Rule struct {
	ID string `json:"id"`
	// Kind is the object the rule judges: database, table or index.
	Kind string `json:"kind"`
	// Severities lists the severities the rule can raise.
	Severities []Severity `json:"severities"`
	// Summary says in one line what the rule flags.
	Summary string `json:"summary"`
}

// Rules is the catalogue of gstat health rules, in the order of
// `fbdiag rules`. IDs are stable: scripts and --rules files use them.
var Rules = []Rule{
	{"oat-stuck", "database", []Severity{Warn, Critical}, "Next - OAT: a transaction has been active for many transactions and blocks garbage collection"},
	{"sweep-gap", "database", []Severity{Warn}, "OST - OIT above the sweep interval: the sweep is due or cannot move the OIT"},
	{"sweep-disabled", "database", []Severity{Info}, "sweep interval 0: automatic sweep is off, a manual sweep must be scheduled"},
	{"txid-headroom", "database", []Severity{Warn, Critical}, "Next transaction close to the ODS limit: backup and restore before it stops"},
	{"forced-writes-off", "database", []Severity{Warn, Critical}, "Attributes lack \"force write\": a crash can lose or corrupt data (critical on Windows)"},
	{"page-buffers", "database", []Severity{Info}, "page buffers set in the header override the server default for every attachment"},
	{"shutdown", "database", []Severity{Warn, Critical}, "the database is in a shutdown mode"},
	{"backup-lock", "database", []Severity{Warn}, "nbackup lock or merge still set: END BACKUP / nbackup -N never ran"},
	{"read-only", "database", []Severity{Info}, "the database is read only"},
	{"ods-old", "database", []Severity{Warn}, "old on-disk structure: the server version is out of maintenance"},
	{"dialect-1", "database", []Severity{Warn}, "SQL dialect 1 (InterBase 5 compatibility)"},
	{"page-size-small", "database", []Severity{Warn}, "small page size with deep indices: a backup/restore with a bigger page size lowers the depth"},
	{"corruption", "database", []Severity{Critical}, "gstat printed an \"Expected ... page\" line: the database is damaged"},
	{"gstat-error", "database", []Severity{Critical}, "gstat printed an error (login, ODS, I/O): the statistics are missing or incomplete"},
	{"table-versions", "table", []Severity{Warn, Critical}, "many back versions per record: garbage is not being collected"},
	{"table-max-versions", "table", []Severity{Warn}, "a record has a long version chain (updated many times under an old snapshot)"},
	{"table-deleted", "table", []Severity{Info}, "records counted but average length 0: deleted rows waiting for garbage collection"},
	{"table-fragments", "table", []Severity{Warn}, "many fragmented records: records wider than a page"},
	{"table-formats", "table", []Severity{Warn, Critical}, "record formats near the limit of 255 (ALTER TABLE count): backup/restore resets them"},
	{"table-sparse", "table", []Severity{Warn}, "low average data page fill: the table wastes pages"},
	{"blob-levels", "table", []Severity{Info}, "level 2 blobs: blobs too big for the page size"},
	{"index-deep", "index", []Severity{Warn, Critical}, "index depth 3 or more: a bigger page size would make lookups cheaper"},
	{"index-max-dup", "index", []Severity{Warn, Critical}, "more than 10000 duplicates of one value: slow garbage collection and deletes"},
	{"index-useless", "index", []Severity{Warn}, "an index with one or two distinct values never helps a query"},
	{"index-low-selectivity", "index", []Severity{Warn}, "almost all keys are duplicates: poor selectivity"},
	{"index-broken", "index", []Severity{Warn}, "fewer index keys than records: inconsistent index (rebuild it)"},
	{"index-sparse", "index", []Severity{Warn}, "most leaf pages below 60% full: the index is a rebuild candidate"},
	// Not a gstat rule: the sweep analysis of fbdiag throughput reads its
	// noise margin from the same thresholds table.
	{"throughput-sweep", "throughput", []Severity{Info}, "sweep settings within this share of the best count as equal to it (one run per setting)"},
}

// RuleByID returns a rule of the catalogue.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// checker collects the warnings of one run.
type checker struct {
	a  *GstatAnalysis
	th Thresholds
}

// fire records a warning; magnitude is value/threshold for "above" rules
// and threshold/value for "below" rules (1 when either is 0).
func (c *checker) fire(rule string, sev Severity, kind, object, table string, value, threshold float64, unit, reason string, below bool) {
	mag := 1.0
	switch {
	case below && value > 0:
		mag = threshold / value
	case !below && threshold > 0:
		mag = value / threshold
	}
	// The source is the one of the threshold compared against (the
	// rule's first threshold when the limit is derived, as index-broken's).
	src := ""
	for _, t := range c.th.list {
		if t.Rule == rule && (src == "" || t.Value == threshold) {
			src = t.Source
			if t.Value == threshold {
				break
			}
		}
	}
	c.a.Warnings = append(c.a.Warnings, Warning{
		Rule: rule, Severity: sev, Kind: kind, Object: object, Table: table,
		Value: value, Threshold: threshold, Unit: unit, Reason: reason, Source: src, Magnitude: mag,
	})
}

func check(a *GstatAnalysis, rep *parse.GstatReport, th Thresholds) {
	c := &checker{a: a, th: th}
	if rep.Header != nil && a.Header != nil {
		c.header(rep.Header)
	}
	c.findings(rep.Findings)
	var odsMajor *int
	if rep.Header != nil {
		odsMajor = rep.Header.ODSMajor
	}
	for i := range a.Tables {
		t := &a.Tables[i]
		c.table(t)
		for j := range t.Indices {
			c.index(&t.Indices[j], t, odsMajor)
		}
	}
	for i := range a.UnattachedIndices {
		c.index(&a.UnattachedIndices[i], nil, odsMajor)
	}
	c.pageSize()
}

const db = "database"

func (c *checker) header(h *parse.GstatHeader) {
	s := c.a.Header
	get := c.th.Get
	if v := s.NextMinusOAT; v != nil {
		warn, crit := get("oat-stuck", "warning"), get("oat-stuck", "critical")
		reason := fmt.Sprintf("Next - OAT = %d: the oldest active transaction (%d) blocks garbage collection; find it in MON$TRANSACTIONS (2.1+)", *v, val0(s.OldestActive))
		switch {
		case float64(*v) >= crit:
			c.fire("oat-stuck", Critical, db, db, "", float64(*v), crit, "transactions", reason, false)
		case float64(*v) > warn:
			c.fire("oat-stuck", Warn, db, db, "", float64(*v), warn, "transactions", reason, false)
		}
	}
	if gap := s.OSTMinusOIT; gap != nil {
		iv := float64(effectiveSweepInterval(h, c.th))
		if float64(*gap) > iv {
			reason := fmt.Sprintf("OST - OIT = %d above the sweep interval %.0f: a sweep is due, or a stuck transaction keeps the OIT back", *gap, iv)
			if h.SweepInterval != nil && *h.SweepInterval == 0 {
				reason = fmt.Sprintf("OST - OIT = %d with automatic sweep off: run gfix -sweep (the default interval is %.0f)", *gap, iv)
			} else if h.SweepInterval == nil {
				reason += " (interval not printed: server default assumed)"
			}
			c.fire("sweep-gap", Warn, db, db, "", float64(*gap), iv, "transactions", reason, false)
		}
	}
	if h.SweepInterval != nil && float64(*h.SweepInterval) <= get("sweep-disabled", "interval") {
		c.fire("sweep-disabled", Info, db, db, "", float64(*h.SweepInterval), get("sweep-disabled", "interval"), "transactions",
			"sweep interval 0: automatic sweep is disabled; make sure a manual sweep (gfix -sweep) is scheduled", false)
	}
	if s.TransactionIDUsed != nil {
		used := *s.TransactionIDUsed
		warn, crit := get("txid-headroom", "warning"), get("txid-headroom", "critical")
		reason := fmt.Sprintf("Next transaction %d is %.0f%% of the ODS %s limit %d: backup and restore resets it",
			val0(s.NextTransaction), used*100, deref(s.ODSVersion), val0(s.TransactionIDLimit))
		switch {
		case used >= crit:
			c.fire("txid-headroom", Critical, db, db, "", used, crit, "share", reason, false)
		case used >= warn:
			c.fire("txid-headroom", Warn, db, db, "", used, warn, "share", reason, false)
		}
	}
	if s.ForcedWrites != nil && !*s.ForcedWrites && get("forced-writes-off", "required") > 0 {
		sev := Warn
		reason := "forced writes are off: an OS crash or power loss can corrupt the database (gfix -write sync)"
		if strings.Contains(strings.ToLower(h.OS), "windows") {
			sev = Critical
			reason = "forced writes are off on Windows, where the file cache can lose writes and corrupt the database (gfix -write sync)"
		}
		c.fire("forced-writes-off", sev, db, db, "", 0, 1, "flag", reason, true)
	}
	if h.PageBuffers != nil && float64(*h.PageBuffers) > get("page-buffers", "max_pages") {
		reason := fmt.Sprintf("header page buffers %d override DefaultDbCachePages for every attachment", *h.PageBuffers)
		if h.PageSize != nil {
			reason += fmt.Sprintf(" (%.1f MiB per cache; with Classic/SuperClassic per connection)", float64(*h.PageBuffers**h.PageSize)/(1<<20))
		}
		c.fire("page-buffers", Info, db, db, "", float64(*h.PageBuffers), get("page-buffers", "max_pages"), "pages", reason, false)
	}
	if h.ShutdownMode != "" && get("shutdown", "allowed") == 0 {
		sev := Warn
		if h.ShutdownMode == "full shutdown" {
			sev = Critical
		}
		c.fire("shutdown", sev, db, db, "", 1, 0, "flag", "database is in "+h.ShutdownMode+": bring it online with gfix -online", false)
	}
	if h.BackupState != "" && get("backup-lock", "allowed") == 0 {
		c.fire("backup-lock", Warn, db, db, "", 1, 0, "flag", "attribute \""+h.BackupState+"\": the delta file grows until ALTER DATABASE END BACKUP (nbackup -N) runs", false)
	}
	if h.ReadOnly && get("read-only", "allowed") == 0 {
		c.fire("read-only", Info, db, db, "", 1, 0, "flag", "the database is read only (gfix -mode read_write to change)", false)
	}
	if h.ODSMajor != nil && float64(*h.ODSMajor) < get("ods-old", "min_major") {
		v := float64(*h.ODSMajor)
		if h.ODSMinor != nil {
			v += float64(*h.ODSMinor) / 10
		}
		c.fire("ods-old", Warn, db, db, "", v, get("ods-old", "min_major"), "ODS",
			fmt.Sprintf("ODS %s is Firebird %s: out of maintenance; backup and restore with a current server", h.ODSVersion, deref(s.FirebirdVersion)), true)
	}
	if h.Dialect != nil && float64(*h.Dialect) < get("dialect-1", "min_dialect") {
		c.fire("dialect-1", Warn, db, db, "", float64(*h.Dialect), get("dialect-1", "min_dialect"), "dialect",
			"SQL dialect 1: no BIGINT, exact NUMERIC(18) or DATE/TIME types; migrate to dialect 3", true)
	}
}

func (c *checker) findings(fs []*parse.GstatFinding) {
	if len(fs) == 0 {
		return
	}
	n := 0
	for _, f := range fs {
		switch f.Kind {
		case parse.FindingExpectedData, parse.FindingExpectedBucket, parse.FindingExpectedInventory, parse.FindingPageCorrupt:
			n++
		}
	}
	errs, firstErr := 0, ""
	for _, f := range fs {
		if f.Kind == parse.FindingError {
			if errs == 0 {
				firstErr = fmt.Sprintf("line %d: %q", f.Line, f.Text)
			}
			errs++
		}
	}
	if max := c.th.Get("gstat-error", "max_lines"); float64(errs) > max {
		c.fire("gstat-error", Critical, db, db, "", float64(errs), max, "lines",
			fmt.Sprintf("gstat reported %d error line(s), first %s: the statistics are missing or incomplete", errs, firstErr), false)
	}
	if max := c.th.Get("corruption", "max_lines"); float64(n) > max {
		first := ""
		for _, f := range fs {
			if f.Kind != parse.FindingError {
				first = fmt.Sprintf("line %d: %q", f.Line, f.Text)
				break
			}
		}
		c.fire("corruption", Critical, db, db, "", float64(n), max, "lines",
			fmt.Sprintf("%d corruption line(s), first %s: copy the file, then gfix -v -full and gbak", n, first), false)
	}
}

func (c *checker) table(t *TableStats) {
	get := c.th.Get
	const kind = "table"
	if t.Versions != nil && t.Records != nil && float64(*t.Versions) >= get("table-versions", "min_versions") {
		r := float64(*t.Versions) / float64(max(*t.Records, 1))
		warn, crit := get("table-versions", "warning"), get("table-versions", "critical")
		reason := fmt.Sprintf("%d back versions for %d records: garbage collection is behind or blocked by the OAT", *t.Versions, *t.Records)
		switch {
		case r >= crit:
			c.fire("table-versions", Critical, kind, t.Name, "", r, crit, "versions/record", reason, false)
		case r > warn:
			c.fire("table-versions", Warn, kind, t.Name, "", r, warn, "versions/record", reason, false)
		}
	}
	if t.MaxVersions != nil && float64(*t.MaxVersions) >= get("table-max-versions", "warning") {
		c.fire("table-max-versions", Warn, kind, t.Name, "", float64(*t.MaxVersions), get("table-max-versions", "warning"), "versions",
			fmt.Sprintf("one record has %d back versions: updated repeatedly while an old snapshot was open", *t.MaxVersions), false)
	}
	if t.AvgRecord != nil && *t.AvgRecord == 0 && t.Records != nil && float64(*t.Records) >= get("table-deleted", "min_records") {
		c.fire("table-deleted", Info, kind, t.Name, "", float64(*t.Records), get("table-deleted", "min_records"), "records",
			fmt.Sprintf("%d records with average length 0: all rows deleted, garbage collection has not run yet", *t.Records), false)
	}
	if t.FragmentsPerRecord != nil && float64(val0(t.Records)) >= get("table-fragments", "min_records") && *t.FragmentsPerRecord > get("table-fragments", "per_record") {
		c.fire("table-fragments", Warn, kind, t.Name, "", *t.FragmentsPerRecord, get("table-fragments", "per_record"), "fragments/record",
			fmt.Sprintf("%d fragments for %d records: records do not fit a page; consider a bigger page size", val0(t.Fragments), val0(t.Records)), false)
	}
	if t.TotalFormats != nil {
		warn, crit := get("table-formats", "warning"), get("table-formats", "critical")
		v := float64(*t.TotalFormats)
		reason := fmt.Sprintf("%d record formats of 255: at 255 the table can no longer be altered; backup and restore resets them", *t.TotalFormats)
		switch {
		case v >= crit:
			c.fire("table-formats", Critical, kind, t.Name, "", v, crit, "formats", reason, false)
		case v >= warn:
			c.fire("table-formats", Warn, kind, t.Name, "", v, warn, "formats", reason, false)
		}
	}
	if t.AverageFill != nil && t.DataPages != nil && float64(*t.DataPages) >= get("table-sparse", "min_data_pages") &&
		float64(*t.AverageFill) < get("table-sparse", "min_fill") &&
		(t.AvgRecord == nil || *t.AvgRecord > get("table-sparse", "min_record_length")) {
		c.fire("table-sparse", Warn, kind, t.Name, "", float64(*t.AverageFill), get("table-sparse", "min_fill"), "%",
			fmt.Sprintf("data pages %d%% full on average over %d pages: mass deletes left holes; backup/restore compacts", *t.AverageFill, *t.DataPages), true)
	}
	if len(t.BlobLevels) > 2 && float64(t.BlobLevels[2]) > get("blob-levels", "max_level2") {
		c.fire("blob-levels", Info, kind, t.Name, "", float64(t.BlobLevels[2]), get("blob-levels", "max_level2"), "blobs",
			fmt.Sprintf("%d blobs at level 2 (pointer pages of pointer pages): blobs large for the page size", t.BlobLevels[2]), false)
	}
}

func (c *checker) index(ix *IndexStats, t *TableStats, odsMajor *int) {
	get := c.th.Get
	const kind = "index"
	tname := ix.Table
	if ix.Depth != nil {
		d := float64(*ix.Depth)
		warn, crit := get("index-deep", "warning"), get("index-deep", "critical")
		reason := fmt.Sprintf("depth %d: every lookup reads %d pages; a bigger page size lowers it", *ix.Depth, *ix.Depth)
		switch {
		case d >= crit:
			c.fire("index-deep", Critical, kind, ix.Name, tname, d, crit, "levels", reason, false)
		case d >= warn:
			c.fire("index-deep", Warn, kind, ix.Name, tname, d, warn, "levels", reason, false)
		}
	}
	if ix.MaxDup != nil && float64(*ix.MaxDup) > get("index-max-dup", "warning") {
		sev := Warn
		if odsMajor != nil && *odsMajor < 11 {
			sev = Critical // before Firebird 2.0 long duplicate chains make GC quadratic
		}
		c.fire("index-max-dup", sev, kind, ix.Name, tname, float64(*ix.MaxDup), get("index-max-dup", "warning"), "keys",
			fmt.Sprintf("%d records share one key value: deletes and garbage collection walk the whole chain", *ix.MaxDup), false)
	}
	// The DBA cannot drop or change the indices of system tables: judging
	// their selectivity is noise.
	useless := IsSystemTable(tname) || t != nil && t.Schema == "SYSTEM"
	if !useless && ix.UniqueKeys != nil && ix.Nodes != nil && *ix.Nodes > 0 && float64(*ix.Nodes) >= get("index-useless", "min_nodes") &&
		float64(*ix.UniqueKeys) <= get("index-useless", "max_unique_keys") {
		useless = true
		c.fire("index-useless", Warn, kind, ix.Name, tname, float64(*ix.UniqueKeys), get("index-useless", "max_unique_keys"), "keys",
			fmt.Sprintf("%d distinct values in %d keys: the optimizer gains nothing; drop it or make it compound", *ix.UniqueKeys, *ix.Nodes), true)
	}
	if !useless && ix.DupRatio != nil && float64(val0(ix.Nodes)) >= get("index-low-selectivity", "min_nodes") &&
		*ix.DupRatio >= get("index-low-selectivity", "dup_ratio") {
		c.fire("index-low-selectivity", Warn, kind, ix.Name, tname, *ix.DupRatio, get("index-low-selectivity", "dup_ratio"), "share",
			fmt.Sprintf("%d distinct values in %d keys (%.0f rows per value): poor selectivity", val0(ix.UniqueKeys), val0(ix.Nodes),
				float64(val0(ix.Nodes))/float64(max(val0(ix.UniqueKeys), 1))), false)
	}
	if t != nil && t.Records != nil && ix.Nodes != nil && *t.Records > 0 {
		limit := get("index-broken", "min_nodes_share") * float64(*t.Records)
		if float64(*ix.Nodes) < limit {
			c.fire("index-broken", Warn, kind, ix.Name, tname, float64(*ix.Nodes), limit, "nodes",
				fmt.Sprintf("%d keys for %d records: index inconsistent (or partial, Firebird 5+); rebuild with ALTER INDEX INACTIVE/ACTIVE", *ix.Nodes, *t.Records), true)
		}
	}
	if ix.LightShare != nil && ix.LeafBuckets != nil && float64(*ix.LeafBuckets) >= get("index-sparse", "min_leaf_buckets") &&
		*ix.LightShare >= get("index-sparse", "light_share") {
		c.fire("index-sparse", Warn, kind, ix.Name, tname, *ix.LightShare, get("index-sparse", "light_share"), "share",
			fmt.Sprintf("%.0f%% of %d leaf pages under 60%% full: rebuild (ALTER INDEX INACTIVE/ACTIVE) to pack it", *ix.LightShare*100, *ix.LeafBuckets), false)
	}
}

// pageSize fires page-size-small once per run, on the deepest index.
func (c *checker) pageSize() {
	h := c.a.Header
	if h == nil || h.PageSize == nil || float64(*h.PageSize) >= c.th.Get("page-size-small", "page_size") {
		return
	}
	var deepest *IndexStats
	visit := func(ix *IndexStats) {
		if ix.Depth != nil && (deepest == nil || *ix.Depth > *deepest.Depth) {
			deepest = ix
		}
	}
	for i := range c.a.Tables {
		for j := range c.a.Tables[i].Indices {
			visit(&c.a.Tables[i].Indices[j])
		}
	}
	for i := range c.a.UnattachedIndices {
		visit(&c.a.UnattachedIndices[i])
	}
	if deepest == nil || float64(*deepest.Depth) < c.th.Get("page-size-small", "depth") {
		return
	}
	c.fire("page-size-small", Warn, db, db, "", float64(*h.PageSize), c.th.Get("page-size-small", "page_size"), "bytes",
		fmt.Sprintf("page size %d with index %s at depth %d: gbak -c -page_size 8192 (or 16384) lowers the depth", *h.PageSize, deepest.Name, *deepest.Depth), true)
}

// IsSystemTable tells Firebird's own tables (RDB$, MON$, SEC$) from the
// application's; Firebird 6 also puts them in the SYSTEM schema.
func IsSystemTable(name string) bool {
	return strings.HasPrefix(name, "RDB$") || strings.HasPrefix(name, "MON$") || strings.HasPrefix(name, "SEC$")
}

func val0(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func deref(p *string) string {
	if p == nil {
		return "?"
	}
	return *p
}
