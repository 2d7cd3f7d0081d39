package analyze

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/shellarg"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Rule describes one health rule: what it looks at, where it applies and
// what it advises. Its limits are the thresholds whose Rule is its ID.
type Rule struct {
	ID string `json:"id"`
	// Kind is the object the rule judges: database, table or index.
	Kind string `json:"kind"`
	// Severities lists the severities the rule can raise.
	Severities []Severity `json:"severities"`
	// Summary says in one line what the rule flags.
	Summary string `json:"summary"`
	// AppliesTo names the Firebird versions (ODS) and gstat switches the
	// rule needs to see what it judges.
	AppliesTo string `json:"applies_to"`
	// Advice is what its warnings tell the DBA to do; each warning names
	// the object and the exact statement.
	Advice string `json:"advice"`
}

// Rules is the catalogue of gstat health rules, in the order of
// `fbdiag rules`. IDs are stable: scripts and --rules files use them.
var Rules = []Rule{
	{"oat-stuck", "database", []Severity{Info, Warn, Critical}, "Next - OAT: a transaction has been active for many transactions and blocks garbage collection (information on a read-only database, whose header does not move)",
		"all versions; gstat -h", "find the transaction in MON$TRANSACTIONS (ODS 11.1+) and end it: fbdiag collect names its attachment and the statement that ends it (DELETE FROM MON$ATTACHMENTS, which rolls its work back); an older ODS has no MON$ tables: find the client that keeps it open"},
	{"sweep-gap", "database", []Severity{Info, Warn}, "OST - OIT above the sweep interval: the sweep is due or cannot move the OIT (information on a read-only database, which is never swept)",
		"all versions; gstat -h", "gfix -sweep; if the OIT does not move, end the transaction that holds it or resolve a limbo one (gfix -list)"},
	{"sweep-disabled", "database", []Severity{Info}, "sweep interval 0: automatic sweep is off, a manual sweep must be scheduled (not on a read-only database, which is never swept)",
		"all versions; gstat -h", "schedule gfix -sweep, or gfix -housekeeping 20000 to let the server sweep"},
	{"txid-headroom", "database", []Severity{Warn, Critical}, "Next transaction close to the ODS limit: backup and restore before it stops",
		"all versions (2^31-1 before ODS 12, 2^48-1 since); gstat -h", "gbak backup and restore, which restarts the transaction numbers"},
	{"forced-writes-off", "database", []Severity{Info, Warn, Critical}, "the Attributes line lacks \"force write\": a crash can lose or corrupt data (critical on Windows; information on a read-only database, which is not written)",
		"all versions; gstat -h with its Attributes line (without one the state is unknown)", "gfix -write sync (a read-only database refuses it: gfix -mode read_write first)"},
	{"page-buffers", "database", []Severity{Info, Warn, Critical}, "page buffers set in the header: the memory of the page caches, a verdict when the server's architecture, connections and RAM are given",
		"all versions; gstat -h", "gfix -buffers N sets the header value (0 = the server's DefaultDbCachePages)"},
	{"shutdown", "database", []Severity{Warn, Critical}, "the database is in a shutdown mode",
		"all versions; gstat -h", "gfix -online"},
	{"backup-lock", "database", []Severity{Warn}, "nbackup lock still set (END BACKUP / nbackup -N not run: the delta file grows), or a merge of the delta not finished",
		"2.0+ (nbackup); gstat -h", "ALTER DATABASE END BACKUP (nbackup -N); a merge is completed by the next attachment: keep the delta file until it is done"},
	{"read-only", "database", []Severity{Info}, "the database is read only",
		"all versions; gstat -h", "gfix -mode read_write, if writes are meant"},
	{"ods-old", "database", []Severity{Warn}, "old on-disk structure: the server version is out of maintenance",
		"ODS below 12 (Firebird 2.5 and older); gstat -h", "gbak backup with the old server, restore with a current one"},
	{"dialect-1", "database", []Severity{Warn}, "SQL dialect 1 (InterBase 5 compatibility)",
		"all versions; gstat -h", "migrate the schema and the applications to dialect 3"},
	{"page-size-small", "database", []Severity{Warn}, "small page size under deep indices that a bigger page size would make shallower (the size computed per index)",
		"all versions; gstat -a (page size from the header)", "gbak backup, then restore into a new file with -page_size set to the computed size"},
	{"corruption", "database", []Severity{Critical}, "gstat printed an \"Expected ... page\" line, or \"(DB problem!)\" in its -e page counts: the database is damaged",
		"all versions; gstat -a", "copy the file first, then gfix -v -full and a gbak backup and restore"},
	{"gstat-error", "database", []Severity{Critical}, "gstat printed an error (login, ODS, I/O): the statistics are missing or incomplete",
		"all versions", "fix what gstat reported (credentials, path, server version) and run it again"},
	{"table-versions", "table", []Severity{Info, Warn, Critical}, "many back versions per record: garbage not yet collected, and whether the header shows it blocked",
		"all versions; gstat -r (-h for the transaction markers)", "blocked: end the old transaction (MON$TRANSACTIONS); not blocked: reading the table or a sweep collects them"},
	{"table-max-versions", "table", []Severity{Warn}, "a record has a long version chain: updated many times since garbage collection last reached it, and whether the header shows it blocked",
		"all versions; gstat -r (-h for the transaction markers)", "blocked: end the old transaction (MON$TRANSACTIONS); not blocked: reading the row or a sweep collects the chain, and a row updated this often is a hot spot"},
	{"table-deleted", "table", []Severity{Info}, "records counted but average length 0: deleted rows waiting for garbage collection",
		"all versions; gstat -r", "reading the table (SELECT COUNT(*)) or a sweep collects them"},
	{"table-fragments", "table", []Severity{Warn}, "many records split over two pages, by cause: records near the page size, or updates that grew records on full pages",
		"Firebird 3.0+ (ODS 12); gstat -r", "records near the page size: a bigger page size (computed); grown by updates: a gbak backup and restore re-packs them"},
	{"table-formats", "table", []Severity{Warn, Critical}, "record formats near the limit of 255 (ALTER TABLE count): backup/restore resets them",
		"Firebird 3.0+ (ODS 12); gstat -r", "gbak backup and restore"},
	{"table-sparse", "table", []Severity{Warn}, "low average data page fill on a user table: the table wastes pages",
		"all versions; gstat -a or -d; system tables are left out (not the DBA's to repack)", "gbak backup and restore compacts the table"},
	{"table-version-length", "table", []Severity{Info}, "back versions as long as the records: whole-record versions from deletes or from updates that rewrite most of a row",
		"all versions; gstat -r", "update only the columns that change; the versions go when garbage is collected"},
	{"blob-levels", "table", []Severity{Info}, "level 2 blobs: blobs bigger than a page of blob page numbers can address, tens of MB each",
		"Firebird 3.0+ (ODS 12); gstat -r", "nothing to fix; a bigger page size keeps such blobs at level 1"},
	{"index-deep", "index", []Severity{Info, Warn}, "index depth 3 or more: a warning when deeper than its leaf pages need (sparse upper levels), information when its size explains it",
		"all versions; gstat -a or -i (page size from the header)", "deeper than needed: rebuild it (the statement depends on what the index serves); explained by size: a bigger page size, when one is computed to help"},
	{"index-max-dup", "index", []Severity{Info, Warn, Critical}, "more than 10000 duplicates of one value: a garbage collection cost before ODS 11, a selectivity matter since",
		"all versions; gstat -a or -i", "before ODS 11: make the key more selective or upgrade (a constraint's index cannot take another segment: drop the constraint or upgrade); since: see index-low-selectivity"},
	{"index-useless", "index", []Severity{Warn}, "an index with one or two distinct values never helps a query",
		"all versions; gstat -a or -i; user tables only", "drop it if no plan needs it (a foreign key keeps its index), or make it compound"},
	{"index-low-selectivity", "index", []Severity{Warn}, "few distinct values (an average value matches many rows) or one value holding most keys; says what the index costs",
		"all versions; gstat -a or -i; user tables only", "drop it if no plan needs it (a foreign key keeps its index), or make it compound"},
	{"index-broken", "index", []Severity{Warn}, "fewer index keys than records: inconsistent index (rebuild it)",
		"all versions; gstat -a -r", "rebuild it (the statement depends on what the index serves)"},
	{"index-empty", "index", []Severity{Warn}, "an index with no keys on a table with records: damaged, or a partial index (5.0+) no row meets",
		"all versions; gstat -a -r", "a partial index: nothing; else rebuild it (the statement depends on what the index serves)"},
	{"index-sparse", "index", []Severity{Warn}, "most leaf pages below 60% full: the index is a rebuild candidate",
		"all versions; gstat -a or -i", "rebuild it (the statement depends on what the index serves)"},
	// Not a gstat rule: fbdiag collect compares the stored selectivity it
	// reads over SQL with the snapshot's figures (CheckSelectivity).
	{"index-stale-statistics", "live", []Severity{Warn}, "stored selectivity (RDB$STATISTICS) far from the actual one",
		"fbdiag collect (live catalogue and gstat)", "SET STATISTICS INDEX name"},
	// Not a gstat rule: the sweep analysis of fbdiag throughput reads its
	// noise margin from the same thresholds table.
	{"throughput-sweep", "throughput", []Severity{Info}, "sweep settings within this share of the best count as equal to it (one run per setting)",
		"fbdiag throughput sweeps", ""},
	// Not gstat rules either: the statistics of fbdiag throughput and
	// fbdiag gstat trend read their limits from the same table.
	{ID: "throughput-degradation", Kind: "throughput", Severities: []Severity{Info},
		Summary:   "a step at the knee is a cliff only when significant and at least this share of the trend; points above this leverage dominate a fit; where no place is asked for, the prediction and the cliff test go where these defaults put them",
		AppliesTo: "fbdiag throughput degradations and the report's throughput sections"},
	// Not a gstat rule: fbdiag bench judges whether a run's throughput
	// reached a steady state with limits from the same table.
	{ID: "bench-steady-state", Kind: "bench", Severities: []Severity{Info},
		Summary:   "a run is steady when its throughput line drifts by at most this share of the mean across the window and its blocks vary by at most this share",
		AppliesTo: "fbdiag bench run (steady_state); fbdiag throughput, a run that reports its throughput at intervals (pgbench -P, sysbench --report-interval, pgbench's aggregate log), each report a block",
		Advice:    "a longer --warmup lets the page cache fill before the window opens; a longer --duration evens out a busy machine"},
	// Not a gstat rule: fbdiag bench checks the mix its window completed
	// against the spec's minimums.
	{ID: "bench-mix", Kind: "bench", Severities: []Severity{Warn},
		Summary:   "a kind's share of the operations completed in the window is under the spec's minimum because some of them were given up after their retries or failed: the terminals went on with other cards, more of them New-Orders, and tpmC counts a mix TPC-C does not allow",
		AppliesTo: "fbdiag bench run (mix_short)",
		Advice:    "more --retries, fewer terminals per warehouse, or --home random spread the conflicts that made the terminals give up; compare tpmC only between runs that completed their mix"},
	// Not a gstat rule: fbdiag bench checks its terminals a warehouse
	// against the spec's population.
	{ID: "bench-terminals", Kind: "bench", Severities: []Severity{Warn},
		Summary:   "a run had more terminals a warehouse than the spec's 10: the extra terminals queue on the same warehouse's and districts' rows, contention TPC-C does not measure, so its tpmC is not comparable with a run of 10 or fewer a warehouse",
		AppliesTo: "fbdiag bench run (terminals_over_spec); fbdiag throughput, fbdiag bench result files",
		Advice:    "load more warehouses (bench init --warehouses) or run fewer terminals, at most 10 a warehouse; compare tpmC only between runs of as many terminals a warehouse"},
	// Not a gstat rule: gbak compare reads the limits of gbak's clock
	// from the same table.
	{ID: "gbak-compare", Kind: "gbak", Severities: []Severity{Info},
		Summary:   "with one run a side, a step whose times differ by no more than this, or are all under min_seconds, reads as the same (~); with several runs a side, a step whose every run is under min_seconds is not tested (~): gbak's clock ticks in whole milliseconds",
		AppliesTo: "fbdiag gbak compare",
		Advice:    "give several runs a side (--label) so that a test decides"},
	{ID: "history-forecast", Kind: "history", Severities: []Severity{Info},
		Summary:   "gstat trend forecasts a date only from this many comparable snapshots, and no further ahead than this multiple of their span",
		AppliesTo: "fbdiag gstat trend, with a size to reach",
		Advice:    "keep taking snapshots with the same gstat switches: the forecast reaches as far ahead as they span"},
	{ID: "history-rate", Kind: "history", Severities: []Severity{Info},
		Summary:   "gstat diff and gstat trend show a rate per day only from sizes or counters at least this far apart",
		AppliesTo: "fbdiag gstat diff, fbdiag gstat trend",
		Advice:    "compare snapshots taken hours or days apart for daily rates"},
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
	// holder is the oldest active transaction of another attachment, as
	// collect read it live (GstatOptions.OldestActive); nil for a file.
	holder *LiveTransaction
	// memo holds the advice texts that name the database (dbTexts).
	memo runTexts
	// remote is GstatOptions.Remote.
	remote string
	// seen maps rule/object to its warning: one warning per object per
	// rule, the worst kept (a table printed twice, two passes of a rule).
	seen map[warningKey]int
	// limit, when above 0, bounds the warnings kept to the limit worst
	// (see fireLimited); heldH then tells the held ones apart, by their
	// key's hash.
	limit int
	heldH hashIndex
	// floor is the worst of the limit kept at the last trim (hasFloor):
	// a new warning after it in SortWarnings's order is only counted.
	floor    WarningKey
	hasFloor bool
	// floorOut is where the run's checker publishes its floor at each
	// trim, and floorAt where the checkers that evaluate its tables (on
	// other goroutines) read it (wants).
	floorOut, floorAt *atomic.Pointer[WarningKey]
	// textless: the run's warnings are only counted (GstatStream's
	// CountWarnings), so none needs a reason or advice.
	textless bool
	// noTables: the tables' rules are not run (GstatStream's
	// IndexWarningsOnly), nothing showing or counting their warnings.
	noTables bool
	// collect makes fire only gather the warnings in fired, for the scan
	// to accept them in table order (see tableEval): a checker that
	// evaluates tables on another goroutine touches nothing shared.
	collect bool
	fired   []Warning
	// sink, when set, takes the warnings (fireSink); sunk logs what
	// tells the replaced ones at the end of the run (dropReplaced), of
	// the sink's or of the limited run's warnings; sinkErr is its error,
	// or the sink's.
	sink    WarningSink
	sunk    *extsort.Repeats
	sinkErr error
	// encoded is, while the scan accepts a table's warnings, the bytes
	// GstatStream.EncodeWarning made of the one accepted (nil: none).
	encoded []byte
	// deepest is the deepest index a bigger page would make shallower,
	// of deepN such indices (see notePageSize).
	deepest *IndexStats
	deepN   int
	// sources are the sources source has found, by rule and threshold key:
	// a run fires hundreds of thousands of warnings of a dozen rules, and
	// finding each one's in Thresholds took 1.5 % of a JSON run's CPU.
	sources  [16]ruleSource
	nSources int
	// keyBuf holds the key warningHash hashes.
	keyBuf []byte
	// texts is the block the rules append their warnings' texts to, up
	// to its length those of warnings fired (textBuf, keepText).
	texts []byte
	// omitted counts the warnings omit counted, by Severity.Rank, until
	// flushOmitted writes them to WarningsOmitted (omittedAny: one was).
	omitted    [4]int
	omittedAny bool
	// ods is odsVersion of the header odsFor (odsOf).
	odsFor *HeaderStats
	ods    *int
}

