package parse

import (
	"bytes"
	"io"
	"math"
	"time"
)

// gstatState is the part of the output the reader is in.
type gstatState uint8

const (
	gsNone     gstatState = iota // outside any section (preamble, noise)
	gsHeader                     // "Database header page information:" fields
	gsAfterHdr                   // blank line after the header fields
	gsVar                        // "Variable header data:" until *END*
	gsTop                        // after *END*, -e lines, file sequence
	gsAnalysis                   // "Analyzing database pages ...", between blocks
	gsTable                      // inside a table block
	gsIndex                      // inside an index block
	gsSection                    // inside a section kept as lines (RedDatabase)
)

// GstatReader reads gstat output (Firebird 1.5 to 6.0, RedDatabase) as a
// stream of records, in the manner of golang.org/x/perf/benchfmt:
//
//	r := parse.NewGstatReader(f, name)
//	for r.Next() {
//		switch rec := r.Record().(type) {
//		case *parse.GstatHeader: ...
//		case *parse.GstatTable: ...
//		case *parse.GstatIndex: ... // follows its table
//		case *parse.GstatFinding, *parse.GstatSection, *parse.GstatCompletion:
//		case *parse.GstatNotice: // a skipped or repaired line, with file:line
//		}
//	}
//	if err := r.Err(); err != nil { ... } // I/O errors only
//
// Nothing in the text stops the reader: unknown lines become notices.
// Memory is bounded by one block, whatever the size of the file.
type GstatReader struct {
	lr    *LineReader
	slab  gstatSlab
	state gstatState

	report  int
	used    bool         // the current report has content
	hdr     *GstatHeader // header being collected, not yet returned
	hdrSent bool

	table     *GstatTable // table block being read
	index     *GstatIndex // index block being read
	lastTable *GstatTable // owner of the next index blocks
	fill      *GstatFill  // fill distribution being read
	fillSeen  int
	// moreUnknown counts the unknown lines of the current block or
	// header past maxUnknownLines, moreCrypt the -e lines of the header
	// past maxCryptLines: not kept, one notice each.
	moreUnknown, moreCrypt leftOut
	// held are the notices of lines after the first one a pending count
	// (moreUnknown, moreCrypt) left out, queued with it, in line order,
	// when its block or header ends (those past the run's maxNotices are
	// counted at once).
	held []Notice
	// notices counts the notices of the run, moreNotices those past
	// maxNotices: not queued, one notice.
	notices     int
	moreNotices leftOut

	blockData bool // the current block has data lines
	section   *GstatSection
	inLevel   bool // current table line is a blob "Level" line
	// The order the items of table and index blocks came in (gstat_labels.go).
	tableOrder, indexOrder itemOrder
	fastItems              [maxFastItems]fastItem // fastLine's
	fastTaken              int                    // lines fastLine read (for the tests)
	fastFrom, fastTo       int                    // the last line fastLine read, in the line reader's buffer

	skipLine  int
	skipCount int
	skipFirst []byte
	skipped   int // lines skipped so far (SplitInput tells gstat lines by it)

	queue []GstatRecord
	qi    int
	rec   GstatRecord
	done  bool
	// pausing: the end of the input is the end of a piece (GstatChunks),
	// not of the text; more may follow.
	pausing bool
}

// NewGstatReader returns a reader of the gstat output in r; name is used in
// messages ("-" is shown as "<stdin>").
func NewGstatReader(r io.Reader, name string) *GstatReader {
	lr := NewLineReader(r, name)
	lr.KeepLeadingTabs() // every line is trimmed on the left first
	return &GstatReader{lr: lr}
}

// Name is the file name used in messages.
func (r *GstatReader) Name() string { return r.lr.Name() }

// Encoding names the text encoding detected (see LineReader).
func (r *GstatReader) Encoding() string { return r.lr.Encoding() }

// Err returns the I/O error that stopped the reader, if any.
func (r *GstatReader) Err() error { return r.lr.Err() }

