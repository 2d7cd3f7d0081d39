package analyze

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/fbdiag/fbdiag/parse"
)

// GstatAnalysis is what fbdiag makes of one gstat run: the header with its
// transaction gaps, per-table and per-index figures, totals and the
// health warnings. Its JSON form is the contract of docs/gstat-json.md;
// a value gstat did not print is null, never a guessed zero.
type GstatAnalysis struct {
	File string `json:"file"`
	// Report is the 0-based position of the run in its file (two
	// concatenated gstat outputs are two snapshots).
	Report int `json:"report"`
	// Header is null when the input had no header page text (an excerpt
	// of table or index blocks).
	Header *HeaderStats `json:"header"`
	Totals Totals       `json:"totals"`
	Tables []TableStats `json:"tables"`
	// UnattachedIndices are index blocks that followed no table block.
	UnattachedIndices []IndexStats `json:"unattached_indices"`
	// Findings are the lines where gstat itself reported corruption or an
	// error.
	Findings []*parse.GstatFinding `json:"findings"`
	// Encryption is the gstat -e page counts (data, index, blob,
	// generator...), [] when the run printed none.
	Encryption []parse.GstatPageCrypt `json:"encryption"`
	Warnings   []Warning              `json:"warnings"`
	// WarningsOmitted counts by severity the warnings a scan with
	// LimitWarnings did not keep (nil otherwise; never in JSON, which
	// keeps them all).
	WarningsOmitted map[Severity]int `json:"-"`

	tableWarnings []Warning
	prepared      any
	encTable      []byte
	encTableErr   error
	// unattachedWarnings are the warnings fired on UnattachedIndices.
	unattachedWarnings []Warning
	Notices            []parse.Notice `json:"notices"`
}

// Slim is a copy of a without its tables, indices and warnings: its
// name, header, totals and notices, for a caller that keeps many runs
// and shows few of them whole (FleetBuilder, TrendSamples.Sample, the
// report).
func (a *GstatAnalysis) Slim() *GstatAnalysis {
	return &GstatAnalysis{File: a.File, Report: a.Report, Header: a.Header, Totals: a.Totals, Notices: a.Notices}
}

