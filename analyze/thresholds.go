package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// Threshold is one tunable limit of a health rule. Every number a rule
// compares against lives in DefaultThresholds, with the place it comes
// from, so that a DBA can see why fbdiag complains and change it.
type Threshold struct {
	// Rule is the id of the rule that uses the value ("index-deep").
	Rule string `json:"rule"`
	// Name tells the values of one rule apart ("warning", "min_nodes").
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Source says where the value comes from; "[U]" marks a fbdiag
	// default that no public source fixes.
	Source string `json:"source"`
}

// Key is how the threshold is named in a --rules file: "rule.name".
func (t Threshold) Key() string { return t.Rule + "." + t.Name }

// Sources shared by several thresholds.
const (
	srcGstatManual  = "Firebird gstat manual (firebirdsql.org/file/documentation/html/en/firebirddocs/gstat/firebird-gstat.html)"
	srcHarrisonGem  = "Ann W. Harrison, IBPhoenix gem-00000012, index statistics (ibphoenix.com/gems/gem-00000012)"
	srcIBAnalyst    = "IBSurgeon, IBAnalyst: Tips and Tricks (ibsurgeon.com/en/articles/ibanalyst-tips-and-tricks)"
	srcFirebirdConf = "Firebird 3.0 firebird.conf, as shipped"
	srcUnverified   = "[U] fbdiag default; IBAnalyst's own value is not public"
)