// Record returns the record read by the last call to Next. The record is
// new for every call; the reader never changes it afterwards.
func (r *GstatReader) Record() GstatRecord { return r.rec }

// Next reads the next record and reports whether there is one.
func (r *GstatReader) Next() bool {
	for {
		if r.qi < len(r.queue) {
			r.rec = r.queue[r.qi]
			r.queue[r.qi] = nil
			r.qi++
			return true
		}
		if len(r.queue) > 0 { // (a store per line would cost a GC write barrier)
			r.queue, r.qi = r.queue[:0], 0
		}
		if r.done {
			r.rec = nil
			return false
		}
		if (r.state == gsTable || r.state == gsIndex) && fastLines && r.fastLine() {
			continue
		}
		if !(fastLines && r.lr.nextPlain()) && !r.lr.Next() {
			if r.pausing && r.lr.Err() == nil {
				return false
			}
			r.finish()
			r.done = true
			continue
		}
		r.line(r.lr.Bytes())
	}
}

func (r *GstatReader) pos() GstatPos { return GstatPos{Report: r.report, Line: r.lr.Line()} }

func (r *GstatReader) emit(rec GstatRecord) { r.queue = append(r.queue, rec) }

// notice queues a notice about the current line.
func (r *GstatReader) notice(format string, args ...any) {
	r.noticeAt(r.lr.Line(), format, args...)
}

func (r *GstatReader) noticeAt(line int, format string, args ...any) {
	if line < 1 {
		line = 1
	}
	if !r.roomForNotice() {
		r.moreNotices.add(line, "notices of this run")
		return
	}
	n := Notice{File: r.lr.Name(), Line: line, Msg: sprintf(format, args...)}
	if r.moreUnknown.n+r.moreCrypt.n > 0 {
		r.held = append(r.held, n)
		return
	}
	r.queueNotice(n)
}

// roomForNotice reports whether the run has queued, or holds, fewer
// than maxNotices notices: one more is kept.
func (r *GstatReader) roomForNotice() bool { return r.notices+len(r.held) < maxNotices }

// queueNotice queues n, one of the run's first maxNotices; the others
// are counted.
func (r *GstatReader) queueNotice(n Notice) {
	if r.notices >= maxNotices {
		r.moreNotices.add(n.Line, "notices of this run")
		return
	}
	r.notices++
	r.emit(&GstatNotice{Notice: n, Report: r.report})
}

// maxNotices bounds the notices of a run; the others are counted in one.
// A real run has a few; text that is mostly no gstat output has one for
// each run of lines between two that look like gstat's (700,000 for 100
// MiB of random text: 63 MB printed, all kept to the run's end). fbdiag's
// own bound.
const maxNotices = 1000

// flushNotices queues the notice on the notices of the run left out.
func (r *GstatReader) flushNotices() {
	if o := r.moreNotices; o.n > 0 {
		r.emit(&GstatNotice{Notice: o.notice(r.lr.Name()), Report: r.report})
	}
	r.notices, r.moreNotices = 0, leftOut{}
}

// skip remembers a line that is not gstat output; consecutive ones make a
// single notice.
func (r *GstatReader) skip(t []byte) {
	r.skipped++
	if r.skipCount == 0 {
		r.skipLine = r.lr.Line()
		if r.roomForNotice() { // (else its notice is only counted)
			t = Redact(t)
			if len(t) > 60 {
				t = t[:60]
			}
			r.skipFirst = append(r.skipFirst[:0], t...)
		}
	}
	r.skipCount++
}

func (r *GstatReader) flushSkip() {
	if r.skipCount == 0 {
		return
	}
	if r.skipCount == 1 {
		r.noticeAt(r.skipLine, "skipped a line that is not gstat output: %q", r.skipFirst)
	} else {
		r.noticeAt(r.skipLine, "skipped %d lines that are not gstat output, the first: %q", r.skipCount, r.skipFirst)
	}
	r.skipCount = 0
}

