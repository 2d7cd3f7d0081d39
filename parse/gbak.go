package parse

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// GbakColumns is the set of statistics columns a gbak log carries
// (-st letters). gbak always prints them in the order T, D, R, W,
// whatever order the letters were given in.
type GbakColumns uint8

// The four statistics columns of gbak -st.
const (
	ColTime   GbakColumns = 1 << iota // T: seconds since gbak started
	ColDelta                          // D: seconds since the previous line
	ColReads                          // R: page reads since the previous line
	ColWrites                         // W: page writes since the previous line
)

// Count is the number of columns in the set.
func (c GbakColumns) Count() int {
	n := 0
	for b := c; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// String spells the set as gbak's -st letters ("TDRW", "W", "").
func (c GbakColumns) String() string {
	var b []byte
	for i, l := range "TDRW" {
		if c&(1<<i) != 0 {
			b = append(b, byte(l))
		}
	}
	return string(b)
}

// GbakKind says what a gbak line announces, in gbak's own terms.
type GbakKind string

// Kinds of gbak lines. The message catalogue (facility 12) of Firebird 2.5
// to 6.0 is folded into these; Object and Name say which item.
const (
	GbakOther          GbakKind = "other"             // a message fbdiag does not classify
	GbakOpenFile       GbakKind = "open_file"         // restore: opened file X; backup: creating file X
	GbakOpenDatabase   GbakKind = "open_database"     // backup: readied database X for backup
	GbakCreateDatabase GbakKind = "create_database"   // restore: created database X, page_size N bytes
	GbakTransaction    GbakKind = "start_transaction" // started / starting transaction
	GbakBackupInfo     GbakKind = "backup_info"       // XDR, compressed, backup version, page size, parallel workers
	GbakSection        GbakKind = "section"           // backup: writing domains, writing tables, ...
	GbakMetadata       GbakKind = "metadata"          // one metadata item (Object, Name)
	GbakCommitMetadata GbakKind = "commit_metadata"   // committing metadata
	GbakData           GbakKind = "data"              // restoring / writing data for table X
	GbakRecords        GbakKind = "records"           // N records restored / written (cumulative per table)
	GbakIgnored        GbakKind = "records_ignored"   // N records ignored (-skip_data, -include_data)
	GbakSkipData       GbakKind = "skip_data"         // 6.0: skipping data for table X
	GbakCreateIndexes  GbakKind = "create_indexes"    // creating indexes: the commit after it builds them
	GbakActivateIndex  GbakKind = "activate_index"    // activating and creating deferred index X
	GbakIndexFailed    GbakKind = "index_failed"      // cannot commit index X
	GbakFinishStep     GbakKind = "finish_step"       // fixing views dbkey length, adding missing privileges, ...
	GbakFinish         GbakKind = "finish"            // finishing, closing, and going home / closing file, committing, and finishing
	GbakTotal          GbakKind = "total"             // total statistics: R and W are absolute counters
	GbakOnlineFlags    GbakKind = "online_flags"      // adjusting the ONLINE and FORCED WRITES flags
	GbakNotOnline      GbakKind = "not_online"        // Database is not online ... / Run gfix -online ...
	GbakError          GbakKind = "error"             // gbak: ERROR:
	GbakWarning        GbakKind = "warning"           // gbak: WARNING:
	GbakExiting        GbakKind = "exiting"           // Exiting before completion due to errors
	GbakVersion        GbakKind = "version"           // gbak version ... (-z)
)

// Backup and restore, the two operations a gbak log can record.
const (
	GbakBackup  = "backup"
	GbakRestore = "restore"
)

// GbakLine is one line of gbak verbose output. Time, Delta, Reads and
// Writes are meaningful only for the columns in Has.
type GbakLine struct {
	Line int      // 1-based line number in the file
	Kind GbakKind // what the line announces
	// Op is "backup" or "restore" when the wording tells, else "".
	Op string
	// Object is the kind of metadata item ("domain", "table", "index",
	// "privilege for user", ...) for GbakMetadata; "table" or "index"
	// for data and index lines.
	Object string
	// Name is the object named by the line (table, index, file, user).
	Name string
	// Message is the text after the statistics, leading blanks removed.
	Message string
	// Count is the record count of records lines and the byte count of
	// the backup's closing line.
	Count int64
	// Continued marks an indented continuation of an ERROR or WARNING.
	Continued bool
	// Gap is set when lines that were not gbak's (an excerpt's "...",
	// another program's lines) came right before this one: the interval
	// to the previous gbak line then covers unknown work.
	Gap bool
	// Repaired is set when a wrapped-around value (Firebird #8027) was
	// repaired; a Notice says how.
	Repaired bool
	Has      GbakColumns
	Time     float64 // T, seconds since gbak started
	Delta    float64 // D, seconds since the previous statistics line
	Reads    int64   // R, page reads since the previous line (absolute on the total line)
	Writes   int64   // W, page writes since the previous line (absolute on the total line)
}

// maxGbakNotices bounds the notices kept, so that a large wrong file
// cannot grow memory; the count of the rest is reported.
const maxGbakNotices = 200

// GbakReader reads gbak verbose output (-v or -verbint, -y file, the
// Services API and fbsvcmgr, with or without -st statistics) line by line,
// in the style of x/perf's benchfmt: call Next until it returns false, use
// Line, then check Err. Lines that are not gbak's are skipped and reported
// as Notices, never as errors.
type GbakReader struct {
	lr       *LineReader
	cur      GbakLine
	cols     GbakColumns
	colsSet  bool
	guessed  bool
	op       string
	prevTime float64
	hasPrev  bool
	gbak     int // gbak lines read
	// skipped non-gbak lines not yet reported
	skipFirst, skipN int
	skipSample       string
	gap              bool
	notices          []Notice
	dropped          leftOut // the notices past maxGbakNotices
	inError          bool
	strs             map[string]string
	// headerAt is the line of the last column header read (SplitInput
	// puts it in the run it starts).
	headerAt int
	// versions is set after gbak -z's "Version(s) for database" line,
	// whose lines without "gbak:" follow: the server's versions.
	versions bool
	// restored is what fbdiag restore's lines after gbak's last say.
	restored GbakRestored
}

// GbakKeptAs starts the line fbdiag restore writes after gbak's last
// when gbak finished with errors and the database it made is kept under
// another name than the log gives it (restore --replace keeps the
// original and names the new one apart): the path follows, to the line's
// end. fbdiag gives gbak's output the final name as it comes, before the
// outcome is known, so that the advice on the log names the kept file
// only through this line.
const GbakKeptAs = "fbdiag: the restored database is kept as "

// GbakUntouched is the line fbdiag restore writes after gbak's last when
// a restore --replace failed and left the database it was to replace as
// it was (gbak wrote a file of its own): the advice to restore again then
// names fbdiag restore --replace, which replaces it only once the new one
// is complete, not gbak -rep, which would replace it at once.
const GbakUntouched = "fbdiag: the restore left the database it was to replace as it was"

// GbakRemoved is the line fbdiag restore writes after gbak's last when
// the restore failed and fbdiag deleted the database gbak had begun (on
// the server's machine): the advice then restores again with fbdiag
// restore, and does not speak of an unfinished file.
const GbakRemoved = "fbdiag: the restore left nothing: fbdiag deleted the database gbak had begun"

// GbakCut starts the line fbdiag backup and restore write where gbak's
// output before its error is lost: Firebird sends the last part of it
// with the error, and the driver fbdiag uses drops that part. The line
// gbak's output ended in, cut short, follows in double quotes (Go's
// strconv.Quote). gbak's error follows as gbak prints it.
const GbakCut = "fbdiag: the rest of gbak's output before its error is lost; its last line began "

// GbakCutAfter starts the line fbdiag backup and restore write where
// gbak's output went on after the part lost with its error (GbakCut): the
// first line read after it follows in double quotes, which may be the
// end of a line whose start was lost, or a whole line.
const GbakCutAfter = "fbdiag: gbak's output after the lost part went on with "

// GbakRestored is what fbdiag restore says of a failed restore in the
// lines it writes after gbak's last (GbakKeptAs, GbakUntouched,
// GbakRemoved): where the database gbak made is kept, when not under the
// name the log gives it, whether the database it was to replace is as it
// was, and whether fbdiag deleted the one gbak had begun.
type GbakRestored struct {
	KeptAs    string
	Untouched bool
	Removed   bool
}

// Lines are the lines that say so, each ended by a line feed; "" when
// there is nothing to say.
func (g GbakRestored) Lines() string {
	var s string
	if g.KeptAs != "" {
		s += GbakKeptAs + g.KeptAs + "\n"
	}
	if g.Untouched {
		s += GbakUntouched + "\n"
	}
	if g.Removed {
		s += GbakRemoved + "\n"
	}
	return s
}

// read takes line b when it is one of Lines'.
func (g *GbakRestored) read(b []byte) bool {
	if path, ok := bytes.CutPrefix(b, []byte(GbakKeptAs)); ok && len(path) > 0 {
		g.KeptAs = string(path)
		return true
	}
	switch string(b) {
	case GbakUntouched:
		g.Untouched = true
		return true
	case GbakRemoved:
		g.Removed = true
		return true
	}
	return false
}

// Restored is what the log's lines of fbdiag restore say (GbakRestored).
func (r *GbakReader) Restored() GbakRestored { return r.restored }

// serverVersion is the words of the line of gbak -z that gives the
// server's version: `Firebird/Windows/AMD/Intel/x64 (access method),
// version "WI-V3.0.11.33666 Firebird 3.0"`.
var serverVersion = []byte(`(access method), version "`)

// versionLine reads a line of gbak -z after "Version(s) for database":
// the server's (access method) version is a GbakVersion line of Object
// "server" named by it (line reports true); the remote server's and
// interface's versions and the ODS are gbak's output too, but tell
// nothing more (line false). ok is false for a line that is none of
// these.
func (r *GbakReader) versionLine(b []byte) (line, ok bool) {
	b = bytes.TrimLeft(b, " \t")
	if i := bytes.Index(b, serverVersion); i >= 0 {
		v := b[i+len(serverVersion):]
		if j := bytes.IndexByte(v, '"'); j >= 0 {
			r.flushSkipped()
			r.cur = GbakLine{Line: r.lr.Line(), Kind: GbakVersion, Object: "server", Name: string(v[:j]), Message: string(b), Gap: r.gap}
			r.gap = false
			r.gbak++
			return true, true
		}
	}
	if bytes.Contains(b, []byte("), version \"")) || bytes.HasPrefix(b, []byte("on disk structure version ")) {
		return false, true
	}
	return false, false
}

// maxInterned bounds the message cache. gbak repeats many messages
// ("restoring privilege for user SYSDBA", "10000 records restored" for
// every table), so most lines then cost no allocation.
const maxInterned = 4096

func (r *GbakReader) intern(b []byte) string {
	if s, ok := r.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if r.strs == nil {
		r.strs = make(map[string]string)
	}
	if len(r.strs) < maxInterned {
		r.strs[s] = s
	}
	return s
}

// NewGbakReader returns a reader over r; name is used in messages.
func NewGbakReader(r io.Reader, name string) *GbakReader {
	return &GbakReader{lr: NewLineReader(r, name)}
}

// Name is the file name shown in messages.
func (r *GbakReader) Name() string { return r.lr.Name() }

// Line is the line last read by Next. It is owned by the reader and
// overwritten by the next call; copy what you keep.
func (r *GbakReader) Line() *GbakLine { return &r.cur }

// Columns is the set of statistics columns in force (from the header line,
// or guessed from the first statistics line).
func (r *GbakReader) Columns() GbakColumns { return r.cols }

// ColumnsGuessed reports whether the columns were inferred from the
// numbers because the header line was missing.
func (r *GbakReader) ColumnsGuessed() bool { return r.guessed }

// NoGbakError is the error for an input without a single gbak line.
func (r *GbakReader) NoGbakError() error {
	if r.headerAt > 0 {
		// gbak -st prints its column header first: a log of it alone is
		// a gbak that printed nothing more (still attaching, killed) or a
		// log cut there, not one without "gbak:" lines.
		return &SyntaxError{File: r.lr.Name(), Line: r.headerAt, Msg: "the statistics header line and nothing after it: " +
			"gbak printed no step, error or total (still running, stopped before its first message, or the log was cut)"}
	}
	return &SyntaxError{File: r.lr.Name(), Msg: "no gbak output found (no line starts with \"gbak:\"; was the log made with -v?)"}
}

// Op is "backup" or "restore" as soon as a line's wording tells.
func (r *GbakReader) Op() string { return r.op }

// Lines is the number of gbak lines returned so far.
func (r *GbakReader) Lines() int { return r.gbak }

// Err is the I/O error that stopped reading, if any.
func (r *GbakReader) Err() error { return r.lr.Err() }

// Notices lists what was skipped, guessed or repaired so far (at most a
// few hundred; the last one says how many more there were).
func (r *GbakReader) Notices() []Notice {
	r.flushSkipped()
	if r.dropped.n > 0 {
		return append(r.notices[:len(r.notices):len(r.notices)], r.dropped.notice(r.lr.Name()))
	}
	return r.notices
}

func (r *GbakReader) notice(n Notice) {
	if len(r.notices) >= maxGbakNotices {
		r.dropped.add(n.Line, "notices")
		return
	}
	r.notices = append(r.notices, n)
}

// skip records a non-gbak line; runs of them make one notice.
func (r *GbakReader) skip(b []byte) {
	r.gap = true
	if r.skipN == 0 && len(r.notices) < maxGbakNotices { // (else its notice is dropped)
		r.skipFirst = r.lr.Line()
		b = Redact(b)
		if len(b) > 60 {
			n := 60
			for n > 0 && !utf8.RuneStart(b[n]) {
				n--
			}
			b = b[:n]
		}
		r.skipSample = string(b)
	}
	r.skipN++
}

func (r *GbakReader) flushSkipped() {
	if r.skipN == 0 {
		return
	}
	msg := "skipped a line that is not gbak output: " + strconv.Quote(r.skipSample)
	if r.skipN > 1 {
		msg = "skipped " + strconv.Itoa(r.skipN) + " lines that are not gbak output, from " + strconv.Quote(r.skipSample)
	}
	r.notice(Notice{File: r.lr.Name(), Line: r.skipFirst, Msg: msg})
	r.skipN = 0
}

var (
	errPrefix  = []byte("ERROR:")
	warnPrefix = []byte("WARNING:")
)

// Next reads up to the next gbak line and reports whether there is one.
func (r *GbakReader) Next() bool {
	for r.lr.Next() {
		b := r.lr.Bytes()
		if len(b) == 0 {
			continue
		}
		if b[0] == ' ' { // pasted from a web page or a mail, indented
			b = bytes.TrimLeft(b, " ")
		}
		if len(b) < 5 || b[0] != 'g' || b[1] != 'b' || b[2] != 'a' || b[3] != 'k' || b[4] != ':' {
			if r.restored.read(b) {
				continue
			}
			if cut, ok := bytes.CutPrefix(b, []byte(GbakCut)); ok {
				r.notice(r.lr.Notice("gbak's output before its error is incomplete here (its last part came with the server's error, which the driver drops); the line it was printing began %s", cut))
				continue
			}
			if after, ok := bytes.CutPrefix(b, []byte(GbakCutAfter)); ok {
				r.notice(r.lr.Notice("gbak's output goes on after the part lost with its error with %s, the end of a line whose start was lost, or a whole line", after))
				continue
			}
			if r.versions {
				if v, ok := r.versionLine(b); !ok {
					r.versions = false
				} else if v {
					return true
				} else {
					continue
				}
			}
			r.skip(b)
			continue
		}
		r.versions = false
		rest := b[len("gbak:"):]
		if r.header(rest) {
			continue
		}
		r.flushSkipped()
		r.cur = GbakLine{Line: r.lr.Line(), Gap: r.gap}
		r.gap = false
		r.gbak++
		r.parse(rest)
		r.versions = r.cur.Kind == GbakVersion && r.cur.Object == "database"
		return true
	}
	r.flushSkipped()
	return false
}

// header recognises the column header "gbak: time     delta  reads  writes".
func (r *GbakReader) header(rest []byte) bool {
	if len(rest) < 2 || rest[0] != ' ' {
		return false
	}
	// Fast reject: a header's first word is one of time, delta, reads, writes.
	i := 1
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	if i == len(rest) || (rest[i] != 't' && rest[i] != 'd' && rest[i] != 'r' && rest[i] != 'w') {
		return false
	}
	var cols GbakColumns
	n := 0
	for f := range bytes.FieldsSeq(rest) {
		switch string(f) {
		case "time":
			cols |= ColTime
		case "delta":
			cols |= ColDelta
		case "reads":
			cols |= ColReads
		case "writes":
			cols |= ColWrites
		default:
			return false
		}
		n++
	}
	if n == 0 || n > 4 {
		return false
	}
	r.cols, r.colsSet, r.guessed = cols, true, false
	r.headerAt = r.lr.Line()
	return true
}

func (r *GbakReader) parse(rest []byte) {
	// Statistics follow "gbak:" after one space; messages without them
	// follow immediately ("gbak:adjusting the ONLINE ...").
	if len(rest) > 0 && rest[0] == ' ' {
		if msg := bytes.TrimLeft(rest, " "); len(msg) > 0 && (msg[0] == 'E' || msg[0] == 'W') {
			if m, ok := cutPrefix(msg, errPrefix); ok {
				r.diag(GbakError, m)
				return
			}
			if m, ok := cutPrefix(msg, warnPrefix); ok {
				r.diag(GbakWarning, m)
				return
			}
		}
		rest = r.stats(rest)
	} else if m, ok := cutPrefix(rest, errPrefix); ok {
		r.diag(GbakError, m)
		return
	}
	r.inError = false
	r.cur.Message = r.intern(bytes.TrimLeft(rest, " "))
	r.classify()
	if r.cur.Op != "" && r.op == "" {
		r.op = r.cur.Op
	}
}

func cutPrefix(b, p []byte) ([]byte, bool) {
	if bytes.HasPrefix(b, p) {
		return b[len(p):], true
	}
	return b, false
}

// diag handles "gbak: ERROR:text" and "gbak: WARNING:text"; an indented
// text continues the previous one (the rest of the status vector).
func (r *GbakReader) diag(kind GbakKind, m []byte) {
	r.cur.Kind = kind
	r.cur.Continued = r.inError && len(m) > 0 && m[0] == ' '
	r.inError = true
	r.cur.Message = r.intern(bytes.TrimLeft(m, " "))
	if r.cur.Message == "Exiting before completion due to errors" {
		r.cur.Kind = GbakExiting
	}
}

// stats reads the statistics columns at the start of rest (which begins
// with a space) and returns the remaining message.
func (r *GbakReader) stats(rest []byte) []byte {
	var nums [5]gbakNumber
	n := 0
	i := 0
	want := r.cols.Count()
	limit := want
	if !r.colsSet {
		limit = 5
	}
	for n < limit {
		for i < len(rest) && rest[i] == ' ' {
			i++
		}
		j, ok := scanNumber(rest, i, &nums[n])
		if !ok {
			break
		}
		n++
		i = j
	}
	if n == 0 {
		return rest
	}
	if !r.colsSet {
		n = r.guessColumns(nums[:n], rest[nums[n-1].end:])
		if n == 0 {
			return rest
		}
		want = n
	}
	if n < want {
		if bytes.HasPrefix(bytes.TrimLeft(rest[nums[n-1].end:], " "), []byte("records")) {
			return rest // "gbak:   3 records restored" without statistics
		}
		r.notice(r.lr.Notice("expected %d statistics columns (%s), found %d numbers; read the rest as a message without statistics", want, r.cols, n))
		return rest[nums[n-1].end:]
	}
	k := 0
	for bit := ColTime; bit <= ColWrites; bit <<= 1 {
		if r.cols&bit == 0 {
			continue
		}
		v := &nums[k]
		k++
		switch bit {
		case ColTime, ColDelta:
			sec := v.seconds(rest)
			if math.IsInf(sec, 0) {
				// Hundreds of digits (a damaged log): no float holds
				// them, and +Inf seconds would stop the JSON.
				r.cur.Time, r.cur.Delta = 0, 0
				r.notice(r.lr.Notice("%s is not a time; read as a message without statistics", clip(string(rest[v.start:v.end]), 24)))
				return rest
			}
			if bit == ColTime {
				r.cur.Time = sec
			} else {
				r.cur.Delta = sec
			}
		case ColReads, ColWrites:
			if v.dot {
				r.cur.Time, r.cur.Delta = 0, 0
				r.notice(r.lr.Notice("%s is not a page count; read as a message without statistics", rest[v.start:v.end]))
				return rest
			}
			c := r.counter(bit, rest[v.start:v.end], v)
			if bit == ColReads {
				r.cur.Reads = c
			} else {
				r.cur.Writes = c
			}
		}
	}
	r.cur.Has = r.cols
	r.repairDelta()
	if r.cur.Has&ColTime != 0 {
		r.prevTime, r.hasPrev = r.cur.Time, true
	}
	return rest[nums[want-1].end:]
}

// gbakNumber is one statistics token, parsed while it is scanned.
type gbakNumber struct {
	start, end int
	ip, fp     int64 // integer part and fraction digits
	scale      int64 // 10^(fraction digits kept)
	digits     int
	dot        bool
}

// seconds is the number, whose token is b[v.start:v.end]: from ip and fp
// below 19 integer digits, else (ip wrapped) from the token itself.
func (v *gbakNumber) seconds(b []byte) float64 {
	if v.digits >= 19 {
		t := bytes.Replace(b[v.start:v.end], []byte{','}, []byte{'.'}, 1)
		f, _ := strconv.ParseFloat(string(t), 64) // (digits and a dot: ±Inf at worst)
		return f
	}
	return float64(v.ip) + float64(v.fp)/float64(v.scale)
}

// scanNumber reads the token at b[i:] as a number: digits with at most one
// '.' (or ',') inside. It returns the end of the token.
func scanNumber(b []byte, i int, v *gbakNumber) (int, bool) {
	*v = gbakNumber{start: i, scale: 1}
	j := i
	for ; j < len(b) && b[j] != ' '; j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9':
			d := int64(c - '0')
			if v.dot {
				if v.scale < 1e9 {
					v.fp = v.fp*10 + d
					v.scale *= 10
				}
			} else {
				v.ip = v.ip*10 + d // meaningful below 19 digits
				v.digits++
			}
		case (c == '.' || c == ',') && !v.dot && j > i:
			v.dot = true
		default:
			return j, false
		}
	}
	v.end = j
	if j == i || b[j-1] == '.' || b[j-1] == ',' {
		return j, false
	}
	return j, true
}