// DefaultThresholds is the one table of limits every gstat rule reads.
// The order is the order of `fbdiag rules`.
var DefaultThresholds = []Threshold{
	{"index-deep", "min_depth", 3, "levels", srcGstatManual + ": \"If the depth is 3 or more, the index will most likely not be operating at its best\"; shallower indices are not judged"},
	{"index-deep", "page_fill", 0.9, "share", "[U] fbdiag estimate of how full a rebuilt index packs its pages, for the fan-out: indices built by CREATE INDEX or a restore on Firebird 3.0.11 filled 94-98% of their pages (CODES_CODE at 4, 8 and 16 KB pages); 0.9 keeps a freshly built index from looking too deep"},
	{"page-size-small", "page_size", 8192, "bytes", "[U] fbdiag default: pages below 8192 bytes, the page size CREATE DATABASE gives since Firebird 3.0 (src/jrd/ods.h DEFAULT_PAGE_SIZE, 4096 before); D. Kuzmenko, firebird-architect 2000-11 msg 2639: with 8K pages and 256-byte keys an index is 3 deep up to 32K keys, 4 up to a million and 5 past that, so a smaller page reaches each depth with fewer keys"},
	{"page-size-small", "depth", 3, "levels", srcHarrisonGem + ": \"a depth more than three suggests that increasing the database page size may improve performance\"; " + srcGstatManual + ": the solution to deep indices is gbak to a larger page size"},
	{"index-max-dup", "warning", 10000, "keys", srcHarrisonGem + ": \"more than ten thousand duplicates on any single value will cause garbage collection problems. Version 2 has a new index structure that eliminates the problem\" (critical before ODS 11, information since)"},
	{"index-low-selectivity", "value_share", 0.01, "share", "[U] fbdiag default: an average value matches 1% of the keys or more (100 distinct values or fewer); with some 100 records per data page such a lookup reads most data pages, as a full scan does"},
	{"index-low-selectivity", "max_dup_share", 0.5, "share", srcGstatManual + ": \"If max dup is getting close to total dup ... the index is so poor in selectivity that it may never be used in queries\"; fbdiag reads \"close\" as one value holding half the keys"},
	{"index-low-selectivity", "min_nodes", 10000, "nodes", "[U] fbdiag default: with fewer keys a lookup at the 1% share returns under 100 rows, and the table is small enough that a full scan costs little either way"},
	{"index-useless", "max_unique_keys", 2, "keys", "[U] fbdiag default: with one or two distinct values a lookup reads half the table or more; Helen Borrie, firebird-support 2005-04 msg 59035: avoid indices of low selectivity, such as on Yes/No and status fields"},
	{"index-useless", "min_nodes", 1000, "nodes", srcUnverified + " (tiny indices cost nothing)"},
	{"index-broken", "min_nodes_share", 1, "nodes/record", "IBSurgeon blog \"Broken Indices\" 2009, ibdeveloper.blogspot.com/2009/02/broken-indices.html (key count below the record count); versions are not counted: an update that keeps the key adds no node"},
	{"index-sparse", "light_share", 0.8, "share", "[U] 80% of leaf pages; " + srcGstatManual + ": pages \"lightly filled -- say less than 60%\" make a rebuild candidate"},
	{"index-sparse", "min_leaf_buckets", 10, "pages", srcGstatManual + ": \"if there are only a few nodes in the index, then rebuilding will not help\""},
	{"table-sparse", "min_fill", 50, "%", "[U] fbdiag default: IBAnalyst's own \"fragmented %\" default is not public; " + srcIBAnalyst + ": tables of 12-20 byte records show ~50% right after a restore, and the article suggests 45% for them"},
	{"table-sparse", "min_data_pages", 10, "pages", srcUnverified + " (a few pages cost nothing)"},
	{"table-sparse", "min_record_length", 20, "bytes", srcIBAnalyst + ": tables with 12-20 byte records show ~50% fill right after restore"},
	{"table-versions", "warning", 0.2, "versions/record", "[U] fbdiag default: one back version for five records; " + srcGstatManual + ": total versions \"includes only the back versions. If the figure is 0 then garbage collection has taken place\""},
	{"table-versions", "critical", 1, "versions/record", "[U] fbdiag default: more back versions than records, so an average read walks a version chain; Ann Harrison, firebird-support 2012-03 msg 117557: the OAT \"blocks garbage collection and induces database bloat\""},
	{"table-versions", "min_versions", 1000, "versions", srcUnverified + " (a few versions are normal work)"},
	{"table-max-versions", "warning", 5, "versions", "[U] fbdiag default: a record updated five times while its old versions were kept; " + srcGstatManual + " defines max versions (a row updated 20 times shows 20)"},
	{"table-deleted", "min_records", 1, "records", srcGstatManual + ": average record length 0 with records means deleted rows not yet collected"},
	{"table-fragments", "per_record", 0.1, "fragments/record", "[U] fbdiag default: one record in ten split over two pages, each costing a second page read"},
	{"table-fragments", "min_records", 1000, "records", srcUnverified + " (a few split records cost nothing)"},
	{"table-formats", "warning", 200, "formats", "[U] fbdiag default, 55 ALTER TABLEs before the limit; Firebird 5.0 Language Reference, RDB$FORMATS: at 255 formats the database becomes inoperable until a backup and restore"},
	{"table-formats", "critical", 240, "formats", "[U] fbdiag default, 15 ALTER TABLEs before the limit; Firebird 5.0 Language Reference, RDB$FORMATS: at 255 formats the database becomes inoperable until a backup and restore"},
	{"oat-stuck", "warning", 20000, "transactions", "[U] Next - OAT; as many as the default sweep interval. " + srcGstatManual + ": a growing OAT-Next gap means something does not commit"},
	{"oat-stuck", "critical", 100000, "transactions", "[U] Next - OAT; Ann Harrison, firebird-support 2012-03 msg 117557: \"Do worry about a stuck OAT\""},
	{"sweep-gap", "default_interval", 20000, "transactions", "Firebird src/jrd/jrd.cpp SWEEP_INTERVAL = 20000; used when the header prints no interval or 0"},
	{"sweep-disabled", "interval", 0, "transactions", "Firebird src/jrd/tra.cpp, transaction_start: the sweeper is started only when the sweep interval is not 0; IBPhoenix \"Trigger a sweep\": an interval of 0 disables automatic sweeping"},
	{"forced-writes-off", "required", 1, "flag", srcGstatManual + ": force write protects against lost writes, above all on Windows"},
	{"page-buffers", "max_pages", 0, "pages", srcGstatManual + ": 0 means the server default; Firebird gfix manual, Set Database Page Buffers: a header value overrides firebird.conf and databases.conf (a Classic or SuperClassic connection can still ask for its own with isc_dpb_num_buffers). " + srcFirebirdConf + ", ServerMode: SuperServer's attachments share one cache, Classic and SuperClassic give each attachment its own"},
	{"shutdown", "allowed", 0, "flag", "Firebird src/utilities/gstat/ppg.cpp attribute names (shutdown modes)"},
	{"backup-lock", "allowed", 0, "flag", "Firebird src/utilities/gstat/ppg.cpp (backup lock/merge) and src/jrd/ods.h (hdr_nbak_stalled: changes go to the delta file; hdr_nbak_merge: the delta is being merged back) and src/jrd/jrd.cpp (an attachment completes an interrupted merge)"},
	{"read-only", "allowed", 0, "flag", "Firebird src/utilities/gstat/ppg.cpp attribute \"read only\""},
	{"ods-old", "min_major", 12, "ODS", srcGstatManual + ": ODS list (11.2 = Firebird 2.5, 12.0 = 3.0)"},
	{"dialect-1", "min_dialect", 3, "dialect", "[U] fbdiag default: dialect 1 keeps InterBase 5 semantics (no BIGINT, DATE holds a timestamp, double quotes delimit strings)"},
	{"txid-headroom", "warning", 0.7, "share", "[U] 0.7 = 1.5e9 of 2^31-1; limits: src/jrd/tra.h B2_5 MAX_TRA_NUMBER = 2^31-1, 48-bit since 3.0 (Jaybird JDBC432, src/jrd/constants.h)"},
	{"txid-headroom", "critical", 0.9, "share", "[U] fbdiag default; Firebird 3.0 Release Notes, Extension of Transaction ID Space Limit: at the limit the database is unavailable until a backup and restore resets the transaction ID counter; Helen Borrie, The Firebird Book: backup and restore resets the transaction ID"},
	{"blob-levels", "max_level2", 0, "blobs", "Jim Starkey, quoted in firebird-architect 2000-04 msg 362 (C. Valderrama, Re: Insert Speed): level 2 = list of blob pointer pages"},
	{"corruption", "max_lines", 0, "lines", "gstat messages 18/19/61; " + srcGstatManual + ": copy the file and run gbak"},
	{"gstat-error", "max_lines", 0, "lines", "[U] fbdiag: a failed gstat run must not pass a monitoring check as a healthy database"},
	{"index-stale-statistics", "factor", 2, "ratio", "[U] fbdiag default: stored vs. actual selectivity off by 2x either way; " + srcIBAnalyst + ": indices with outdated statistics need SET STATISTICS INDEX"},
	{"throughput-sweep", "sweep_noise", 0.02, "fraction of the best", "[U] fbdiag default for sweeps with one run per setting, where the input cannot show its own noise (with repeated runs a Mann-Whitney test at Alpha is used instead); the user can give another noise level"},
	{"table-version-length", "ratio", 0.8, "version/record length", "[U] fbdiag default: Firebird stores a back version as the difference from the new record when that is shorter, so versions near the record length are whole records: deletes, or updates that rewrite most of the row (shop sample: 9-byte versions of 60-byte CUSTOMER rows after one column changed, 26-byte versions of 25-byte ORDERS rows after deletes)"},
	{"table-version-length", "min_versions", 1000, "versions", srcUnverified + " (a few versions are normal work)"},
	{"table-fragments", "record_share", 0.5, "share of a page", "[U] fbdiag default: a record stored longer than half a page is near the page size: one to a page at most, and an update's back version no longer fits beside it; shorter records fragment only when an update grows them on a full page (Firebird 3.0.11: 6078-byte records were all split on 4 KB pages, one big record page each, and whole on 8 KB pages, one to a page; 35-byte records split only where updated on full pages)"},
	{"page-buffers", "ram_warning", 0.5, "share of RAM", "[U] fbdiag default: the page caches of one database taking half the server's memory leave too little for the OS file cache, sorts and the other databases"},
	{"page-buffers", "ram_critical", 1, "share of RAM", "[U] arithmetic: page caches larger than the server's memory cannot all be held; the OS pages them out"},
	{"page-buffers", "fs_cache_pages", 65536, "pages", srcFirebirdConf + ", FileSystemCacheThreshold = 64K: a database with at least that many cache pages bypasses the OS file cache (MaxFileSystemCache in 2.1; Firebird 4.0 Release Notes: an explicit UseFileSystemCache setting replaces it)"},
	{"index-empty", "min_records", 1, "records", "IBSurgeon blog \"Broken Indices\" 2009, ibdeveloper.blogspot.com/2009/02/broken-indices.html: fewer keys than records is a broken index; none at all also fits a partial index (Firebird 5.0) whose condition no row meets"},
	{"throughput-degradation", "min_cliff", 0.10, "fraction of the trend", "[U] fbdiag default: besides p <= 0.05, a step at the knee must cost 10% of the trend to be called a cliff; smaller significant steps are reported as steps. The seed article (IBSurgeon 2014, Firebird performance degradation: tests, myths and truth) calls the ~20% lost from 9 to 30 GB a slow degradation with no big drop past the RAM: a cliff must stand out of that, and 10% is half of it"},
	{"throughput-degradation", "high_leverage", 0.5, "hat value", "Huber, Robust Statistics (1981): a hat value above 0.5 is high leverage (0.2 to 0.5 moderate); a fitted value is sum(h_ij y_j) with weights summing to 1, so above 0.5 a point's own y weighs more than all the others together. Not 2p/n (Hoaglin and Welsch 1978): with the 5-12 sizes of these experiments it flags the smallest size of an even series (0.40 > 0.36 on the seed's 9-30 GB)"},
	{"throughput-degradation", "uninformative_interval", 100, "x the prediction", "[U] fbdiag default: a 95% prediction interval wider than 100 times the predicted throughput (testdata/bench/sizes.csv's power fit at 1 PiB: 8575 to 112675379 tpmC around 982951) says nothing a reader can use, from any throughput to none: it is called uninformative instead of printed, and the chart leaves its whisker out so that the measurements stay readable. 100x is two orders of magnitude, well past the factor of a few that repeated benchmark runs and one doubling of extrapolation give (the seed SATA's power fit: 158-176 around 167)"},
	{"throughput-degradation", "predict_factor", 2, "x the largest size", "[U] fbdiag default: where no size is asked for, a degradation is extrapolated to twice the largest size measured, one doubling past the data: the step the loss per doubling describes, and near enough that the 95% prediction interval still says something (it widens with the distance from the measured sizes); 0 turns the default prediction off"},
	{"throughput-degradation", "knee_jump", 4, "ratio", "[U] fbdiag default: where no knee is asked for, the cliff test runs at the size before the largest jump between consecutive measured sizes when that jump is at least 4x (two doublings with no measurement, where a cliff can hide between the points) and leaves two sizes on each side, which the test needs; the seed's 30 GB to 1.8 TB jump has one size above it, so it is not tested; 0 turns the default test off"},
	{"bench-steady-state", "max_drift", 0.10, "share of the mean", "[U] fbdiag default: the throughput line through the window's blocks may change by at most 10% of the mean from the window's start to its end; the same 10% the knee test asks of a cliff, so a run whose trend alone would make a cliff is not steady"},
	{"bench-steady-state", "max_cv", 0.25, "share of the mean", "[U] fbdiag default: blocks (a tenth of the window) varying by more than a quarter of the mean make any level too uncertain to call steady"},
	{"bench-steady-state", "min_blocks", 5, "blocks", "[U] fbdiag default: a line through fewer than 5 blocks keeps fewer than 3 degrees of freedom to tell a drift from noise"},
	{"bench-mix", "min_payment", 43, "percent", "TPC-C 5.11 clause 5.2.3: Payment at least 43% of the transactions completed in the measurement interval"},
	{"bench-mix", "min_order_status", 4, "percent", "TPC-C 5.11 clause 5.2.3: Order-Status at least 4%"},
	{"bench-mix", "min_delivery", 4, "percent", "TPC-C 5.11 clause 5.2.3: Delivery at least 4% (its business transactions)"},
	{"bench-mix", "min_stock_level", 4, "percent", "TPC-C 5.11 clause 5.2.3: Stock-Level at least 4%"},
	{"bench-terminals", "max_per_warehouse", 10, "terminals", "TPC-C 5.11 clause 4.2.2: for each active warehouse the SUT accepts requests from a population of 10 terminals"},
	{"history-forecast", "min_sizes", 3, "snapshots", "[U] fbdiag default: a line through 2 sizes fits exactly (R2 1 says nothing) and has no error estimate, so no forecast interval; 3 is the least that leaves one degree of freedom"},
	{"history-forecast", "max_span_multiple", 1, "x the observed span", "[U] fbdiag default: a forecast reaches no further past the last snapshot than the snapshots span; the 95% interval covers the scatter around the fitted trend, not a change of the trend, and a trend seen for N days says nothing about the N days after that"},
	{"gbak-compare", "resolution", 0.002, "seconds", "[U] fbdiag default: gbak's -st time column is truncated to whole milliseconds (Firebird src/burp/burp.cpp, BurpGlobals::print_stats), so a step's time, the difference of two readings, is within 1 ms of the truth either way and two readings of the same work differ by up to 2 ms; with one run a side, a step whose times differ by no more reads as the same (~)"},
	{"gbak-compare", "min_seconds", 0.010, "seconds", "[U] fbdiag default: under 10 ms a reading of gbak's 1 ms clock is known to no better than one tick in ten, and a ratio of two such readings (0.001 s against 0.008 s: x8) measures the clock, not the step; with one run a side, a step whose times are all under this reads as the same (~); with several, a step whose every run is under this is not tested (~), so that its scatter over a tick or two does not weaken the adjustment of the steps that take time (a filter on the pooled runs, which keeps that adjustment valid: Bourgon, Gentleman and Huber, PNAS 107(21), 2010)"},
	{"history-rate", "min_span", 3600, "seconds", "[U] fbdiag default: a rate per day from snapshots less than an hour apart says more about those minutes (a garbage collection, a batch job, a sweep) than about a day; the human formats leave such rates out, the JSON keeps them with per_day_reliable false"},
}