// HeaderStats is the header page with the figures a DBA derives from it.
type HeaderStats struct {
	// Database is the path of the `Database "…"` line (null when absent).
	Database      *string    `json:"database"`
	ExecutionTime *time.Time `json:"execution_time"`
	CreationDate  *time.Time `json:"creation_date"`
	// CreationDateUTC says the creation date is in UTC: gstat prints the
	// header's timestamp as stored, which Firebird 4.0 (ODS 13) and later
	// store in UTC (src/jrd/pag.cpp reads it as a GMT timestamp) and
	// earlier versions in the server's local time; the gstat run time is
	// local in every version. Null when either is not printed.
	CreationDateUTC *bool   `json:"creation_date_utc"`
	PageSize        *int64  `json:"page_size"`
	ODSVersion      *string `json:"ods_version"`
	// FirebirdVersion is the server version the ODS belongs to ("3.0").
	FirebirdVersion *string  `json:"firebird_version"`
	Server          string   `json:"server,omitempty"`
	Implementation  *string  `json:"implementation"`
	Dialect         *int     `json:"dialect"`
	PageBuffers     *int64   `json:"page_buffers"`
	Attributes      []string `json:"attributes"`
	// ForcedWrites is what an Attributes line shows: true with "force
	// write", false without it. With no Attributes line it is null, except
	// for a complete dialect 1 header, where gstat omits the line because
	// no header flag is set (see forcedWritesKnown).
	ForcedWrites *bool   `json:"forced_writes"`
	ShutdownMode *string `json:"shutdown_mode"`
	// ReadOnly is null or false as ForcedWrites is.
	ReadOnly      *bool   `json:"read_only"`
	BackupState   *string `json:"backup_state"`
	SweepInterval *int64  `json:"sweep_interval"`

	OldestTransaction *int64 `json:"oldest_transaction"`
	OldestActive      *int64 `json:"oldest_active"`
	OldestSnapshot    *int64 `json:"oldest_snapshot"`
	NextTransaction   *int64 `json:"next_transaction"`
	// OATMinusOIT is Oldest active − Oldest transaction.
	OATMinusOIT *int64 `json:"oat_minus_oit"`
	// OSTMinusOIT is the sweep gap (IBAnalyst's name); negative when the
	// OIT is past the OST.
	OSTMinusOIT *int64 `json:"ost_minus_oit"`
	// NextMinusOAT is how many transactions started since the oldest one
	// still active: the age of the longest-running transaction.
	NextMinusOAT *int64 `json:"next_minus_oat"`
	NextMinusOST *int64 `json:"next_minus_ost"`
	// SweepGapShare is OST−OIT over the sweep interval (the printed one,
	// or the server default 20000 when none is printed); null when the
	// interval is 0, which disables the automatic sweep.
	SweepGapShare *float64 `json:"sweep_gap_share"`

	// TransactionIDLimit is the highest transaction number the ODS allows.
	TransactionIDLimit    *int64   `json:"transaction_id_limit"`
	TransactionIDHeadroom *int64   `json:"transaction_id_headroom"`
	TransactionIDUsed     *float64 `json:"transaction_id_used_share"`
	// DatabaseAgeDays is the time from the creation date (reset by a
	// restore) to the gstat run, in days; TransactionsPerDay is Next over
	// it. Both are null unless both dates are printed and far enough apart
	// for the difference to hold (see minAge).
	DatabaseAgeDays    *float64 `json:"database_age_days"`
	TransactionsPerDay *float64 `json:"transactions_per_day"`

	// PageCacheBytes is one page cache: header page buffers × page size;
	// null when the header leaves the size to the server (0 buffers).
	PageCacheBytes *int64 `json:"page_cache_bytes"`
	// Architecture, Connections and RAMBytes are what the user said of the
	// server (--architecture, --connections, --ram); gstat does not show
	// them. PageCacheTotalBytes is the memory of every cache the server
	// opens for this database: one with SuperServer, one per connection
	// with Classic and SuperClassic.
	Architecture        *string `json:"architecture"`
	Connections         *int64  `json:"connections"`
	RAMBytes            *int64  `json:"ram_bytes"`
	PageCacheTotalBytes *int64  `json:"page_cache_total_bytes"`
}

// TableStats is one table with its sizes and garbage figures.
type TableStats struct {
	Schema      string   `json:"schema,omitempty"`
	Name        string   `json:"name"`
	ID          int64    `json:"id"`
	Records     *int64   `json:"records"`
	Versions    *int64   `json:"versions"`
	MaxVersions *int64   `json:"max_versions"`
	AvgRecord   *float64 `json:"average_record_length"`
	AvgVersion  *float64 `json:"average_version_length"`
	// AvgUnpacked is the record length before compression (3.0+ -r).
	AvgUnpacked *float64 `json:"average_unpacked_length"`
	// VersionsPerRecord is back versions / records.
	VersionsPerRecord  *float64 `json:"versions_per_record"`
	Fragments          *int64   `json:"fragments"`
	MaxFragments       *int64   `json:"max_fragments"`
	FragmentsPerRecord *float64 `json:"fragments_per_record"`
	DataPages          *int64   `json:"data_pages"`
	AverageFill        *int     `json:"average_fill"`
	// Fill is the data pages' fill distribution, for the fill chart; not
	// in JSON, whose contract has the average fill only.
	Fill *parse.GstatFill `json:"-"`
	// PrimaryPages hold primary record versions, SecondaryPages only back
	// versions, fragments and blobs; SweptPages are primary pages the last
	// sweep found garbage-free, which the next one skips; BigRecordPages
	// hold one fragment of a record bigger than a page (all 3.0+).
	PrimaryPages   *int64 `json:"primary_pages"`
	SecondaryPages *int64 `json:"secondary_pages"`
	SweptPages     *int64 `json:"swept_pages"`
	BigRecordPages *int64 `json:"big_record_pages"`
	// SizeBytes is the "Table size" line where gstat prints it (5.0.2+),
	// else data pages × page size; SizeSource says which
	// ("table_size" or "data_pages").
	SizeBytes    *int64  `json:"size_bytes"`
	SizeSource   *string `json:"size_source"`
	TotalFormats *int64  `json:"total_formats"`
	UsedFormats  *int64  `json:"used_formats"`
	Blobs        *int64  `json:"blobs"`
	// BlobLevels counts blobs stored at level 0, 1 and 2; BlobLevelBytes
	// is their total length per level (5.0.2+, null before).
	BlobLevels     []int64 `json:"blob_levels"`
	BlobLevelBytes []int64 `json:"blob_level_bytes"`
	// IndexBytes is the sum of the size of the table's indices.
	IndexBytes *int64       `json:"index_bytes"`
	Indices    []IndexStats `json:"indices"`
}

