package parse

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fbdiag/fbdiag/internal/lazyre"
	"github.com/fbdiag/fbdiag/internal/units"
)

// InputKind is what an input file holds, as Detect recognises it.
type InputKind string

// The input kinds fbdiag reads.
const (
	InputUnknown InputKind = "unknown"
	// InputGstat is gstat / fbstat / fbsvcmgr action_db_stats output.
	InputGstat InputKind = "gstat"
	// InputGbak is a gbak backup or restore log (verbose, with or without
	// -st statistics).
	InputGbak InputKind = "gbak"
	// InputThroughput is a result table: CSV, TSV, markdown or aligned
	// text with a header row and numeric columns.
	InputThroughput InputKind = "throughput"
	// InputBenchmark is the output or log of a benchmark tool: pgbench,
	// sysbench, HammerDB or go test -bench.
	InputBenchmark InputKind = "benchmark"
	// InputBenchRun is the result file of fbdiag bench run --out: JSON
	// Lines, the run's summary then one line per second.
	InputBenchRun InputKind = "bench run"
)

// DetectSize is how much of a file Detect needs: the first 64 KiB.
const DetectSize = 64 << 10

// Detect tells what a file holds from its first bytes (DetectSize is
// enough), by content only: file names lie ("stats.log" holding gstat
// output, "restore.txt" a gbak log). The text goes through the same
// decoding as LineReader, so UTF-16 from PowerShell and CRLF files are
// recognised too. The reason says which line gave it away, "line N: …".
func Detect(head []byte) (InputKind, string) {
	if len(head) > DetectSize {
		head = head[:DetectSize]
	}
	if why := binaryReason(head); why != "" {
		return InputUnknown, why
	}
	lr := NewLineReader(bytes.NewReader(head), "head")
	lr.KeepTabs() // a table's tabs are its separator; detectText expands the rest
	var lines []string
	for lr.Next() && len(lines) < detectLines {
		lines = append(lines, lr.Text())
	}
	// A cut at DetectSize leaves a partial last line.
	if len(head) == DetectSize && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	if k, why := detectText(lines, 1, bytes.IndexByte(head, '\t') >= 0); k != "" {
		return k, why
	}
	if why := detectProseTable(lines); why != "" {
		return InputThroughput, why
	}
	if len(strings.TrimSpace(strings.Join(lines, ""))) == 0 {
		return InputUnknown, "empty"
	}
	return InputUnknown, "no gstat, gbak, benchmark, bench run or table lines in the first " + sizeText(len(head))
}

// detectLines bounds the lines Detect looks at.
const detectLines = 4000

// detectText runs the detectors over raw, lines with their tabs, the
// first of which is line first of the file (the reasons quote file
// lines); tabs tells that the text held a tab. It returns "" when no
// detector recognises them.
func detectText(raw []string, first int, tabs bool) (InputKind, string) {
	// The detectors read lines as every reader does, tabs expanded
	// ("\tFlags\t\t\t0" and the same line copied from a web page alike);
	// a table's cells are split at its tabs.
	lines := raw
	var lr LineReader
	cloned := false
	for i, l := range raw {
		if strings.IndexByte(l, '\t') >= 0 {
			if !cloned {
				lines, cloned = slices.Clone(raw), true
			}
			lines[i] = string(lr.expandTabs([]byte(l)))
		}
	}
	for _, d := range detectors {
		if k, why := d(lines, first); k != "" {
			return k, why
		}
	}
	if k, why := detectTable(lines, raw, first); k != "" {
		// A table of tabs and spaces reads as aligned text; the raw
		// bytes tell (0x09 is 0x09 in UTF-16 too).
		if tabs {
			why = strings.Replace(why, "aligned text", "tab-separated", 1)
		}
		return k, why
	}
	return "", ""
}