// guessColumns infers the columns of a log without its header line (an
// excerpt): times have a decimal point, counters do not, and a number
// followed by "records" is the message's. It returns the number of
// columns, 0 when the numbers make no sense as statistics.
func (r *GbakReader) guessColumns(tok []gbakNumber, after []byte) int {
	n := len(tok)
	if bytes.HasPrefix(bytes.TrimLeft(after, " "), []byte("records")) {
		n--
	}
	if n > 4 {
		n = 4
	}
	dec := 0
	for dec < n && tok[dec].dot {
		dec++
	}
	ints := n - dec
	for _, t := range tok[dec:n] {
		if t.dot {
			return 0
		}
	}
	if dec > 2 || ints > 2 || n == 0 {
		return 0
	}
	var cols GbakColumns
	switch dec {
	case 2:
		cols = ColTime | ColDelta
	case 1:
		cols = ColTime
	}
	switch ints {
	case 2:
		cols |= ColReads | ColWrites
	case 1:
		cols |= ColWrites
	}
	r.cols, r.colsSet, r.guessed = cols, true, true
	r.notice(r.lr.Notice("no statistics header line: read %d leading numbers as the columns %s, guessed from their form", n, cols))
	return n
}

// wrapLimit: counters at or above 2^63 are negative deltas printed as
// unsigned by Firebird 3.0.11, 4.0.4 and 5.0.0 (issue #8027).
const wrapLimit = 1 << 63