// IndexStats is one index with the figures that tell whether it helps.
type IndexStats struct {
	// Schema is the index's schema (its table's) in Firebird 6, "" before.
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	ID     int64  `json:"id"`
	Table  string `json:"table"`
	// Kind is what the index serves (IndexPrimaryKey, IndexForeignKey,
	// IndexUnique, IndexPlain, IndexSystem or IndexUnknown), KindSource how
	// fbdiag knows (KindFromCatalogue, KindFromName, KindFromTable) and
	// Constraint the constraint's name when the catalogue gives it.
	Kind        string  `json:"kind"`
	KindSource  string  `json:"kind_source"`
	Constraint  *string `json:"constraint"`
	Depth       *int64  `json:"depth"`
	LeafBuckets *int64  `json:"leaf_buckets"`
	Nodes       *int64  `json:"nodes"`
	TotalDup    *int64  `json:"total_dup"`
	MaxDup      *int64  `json:"max_dup"`
	// SizeBytes is leaf buckets × page size (the leaf level only).
	SizeBytes *int64 `json:"size_bytes"`
	// UniqueKeys is nodes − total dup; Selectivity is 1/UniqueKeys, the
	// value SET STATISTICS stores in RDB$INDICES.
	UniqueKeys  *int64   `json:"unique_keys"`
	Selectivity *float64 `json:"selectivity"`
	// DupRatio is total dup / nodes; MaxDupShare is max dup / nodes.
	DupRatio         *float64 `json:"dup_ratio"`
	MaxDupShare      *float64 `json:"max_dup_share"`
	ClusteringFactor *int64   `json:"clustering_factor"`
	// ClusteringRatio is clustering factor / nodes as gstat prints it
	// (computed when only the factor is printed).
	ClusteringRatio *float64         `json:"clustering_ratio"`
	Fill            *parse.GstatFill `json:"fill_distribution"`
	// LightShare is the share of leaf pages filled below 60%.
	LightShare *float64 `json:"light_share"`

	// NeededDepth is the depth the leaf pages need (1 + ⌈log_F leaf
	// pages⌉) with FanOut keys per upper page, estimated from the page size
	// and node length; RebuiltDepth the depth after a rebuild at this page
	// size. LowerDepthPageSize is the smallest bigger page size at which a
	// rebuilt index would be shallower (LowerDepth levels); null when none
	// up to the ODS maximum is.
	NeededDepth        *int64   `json:"needed_depth"`
	RebuiltDepth       *int64   `json:"rebuilt_depth"`
	FanOut             *float64 `json:"fan_out"`
	LowerDepthPageSize *int64   `json:"lower_depth_page_size"`
	LowerDepth         *int64   `json:"lower_depth"`
	depthBasis         depthBasis
}

// Totals adds up the tables and indices of one run; sums of values no
// table printed are null.
type Totals struct {
	Tables    int    `json:"tables"`
	Indices   int    `json:"indices"`
	Records   *int64 `json:"records"`
	Versions  *int64 `json:"versions"`
	DataPages *int64 `json:"data_pages"`
	// PrimaryPages, SecondaryPages and SweptPages add up the tables'
	// (3.0+): pages with primary record versions, pages with only back
	// versions, fragments and blobs, and primary pages a sweep skips.
	PrimaryPages   *int64 `json:"primary_pages"`
	SecondaryPages *int64 `json:"secondary_pages"`
	SweptPages     *int64 `json:"swept_pages"`
	LeafPages      *int64 `json:"leaf_pages"`
	TableBytes     *int64 `json:"table_bytes"`
	IndexBytes     *int64 `json:"index_bytes"`
	Warnings       int    `json:"warnings"`
}