// detectProseTable finds a result table inside prose as the throughput
// reader does (TableReader, which reads a file that does not start with a
// table as an article: its markdown tables, its tab-separated blocks and
// its blocks of numbers), so that an article fbdiag throughput reads is
// not "no table lines" to detect and report. Inside prose only a table
// set apart as one counts, a markdown or a tab-separated one, with two
// data rows and two columns of numbers (a measurement against a setting
// or a size): the reader also takes lines of words split by spaces or
// commas for a table (README's sentences, a CHANGELOG's paragraphs, a CSV
// quoted in a doc), and a document's table of files and line counts (the
// corpus's SOURCES.md) is no result either. It returns the reason, ""
// when none.
func detectProseTable(lines []string) string {
	tr := NewTableReader(strings.NewReader(strings.Join(lines, "\n")), "head")
	for tr.Next() {
		t := tr.Table()
		numeric := 0
		for _, c := range t.Columns {
			if c.Numeric {
				numeric++
			}
		}
		if (t.Format != "markdown" && t.Format != "tsv") || len(t.Rows) < 2 || numeric < 2 || t.Line < 1 || t.Line > len(lines) {
			continue
		}
		// Quoted with its tabs expanded, as the readers read it.
		var lr LineReader
		head := string(lr.expandTabs([]byte(lines[t.Line-1])))
		return fmt.Sprintf("%s table with %d columns inside prose, header %s", formatName(t.Format), len(t.Columns), why(1, t.Line-1, head))
	}
	return ""
}

// formatName names a Table's Format as the reasons do.
func formatName(f string) string {
	switch f {
	case "tsv":
		return "tab-separated"
	case "csv":
		return "comma-separated"
	case "semicolon":
		return "semicolon-separated"
	case "text":
		return "aligned text"
	}
	return f
}

func sizeText(n int) string {
	if n >= 1024 {
		return fmt.Sprintf("%d KiB", (n+1023)/1024)
	}
	return units.Count(n, "byte")
}

// binaryReason says why b is not text, "" when it is: compressed data
// (a rotated stats.txt.gz), or NUL bytes in text that is not UTF-16. Text
// counts as UTF-16 as LineReader decodes it (a BOM, or ASCII with every
// other byte NUL in the first four bytes), and then only without NUL code
// units: a Firebird database's header page starts 01 00 00 00, which the
// first bytes alone take for UTF-16.
func binaryReason(b []byte) string {
	if name, undo := compressed(b); name != "" {
		return "binary data (" + name + "-compressed): decompress it first: " + undo + " FILE | fbdiag … -"
	}
	// (ODS 8 to 14 and pages of 32 KiB at most, to name a database
	// rather than any binary that starts with a 1)
	if ods, pageSize, ok := DatabaseHeader(b); ok && ods >= 8 && ods <= 14 && pageSize <= 32768 {
		return fmt.Sprintf("binary data (a Firebird database file, ODS %d, %d-byte pages): run gstat -a -r on it and give fbdiag gstat's output", ods, pageSize)
	}
	n := min(len(b), 4096)
	b = b[:n]
	utf16 := len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF) ||
		len(b) >= 4 && (b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0 || b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0)
	if !utf16 {
		if bytes.IndexByte(b, 0) >= 0 {
			return "binary data (NUL bytes outside UTF-16 text)"
		}
		return ""
	}
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			return "binary data (NUL bytes outside UTF-16 text)"
		}
	}
	return ""
}

// DatabaseHeader reads the start of a Firebird database's header page
// (the .fdb itself, given instead of gstat's output about it): page type
// 1 (pag_header), at 0x10 the page size, a power of two from 1 KiB (0
// for 64 KiB, which 16 bits do not hold), and at 0x12 the ODS major
// version with the Firebird flag 0x8000, little-endian (src/jrd/ods.h;
// Firebird internals, "The Database Header Page"). A gbak backup and
// text start otherwise.
func DatabaseHeader(b []byte) (ods, pageSize int, ok bool) {
	if len(b) < 0x14 || b[0] != 1 {
		return 0, 0, false
	}
	pageSize = int(b[0x10]) | int(b[0x11])<<8
	version := int(b[0x12]) | int(b[0x13])<<8
	if pageSize == 0 {
		pageSize = 1 << 16
	}
	if version&0x8000 == 0 || pageSize < 1024 || pageSize&(pageSize-1) != 0 {
		return 0, 0, false
	}
	return version &^ 0x8000, pageSize, true
}

// compressions are the formats a log is kept in, by their magic bytes,
// with the command that gives the text back.
var compressions = []struct {
	magic      string
	name, undo string
}{
	{"\x1F\x8B", "gzip", "gunzip -c"},
	{"BZh", "bzip2", "bunzip2 -c"}, // then the block size, 1 to 9, and "1AY&SY"
	{"\xFD7zXZ\x00", "xz", "xz -dc"},
	{"\x28\xB5\x2F\xFD", "zstd", "zstd -dc"},
	{"PK\x03\x04", "zip", "unzip -p"},
	{"7z\xBC\xAF\x27\x1C", "7-Zip", "7z x -so"},
}