// Thresholds is a set of limits by key ("index-deep.min_depth"). The zero
// value reads the defaults but cannot be set; start from NewThresholds.
type Thresholds struct {
	list []Threshold // in DefaultThresholds' order, always
}

// NewThresholds returns a private copy of DefaultThresholds.
func NewThresholds() Thresholds {
	return Thresholds{list: append([]Threshold(nil), DefaultThresholds...)}
}

// thPlaces is each threshold's place in DefaultThresholds, which every
// Thresholds keeps (Set changes values, never the list). The rules that
// run for every block read theirs by place (thresholds_ids.go).
var thPlaces = func() map[[2]string]int {
	m := make(map[[2]string]int, len(DefaultThresholds))
	for i, th := range DefaultThresholds {
		m[[2]string{th.Rule, th.Name}] = i
	}
	return m
}()

// index is the threshold's place in the list, or -1.
func (t Thresholds) index(rule, name string) int {
	if i, ok := thPlaces[[2]string{rule, name}]; ok {
		return i
	}
	// (Only a test adds thresholds past the defaults.)
	for i := len(DefaultThresholds); i < len(t.list); i++ {
		if t.list[i].Rule == rule && t.list[i].Name == name {
			return i
		}
	}
	return -1
}

// List returns the thresholds in table order.
func (t Thresholds) List() []Threshold { return append([]Threshold(nil), t.list...) }