// MarshalJSON writes tables and indices as null when the run printed
// none: a gstat -h run has no table statistics and a -d run no index
// statistics, and a 0 there would be read as a count of the database's.
func (t Totals) MarshalJSON() ([]byte, error) {
	type plain Totals // (without this method)
	out := struct {
		Tables  *int `json:"tables"`
		Indices *int `json:"indices"`
		plain
	}{plain: plain(t)}
	out.Tables, out.Indices = t.TablesShown(), t.IndicesShown()
	return json.Marshal(out)
}

// TablesShown is Tables, nil when the run printed no table block (gstat
// -h, -e): what JSON writes, here and in a diff's or trend's snapshots.
func (t Totals) TablesShown() *int {
	if t.Tables > 0 {
		return &t.Tables
	}
	return nil
}

// IndicesShown is Indices, nil when the run printed no index block
// (gstat -h, -d).
func (t Totals) IndicesShown() *int {
	if t.Indices > 0 {
		return &t.Indices
	}
	return nil
}

// Gstat analyses one gstat run with the given thresholds (NewThresholds()
// for the defaults). It never fails: what the run does not show stays
// null and rules that need it stay silent.
func Gstat(rep *parse.GstatReport, th Thresholds) *GstatAnalysis {
	return GstatWith(rep, th, GstatOptions{})
}

// GstatOptions is what fbdiag knows of a database besides its gstat text.
type GstatOptions struct {
	// Catalogue lists the user indices with the constraint each enforces,
	// as fbdiag collect reads them live; nil for a gstat file, where index
	// kinds come from Firebird's names.
	Catalogue []CatalogueIndex
	// Server is what the user says of the server (--architecture,
	// --connections, --ram), for the page cache's memory.
	Server ServerSetup
	// OldestActive is the oldest transaction of another attachment, as
	// fbdiag collect reads it from MON$TRANSACTIONS; nil for a gstat
	// file. When it is the header's oldest active transaction, oat-stuck
	// names its attachment and the statement that ends it.
	OldestActive *LiveTransaction
	// Remote is put before the header's database in the advice's gfix
	// commands: the client tools' prefix of the server fbdiag collect
	// read it on ("localhost/3050:"); "" for a gstat file, whose
	// commands name the path as gstat printed it.
	Remote string
}

// GstatWith is Gstat with what the catalogue and the user add: a
// GstatScan of the run's blocks that keeps every table.
func GstatWith(rep *parse.GstatReport, th Thresholds, opt GstatOptions) *GstatAnalysis {
	s := NewGstatScan(rep.File, rep.Index, rep.Header, th, opt)
	s.Keep()
	s.a.Tables = make([]TableStats, 0, len(rep.Tables))
	for _, t := range rep.Tables {
		s.Table(t)
	}
	for _, ix := range rep.UnattachedIndices {
		s.Unattached(ix)
	}
	return s.Finish(rep.Findings, rep.Notices)
}

// statsEnv is what the per-table and per-index figures share.
type statsEnv struct {
	sl       *slab
	pageSize *int64
	odsMajor *int
	fill     float64 // index-deep.page_fill
	cat      map[catalogueKey]CatalogueIndex
}