type warningKey struct{ rule, kind, object, table string }

// finding is a warning before fire adds its magnitude and source.
type finding struct {
	rule      string
	sev       Severity
	kind      string
	object    string
	table     string
	value     float64
	threshold float64
	// key names the threshold compared against, for the source; "" takes
	// the rule's first (a derived limit, such as index-deep's needed depth).
	key    string
	unit   string
	reason string
	advice string
	// below marks "too low" rules: magnitude is threshold/value.
	below bool
}

// textBuffer is the room textBuf leaves for a text at least (a longer
// one moves to a block of its own): a big run fires a hundred thousand
// warnings, and Sprintf and + made their text a fifth of the analysis's
// CPU.
const textBuffer = 512

// textChunk is the size of the blocks the rules append their warnings'
// texts to (checker.texts).
const textChunk = 8 << 10

// textBuf is where a rule appends a warning's reason or advice: the free
// end of the checker's block of texts, with room for textBuffer bytes at
// least. keepText makes the text a string in place. A block holds some
// twenty warnings' texts in one allocation where a string each took two
// (the reason and the advice), and is never written again where a
// string points: the strings outlive the block's next texts (a sink or a
// view may hold them), so nothing reuses it, and the collector frees it
// with its last string.
func (c *checker) textBuf() []byte {
	if cap(c.texts)-len(c.texts) < textBuffer {
		c.texts = make([]byte, 0, textChunk)
	}
	return c.texts[len(c.texts):]
}