// compressed names the compression of b, with the command that undoes it.
func compressed(b []byte) (name, undo string) {
	for _, c := range compressions {
		if !bytes.HasPrefix(b, []byte(c.magic)) {
			continue
		}
		if c.name == "bzip2" && (len(b) < 10 || b[3] < '1' || b[3] > '9' || string(b[4:10]) != "1AY&SY") {
			continue
		}
		return c.name, c.undo
	}
	return "", ""
}

// A detector recognises lines, the first being line first of the file.
type detector func(lines []string, first int) (InputKind, string)

// detectors run in order; the first that recognises the text wins. gbak
// comes before gstat because a restore log names tables and indices too,
// and benchmarks before tables (detectTable, last) because pgbench logs
// are numeric columns.
var detectors = []detector{detectBenchRun, detectGbak, detectGstat, detectBenchmark}

// detectBenchRun: fbdiag bench run's result starts with its format.
func detectBenchRun(lines []string, first int) (InputKind, string) {
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if isBenchRunLine(l) {
			return InputBenchRun, "fbdiag bench run result, line " + fmt.Sprint(first+i) + ": format " + BenchFormat
		}
		return "", ""
	}
	return "", ""
}

// why quotes lines[i] of a text whose first line is line first of the
// file.
func why(first, i int, line string) string {
	return fmt.Sprintf("line %d: %q", first+i, clip(strings.TrimSpace(line), 40))
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// detectGbak: gbak prefixes every line it writes with "gbak:".
func detectGbak(lines []string, first int) (InputKind, string) {
	n, at := 0, -1
	for i, l := range lines {
		if isGbakLine(l) {
			if at < 0 {
				at = i
			}
			n++
			if n >= 2 {
				return InputGbak, why(first, at, lines[at])
			}
		}
	}
	if n == 1 && len(nonEmpty(lines)) <= 3 {
		return InputGbak, why(first, at, lines[at])
	}
	return "", ""
}

// isGbakLine: a line gbak wrote, maybe indented by a web page or a mail.
func isGbakLine(l string) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " \t"), "gbak:")
}

// gstatMarks are lines only gstat writes, from Firebird 1.5 to 6.0.
var gstatMarks = []string{
	"Database header page information",
	"Analyzing database pages",
	"Gstat execution time",
	"Gstat completion time",
	"Primary pointer page:",
	"Database file sequence:",
	"Oldest transaction",
	// -i without -a (index statistics only) and -e (encryption):
	"Root page:",
	"Data pages: total",
	"Index pages: total",
}

func detectGstat(lines []string, first int) (InputKind, string) {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		for _, m := range gstatMarks {
			if strings.HasPrefix(t, m) {
				// "Oldest transaction" alone could be prose; gstat
				// prints it with a number.
				if m == "Oldest transaction" && !reGstatHeaderNum().MatchString(t) ||
					m == "Root page:" && !strings.Contains(t, "leaf buckets:") ||
					strings.HasSuffix(m, "total") && !strings.Contains(t, "encrypted") {
					continue
				}
				return InputGstat, why(first, i, l)
			}
		}
	}
	return "", ""
}

var reGstatHeaderNum = lazyre.New(`^Oldest transaction\s+\d+$`)

// benchMarks are lines of benchmark tools' summaries and progress.
var benchMarks = []struct {
	re   func() *regexp.Regexp
	tool string
}{
	{lazyre.New(`^pgbench \(\d`), "pgbench"},
	{lazyre.New(`^tps = [0-9.]+ \(`), "pgbench"},
	{lazyre.New(`^progress: [0-9.]+ s, [0-9.]+ tps, lat `), "pgbench"},
	{lazyre.New(`^transaction type: `), "pgbench"},
	{lazyre.New(`^sysbench \d+\.\d+`), "sysbench"},
	{lazyre.New(`^\[ *[0-9.]+s \] thds: \d+ tps: `), "sysbench"},
	{lazyre.New(`^SQL statistics:$`), "sysbench"},
	{lazyre.New(`TEST RESULT : System achieved \d+ NOPM`), "HammerDB"},
	{lazyre.New(`^Vuser \d+:`), "HammerDB"},
	{lazyre.New(`^Benchmark\S*\s+\d+\s+[0-9.]+ ns/op`), "go test -bench"},
}

