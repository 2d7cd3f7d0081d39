package parse

import "time"

// Records returned by GstatReader. They hold the values exactly as gstat
// printed them: integers as int64, averages and ratios as float64,
// percentages as int. A field gstat did not print (another version, another
// switch, a cut excerpt) is nil, so that nothing downstream mistakes
// "not printed" for zero. No record carries a judgement: thresholds and
// health rules live in package analyze.

// GstatRecord is one record of a gstat output: *GstatHeader, *GstatTable,
// *GstatIndex, *GstatFinding, *GstatSection, *GstatCompletion or
// *GstatNotice.
type GstatRecord interface {
	Pos() GstatPos
}

// GstatPos says where a record comes from: which report of the file
// (0-based; a file may hold several gstat runs appended one after the
// other) and the 1-based line where the record starts.
type GstatPos struct {
	Report int `json:"report"`
	Line   int `json:"line"`
}

// Pos returns the position; it makes every record a GstatRecord.
func (p GstatPos) Pos() GstatPos { return p }

// GstatKV is a "label: value" line kept as printed because the reader does
// not know it (a newer version, a fork such as RedDatabase).
type GstatKV struct {
	Line  int    `json:"line"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// GstatFile is one line of "Database file sequence:": "File A is the only
// file", "File A continues as file B" or "File A is the last file".
type GstatFile struct {
	Name string `json:"name"`
	// Next is B of "continues as file B", "" otherwise.
	Next string `json:"next,omitempty"`
	// Kind is "only", "continues" or "last".
	Kind string `json:"kind"`
}

// GstatPageCrypt is one line of the -e (encryption) statistics, e.g.
// "Data pages: total 121, encrypted 0, non-crypted 121". Kind is the
// page kind as printed before " pages": "Data", "Index", "Blob",
// "Generator" or "Other" (Other appears only when some page that should
// not be is encrypted).
type GstatPageCrypt struct {
	Line       int    `json:"line"`
	Kind       string `json:"kind"`
	Total      int64  `json:"total"`
	Encrypted  int64  `json:"encrypted"`
	NonCrypted int64  `json:"non_crypted"`
	// DBProblem is gstat's own "(DB problem!)" after the encrypted count:
	// pages of this kind in an encryption state they must not be in
	// (utilities/gstat/dba.epp; firebird-qa's CORE-5501 test damages data
	// and b-tree pages and expects it).
	DBProblem bool `json:"db_problem"`
}

// GstatHeader is everything gstat prints before the page analysis: the
// database line, the execution time, the header page, the variable header
// data, the -e encryption lines and the database file sequence. It is
// returned once per report, before that report's tables. A report without
// any header text (an excerpt made of table or index blocks only) has no
// GstatHeader.
type GstatHeader struct {
	GstatPos

	// Database is the path of `Database "<path>"` (between the first and
	// the last double quote; may contain spaces and backslashes).
	Database string `json:"database,omitempty"`
	// ExecutionTime is "Gstat execution time": ctime() text in the local
	// time of the machine that ran gstat, zone unknown (stored as UTC).
	ExecutionTime     *time.Time `json:"execution_time"`
	ExecutionTimeText string     `json:"execution_time_text,omitempty"`

	// HeaderPage is true when "Database header page information:" or one
	// of its fields was seen.
	HeaderPage bool `json:"header_page"`

	Flags             *int64 `json:"flags"`
	Checksum          *int64 `json:"checksum"` // <= 2.5 (always 12345)
	Generation        *int64 `json:"generation"`
	SCN               *int64 `json:"system_change_number"` // 3.0+
	PageSize          *int64 `json:"page_size"`
	Server            string `json:"server,omitempty"` // RedDatabase only
	ODSVersion        string `json:"ods_version,omitempty"`
	ODSMajor          *int   `json:"ods_major"`
	ODSMinor          *int   `json:"ods_minor"`
	OldestTransaction *int64 `json:"oldest_transaction"` // OIT
	OldestActive      *int64 `json:"oldest_active"`      // OAT
	OldestSnapshot    *int64 `json:"oldest_snapshot"`    // OST
	NextTransaction   *int64 `json:"next_transaction"`
	AutosweepGap      *int64 `json:"autosweep_gap"`      // RedDatabase only
	BumpedTransaction *int64 `json:"bumped_transaction"` // <= 2.5
	SequenceNumber    *int64 `json:"sequence_number"`    // not in 6.0
	NextAttachmentID  *int64 `json:"next_attachment_id"`
	ImplementationID  *int64 `json:"implementation_id"` // <= 2.5
	// ImplementationText is the 3.0+ value as printed, e.g.
	// "HW=AMD/Intel/x64 little-endian OS=Linux CC=gcc"; HW, Endian, OS and
	// CC are its parts.
	ImplementationText string `json:"implementation,omitempty"`
	HW                 string `json:"hw,omitempty"`
	Endian             string `json:"endian,omitempty"`
	OS                 string `json:"os,omitempty"`
	CC                 string `json:"cc,omitempty"`
	ShadowCount        *int64 `json:"shadow_count"`
	PageBuffers        *int64 `json:"page_buffers"` // 0 = server default
	NextHeaderPage     *int64 `json:"next_header_page"`
	Dialect            *int   `json:"dialect"`
	// CreationDate is "Creation date" ("Dec 2, 2026 14:09:44"), local time
	// of the server, zone unknown (stored as UTC).
	CreationDate     *time.Time `json:"creation_date"`
	CreationDateText string     `json:"creation_date_text,omitempty"`

	// Attributes is the "Attributes" list as printed ("force write",
	// "multi-user maintenance", ...): nil when the line is absent (the
	// header flags word was zero), empty when the label has no value.
	Attributes []string `json:"attributes"`
	// Convenience views of Attributes.
	ForceWrite          bool   `json:"force_write"`
	NoReserve           bool   `json:"no_reserve"`
	SharedCacheDisabled bool   `json:"shared_cache_disabled"`
	ActiveShadow        bool   `json:"active_shadow"`
	Encrypted           bool   `json:"encrypted"`
	CryptProcess        bool   `json:"crypt_process"`
	CryptPlugin         string `json:"crypt_plugin,omitempty"`
	// ShutdownMode is "multi-user maintenance", "single-user maintenance",
	// "full shutdown", "wrong shutdown state N", "database shutdown"
	// (Firebird 1.5 and older: one shutdown state) or "" (online).
	ShutdownMode string `json:"shutdown_mode,omitempty"`
	ReadOnly     bool   `json:"read_only"`
	// BackupState is "backup lock", "backup merge", "wrong backup state N"
	// or "" (normal).
	BackupState string `json:"backup_state,omitempty"`
	// ReplicaMode is "read-only replica", "read-write replica",
	// "wrong replica state N" or "" (not a replica).
	ReplicaMode string `json:"replica_mode,omitempty"`

	// Variable header data (clumplets). SweepInterval comes from there in
	// 3.0+ and from the header block in the oldest outputs; both land here.
	SweepInterval        *int64 `json:"sweep_interval"`
	RootFileName         string `json:"root_file_name,omitempty"`
	ContinuationFile     string `json:"continuation_file,omitempty"`
	LastLogicalPage      *int64 `json:"last_logical_page"`
	BackupDifferenceFile string `json:"backup_difference_file,omitempty"`
	BackupGUID           string `json:"backup_guid,omitempty"`
	// GUID is "Database GUID:" (variable header in 4.0/5.0 and some 3.0
	// builds, fixed header in 6.0).
	GUID                string `json:"guid,omitempty"`
	ReplicationSequence *int64 `json:"replication_sequence"` // 4.0+
	EncryptionKeyName   string `json:"encryption_key_name,omitempty"`
	KeyHash             string `json:"key_hash,omitempty"`
	CryptChecksum       string `json:"crypt_checksum,omitempty"`
	// Variable lists every variable header item in order, known or not
	// (without the final *END*).
	Variable []GstatKV `json:"variable,omitempty"`

	// Unknown holds header lines the reader does not know, as label/value.
	Unknown []GstatKV `json:"unknown,omitempty"`

	// Encryption is the -e statistics (3.0+), in printed order.
	Encryption []GstatPageCrypt `json:"encryption,omitempty"`
	// Files is the "Database file sequence".
	Files []GstatFile `json:"files,omitempty"`
}

// GstatFill is a fill distribution: the number of pages in the buckets
// 0-19%, 20-39%, 40-59%, 60-79% and 80-99% (a full page counts in the
// last one).
type GstatFill [5]int64

// GstatBlobLevel is one blob level of a table. In the 3.0–5.0.1 form
// ("Level 0: N, Level 1: N, Level 2: N") only Count is printed; the
// 5.0.2+ form prints one line per level with a count above zero, with
// TotalLength and BlobPages.
type GstatBlobLevel struct {
	Level       int    `json:"level"`
	Count       int64  `json:"count"`
	TotalLength *int64 `json:"total_length"`
	BlobPages   *int64 `json:"blob_pages"`
}

// GstatTable is one table block ("NAME (id)" and its indented lines).
// Which fields are set depends on the version (2.5 prints one combined
// "Data pages" line, 3.0+ several) and on the switches (-r adds the
// record, version, fragment and blob lines; -i alone prints the name only).
type GstatTable struct {
	GstatPos

	// Schema is set for Firebird 6 names ("PUBLIC"."T"), "" before.
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	ID     int64  `json:"id"`

	PrimaryPointerPage *int64 `json:"primary_pointer_page"`
	IndexRootPage      *int64 `json:"index_root_page"`

	TotalFormats *int64 `json:"total_formats"` // 3.0+, -r
	UsedFormats  *int64 `json:"used_formats"`

	AverageRecordLength *float64 `json:"average_record_length"` // -r
	TotalRecords        *int64   `json:"total_records"`

	AverageVersionLength *float64 `json:"average_version_length"` // -r
	TotalVersions        *int64   `json:"total_versions"`
	MaxVersions          *int64   `json:"max_versions"`

	AverageFragmentLength *float64 `json:"average_fragment_length"` // 3.0+, -r
	TotalFragments        *int64   `json:"total_fragments"`
	MaxFragments          *int64   `json:"max_fragments"`

	AverageUnpackedLength *float64 `json:"average_unpacked_length"` // 3.0+, -r
	CompressionRatio      *float64 `json:"compression_ratio"`

	PointerPages  *int64 `json:"pointer_pages"` // 3.0+
	DataPageSlots *int64 `json:"data_page_slots"`
	DataPages     *int64 `json:"data_pages"`
	AverageFill   *int   `json:"average_fill"` // percent

	PrimaryPages   *int64 `json:"primary_pages"` // 3.0+
	SecondaryPages *int64 `json:"secondary_pages"`
	SweptPages     *int64 `json:"swept_pages"`
	EmptyPages     *int64 `json:"empty_pages"`
	FullPages      *int64 `json:"full_pages"`
	BigRecordPages *int64 `json:"big_record_pages"` // printed only when > 0

	// Blobs, BlobTotalLength and BlobPages are the "Blobs:" line. When the
	// 5.0.2+ per-level lines are present they are also summed here (the
	// sum is what the Blobs line prints; a mismatch is reported as a
	// notice and the Blobs line wins).
	Blobs           *int64           `json:"blobs"`
	BlobTotalLength *int64           `json:"blob_total_length"`
	BlobPages       *int64           `json:"blob_pages"`
	BlobLevels      []GstatBlobLevel `json:"blob_levels,omitempty"`

	TableSize *int64 `json:"table_size"` // bytes, 5.0.2+ with -r

	Fill *GstatFill `json:"fill_distribution"`

	// Tablespace is RedDatabase's "Tablespace: name" line.
	Tablespace string `json:"tablespace,omitempty"`
	// Unknown holds block lines the reader does not know.
	Unknown []GstatKV `json:"unknown,omitempty"`

	// Indices is filled by ReadGstat (the streaming reader returns the
	// indices as separate records after their table).
	Indices []*GstatIndex `json:"indices,omitempty"`
}

// GstatIndex is one index block ("    Index NAME (id)"). Table, TableSchema
// and TableID name the table block it follows; they are empty/nil for an
// excerpt made of an index block alone.
type GstatIndex struct {
	GstatPos

	TableSchema string `json:"table_schema,omitempty"`
	Table       string `json:"table,omitempty"`
	TableID     *int64 `json:"table_id"`

	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	ID     int64  `json:"id"`

	RootPage    *int64 `json:"root_page"` // 3.0+
	Depth       *int64 `json:"depth"`
	LeafBuckets *int64 `json:"leaf_buckets"`
	Nodes       *int64 `json:"nodes"`

	AverageNodeLength *float64 `json:"average_node_length"` // 3.0+
	TotalDup          *int64   `json:"total_dup"`
	MaxDup            *int64   `json:"max_dup"`

	AverageKeyLength *float64 `json:"average_key_length"` // 3.0+
	CompressionRatio *float64 `json:"compression_ratio"`

	AveragePrefixLength *float64 `json:"average_prefix_length"` // 3.0+
	// AverageDataLength is "average data length" (3.0+) or the 2.x
	// "Average data length": the same quantity.
	AverageDataLength *float64 `json:"average_data_length"`

	ClusteringFactor *int64   `json:"clustering_factor"` // 3.0+
	ClusteringRatio  *float64 `json:"clustering_ratio"`

	Fill *GstatFill `json:"fill_distribution"`

	Unknown []GstatKV `json:"unknown,omitempty"`
}

// Kinds of GstatFinding.
const (
	FindingExpectedData      = "expected_data"       // "Expected data on page N"
	FindingExpectedBucket    = "expected_bucket"     // "Expected b-tree bucket on page N from M"
	FindingExpectedInventory = "expected_inventory"  // "Expected page inventory page N"
	FindingError             = "error"               // an error printed by gstat or the server
	FindingPageCorrupt       = "page_corrupt_or_bad" // other "Expected ..." page lines
	// FindingCryptProblem is a gstat -e count line with "(DB problem!)"
	// (GstatPageCrypt.DBProblem): pages in an encryption state they must
	// not be in. The reader keeps the line in the header; analyze lists
	// it among the findings.
	FindingCryptProblem = "crypt_problem"
)

// GstatFinding is a line where gstat itself reports a problem: corruption
// met during the page analysis, or an error (failed login, wrong ODS,
// unavailable database). It is kept with its line number; judging it is
// analyze's job.
type GstatFinding struct {
	GstatPos
	Kind string `json:"kind"`
	// Page and FromPage are the page numbers of the "Expected ..." lines
	// (FromPage: the "from M" of a b-tree bucket), nil otherwise.
	Page     *int64 `json:"page"`
	FromPage *int64 `json:"from_page"`
	// Table is the table block the line appeared in, if any.
	Table string `json:"table,omitempty"`
	Text  string `json:"text"`
}

// GstatSection is a section the reader does not analyse but keeps, such as
// RedDatabase's "Analyzing file blobs ..." or "Tablespaces:": its title
// and its lines as printed.
type GstatSection struct {
	GstatPos
	Title string    `json:"title"`
	Lines []GstatKV `json:"lines"`
}

// GstatCompletion is "Gstat completion time" (3.0+), the last line of a
// complete run.
type GstatCompletion struct {
	GstatPos
	Time *time.Time `json:"time"`
	Text string     `json:"text"`
}

// GstatNotice is a Notice returned in the record stream: a line that was
// skipped, repaired or guessed.
type GstatNotice struct {
	Notice
	Report int `json:"report"`
}

// Pos returns the notice's report and line.
func (n *GstatNotice) Pos() GstatPos { return GstatPos{Report: n.Report, Line: n.Line} }

// GstatReport is one gstat run collected by ReadGstat, with the indices
// attached to their tables.
type GstatReport struct {
	// Index is the 0-based position of the report in its file.
	Index  int           `json:"index"`
	File   string        `json:"file"`
	Header *GstatHeader  `json:"header"`
	Tables []*GstatTable `json:"tables"`
	// Indices lists every index of the report in printed order (also
	// reachable through Tables[i].Indices); not in JSON.
	Indices []*GstatIndex `json:"-"`
	// UnattachedIndices are index blocks that follow no table block.
	UnattachedIndices []*GstatIndex    `json:"unattached_indices,omitempty"`
	Findings          []*GstatFinding  `json:"findings,omitempty"`
	Sections          []*GstatSection  `json:"sections,omitempty"`
	Completion        *GstatCompletion `json:"completion"`
	Notices           []Notice         `json:"notices,omitempty"`
}