func (r *GbakReader) counter(col GbakColumns, t []byte, v *gbakNumber) int64 {
	if v.digits < 19 {
		return v.ip
	}
	what := "reads"
	if col == ColWrites {
		what = "writes"
	}
	u, err := strconv.ParseUint(string(t), 10, 64)
	if err != nil {
		r.notice(r.lr.Notice("%s %s is out of range; read as 0", what, t))
		r.cur.Repaired = true
		return 0
	}
	if u >= wrapLimit {
		v := int64(u) // two's complement: the negative delta gbak meant
		r.cur.Repaired = true
		r.notice(r.lr.Notice("%s %s is a negative delta printed unsigned (Firebird #8027, fixed in 3.0.12/4.0.5/5.0.1); read as %d", what, t, v))
		return v
	}
	return int64(u)
}

// repairDelta replaces a delta that cannot be right (larger than the time
// elapsed since the previous line) by the difference of the time column.
func (r *GbakReader) repairDelta() {
	if r.cur.Has&(ColTime|ColDelta) != ColTime|ColDelta || !r.hasPrev {
		return
	}
	elapsed := r.cur.Time - r.prevTime
	if elapsed >= 0 && r.cur.Delta > elapsed+0.0025 {
		r.notice(r.lr.Notice("delta %.3f s exceeds the %.3f s elapsed since the previous line (wrapped value, Firebird #8027); repaired from the time column", r.cur.Delta, elapsed))
		r.cur.Delta = elapsed
		r.cur.Repaired = true
	}
}