// line handles one input line.
func (r *GstatReader) line(b []byte) {
	if r.lr.Truncated() {
		r.flushSkip()
		r.notice("line longer than %d bytes cut", MaxLineLength)
	}
	t := b[r.lr.indent:] // KeepLeadingTabs measured the indentation
	if len(t) == 0 {
		r.blank()
		return
	}
	switch r.state {
	case gsTable:
		if r.tableLine(t) {
			if r.skipCount > 0 {
				r.flushSkipBefore()
			}
			return
		}
	case gsIndex:
		if r.indexLine(t) {
			if r.skipCount > 0 {
				r.flushSkipBefore()
			}
			return
		}
	case gsHeader, gsAfterHdr:
		if r.headerLine(t) {
			r.flushSkipBefore()
			return
		}
	case gsVar:
		if !isTopStarter(t) {
			r.flushSkip()
			r.varLine(t)
			return
		}
	case gsSection:
		if !isReportStarter(t) {
			r.flushSkip()
			r.section.Lines = append(r.section.Lines, GstatKV{Line: r.lr.Line(), Value: string(r.lr.ExpandTabs(b))})
			return
		}
	}
	r.topLine(t, len(t) < len(b))
}

// flushSkipBefore emits the pending skip notice ahead of anything queued
// by the current line, so that notices stay in line order.
func (r *GstatReader) flushSkipBefore() {
	if r.skipCount == 0 {
		return
	}
	held := append([]GstatRecord(nil), r.queue[r.qi:]...)
	r.queue = r.queue[:r.qi]
	r.flushSkip()
	r.queue = append(r.queue, held...)
}

// blank handles an empty line: it ends table and index blocks and the
// header fields.
func (r *GstatReader) blank() {
	switch r.state {
	case gsTable, gsIndex:
		r.endBlock()
		r.state = gsAnalysis
	case gsHeader:
		r.state = gsAfterHdr
	}
}

// isReportStarter reports lines that begin a new gstat run.
func isReportStarter(t []byte) bool {
	return hasPrefix(t, `Database "`) || hasPrefix(t, "Database header page information") ||
		hasPrefix(t, "Gstat execution time") || hasPrefix(t, "Gstat completion time") ||
		hasPrefix(t, "Analyzing database pages")
}

// isTopStarter reports lines that end the variable header even without
// its *END* (cut excerpts).
func isTopStarter(t []byte) bool {
	return isReportStarter(t) || hasPrefix(t, "Database file sequence") ||
		cryptKind(t) != "" || hasPrefix(t, "Analyzing ")
}

