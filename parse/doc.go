// Package parse turns the text Firebird tools print into typed records,
// and nothing more: no thresholds, no judgement (that is package analyze).
//
// Every reader here works the same way, in the manner of
// golang.org/x/perf/benchfmt: a streaming reader returns one record at a
// time, memory grows with the records the caller keeps and not with the
// size of the file, and a line it cannot use never stops it. Such a line
// becomes a Notice ("file:line: what was skipped"); only an I/O error is
// an error. Errors and notices always carry the file name and the 1-based
// line number.
//
// # Lines
//
// LineReader is the one way text enters the package. It accepts UTF-8
// (with or without BOM), UTF-16LE/BE (PowerShell redirection), LF, CRLF
// and lone CR, strips trailing blanks and expands tabs, so that the same
// report copied through Windows, a mail archive or a web page reads alike.
//
// # gstat
//
// GstatReader reads the output of gstat (Firebird 1.5 to 6.0, RedDatabase),
// also when produced through the Services API (fbsvcmgr, IBExpert, HQbird):
//
//	r := parse.NewGstatReader(f, name)
//	for r.Next() {
//		switch rec := r.Record().(type) {
//		case *parse.GstatHeader:     // database line, times, header page, variable header, -e, files
//		case *parse.GstatTable:      // one table block
//		case *parse.GstatIndex:      // one index block, after its table; names its table
//		case *parse.GstatFinding:    // "Expected data on page N", gstat/server errors
//		case *parse.GstatSection:    // sections kept as lines (RedDatabase "Analyzing file blobs")
//		case *parse.GstatCompletion: // "Gstat completion time"
//		case *parse.GstatNotice:     // a line skipped or repaired
//		}
//	}
//
// ReadGstat collects the same records into one GstatReport per gstat run
// (a file may hold several runs appended one after the other), with the
// indices attached to their tables.
//
// A big output can be read on several cores: GstatCut cuts UTF-8 text
// with LF line ends at table blocks, SpeculateGstat reads a piece on its
// own, and GstatChunks reads the pieces in order, taking a piece read on
// its own (Accept) where the reading in order reaches it in the state it
// was read from, else reading it there (Feed): the records are those of
// EachGstatBlock whatever the cut (analyze.StreamGstat does so).
//
// Values are kept as printed: integers as int64, averages and ratios as
// float64, percentages as int, time stamps as time.Time plus their raw text
// ("Wed Dec  2 14:09:54 2026": POSIX pads the day with a space, Windows
// with a zero). A field gstat did not print is nil, never zero: which
// lines appear depends on the version (2.5 prints one "Data pages" line,
// 3.0 splits it; 5.0.2 prints one blob line per level and "Table size")
// and on the switches (-r adds record and version lines, -i alone prints
// table names only).
//
// What the reader accepts besides a clean run:
//   - text before the report (a command line, "Output for Firebird 2.5:",
//     lock print, Java stack traces, "#" comments): skipped, one notice per
//     run of lines;
//   - files that are only a part of a run: an index block alone, table
//     blocks alone, a file starting with "File x is the only file", the -e
//     lines alone;
//   - indentation lost or tabs expanded (mail archives, issue texts):
//     lines are recognised by their text, blocks by blank lines and the
//     "Index " prefix;
//   - Firebird 6 names `"SCHEMA"."NAME" (id)` (schema kept apart) and names
//     with spaces, quotes, parentheses or non-ASCII letters: the id is the
//     last " (n)" of the line;
//   - a cut file: what was read is returned, with a notice saying where
//     the file ended;
//   - blob statistics in both forms: the 3.0-5.0.1 line "Level 0: N, Level 1:
//     N, Level 2: N" and the 5.0.2+ lines "Level N: count, total length: L,
//     blob pages: P", kept per level and summed into the table's totals
//     (checked against the "Blobs:" line);
//   - lines indented by a tab inside firebird.log extracts: `Database "..."`
//     counts only at the start of a line.
//
// The reader works on bytes. A block's item and fill lines are read in one
// pass from the line reader's buffer (gstat_fast.go: labels compared whole,
// values scanned once to the line end), any line it is not sure of the
// usual way; both give the same records (FuzzGstatFastLines). A label is
// matched against the one that followed the label before last time (learnt
// as it reads, so any gstat's order), else looked up among the known ones;
// numbers are parsed by hand and values the records keep are carved from
// blocks, so a line it does not keep costs no allocation.
package parse