// Get returns a threshold's value. Asking for a key that is not in the
// table is a programming error, so it panics.
func (t Thresholds) Get(rule, name string) float64 { return t.at(t.mustIndex(rule, name)) }

// Set changes one threshold; unknown keys and values that make no sense
// for its unit are an error.
func (t Thresholds) Set(key string, v float64) error {
	rule, name, _ := strings.Cut(key, ".")
	i := t.index(rule, name)
	if i < 0 || t.list == nil {
		return fmt.Errorf("unknown threshold %q (see fbdiag rules)", key)
	}
	if err := t.list[i].check(v); err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	t.list[i].Value = v
	t.list[i].Source = "overridden by a rules file"
	return nil
}

// check refuses a value no rule can use: not finite, negative (every
// threshold counts or measures something), a flag other than 0 or 1, a
// share above 1, a percentage above 100.
func (th Threshold) check(v float64) error {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%s is not a finite number", s)
	case v < 0:
		return fmt.Errorf("%s is negative; a threshold in %s is 0 or more", s, th.Unit)
	case th.Unit == "flag" && v != 0 && v != 1:
		return fmt.Errorf("%s is not a flag (0 or 1)", s)
	case th.Unit == "%" && v > 100:
		return fmt.Errorf("%s is over 100 %%", s)
	case (th.Unit == "share" || th.Unit == "fraction of the best") && v > 1:
		return fmt.Errorf("%s is not a share (0 to 1)", s)
	}
	return nil
}

