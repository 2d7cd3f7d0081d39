// Package view turns one analysis into one document, and writes that
// document as text, markdown, CSV, OpenMetrics or an HTML fragment. Every
// format, the command line and the HTML report render the same Doc, so a
// figure reads the same everywhere; JSON is not written here: it stays the
// analysis struct, the documented contract.
//
// # The layers
//
// parse reads text into records, analyze makes every figure and verdict,
// view lays them out, and cmd/fbdiag and report only choose the options
// and the writer. view imports analyze, parse, plot and internal/...;
// it never imports report or cmd/fbdiag.
//
// # The document
//
// A Doc holds, in reading order:
//
//   - Title: one line ("gstat analysis of shop.fdb").
//   - Headline: the figures a reader looks at first, each a Field with a
//     Key (snake_case, the CSV name), a Label (for people) and a typed
//     Cell; Detail adds words after the value in human formats
//     ("0 (server default)").
//   - Tables: named grids of typed cells. Name is the --table key of CSV
//     output ("tables", "indices", "steps", "points"), Columns give each
//     a Key with its unit ("size_bytes", "fill_share", "seconds") and a
//     human Title. Rows are held (Rows) or streamed (Stream, an
//     iter.Seq), so a view of 75,000 tables holds none of them. Limit
//     bounds what text, markdown and HTML show unless Options.All; the
//     writers then say how many they show ("20 of 1500 tables shown").
//   - Findings: the verdicts, worst first, each with its rule, object,
//     value against threshold, the reason, the advice (SQL or a gbak
//     command) and the source of the threshold.
//   - Notes: sentences under everything.
//   - Metrics: families of samples for --format openmetrics.
//   - Charts: plot's plain structs, drawn by the caller.
//
// # Cells
//
// A Cell has a Kind: Text, Count, Number, Bytes, Seconds, Share (0..1),
// Percent (a whole percentage gstat printed, kept as a share), Change
// (relative, signed), Ratio, Time, P (a test's p-value) or R2. Human
// prints it for people with the conventions of internal/units ("35.6
// MiB", "3:41:44", "69.0 %", "69 %", "+12.3 %", "×1.85", "<0.001"); Machine
// prints it for a spreadsheet or a script (bytes as a whole number, a
// share as 0.69, seconds as a plain figure). A null cell (a value the
// input did not hold) is empty in both.
//
// # Writers
//
// Write (or a Writer, for a stream of documents) takes a Format:
//
//   - Text: for a terminal, 100 columns. The headline as aligned
//     "Label  value" lines, each table with its title, aligned columns
//     (numbers right) and notes, then the findings one block each, then
//     their sources once. A table of Blocks (rows of long sentences, as
//     fbdiag rules has) prints a block per row instead: its BlockHead
//     cells on one line, each other cell under it as "title: value",
//     wrapped. Text from an input is escaped (internal/
//     printable): no terminal control reaches the screen.
//   - Markdown: headline as a list, pipe tables (numbers right-aligned),
//     findings as a list; |, backslash and the characters that would
//     start markup are escaped with a backslash, never as HTML entities.
//   - CSV: ONE rectangular RFC 4180 table: Options.Table names it, else
//     the document's Main. The headline is the table "summary" (columns
//     field, value) and the findings the table named by FindingsName. The
//     header row is the column keys, the cells Machine values. Text cells
//     that a spreadsheet would run as a formula (starting with =, +, -,
//     @, tab or CR) get a leading apostrophe (OWASP, "CSV Injection");
//     control characters are escaped. An unknown name is ErrNoTable,
//     which lists the valid ones. With Options.Source the first column,
//     "snapshot", names the document, so several inputs share one table.
//   - OpenMetrics: the Prometheus text exposition format as OpenMetrics
//     1.0 writes it (node_exporter's textfile collector reads it):
//     "# HELP", "# TYPE" and "# UNIT" lines, fbdiag_ names, label values
//     escaped, every family's samples together even across documents,
//     "# EOF" last. A document without metrics is ErrNoMetrics.
//   - HTML: a fragment the report embeds in its page (its CSS classes):
//     the headline boxes, findings, tables with numbers in class "num",
//     every number cell with data-sort holding its Machine value, names
//     in <bdi> so a right-to-left name does not reorder the row.
//
// # One file per analysis
//
// A view is a function from an analysis to a *Doc in a file of its own
// (gstat.go, throughput.go, detect.go). The command line and the report call the same function;
// its golden files (testdata/golden, `go test ./view -update` rewrites
// them) pin every format on real samples.
package view
