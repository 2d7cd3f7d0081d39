// Package analyze turns parsed records into figures, fits and warnings:
// the judgement layer of fbdiag. It imports parse and never the output
// packages (plot, report) nor the command.
//
// Every threshold a rule uses lives in one table with its source, so a DBA
// can read it (fbdiag rules) and override it (--rules FILE).
//
// Comparisons of repeated measurements (restore steps over several runs,
// throughput of A against B) use Summarize and Compare: medians, the
// distribution-free interval of the median, and a two-sided Mann-Whitney U
// test at Alpha = 0.05, stated honestly for small samples as benchstat does.
//
// # gstat statistics
//
// Gstat(rep, th) analyses one gstat run read by parse.ReadGstat and returns
// a GstatAnalysis: the JSON contract of docs/gstat-json.md, reused by the
// report. It never fails; what the run does not show stays nil (null in
// JSON) and the rules that need it stay silent.
//
// Figures, in the DBA's words:
//
//   - header: OAT−OIT, OST−OIT (the sweep gap, against the sweep interval
//     or the server default 20000 when none is printed), Next−OAT (age of
//     the oldest active transaction), Next−OST, the transaction-ID limit of
//     the ODS (2^31−1 before ODS 12, 2^48−1 since Firebird 3.0) and the
//     Firebird version of the ODS (FirebirdVersion);
//   - tables: size (the 5.0.2+ "Table size" line, else data pages × page
//     size, with SizeSource saying which), versions and fragments per
//     record, max versions, fill, formats, blob levels;
//   - indices: size (leaf buckets × page size), unique keys (nodes − total
//     dup), selectivity (1/unique keys), dup ratio, max-dup share,
//     clustering ratio, the share of leaf pages under 60% full;
//   - totals over tables and indices.
//
// Health rules: Rules is the catalogue (stable kebab-case ids, e.g.
// oat-stuck, index-deep, table-versions), each with the versions it
// applies to and the advice it gives; DefaultThresholds is the one table
// of their limits, each with its unit and source ("[U]" marks a fbdiag
// default that no public source fixes, with its reasoning). NewThresholds
// copies it, LoadThresholds applies a "rule.key = value" or JSON file,
// with file:line errors for unknown keys and for values no rule can use
// (negative, out of the unit's range, a critical limit on the wrong side
// of its warning; the defaults tell which side is worse). Warnings carry
// value, threshold, reason, advice (the statement to run on the object
// named) and source, one per object and rule, and SortWarnings puts
// critical first, then the largest Magnitude (how far past the
// threshold).
//
// GstatWith adds what the gstat text lacks: the live catalogue's
// constraints (CatalogueIndex, read by fbdiag collect), which decide how
// an index can be rebuilt (Firebird refuses to deactivate a constraint's
// index), and the server (ServerSetup: architecture, connections, RAM),
// which decides the page caches' memory. Without the catalogue an index's
// kind comes from the names Firebird gives constraint indices.
//
// Several choices differ from common rules of thumb on purpose,
// because the real samples or the server disagree with it: index-broken
// compares nodes with the records only (an update that keeps the key adds
// no index node, so the shop sample's CUSTOMER has 10000 versions and
// 30000 nodes for 30000 records); index-low-selectivity decides from the
// distinct keys and the largest duplicate run, not the duplicate ratio
// (95% duplicates flagged CUSTOMER_LAST, 30 rows per name); index-deep
// compares the depth with the depth the leaf pages need, estimated from
// the page size and node length and checked against restores of one
// index at 4, 8 and 16 KB pages; table-fragments judges records by their
// stored length (a VARCHAR(8000) of 8010 bytes unpacked and 138 stored
// never fragments on 4 KB pages).
//
// # History
//
// NewHistorySnapshot places a run in time (its execution time, else its
// file's); Diff compares two snapshots, TrendOf fits the growth of a
// series. Both read each run as a stream: a diff keeps the figures it
// compares of each table and index and the warnings (DiffSamples), a
// trend five figures a table (TrendSamples), so that two runs of 100 MiB
// hold what their diff lists and a year of daily snapshots its points,
// not the runs.
package analyze