func headerStats(h *parse.GstatHeader, th Thresholds, srv ServerSetup) *HeaderStats {
	s := &HeaderStats{
		Database:          strPtr(h.Database),
		ExecutionTime:     h.ExecutionTime,
		CreationDate:      h.CreationDate,
		PageSize:          h.PageSize,
		Server:            h.Server,
		Dialect:           h.Dialect,
		PageBuffers:       h.PageBuffers,
		Attributes:        h.Attributes,
		SweepInterval:     h.SweepInterval,
		OldestTransaction: h.OldestTransaction,
		OldestActive:      h.OldestActive,
		OldestSnapshot:    h.OldestSnapshot,
		NextTransaction:   h.NextTransaction,
		ShutdownMode:      strPtr(h.ShutdownMode),
		BackupState:       strPtr(h.BackupState),
		Implementation:    strPtr(h.ImplementationText),
	}
	if s.Attributes == nil {
		s.Attributes = []string{}
	}
	if h.CreationDate != nil && h.ODSMajor != nil {
		s.CreationDateUTC = ptr(*h.ODSMajor >= 13)
	}
	s.ODSVersion = strPtr(h.ODSVersion)
	if h.ODSMajor != nil {
		minor := 0
		if h.ODSMinor != nil {
			minor = *h.ODSMinor
		}
		s.FirebirdVersion = strPtr(FirebirdVersion(*h.ODSMajor, minor, h.Server))
	}
	if forcedWritesKnown(h) {
		fw, ro := h.ForceWrite, h.ReadOnly
		s.ForcedWrites, s.ReadOnly = &fw, &ro
	}
	s.OATMinusOIT = diff(h.OldestActive, h.OldestTransaction)
	s.OSTMinusOIT = diff(h.OldestSnapshot, h.OldestTransaction)
	s.NextMinusOAT = diff(h.NextTransaction, h.OldestActive)
	s.NextMinusOST = diff(h.NextTransaction, h.OldestSnapshot)
	if s.OSTMinusOIT != nil && (h.SweepInterval == nil || *h.SweepInterval > 0) {
		if iv := effectiveSweepInterval(h, th); iv > 0 {
			s.SweepGapShare = ptr(float64(*s.OSTMinusOIT) / float64(iv))
		}
	}
	if limit := TransactionIDLimit(h.ODSMajor); limit > 0 {
		s.TransactionIDLimit = &limit
		if h.NextTransaction != nil {
			s.TransactionIDHeadroom = ptr(limit - *h.NextTransaction)
			s.TransactionIDUsed = ptr(float64(*h.NextTransaction) / float64(limit))
		}
	}
	if h.CreationDate != nil && h.ExecutionTime != nil {
		if age := h.ExecutionTime.Sub(*h.CreationDate); age >= minAge(h.ODSMajor) {
			days := age.Hours() / 24
			s.DatabaseAgeDays = ptr(days)
			if h.NextTransaction != nil {
				s.TransactionsPerDay = ptr(float64(*h.NextTransaction) / days)
			}
		}
	}
	cacheStats(s, srv)
	return s
}

// minAge is how far apart the creation date and the gstat run must be
// for their difference to be an age. Up to Firebird 3.0 (ODS 12) gstat
// prints both in the server's local time: an hour is enough. From 4.0 the
// creation date is printed in UTC while the run time stays local (the
// hqbirdmcp samples: one database created 22:55 by 3.0's gstat, 20:55 by
// 4.0's and 5.0's, all read at 23:04; PSFirebird's 5.0 run is 3 h before
// its creation date), so the difference is off by the zone, up to 14 h:
// ten times that keeps the rate within 10%.
func minAge(odsMajor *int) time.Duration {
	if odsMajor != nil && *odsMajor <= 12 {
		return time.Hour
	}
	return 10 * creationZoneSlack
}

// creationZoneSlack is how far a creation date in UTC can be from the
// same moment in local time: the zones run from UTC−12 to UTC+14.
const creationZoneSlack = 14 * time.Hour

// CreationZoneSlack is how far h's creation date may be off against its
// gstat run time (local): 0 when both are the server's local time (up to
// ODS 12), creationZoneSlack when the creation date is in UTC or the ODS
// is not printed.
func (h *HeaderStats) CreationZoneSlack() time.Duration {
	if h.CreationDateUTC != nil && !*h.CreationDateUTC {
		return 0
	}
	return creationZoneSlack
}

// forcedWritesKnown tells whether the header shows the forced-writes and
// read-only flags. An Attributes line shows them, empty or not. Without
// one they are known only for a complete dialect 1 header: gstat prints
// the line whenever a header flag is set, dialect 3 is such a flag (its
// databases print at least an empty "Attributes"), and a dialect 1
// database with neither forced writes nor any other flag gets no line
// (src/utilities/gstat/ppg.cpp). A dialect 3 header without the line, as
// in the Firebird 1.5 list-archive sample, was cut or edited: unknown.
func forcedWritesKnown(h *parse.GstatHeader) bool {
	if h.Attributes != nil {
		return true
	}
	return h.Dialect != nil && *h.Dialect == 1 && h.CreationDateText != ""
}

// effectiveSweepInterval is the printed interval, or the server default
// when the header prints none (3.0+ omits the clumplet for the default).
func effectiveSweepInterval(h *parse.GstatHeader, th Thresholds) int64 {
	if h.SweepInterval != nil && *h.SweepInterval > 0 {
		return *h.SweepInterval
	}
	return int64(th.Get("sweep-gap", "default_interval"))
}