// topLine handles lines that start sections and blocks, wherever they
// appear.
func (r *GstatReader) topLine(t []byte, indented bool) {
	// Fast path for the lines a big file is made of: block names.
	if t[len(t)-1] == ')' && t[0] != '#' && t[0] != '-' {
		if hasPrefix(t, "Index ") {
			if schema, name, id, ok := parseGstatName(&r.slab, t[len("Index "):]); ok {
				r.flushSkip()
				r.startIndex(schema, name, id)
				return
			}
		} else if !hasPrefix(t, "Expected ") {
			if schema, name, id, ok := parseGstatName(&r.slab, t); ok {
				r.flushSkip()
				r.startTable(schema, name, id)
				return
			}
		}
	}
	switch {
	case t[0] == '#':
		r.skip(t)
		return
	case hasPrefix(t, `Database "`) && !indented:
		// gstat prints it at the start of the line; firebird.log entries
		// pasted after a report indent theirs.
		r.flushSkip()
		r.newReport()
		r.header().Database = quoted(t)
		r.state = gsTop
		return
	case hasPrefix(t, "Database header page information:"):
		r.flushSkip()
		if r.hdrSent || (r.hdr != nil && r.hdr.HeaderPage) || (r.used && r.hdr == nil) {
			r.newReport()
		}
		r.endBlock()
		r.header().HeaderPage = true
		r.state = gsHeader
		return
	case hasPrefix(t, "Gstat execution time"):
		r.flushSkip()
		if r.hdrSent || (r.hdr != nil && (r.hdr.ExecutionTimeText != "" || r.hdr.HeaderPage)) || (r.used && r.hdr == nil) {
			r.newReport()
		}
		h := r.header()
		h.ExecutionTime, h.ExecutionTimeText = r.ctime(t[len("Gstat execution time"):])
		r.state = gsTop
		return
	case hasPrefix(t, "Gstat completion time"):
		r.flushSkip()
		r.endBlock()
		r.flushHeader()
		c := &GstatCompletion{GstatPos: r.pos()}
		c.Time, c.Text = r.ctime(t[len("Gstat completion time"):])
		r.emit(c)
		r.used = true
		r.state = gsNone
		return
	case hasPrefix(t, "Variable header data:"):
		r.flushSkip()
		r.header()
		r.state = gsVar
		return
	case hasPrefix(t, "Database file sequence:"):
		r.flushSkip()
		r.endBlock()
		r.header()
		r.state = gsTop
		return
	case hasPrefix(t, "Analyzing database pages"):
		r.flushSkip()
		r.endBlock()
		r.flushHeader()
		r.used = true
		r.state = gsAnalysis
		return
	case hasPrefix(t, "File ") && r.fileLine(t):
		r.flushSkip()
		return
	case hasPrefix(t, "Expected "):
		r.flushSkip()
		r.finding(t)
		return
	case hasPrefix(t, "Index "):
		if schema, name, id, ok := parseGstatName(&r.slab, t[len("Index "):]); ok {
			r.flushSkip()
			r.startIndex(schema, name, id)
			return
		}
	case hasPrefix(t, "Analyzing ") || bytes.Equal(t, []byte("Tablespaces:")):
		r.flushSkip()
		r.endBlock()
		r.flushHeader()
		r.section = &GstatSection{GstatPos: r.pos(), Title: string(t)}
		r.emit(r.section)
		r.used = true
		r.state = gsSection
		return
	}
	if k := cryptKind(t); k != "" {
		r.flushSkip()
		r.cryptLine(t, k)
		return
	}
	if t[len(t)-1] == ')' {
		if schema, name, id, ok := parseGstatName(&r.slab, t); ok {
			r.flushSkip()
			r.startTable(schema, name, id)
			return
		}
	}
	if isGstatError(t) {
		r.flushSkip()
		r.endBlock()
		r.emit(&GstatFinding{GstatPos: r.pos(), Kind: FindingError, Text: string(t), Table: r.tableName()})
		r.used = true
		return
	}
	r.skip(t)
}

// newReport starts a new report if the current one has content.
func (r *GstatReader) newReport() {
	r.endBlock()
	if !r.used && r.hdr == nil {
		return
	}
	r.flushHeader()
	r.flushNotices()
	r.report++
	r.used, r.hdr, r.hdrSent, r.lastTable = false, nil, false, nil
	r.state = gsNone
}

// header returns the header being collected, creating it.
func (r *GstatReader) header() *GstatHeader {
	if r.hdr == nil {
		if r.hdrSent {
			// Header text after the tables of the same run: a new report.
			r.newReport()
		}
		r.hdr = &GstatHeader{GstatPos: r.pos()}
	}
	return r.hdr
}

// flushHeader returns the collected header before anything that follows it.
func (r *GstatReader) flushHeader() {
	if r.hdr == nil {
		return
	}
	r.flushLeftOut()
	r.emit(r.hdr)
	r.hdr, r.hdrSent, r.used = nil, true, true
}

// finish ends the input: pending blocks and notices about a cut file.
func (r *GstatReader) finish() {
	r.flushSkip()
	switch r.state {
	case gsHeader:
		r.notice("file ends inside the header page information (truncated?)")
	case gsVar:
		r.notice("file ends before the *END* of the variable header data (truncated?)")
	case gsTable, gsIndex:
		if r.blockData && r.fill == nil {
			r.notice("file ends inside the block of %s (truncated?)", r.blockName())
		}
	}
	r.endBlock()
	r.flushHeader()
	r.flushNotices()
}

func (r *GstatReader) blockName() string {
	if r.index != nil {
		return "index " + r.index.Name
	}
	if r.table != nil {
		return "table " + r.table.Name
	}
	return "?"
}