// keepText is b, appended to what textBuf returned, as a string; the
// block's free end moves past it. When b outgrew the block, append moved
// it to an array of its own, which the string keeps alone.
func (c *checker) keepText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if n := len(c.texts); cap(c.texts) > n && unsafe.SliceData(b) == unsafe.SliceData(c.texts[n:]) {
		c.texts = c.texts[:n+len(b)]
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// fire records a warning; magnitude is value/threshold for "above" rules
// and threshold/value for "below" rules (1 when either is 0).
// (f and its Warning by pointer, the Warning made in its slot: each is
// some 180 bytes, and a run fires hundreds of thousands.)
func (c *checker) fire(f *finding) {
	if c.collect {
		c.fired = append(c.fired, Warning{})
		c.warning(&c.fired[len(c.fired)-1], f)
		return
	}
	var w Warning
	c.warning(&w, f)
	c.accept(&w)
}

// magnitude is value/threshold for "above" rules and threshold/value for
// "below" rules (1 when either is 0).
func (f *finding) magnitude() float64 {
	switch {
	case f.below && f.value > 0:
		return f.threshold / f.value
	case !f.below && f.threshold > 0:
		return f.value / f.threshold
	}
	return 1
}

// wants says whether f's reason and advice are worth writing. Not when
// the run keeps only its worst warnings and f already sorts after the
// worst kept one (the floor the scan publishes at each trim): the scan
// will only count it, by severity, and never show it. The floor only
// rises, and a warning that sorts after it never replaces a kept one
// (fireLimited), so a warning without text is never shown. Nor when the
// run's warnings are only counted (textless).
func (c *checker) wants(f *finding) bool {
	if c.textless {
		return false
	}
	if c.floorAt == nil {
		return true
	}
	fl := c.floorAt.Load()
	return fl == nil || CompareWarningKeys(WarningKey{f.sev, f.magnitude(), f.rule, f.object, f.table}, *fl) <= 0
}

// ruleSource is the source of a warning of rule whose threshold is key.
type ruleSource struct{ rule, key, src string }

// source is the source of the rule's threshold named by key, else of
// its first.
func (c *checker) source(rule, key string) string {
	for i := range c.nSources {
		if s := &c.sources[i]; s.rule == rule && s.key == key {
			return s.src
		}
	}
	src := ""
	if i := c.th.index(rule, key); i >= 0 && c.th.list != nil {
		src = c.th.list[i].Source
	} else {
		for _, t := range c.th.list {
			if t.Rule == rule {
				src = t.Source
				break
			}
		}
	}
	if c.nSources < len(c.sources) {
		c.sources[c.nSources] = ruleSource{rule, key, src}
		c.nSources++
	}
	return src
}

// warning fills w, a zero Warning, from f.
func (c *checker) warning(w *Warning, f *finding) {
	w.Rule, w.Severity, w.Kind, w.Object, w.Table = f.rule, f.sev, f.kind, f.object, f.table
	w.Value, w.Threshold, w.Unit, w.Reason, w.Advice = f.value, f.threshold, f.unit, f.reason, f.advice
	w.Source, w.Magnitude = c.source(f.rule, f.key), f.magnitude()
}

// accept adds a warning to the run: one per object and rule, the worst.
// (By pointer: a Warning is some 180 bytes, and a run fires hundreds of
// thousands.)
func (c *checker) accept(w *Warning) {
	if c.sink != nil {
		c.fireSink(w)
		return
	}
	if c.limit > 0 {
		c.fireLimited(w)
		return
	}
	k := warningKey{w.Rule, w.Kind, w.Object, w.Table}
	if i, ok := c.seen[k]; ok {
		old := c.a.Warnings[i]
		if worse(w, old.Severity, old.Magnitude) {
			c.a.Warnings[i] = *w
		}
		return
	}
	if c.seen == nil {
		c.seen = map[warningKey]int{}
	}
	c.seen[k] = len(c.a.Warnings)
	c.a.Warnings = append(c.a.Warnings, *w)
}

const db = "database"

// gfix is a gfix command line for the run's database: args, then the path
// the header's Database line printed, as one shell word (as the gbak
// advice names it), so that the advice runs as written on the server
// (from anywhere, with GstatOptions.Remote before it); args alone when
// the input printed no path.
func (c *checker) gfix(args string) string {
	return "gfix " + args + c.dbTexts().db
}

// dbTexts are the advice texts of the run's header, made anew when the
// header is another (the next run of a file).
func (c *checker) dbTexts() *runTexts {
	m := &c.memo
	if m.h != c.a.Header {
		*m = runTexts{h: c.a.Header}
		if h := c.a.Header; h != nil && h.Database != nil && *h.Database != "" {
			m.db = " " + shellarg.Client(c.remote, *h.Database)
		}
	}
	return m
}

// runTexts are advice texts that name the run's database, made once for
// its header h: table-versions fires on many tables of a big file, and
// one string for all of them keeps its cost that of the constant it was.
type runTexts struct {
	h *HeaderStats
	// db is " PATH" for gfix (see gfix).
	db string
	// sweepRecent and sweepOlder are table-versions' advice when nothing
	// holds garbage collection back, and when a younger transaction does.
	sweepRecent, sweepOlder string
}

// holderAdvice is oat-stuck's advice when collect found the transaction
// that holds the OAT: its attachment, who opened it, and the statement
// that ends it. Deleting an attachment's row of MON$ATTACHMENTS
// terminates it, "their activity is immediately cancelled and they're
// rolled back" (Firebird's doc/README.monitoring_tables, "Modifications
// of the monitoring tables", 2.1 and later; checked on 3.0.11 by
// TestLiveOldestActiveAdviceRuns).
func holderAdvice(h *LiveTransaction) string {
	who := "user " + h.User
	if h.RemoteAddress != nil && *h.RemoteAddress != "" {
		who += ", from " + *h.RemoteAddress
	}
	if h.RemoteProcess != nil && *h.RemoteProcess != "" {
		who += ", process " + *h.RemoteProcess
		if h.RemotePID != nil {
			who += fmt.Sprintf(" (pid %d)", *h.RemotePID)
		}
	}
	return fmt.Sprintf("it is transaction %d of attachment %d (%s), open for %s: have that client commit or roll back; "+
		"or end the attachment, which rolls back its uncommitted work: DELETE FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = %d;",
		h.ID, h.AttachmentID, who, units.WholeSeconds(h.AgeSeconds), h.AttachmentID)
}

func (c *checker) header(h *parse.GstatHeader) {
	s := c.a.Header
	get := c.th.Get
	if v := s.NextMinusOAT; v != nil {
		warn, crit := get("oat-stuck", "warning"), get("oat-stuck", "critical")
		f := finding{rule: "oat-stuck", kind: db, object: db, value: float64(*v), unit: "transactions",
			reason: fmt.Sprintf("Next - OAT = %d: the oldest active transaction (%d) blocks garbage collection", *v, val0(s.OldestActive)),
			advice: "find it in MON$TRANSACTIONS (2.1+) and end it; fbdiag collect names its attachment, user and process"}
		if c.holder != nil && s.OldestActive != nil && c.holder.ID == *s.OldestActive {
			f.advice = holderAdvice(c.holder)
		}
		if noMonitoringTables(s) {
			f.advice = "find the client that keeps it open and commit or end its transaction (" + noMonWhy + "); " +
				"if none can be found, disconnecting every attachment ends it: " + c.gfix("-shut -force 0") + ", then " + c.gfix("-online")
		}
		if h.ReadOnly {
			f.reason = fmt.Sprintf("Next - OAT = %d, but the database is read only: Firebird writes no header page to it, so these markers (oldest active %d) are those of when it was made read only and no transaction holds them now", *v, val0(s.OldestActive))
			f.advice = "nothing while it stays read only, which makes no garbage; if it is made writable (" + c.gfix("-mode read_write") + "), read the header again after some work"
		}
		switch {
		case f.value >= crit:
			f.sev, f.threshold, f.key = Critical, crit, "critical"
		case f.value > warn:
			f.sev, f.threshold, f.key = Warn, warn, "warning"
		}
		if f.sev != "" {
			if h.ReadOnly {
				f.sev = Info
			}
			c.fire(&f)
		}
	}
	if gap := s.OSTMinusOIT; gap != nil {
		iv := float64(effectiveSweepInterval(h, c.th))
		if float64(*gap) > iv {
			f := finding{rule: "sweep-gap", sev: Warn, kind: db, object: db, value: float64(*gap), threshold: iv, unit: "transactions",
				reason: fmt.Sprintf("OST - OIT = %d above the sweep interval %.0f: a sweep is due, or a stuck transaction keeps the OIT back", *gap, iv),
				advice: c.gfix("-sweep") + "; if the OIT does not move afterwards, end the old transaction that holds it, or resolve a limbo transaction of a two-phase commit, where a sweep stops: " +
					c.gfix("-list") + ", then " + c.gfix("-commit N") + " or " + c.gfix("-rollback N") + " with its number N"}
			if h.SweepInterval != nil && *h.SweepInterval == 0 {
				f.reason = fmt.Sprintf("OST - OIT = %d and the automatic sweep is disabled (interval 0); compared with the server default interval %.0f", *gap, iv)
			} else if h.SweepInterval == nil {
				f.reason += " (interval not printed: server default assumed)"
			}
			// Firebird skips the sweep of a read-only database, gfix's
			// too (3.0 Database::allowSweepRun), and its markers do not
			// move: nothing to do until it is made writable.
			if h.ReadOnly {
				f.sev = Info
				f.reason += "; Firebird does not sweep a read-only database (gfix -sweep does nothing on it) and its markers do not move"
				f.advice = "if it is made writable: " + c.gfix("-mode read_write") + ", then " + c.gfix("-sweep")
			}
			c.fire(&f)
		}
	}
	// A read-only database is never swept, automatically or by hand:
	// there is no sweep to schedule.
	if h.SweepInterval != nil && float64(*h.SweepInterval) <= get("sweep-disabled", "interval") && !h.ReadOnly {
		c.fire(&finding{rule: "sweep-disabled", sev: Info, kind: db, object: db, value: float64(*h.SweepInterval), threshold: get("sweep-disabled", "interval"),
			unit: "transactions", reason: "sweep interval 0: the automatic sweep is disabled",
			advice: "make sure a manual sweep (" + c.gfix("-sweep") + ") is scheduled, or " + c.gfix("-housekeeping 20000") + " to let the server sweep"})
	}
	if s.TransactionIDUsed != nil {
		used := *s.TransactionIDUsed
		warn, crit := get("txid-headroom", "warning"), get("txid-headroom", "critical")
		f := finding{rule: "txid-headroom", kind: db, object: db, value: used, unit: "share",
			reason: fmt.Sprintf("Next transaction %d is %.0f%% of the ODS %s limit %d", val0(s.NextTransaction), used*100, deref(s.ODSVersion), val0(s.TransactionIDLimit)),
			advice: "gbak backup and restore before the limit: it restarts the transaction numbers"}
		switch {
		case used >= crit:
			f.sev, f.threshold, f.key = Critical, crit, "critical"
			c.fire(&f)
		case used >= warn:
			f.sev, f.threshold, f.key = Warn, warn, "warning"
			c.fire(&f)
		}
	}
	if s.ForcedWrites != nil && !*s.ForcedWrites && get("forced-writes-off", "required") > 0 {
		f := finding{rule: "forced-writes-off", sev: Warn, kind: db, object: db, value: 0, threshold: 1, unit: "flag", below: true,
			reason: "the Attributes line lacks \"force write\": an OS crash or power loss can corrupt the database",
			advice: c.gfix("-write sync")}
		if h.Attributes == nil {
			f.reason = "no Attributes line in a dialect 1 header: no header flag is set, so forced writes are off; an OS crash or power loss can corrupt the database"
		}
		if onWindows(h) {
			f.sev = Critical
			f.reason = "forced writes are off on Windows, where the file cache can lose writes and corrupt the database"
			if h.Attributes == nil {
				f.reason = "no Attributes line in a dialect 1 header: no header flag is set, so " + f.reason
			}
		}
		// Firebird writes no page of a read-only database, and refuses
		// gfix -write on one (PAG_set_force_write,
		// err_post_if_database_is_readonly): nothing to lose until it is
		// made read-write, and the order of the two commands matters.
		if h.ReadOnly {
			f.sev = Info
			f.reason = "the Attributes line lacks \"force write\", but the database is read only: Firebird writes nothing to it, so nothing can be lost now; once it is made read-write, a crash can corrupt it"
			f.advice = "if it is made writable: " + c.gfix("-mode read_write") + ", then " + c.gfix("-write sync") + " (gfix refuses -write while the database is read only)"
		}
		c.fire(&f)
	}
	c.pageBuffers(h)
	if h.ShutdownMode != "" && get("shutdown", "allowed") == 0 {
		sev := Warn
		if h.ShutdownMode == "full shutdown" {
			sev = Critical
		}
		reason := "the database is in " + h.ShutdownMode
		if h.ShutdownMode == "database shutdown" {
			// Firebird 2.0 Release Notes, gfix shutdown modes: "multi"
			// is "the legacy one".
			reason = "the database is shut down (Firebird 1.5's only shutdown state, \"database shutdown\": only SYSDBA and the owner can attach, as in 2.0's multi-user maintenance)"
		}
		c.fire(&finding{rule: "shutdown", sev: sev, kind: db, object: db, value: 1, unit: "flag",
			reason: reason, advice: c.gfix("-online")})
	}
	if h.BackupState != "" && get("backup-lock", "allowed") == 0 {
		f := finding{rule: "backup-lock", sev: Warn, kind: db, object: db, value: 1, unit: "flag"}
		f.reason, f.advice = backupStateWhy(h.BackupState)
		c.fire(&f)
	}
	if h.ReadOnly && get("read-only", "allowed") == 0 {
		c.fire(&finding{rule: "read-only", sev: Info, kind: db, object: db, value: 1, unit: "flag",
			reason: "the database is read only", advice: c.gfix("-mode read_write") + ", if writes are meant"})
	}
	if h.ODSMajor != nil && float64(*h.ODSMajor) < get("ods-old", "min_major") {
		v := float64(*h.ODSMajor)
		if h.ODSMinor != nil {
			v += float64(*h.ODSMinor) / 10
		}
		c.fire(&finding{rule: "ods-old", sev: Warn, kind: db, object: db, value: v, threshold: get("ods-old", "min_major"), unit: "ODS", below: true,
			reason: fmt.Sprintf("ODS %s is Firebird %s: out of maintenance", h.ODSVersion, deref(s.FirebirdVersion)),
			advice: "gbak backup with this server, restore with a current one"})
	}
	if h.Dialect != nil && float64(*h.Dialect) < get("dialect-1", "min_dialect") {
		c.fire(&finding{rule: "dialect-1", sev: Warn, kind: db, object: db, value: float64(*h.Dialect), threshold: get("dialect-1", "min_dialect"), unit: "dialect", below: true,
			reason: "SQL dialect 1: no BIGINT, exact NUMERIC(18) or DATE/TIME types", advice: "migrate the schema and the applications to dialect 3"})
	}
}

// pageBuffers judges the page caches' memory: one cache for SuperServer,
// one per connection for Classic and SuperClassic (firebird.conf,
// ServerMode). With the architecture, connections and RAM given it is a
// verdict; otherwise it says what one cache costs.
func (c *checker) pageBuffers(h *parse.GstatHeader) {
	s := c.a.Header
	get := c.th.Get
	if h.PageBuffers == nil || float64(*h.PageBuffers) <= get("page-buffers", "max_pages") {
		return
	}
	f := finding{rule: "page-buffers", sev: Info, kind: db, object: db, value: float64(*h.PageBuffers), threshold: get("page-buffers", "max_pages"),
		key: "max_pages", unit: "pages", advice: c.gfix("-buffers N") + " sets the header value; 0 leaves the cache to the server's DefaultDbCachePages"}
	f.reason = fmt.Sprintf("header page buffers %d override DefaultDbCachePages for every attachment", *h.PageBuffers)
	if s.PageCacheBytes == nil {
		c.fire(&f)
		return
	}
	one := float64(*s.PageCacheBytes)
	f.reason = fmt.Sprintf("header page buffers %d × %d-byte pages = %s per cache, overriding DefaultDbCachePages", *h.PageBuffers, *h.PageSize, SizeText(one))
	// The threshold came with 2.1 as MaxFileSystemCache, renamed
	// FileSystemCacheThreshold in 2.5 (Release Notes 2.1 and 2.5); before
	// 2.1 the OS file cache is always used.
	if fs := get("page-buffers", "fs_cache_pages"); float64(*h.PageBuffers) >= fs && !odsBelow(s, 11, 1) {
		name := "FileSystemCacheThreshold"
		if odsBelow(s, 11, 2) {
			name = "MaxFileSystemCache"
		}
		f.reason += fmt.Sprintf("; at %.0f pages or more Firebird bypasses the OS file cache (%s)", fs, name)
	}
	srv := ServerSetup{RAM: val0(s.RAMBytes), Connections: val0(s.Connections)}
	if s.Architecture != nil {
		srv.Architecture = *s.Architecture
	}
	switch {
	case srv.Architecture == "":
		f.reason += "; one cache with SuperServer, one per connection with Classic"
		// SuperClassic came with 2.5 (ODS 11.2).
		if !odsBelow(s, 11, 2) {
			f.reason += " and SuperClassic"
		}
		f.reason += " (the server's architecture, connections and RAM make this a verdict)"
	case s.PageCacheTotalBytes == nil:
		f.reason += fmt.Sprintf("; %s gives every connection its own cache (the number of connections gives the total)", srv.Architecture)
	default:
		total := float64(*s.PageCacheTotalBytes)
		if srv.Architecture == SuperServer {
			f.reason += "; SuperServer shares one cache among all connections"
		} else {
			f.reason += fmt.Sprintf("; %s: %s × %s = %s", srv.Architecture, units.Count(srv.Connections, "connection"), SizeText(one), SizeText(total))
		}
		if srv.RAM > 0 {
			share := total / float64(srv.RAM)
			f.reason += fmt.Sprintf(", %.0f%% of the %s of RAM", share*100, SizeText(float64(srv.RAM)))
			warn, crit := get("page-buffers", "ram_warning"), get("page-buffers", "ram_critical")
			switch {
			case share >= crit:
				f.sev, f.value, f.threshold, f.key, f.unit = Critical, share, crit, "ram_critical", "share of RAM"
			case share >= warn:
				f.sev, f.value, f.threshold, f.key, f.unit = Warn, share, warn, "ram_warning", "share of RAM"
			}
			if f.sev != Info {
				f.advice = fmt.Sprintf("lower the header buffers (%s) so that the caches fit: %.0f pages keep them under %.0f%% of RAM", c.gfix("-buffers N"),
					warn*float64(srv.RAM)/float64(max(srv.caches(), 1))/float64(*h.PageSize), warn*100)
			}
		}
	}
	c.fire(&f)
}

func (c *checker) findings(fs []*parse.GstatFinding) {
	// gstat -e's "(DB problem!)" (cryptFindings) is gstat's own word for
	// pages in a state they must not be in: corruption, as an "Expected
	// ..." line is.
	n, first := 0, ""
	for _, f := range fs {
		switch f.Kind {
		case parse.FindingExpectedData, parse.FindingExpectedBucket, parse.FindingExpectedInventory, parse.FindingPageCorrupt, parse.FindingCryptProblem:
			if n == 0 {
				first = fmt.Sprintf("line %d: %q", f.Line, f.Text)
			}
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
		c.fire(&finding{rule: "gstat-error", sev: Critical, kind: db, object: db, value: float64(errs), threshold: max, unit: "lines",
			reason: fmt.Sprintf("gstat reported %s, first %s: the statistics are missing or incomplete", units.Count(errs, "error line"), firstErr),
			advice: "fix what gstat reported (credentials, path, server version) and run it again"})
	}
	if max := c.th.Get("corruption", "max_lines"); float64(n) > max {
		c.fire(&finding{rule: "corruption", sev: Critical, kind: db, object: db, value: float64(n), threshold: max, unit: "lines",
			reason: fmt.Sprintf("%s, first %s", units.Count(n, "corruption line"), first),
			advice: "copy the file first, then " + c.gfix("-v -full") + " and a gbak backup and restore"})
	}
}

// Windows' platform classes in the "Implementation ID" that gstat prints
// up to Firebird 2.5 (ODS 11), which has no OS= text: src/jrd/pag.cpp
// CLASS_WINDOWS_I386 = 16 and CLASS_WINDOWS_AMD64 = 26.
const (
	classWindowsI386  = 16
	classWindowsAMD64 = 26
)

// onWindows tells whether the header names Windows as the server's OS:
// "OS=Windows" in the Implementation line from 3.0, the platform class
// before.
func onWindows(h *parse.GstatHeader) bool {
	if h.ImplementationID != nil {
		switch *h.ImplementationID {
		case classWindowsI386, classWindowsAMD64:
			return true
		}
	}
	return strings.Contains(strings.ToLower(h.OS), "windows")
}

// IsSystemTable tells Firebird's own tables (RDB$, MON$, SEC$) from the
// application's; Firebird 6 also puts them in the SYSTEM schema.
func IsSystemTable(name string) bool {
	return strings.HasPrefix(name, "RDB$") || strings.HasPrefix(name, "MON$") || strings.HasPrefix(name, "SEC$")
}

// SizeText prints bytes in binary units with up to two decimals
// ("6.25 GiB", "23.44 MiB"), as the cache figures are printed everywhere.
func SizeText(b float64) string { return string(appendSize(nil, b)) }

// appendSize appends SizeText(v).
func appendSize(b []byte, v float64) []byte {
	units := [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	start := len(b)
	b = numfmt.AppendFixed(b, v, 2)
	for len(b) > start && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	for len(b) > start && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	b = append(b, ' ')
	return append(b, units[i]...)
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

// RuleCatalogue is every health rule with the thresholds it uses: what
// `fbdiag rules` shows, and its JSON.
type RuleCatalogue struct {
	Rules []RuleThresholds `json:"rules"`
}

// RuleThresholds is one rule and its thresholds (an empty list, never
// null, for a rule without any).
type RuleThresholds struct {
	Rule
	Thresholds []Threshold `json:"thresholds"`
}

// Catalogue pairs every rule of Rules with its thresholds in th, both in
// table order.
func Catalogue(th Thresholds) RuleCatalogue {
	list := th.List()
	out := RuleCatalogue{Rules: make([]RuleThresholds, 0, len(Rules))}
	for _, r := range Rules {
		rt := RuleThresholds{Rule: r, Thresholds: []Threshold{}}
		for _, t := range list {
			if t.Rule == r.ID {
				rt.Thresholds = append(rt.Thresholds, t)
			}
		}
		out.Rules = append(out.Rules, rt)
	}
	return out
}

// noMonWhy says why a database of ODS 10 or 11.0 has no MON$ tables.
const noMonWhy = "its ODS has no monitoring tables: MON$ exist in ODS 11.1 (Firebird 2.1) and later, Firebird's README.monitoring_tables"

// noMonitoringTables says whether the database's ODS is known and older
// than 11.1, which has no MON$ tables ("Virtual monitoring tables exist
// only in ODS 11.1 (and higher) databases", Firebird
// doc/README.monitoring_tables): advice that names MON$TRANSACTIONS
// cannot be carried out there.
func noMonitoringTables(h *HeaderStats) bool { return odsBelow(h, 11, 1) }

// noPartialIndices says whether the database's ODS is known and older
// than 13.1 (Firebird 5.0), which brought partial indices and their
// RDB$INDICES.RDB$CONDITION_SOURCE: before it an index with fewer keys
// than records cannot be partial, and a query on that column fails.
func noPartialIndices(h *HeaderStats) bool { return odsBelow(h, 13, 1) }

// odsBelow says whether the header's ODS is known and older than
// major.minor.
func odsBelow(h *HeaderStats, major, minor int) bool {
	if h == nil || h.ODSVersion == nil {
		return false
	}
	maText, miText, _ := strings.Cut(*h.ODSVersion, ".")
	ma, err := strconv.Atoi(maText)
	mi, _ := strconv.Atoi(miText)
	return err == nil && (ma < major || ma == major && mi < minor)
}

// backupStateWhy explains the header's nbackup state as ods.h names its
// flags: hdr_nbak_stalled ("backup lock": the main file is locked and
// changes go to the delta file) and hdr_nbak_merge ("backup merge": the
// delta is being merged back, after END BACKUP); gstat prints "wrong
// backup state N" for any other value (utilities/gstat/ppg.cpp).
func backupStateWhy(state string) (reason, advice string) {
	switch state {
	case "backup lock":
		return "attribute \"backup lock\": the database file is locked for a physical backup (ALTER DATABASE BEGIN BACKUP, nbackup -L) and every change goes to the delta file, which grows until the backup ends",
			"once the copy is taken: ALTER DATABASE END BACKUP (nbackup -N)"
	case "backup merge":
		// Every attachment completes an interrupted merge: jrd.cpp's
		// attach calls endBackup(tdbb, true), "Recover database after
		// crash during backup difference file merge".
		return "attribute \"backup merge\": END BACKUP began merging the delta file back into the database and had not finished when gstat read the header (still running, or interrupted)",
			"if it stays set, connect to the database: the first attachment completes an interrupted merge; keep the delta file until the attribute is gone"
	}
	return "attribute \"" + state + "\": the header's nbackup state is none Firebird names, the header may be damaged",
		"gfix -v -full on a copy of the database file"
}

// cryptFindings are the gstat -e count lines gstat marked "(DB problem!)",
// as findings of kind parse.FindingCryptProblem: the problems table and
// JSON's findings list them with the "Expected ..." lines, and the
// corruption rule counts them.
func cryptFindings(report int, crypt []parse.GstatPageCrypt) []*parse.GstatFinding {
	var out []*parse.GstatFinding
	for _, e := range crypt {
		if e.DBProblem {
			out = append(out, &parse.GstatFinding{GstatPos: parse.GstatPos{Report: report, Line: e.Line}, Kind: parse.FindingCryptProblem,
				Text: fmt.Sprintf("%s pages: total %d, ENCRYPTED %d (DB problem!), non-crypted %d", e.Kind, e.Total, e.Encrypted, e.NonCrypted)})
		}
	}
	return out
}