// FirebirdVersion names the server release that writes an ODS (gstat
// only opens its own ODS, so this is also the gstat version). RedDatabase
// minor versions (12.3) map to their Firebird base.
func FirebirdVersion(major, minor int, server string) string {
	v := ""
	switch {
	case major == 8:
		v = "InterBase 4.x"
	case major == 9:
		v = "InterBase 5.x"
	case major == 10 && minor == 0:
		v = "1.0"
	case major == 10:
		v = "1.5"
	case major == 11 && minor == 0:
		v = "2.0"
	case major == 11 && minor == 1:
		v = "2.1"
	case major == 11:
		v = "2.5"
	case major == 12:
		v = "3.0"
	case major == 13 && minor == 0:
		v = "4.0"
	case major == 13:
		v = "5.0"
	case major == 14:
		v = "6.0"
	default:
		return ""
	}
	if server != "" && server != "Firebird" {
		return server + " (Firebird " + v + " ODS)"
	}
	return v
}

// TransactionIDLimit is the highest transaction number of an ODS: a signed
// 32-bit number up to Firebird 2.5 (ODS 11), 48 bits since 3.0 (ODS 12).
// It is 0 when the ODS is unknown.
func TransactionIDLimit(odsMajor *int) int64 {
	switch {
	case odsMajor == nil:
		return 0
	case *odsMajor < 12:
		return 1<<31 - 1
	}
	return 1<<48 - 1
}

// maxBlobLevel bounds the blob levels kept: Firebird writes 0, 1 and 2.
const maxBlobLevel = 7

// tableStats fills s with t's figures. The table and its indices are
// written in place, not returned: a TableStats and an IndexStats are 296
// bytes each, and their copies on the way cost 1 % of a text run.
func tableStats(s *TableStats, t *parse.GstatTable, env *statsEnv, indices []IndexStats) {
	sl := env.sl
	if indices == nil || cap(indices) < len(t.Indices) {
		// (never nil: a table without indices has "indices": [] in JSON)
		indices = make([]IndexStats, 0, len(t.Indices))
	}
	*s = TableStats{
		Schema:         t.Schema,
		Name:           t.Name,
		ID:             t.ID,
		Records:        t.TotalRecords,
		Versions:       t.TotalVersions,
		MaxVersions:    t.MaxVersions,
		AvgRecord:      t.AverageRecordLength,
		AvgVersion:     t.AverageVersionLength,
		AvgUnpacked:    t.AverageUnpackedLength,
		Fragments:      t.TotalFragments,
		MaxFragments:   t.MaxFragments,
		DataPages:      t.DataPages,
		AverageFill:    t.AverageFill,
		Fill:           t.Fill,
		PrimaryPages:   t.PrimaryPages,
		SecondaryPages: t.SecondaryPages,
		SweptPages:     t.SweptPages,
		BigRecordPages: t.BigRecordPages,
		TotalFormats:   t.TotalFormats,
		UsedFormats:    t.UsedFormats,
		Blobs:          t.Blobs,
		Indices:        indices[:0],
	}
	fg := sl.table()
	s.VersionsPerRecord = ratioIn(&fg.versionsPerRecord, t.TotalVersions, t.TotalRecords)
	s.FragmentsPerRecord = ratioIn(&fg.fragmentsPerRecord, t.TotalFragments, t.TotalRecords)
	switch {
	case t.TableSize != nil:
		s.SizeBytes, s.SizeSource = t.TableSize, &sl.tableSize
	case t.DataPages != nil && env.pageSize != nil:
		fg.sizeBytes = *t.DataPages * *env.pageSize
		s.SizeBytes, s.SizeSource = &fg.sizeBytes, &sl.dataPages
	}
	if len(t.BlobLevels) > 0 {
		s.BlobLevels = sl.levels()
		for _, l := range t.BlobLevels {
			if l.Level < 0 || l.Level > maxBlobLevel {
				continue // not a level Firebird writes; a damaged line
			}
			for l.Level >= len(s.BlobLevels) {
				s.BlobLevels = append(s.BlobLevels, 0)
			}
			s.BlobLevels[l.Level] += l.Count
			if l.TotalLength != nil {
				for len(s.BlobLevelBytes) < len(s.BlobLevels) {
					s.BlobLevelBytes = append(s.BlobLevelBytes, 0)
				}
				s.BlobLevelBytes[l.Level] += *l.TotalLength
			}
		}
		for s.BlobLevelBytes != nil && len(s.BlobLevelBytes) < len(s.BlobLevels) {
			s.BlobLevelBytes = append(s.BlobLevelBytes, 0)
		}
	}
	system := IsSystemTable(t.Name) || t.Schema == "SYSTEM"
	for _, ix := range t.Indices {
		s.Indices = append(s.Indices, IndexStats{})
		is := &s.Indices[len(s.Indices)-1]
		fillIndexStats(is, ix, system, env)
		if is.Schema == "" {
			is.Schema = t.Schema
		}
		if is.Table == "" {
			is.Table = t.Name
			classifyIndex(is, system, env.cat) // again, now that the table is known
		}
		if is.SizeBytes != nil {
			if s.IndexBytes == nil {
				fg.indexBytes, s.IndexBytes = *is.SizeBytes, &fg.indexBytes
			} else {
				*s.IndexBytes += *is.SizeBytes
			}
		}
	}
}