// clone is a copy of t whose values can be set without changing t.
func (t Thresholds) clone() Thresholds {
	return Thresholds{list: append([]Threshold(nil), t.list...)}
}

// LoadThresholds reads overrides from r into a copy of base. Two forms
// are accepted, told apart by the first non-blank character:
//
//	# comment
//	index-deep.min_depth = 4
//	table-versions.warning = 0.5
//
// or a JSON object {"index-deep.min_depth": 4}. Unknown keys, bad
// numbers, a key set twice, values that make no sense for their unit and
// a critical limit on the wrong side of its warning are reported as
// "file:line: …" in plain words.
func LoadThresholds(r io.Reader, name string, base Thresholds) (Thresholds, error) {
	if base.list == nil {
		base = NewThresholds()
	}
	l := &rulesLoader{t: base.clone(), base: base, name: name, lines: map[string]int{}}
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return l.t, fmt.Errorf("%s: %w", name, err)
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	trimmed = bytes.TrimPrefix(trimmed, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(trimmed, []byte("{")) {
		err = l.json(data)
	} else {
		err = l.text(data)
	}
	if err == nil {
		err = l.order()
	}
	return l.t, err
}

// rulesLoader applies one rules file, remembering the line that set each
// key for the messages.
type rulesLoader struct {
	t, base Thresholds
	name    string
	lines   map[string]int
}

func (l *rulesLoader) errorf(line int, format string, args ...any) error {
	return &parse.SyntaxError{File: l.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// set applies key = text, read on line.
func (l *rulesLoader) set(line int, key, text string) error {
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return l.errorf(line, "%s: %s is out of range (a threshold is a finite number)", key, text)
	case err != nil:
		return l.errorf(line, "%s: %q is not a number", key, text)
	}
	if first, ok := l.lines[key]; ok {
		return l.errorf(line, "%s is set twice (first on line %d)", key, first)
	}
	if err := l.t.Set(key, v); err != nil {
		return l.errorf(line, "%v", err)
	}
	l.lines[key] = line
	return nil
}

func (l *rulesLoader) text(data []byte) error {
	lr := parse.NewLineReader(bytes.NewReader(data), l.name)
	for lr.Next() {
		line := strings.TrimSpace(lr.Text())
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "//") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return lr.Errorf("want \"rule.key = value\", got %q", line)
		}
		if err := l.set(lr.Line(), strings.TrimSpace(key), strings.TrimSpace(val)); err != nil {
			return err
		}
	}
	return lr.Err()
}