func (r *GstatReader) tableName() string {
	if r.lastTable != nil {
		return r.lastTable.Name
	}
	return ""
}

// ctime parses a ctime() time stamp after its label.
func (r *GstatReader) ctime(b []byte) (tm *time.Time, text string) {
	text = string(trimBlank(b))
	if v, ok := parseCtime(collapseSpaces(trimBlank(b))); ok {
		return &v, text
	}
	r.notice("cannot read the time %q", text)
	return nil, text
}

// quoted returns what is between the first and the last double quote.
func quoted(t []byte) string {
	i := bytes.IndexByte(t, '"')
	j := bytes.LastIndexByte(t, '"')
	if i < 0 || j <= i {
		return ""
	}
	return string(t[i+1 : j])
}

// parseGstatName reads a block name line: `NAME (id)`, `"SCHEMA"."NAME"
// (id)` (Firebird 6). The id is the last ` (n)`, so names may hold
// spaces, parentheses and any bytes. The strings come from s.
func parseGstatName(s *gstatSlab, t []byte) (schema, name string, id int64, ok bool) {
	if len(t) < 4 || t[len(t)-1] != ')' {
		return "", "", 0, false
	}
	// Scan back over the digits of the id to " (", reading them as they
	// go by (not again by atoi64): 19 digits cannot wrap a uint64, more
	// are refused.
	j := len(t) - 2
	var u, pow uint64 = 0, 1
	for j >= 0 && isDigit(t[j]) {
		u += uint64(t[j]-'0') * pow
		pow *= 10
		j--
	}
	if j < 2 || j == len(t)-2 || t[j] != '(' || t[j-1] != ' ' || len(t)-2-j > 19 || u > math.MaxInt64 {
		return "", "", 0, false
	}
	id = int64(u)
	j--
	n := t[:j]
	if bytes.IndexByte(n, 0) >= 0 {
		// No Firebird name holds a NUL: this is a block of zeros in a
		// damaged file ("Average \x00\x00… (128)"), not a table.
		return "", "", 0, false
	}
	if n[0] == '"' {
		if sc, rest, ok1 := unquoteIdent(n); ok1 {
			if len(rest) == 0 {
				return "", sc, id, true
			}
			if rest[0] == '.' {
				if nm, rest2, ok2 := unquoteIdent(rest[1:]); ok2 && len(rest2) == 0 {
					return sc, nm, id, true
				}
			}
		}
	}
	return "", s.str(n), id, true
}

// unquoteIdent reads a "double-quoted" SQL identifier ("" is a quote).
func unquoteIdent(b []byte) (string, []byte, bool) {
	if len(b) < 2 || b[0] != '"' {
		return "", b, false
	}
	var out []byte
	for i := 1; i < len(b); i++ {
		if b[i] == '"' {
			if i+1 < len(b) && b[i+1] == '"' {
				out = append(out, '"')
				i++
				continue
			}
			return string(out), b[i+1:], true
		}
		out = append(out, b[i])
	}
	return "", b, false
}

// gstatErrors are texts of errors gstat or the server print instead of a
// report (failed login, wrong ODS...).
var gstatErrors = []string{
	"Your user name and password are not defined",
	"unavailable database",
	"Unable to complete network request",
	"Wrong ODS version",
	"I/O error",
	"Error while trying to open file",
	"Statement failed",
	"SQLSTATE",
	"Error loading plugin",
	"database shutdown",
	"is not a valid database",
	"Login failed",
	"login failed",
	"Install incomplete",
	"failed to attach",
	"cannot attach",
	"Cannot attach",
}

// isGstatError reports an error line: "-message" lines of fb_interpret
// and known error texts.
func isGstatError(t []byte) bool {
	if t[0] == '-' && len(t) > 1 && !isDigit(t[1]) && t[1] != '-' {
		return true
	}
	for _, e := range gstatErrors {
		if bytes.Contains(t, []byte(e)) {
			return true
		}
	}
	return false
}