func indexStats(ix *parse.GstatIndex, system bool, env *statsEnv) IndexStats {
	var s IndexStats
	fillIndexStats(&s, ix, system, env)
	return s
}

// fillIndexStats fills s with ix's figures (in place: see tableStats).
func fillIndexStats(s *IndexStats, ix *parse.GstatIndex, system bool, env *statsEnv) {
	sl := env.sl
	schema := ix.Schema
	if schema == "" {
		schema = ix.TableSchema
	}
	*s = IndexStats{
		Schema:           schema,
		Name:             ix.Name,
		ID:               ix.ID,
		Table:            ix.Table,
		Depth:            ix.Depth,
		LeafBuckets:      ix.LeafBuckets,
		Nodes:            ix.Nodes,
		TotalDup:         ix.TotalDup,
		MaxDup:           ix.MaxDup,
		ClusteringFactor: ix.ClusteringFactor,
		ClusteringRatio:  ix.ClusteringRatio,
		Fill:             ix.Fill,
	}
	classifyIndex(s, system || IsSystemTable(ix.Table), env.cat)
	fg := sl.index()
	if ix.LeafBuckets != nil && env.pageSize != nil {
		fg.sizeBytes = *ix.LeafBuckets * *env.pageSize
		s.SizeBytes = &fg.sizeBytes
	}
	if ix.Nodes != nil && ix.TotalDup != nil {
		u := *ix.Nodes - *ix.TotalDup
		fg.uniqueKeys, s.UniqueKeys = u, &fg.uniqueKeys
		if u > 0 {
			fg.selectivity, s.Selectivity = 1/float64(u), &fg.selectivity
		}
	}
	s.DupRatio = ratioIn(&fg.dupRatio, ix.TotalDup, ix.Nodes)
	s.MaxDupShare = ratioIn(&fg.maxDupShare, ix.MaxDup, ix.Nodes)
	if s.ClusteringRatio == nil {
		s.ClusteringRatio = ratioIn(&fg.clusteringRatio, ix.ClusteringFactor, ix.Nodes)
	}
	if f := ix.Fill; f != nil {
		total := f[0] + f[1] + f[2] + f[3] + f[4]
		if total > 0 {
			fg.lightShare, s.LightShare = float64(f[0]+f[1]+f[2])/float64(total), &fg.lightShare
		}
	}
	var e depthEstimate
	if estimateDepthTo(&e, &s.depthBasis, ix, env.pageSize, env.odsMajor, env.fill) {
		fg.neededDepth, fg.fanOut = e.needed, e.fanOut
		s.NeededDepth, s.FanOut = &fg.neededDepth, &fg.fanOut
		if e.rebuilt > 0 {
			fg.rebuiltDepth, s.RebuiltDepth = e.rebuilt, &fg.rebuiltDepth
		}
		if e.lowerAt > 0 {
			fg.lowerAt, fg.lowerDepth = e.lowerAt, e.lowerDepth
			s.LowerDepthPageSize, s.LowerDepth = &fg.lowerAt, &fg.lowerDepth
		}
	}
}