func (l *rulesLoader) json(data []byte) error {
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	// bad words a decoding error: the end of the file inside the object,
	// or the JSON syntax error where it is.
	bad := func(err error, off int64) error {
		var se *json.SyntaxError
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return l.errorf(lineAt(int64(len(data))), "the file ends inside the JSON object; want {\"rule.key\": value, ...}")
		case errors.As(err, &se):
			return l.errorf(lineAt(se.Offset), "not valid JSON: %v", se)
		}
		return l.errorf(lineAt(off), "%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	if _, err := dec.Token(); err != nil {
		return bad(err, dec.InputOffset())
	}
	for dec.More() {
		tok, err := dec.Token()
		off := dec.InputOffset() // end of the key: its line
		if err != nil {
			return bad(err, off)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad(err, off)
		}
		if !strings.ContainsRune("-0123456789", rune(raw[0])) {
			return l.errorf(lineAt(off), "%s: value must be a number", key)
		}
		if err := l.set(lineAt(off), key, string(raw)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return bad(err, dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return l.errorf(lineAt(dec.InputOffset()), "text after the JSON object")
	}
	return nil
}

// order checks each rule's warning and critical limits after the file is
// read (it may move both, in either order). The defaults say which way is
// worse: a critical limit above its warning means higher is worse.
func (l *rulesLoader) order() error {
	var first error
	firstLine := 0
	for _, th := range l.t.list {
		// "critical" goes with "warning", "ram_critical" with "ram_warning".
		prefix, ok := strings.CutSuffix(th.Name, "critical")
		if !ok {
			continue
		}
		wName := prefix + "warning"
		wi := l.t.index(th.Rule, wName)
		if wi < 0 {
			continue
		}
		wKey, cKey := th.Rule+"."+wName, th.Key()
		lw, lc := l.lines[wKey], l.lines[cKey]
		if lw == 0 && lc == 0 {
			continue
		}
		warn, crit := l.t.list[wi].Value, th.Value
		lowerWorse := l.base.Get(th.Rule, th.Name) < l.base.Get(th.Rule, wName)
		if lowerWorse && crit <= warn || !lowerWorse && crit >= warn {
			continue
		}
		// Name the value set last, on its line.
		key, v, other, ov, line := cKey, crit, wKey, warn, lc
		if lw > lc {
			key, v, other, ov, line = wKey, warn, cKey, crit, lw
		}
		side := "below"
		if v > ov {
			side = "above"
		}
		why := "a critical limit is at least its warning"
		if lowerWorse {
			why = "lower is worse here, so a critical limit is at most its warning"
		}
		if first == nil || line < firstLine {
			first = l.errorf(line, "%s = %g is %s %s = %g: %s", key, v, side, other, ov, why)
			firstLine = line
		}
	}
	return first
}

// Keys lists every threshold key, sorted, for messages and completion.
func (t Thresholds) Keys() []string {
	keys := make([]string, 0, len(t.list))
	for _, th := range t.list {
		keys = append(keys, th.Key())
	}
	sort.Strings(keys)
	return keys
}

// thID is a threshold's place in DefaultThresholds, found once.
type thID int

// thresholdID panics on a key the table does not have: a typo in a
// rule is found when the package loads, not when the rule first fires.
func thresholdID(rule, name string) thID { return Thresholds{}.mustIndex(rule, name) }

// mustIndex is index for a key the code names, which the table has: it
// panics on one it has not.
func (t Thresholds) mustIndex(rule, name string) thID {
	i := t.index(rule, name)
	if i < 0 {
		panic("analyze: no threshold " + rule + "." + name)
	}
	return thID(i)
}

// at is Get for a threshold named by its thID. The rules call it as
// c.th.at(id), not through a method value (get := c.th.at), which is
// never inlined: that indirect call was 0.8 % of a text run.
func (t Thresholds) at(id thID) float64 {
	if t.list == nil {
		return DefaultThresholds[id].Value
	}
	return t.list[id].Value
}