// rePgbenchLog matches pgbench -l lines: 6–8 integer columns per
// transaction, or the 11–15 columns of --aggregate-interval.
var rePgbenchLog = lazyre.New(`^\d+ \d+ (\d+|skipped|failed|serialization|deadlock)( \d+){3,12}$`)

func detectBenchmark(lines []string, first int) (InputKind, string) {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		for _, m := range benchMarks {
			if m.re().MatchString(t) {
				return InputBenchmark, m.tool + ", " + why(first, i, l)
			}
		}
	}
	ne := nonEmpty(lines)
	if len(ne) >= 3 {
		ok := 0
		for _, i := range ne[:min(len(ne), 20)] {
			if rePgbenchLog().MatchString(lines[i]) {
				ok++
			}
		}
		if ok == min(len(ne), 20) {
			return InputBenchmark, "pgbench log (-l), " + why(first, ne[0], lines[ne[0]])
		}
	}
	return "", ""
}

func nonEmpty(lines []string) []int {
	var out []int
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, i)
		}
	}
	return out
}

// detectTable recognises a result table: a header row of at least two
// names, then rows with the same number of cells, at least one of them a
// number. Separators: tab, comma, semicolon, '|' (markdown) or a run of
// two or more spaces (aligned text). raw are the lines with their tabs,
// lines with tabs expanded.
func detectTable(lines, raw []string, first int) (InputKind, string) {
	ne := nonEmpty(lines)
	// Skip a title or comment line or two before the header.
	for start := 0; start < min(3, len(ne)); start++ {
		rows := ne[start:]
		if len(rows) < 2 {
			break
		}
		for _, sep := range []string{"\t", "|", ",", ";", "  "} {
			src := lines // split at the tabs themselves
			if sep == "\t" {
				src = raw
			}
			head := splitCells(src[rows[0]], sep)
			if len(head) < 2 || numericCells(head) == len(head) {
				continue
			}
			good, checked := 0, 0
			for _, ri := range rows[1:min(len(rows), 30)] {
				l := src[ri]
				if sep == "|" && isMarkdownRule(l) {
					continue
				}
				checked++
				cells := splitCells(l, sep)
				if len(cells) == len(head) && numericCells(cells) >= 1 {
					good++
				}
			}
			if checked > 0 && good*10 >= checked*8 {
				// Quoted with its tabs expanded, as the readers read it.
				return InputThroughput, fmt.Sprintf("%s table with %d columns, header %s", sepName(sep), len(head), why(first, rows[0], lines[rows[0]]))
			}
		}
	}
	return "", ""
}

func sepName(sep string) string {
	switch sep {
	case "\t":
		return "tab-separated"
	case "|":
		return "markdown"
	case ",":
		return "comma-separated"
	case ";":
		return "semicolon-separated"
	}
	return "aligned text"
}

func splitCells(l, sep string) []string {
	l = strings.TrimSpace(l)
	var parts []string
	switch sep {
	case "  ":
		parts = regexp2Spaces().Split(l, -1)
	case "|":
		if !strings.Contains(l, "|") {
			return nil
		}
		parts = strings.Split(strings.Trim(l, "|"), "|")
	default:
		if !strings.Contains(l, sep) {
			return nil
		}
		parts = strings.Split(l, sep)
	}
	for i := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(parts[i]), `"`)
	}
	return parts
}

var regexp2Spaces = lazyre.New(`\s{2,}`)

func isMarkdownRule(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "|") && strings.Trim(t, "|-: ") == ""
}

var reNumber = lazyre.New(`^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?\s*%?$`)

// numericCells counts the cells that are numbers, as the table reader
// reads them: "17029", "12,5 %", and quantities with a unit or in several
// parts ("10 GB", "4 horas 7 minutos").
func numericCells(cells []string) int {
	n := 0
	for _, c := range cells {
		if reNumber().MatchString(c) {
			n++
		} else if _, _, ok := ParseQuantity(c, false); ok {
			n++
		}
	}
	return n
}