// Sort orders for SortTables (the --sort flag).
var TableSorts = []string{"size", "records", "versions", "depth"}

// SortTables orders tables biggest first by size, records, versions or
// the depth of their deepest index; unknown values sort last, ties by
// name. It returns an error for an unknown order.
func SortTables(ts []TableStats, by string) error {
	var key func(t *TableStats) (int64, bool)
	switch by {
	case "size", "":
		key = func(t *TableStats) (int64, bool) { return val(t.SizeBytes) }
	case "records":
		key = func(t *TableStats) (int64, bool) { return val(t.Records) }
	case "versions":
		key = func(t *TableStats) (int64, bool) { return val(t.Versions) }
	case "depth":
		key = func(t *TableStats) (int64, bool) { return MaxDepth(t) }
	default:
		return fmt.Errorf("unknown sort %q (want size, records, versions or depth)", by)
	}
	slices.SortStableFunc(ts, func(a, b TableStats) int {
		ka, oka := key(&a)
		kb, okb := key(&b)
		if oka != okb {
			if oka {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(kb, ka); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return nil
}

// MaxDepth is the depth of the table's deepest index.
func MaxDepth(t *TableStats) (int64, bool) {
	var d int64
	ok := false
	for _, ix := range t.Indices {
		if ix.Depth != nil && (!ok || *ix.Depth > d) {
			d, ok = *ix.Depth, true
		}
	}
	return d, ok
}

func ptr[T any](v T) *T { return &v }

// slab hands out the computed figures' pointers from shared chunks, so that
// a run with thousands of indices costs a few allocations, not one per
// figure: a block of figures per table and per index (one grab each, not
// one a figure), and the tables' blob levels. A chunk is never appended
// past its capacity: pointers stay valid.
type slab struct {
	ix                   []indexFigures
	tb                   []tableFigures
	lv                   []int64
	tableSize, dataPages string
}

// indexFigures and tableFigures hold what fillIndexStats and tableStats
// compute; an IndexStats or TableStats points into its block.
type indexFigures struct {
	sizeBytes, uniqueKeys, neededDepth, rebuiltDepth, lowerAt, lowerDepth   int64
	selectivity, dupRatio, maxDupShare, clusteringRatio, lightShare, fanOut float64
}

type tableFigures struct {
	sizeBytes, indexBytes                 int64
	versionsPerRecord, fragmentsPerRecord float64
}

// slabBlocks is a chunk's count of blocks (24 KiB of indexFigures).
const slabBlocks = 256

func newSlab() *slab { return &slab{tableSize: "table_size", dataPages: "data_pages"} }

func (s *slab) index() *indexFigures {
	if len(s.ix) == cap(s.ix) {
		s.ix = make([]indexFigures, 0, slabBlocks)
	}
	s.ix = s.ix[:len(s.ix)+1]
	return &s.ix[len(s.ix)-1]
}

func (s *slab) table() *tableFigures {
	if len(s.tb) == cap(s.tb) {
		s.tb = make([]tableFigures, 0, slabBlocks)
	}
	s.tb = s.tb[:len(s.tb)+1]
	return &s.tb[len(s.tb)-1]
}

// levels is a table's blob levels 0 to 2, zero, capped at three so that
// an append of a fourth level copies them out of the chunk.
func (s *slab) levels() []int64 {
	if cap(s.lv)-len(s.lv) < 3 {
		s.lv = make([]int64, 0, 3*slabBlocks)
	}
	n := len(s.lv)
	s.lv = s.lv[:n+3]
	return s.lv[n : n+3 : n+3]
}

// ratioIn stores num/den in *dst and returns dst, or nil when either is
// missing or den is 0.
func ratioIn(dst *float64, num, den *int64) *float64 {
	if num == nil || den == nil || *den == 0 {
		return nil
	}
	*dst = float64(*num) / float64(*den)
	return dst
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func val(p *int64) (int64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

func diff(a, b *int64) *int64 {
	if a == nil || b == nil {
		return nil
	}
	return ptr(*a - *b)
}

func addPtr(sum, v *int64) *int64 {
	if v == nil {
		return sum
	}
	if sum == nil {
		return ptr(*v) // the sum is ours from here on: add in place
	}
	*sum += *v
	return sum
}
