package view

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/numfmt"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// GstatCSV writes one CSV table (Options.Table) of gstat runs analysed
// table by table (analyze.StreamGstat, with the hooks of Stream), the
// bytes Writer gives for the documents of the whole analyses. The rows of
// the tables, indices and warnings tables go through a sorter that keeps
// a few megabytes of them and writes sorted runs of the rest to a
// temporary file (internal/extsort), so that memory holds no table of the
// run whatever its size; the summary, encryption and problems tables are
// made from what the run's analysis holds at its end.
//
// The indices are ordered by the worst warning of each index, whichever
// block of the run fired it (a table block printed twice): their rows are
// sorted twice, by table and name to find that warning, then in the
// order of the table.
//
// As the documents of Writer, a run is written when the next one ends or
// at Close: the first says whether a source column is needed.
type GstatCSV struct {
	w    io.Writer
	opt  Options
	vopt GstatOptions
	rows string // the table streamed: tables, indices, warnings, or ""
	by   string // the sort key of the tables and indices

	x       *csvWriter
	cur     *gstatCSVRun // the run being read
	pending *gstatCSVRun // the run read, written when the next ends
	n       int          // runs written
	maxHeld int
	// groups tells the index names that differ only in their last
	// number, for the sort.
	groups nameGroups
	// reranked counts the runs whose index rows were read again by table
	// and name (rerankIndices): a table or index printed twice.
	reranked int

	// Written, when set, gets each run's analysis before the run is
	// written (the notices and the --fail-on count).
	Written func(a *analyze.GstatAnalysis)
	// CountsNone says that Written reads no warning count (no
	// --fail-on): the indices table then has only the indices' rules run
	// (analyze.GstatStream.IndexWarningsOnly), which rank its rows; the
	// tables' fire warnings it neither shows nor counts.
	CountsNone bool
}

// gstatCSVRun is the rows of one run, until it is written.
type gstatCSVRun struct {
	a    *analyze.GstatAnalysis
	rows *extsort.Sorter[csvRow]
	gone map[int64]bool // warnings a worse one replaced
	// names holds, for the indices table, a hash of each index's table
	// and name: only when one repeats (a block printed twice) do the rows
	// go through named, by table and name, to be ranked alike
	// (rerankIndices).
	names *extsort.Repeats
	seed  maphash.Seed
	named *extsort.Sorter[csvRow]
	n     int64 // rows added
	// texts are the reference texts of the warnings table's spooled rows
	// (warningCodec).
	texts *extsort.TextRefs
	// sources are the warnings' sources (a threshold's, which every
	// warning of its rule shares) by number, a row's key
	// (warningRows.sourceOf): a row holds and spools the number, not
	// the 200 bytes, and the tail writes each source's field as
	// refFields.source made it once.
	sources  []string
	sourceAt map[string]int64
}

// csvRow is a row of a streamed table with what orders it: the tables
// by rank (1 when the sort key is known) and key, then name; the indices
// by rank (of the worst warning) and key, then name and table; the
// warnings by rank (of the severity) and magnitude, then rule, object
// and table; then by id, the order they came in. line is the row as
// the CSV has it, but for the source column (appendCSVRow); a warning's
// is its head and texts as appendWarningCut makes them (appendWarningRow
// makes the row), and its cut is where its message and advice start and
// end in line; its source is not in line: its key is the source's number
// (gstatCSVRun.sources). A warning read back from the spool has for line
// its row as warningCodec packed it (unpackWarningRow makes the row).
type csvRow struct {
	rank, key int64
	mag       float64
	s         [3]string
	id        int64
	line      string
	cut       [3]int32
	// grp and num, when grp is not 0, tell a table or index row's name from
	// those of its group by its last number (nameGroups); cls, when not
	// 0, from those of other classes of groups of its batch (groupClasses).
	grp, num, cls uint32
}

// csvRowBudget is the bytes of rows a run holds in memory.
var csvRowBudget = 2 << 20

// csvRowCodec spools a row whole, its keys and then its line, to the end
// of the record: what the tests hold warningCodec and tableRowCodec to.
var csvRowCodec = extsort.Codec[csvRow]{
	Append: func(b []byte, r csvRow) []byte {
		return append(appendRowKeys(b, &r), r.line...)
	},
	Decode: decodeRow,
	Size:   csvRowSize,
}

// appendRowKeys appends what orders a row: all but its line.
func appendRowKeys(b []byte, r *csvRow) []byte {
	b = extsort.AppendInt(b, r.rank)
	b = extsort.AppendInt(b, r.key)
	b = extsort.AppendFloat(b, r.mag)
	for _, s := range r.s {
		b = extsort.AppendString(b, s)
	}
	return extsort.AppendInt(b, r.id)
}

// decodeRow reads the keys of appendRowKeys, and for line the bytes
// after them (of the record: valid while it is).
func decodeRow(b []byte) (csvRow, error) {
	var f extsort.Fields
	f.Reset(b)
	r := csvRow{rank: f.Int(), key: f.Int(), mag: f.Float()}
	for i := range r.s {
		r.s[i] = f.Ref()
	}
	r.id = f.Int()
	r.line = f.Rest()
	return r, f.Err()
}

// tableRowCodec spools a row of the tables or indices table (rank,
// key, id, name group and number, name and table; mag and s[2] are not
// spooled, none of those rows has them) and reads it back for the merge
// after the last table, which reads every record of the run on one core.
// The name and table are most often the line's first fields as they are:
// those are spooled as their lengths alone and read back from the line
// (csvRowCodec spooled them whole, a third of a record). The group and
// number spare the merge most of its looks at the names.
var tableRowCodec = extsort.Codec[csvRow]{
	Append:   appendTableRow,
	Decode:   decodeTableRow,
	DecodeTo: decodeTableRowTo,
	Size:     csvRowSize,
}

// tableRowHead is the bytes of a record's fixed part (appendTableRow).
const tableRowHead = 32

// appendTableRow appends r's keys and line (tableRowCodec): its rank,
// key and id as 8 bytes each and its group and number as 4 (little
// endian), then its name and table each as its length times two, plus
// one when the line holds it (the name at its start, the table a byte
// after the name), else followed by its bytes; then the line. The fixed
// part is read back in a few loads (decodeTableRow): as seven varints it
// took some 390 instructions a record, on the merge's one core.
func appendTableRow(b []byte, r csvRow) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(r.rank))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.key))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.id))
	b = binary.LittleEndian.AppendUint32(b, r.grp)
	b = binary.LittleEndian.AppendUint32(b, r.num)
	name, table, line := r.s[0], r.s[1], r.line
	if len(line) >= len(name) && line[:len(name)] == name {
		b = binary.AppendUvarint(b, uint64(len(name))<<1|1)
		if rest := line[len(name):]; len(rest) > len(table) && rest[1:1+len(table)] == table {
			b = binary.AppendUvarint(b, uint64(len(table))<<1|1)
		} else {
			b = binary.AppendUvarint(b, uint64(len(table))<<1)
			b = append(b, table...)
		}
	} else {
		b = binary.AppendUvarint(b, uint64(len(name))<<1)
		b = append(b, name...)
		b = binary.AppendUvarint(b, uint64(len(table))<<1)
		b = append(b, table...)
	}
	return append(b, line...)
}

// decodeTableRow reads a record of appendTableRow; the strings are the
// record's bytes (valid while it is).
func decodeTableRow(b []byte) (csvRow, error) {
	var r csvRow
	err := decodeTableRowTo(b, &r)
	return r, err
}

// decodeTableRowTo is decodeTableRow into *r.
func decodeTableRowTo(b []byte, r *csvRow) error {
	if len(b) < tableRowHead+2 {
		*r = csvRow{}
		return errors.New("a row's record cut short")
	}
	h := b[:tableRowHead]
	*r = csvRow{
		rank: int64(binary.LittleEndian.Uint64(h[0:])),
		key:  int64(binary.LittleEndian.Uint64(h[8:])),
		id:   int64(binary.LittleEndian.Uint64(h[16:])),
		grp:  binary.LittleEndian.Uint32(h[24:]),
		num:  binary.LittleEndian.Uint32(h[28:]),
	}
	if n, t := b[tableRowHead], b[tableRowHead+1]; n < 0x80 && t < 0x80 && n&t&1 == 1 {
		// Both in the line, each length in a byte: most records.
		line := b[tableRowHead+2:]
		r.line = unsafe.String(unsafe.SliceData(line), len(line))
		nl, tl := int(n>>1), int(t>>1)
		if nl+1+tl > len(r.line) { // (appendTableRow's records: never so)
			return errors.New("a row's name or table past its line")
		}
		r.s[0] = r.line[:nl]
		if tl > 0 {
			r.s[1] = r.line[nl+1 : nl+1+tl]
		}
		return nil
	}
	return decodeTableRowSlow(b[tableRowHead:], r)
}

// decodeTableRowSlow reads the name, table and line of a record of
// appendTableRow (rest: after its fixed part, read into r) whose name or
// table is spooled apart from the line or has a length of over a byte.
func decodeTableRowSlow(rest []byte, r *csvRow) error {
	var inLine [2]bool
	var lens [2]int
	for k := range 2 {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n>>1 > uint64(len(rest)) {
			return errors.New("a row's record cut short")
		}
		rest = rest[w:]
		inLine[k], lens[k] = n&1 == 1, int(n>>1)
		if !inLine[k] {
			if lens[k] > len(rest) {
				return errors.New("a row's record cut short")
			}
			r.s[k] = unsafe.String(unsafe.SliceData(rest), lens[k])
			rest = rest[lens[k]:]
		}
	}
	r.line = unsafe.String(unsafe.SliceData(rest), len(rest))
	if inLine[0] {
		if lens[0] > len(r.line) {
			return errors.New("a row's name past its line")
		}
		r.s[0] = r.line[:lens[0]]
	}
	if inLine[1] {
		at := lens[0] + 1
		if !inLine[0] || lens[1] > len(r.line)-at {
			return errors.New("a row's table past its line")
		}
		r.s[1] = r.line[at : at+lens[1]]
	}
	return nil
}

func csvRowSize(r csvRow) int {
	n := 128 + len(r.line)
	for _, s := range r.s {
		n += len(s)
	}
	return n
}

// warningCodec spools the rows of the warnings table: the keys, then a
// row's head (appendWarningCut's) and its message and advice, each told
// from the first of its rule by texts, then its source's number (the
// row's key). They are mostly the words of their rule: spooled whole,
// the rows of a 100 MiB run took four times the bytes (94 MB against
// 24). The numbers of a rule's two reference texts are kept by the
// rule's name (ruleTexts), not looked up in texts for each text.
func warningCodec(texts *extsort.TextRefs) extsort.Codec[csvRow] {
	var rules ruleTexts
	return extsort.Codec[csvRow]{
		Append: func(b []byte, r csvRow) []byte {
			b = appendRowKeys(b, &r)
			b = extsort.AppendString(b, r.line[:r.cut[0]])
			m, a := r.line[r.cut[0]:r.cut[1]], r.line[r.cut[1]:r.cut[2]]
			refs := rules.of(texts, r.s[0], m, a)
			b = texts.AppendTextOf(b, refs[0], m)
			b = texts.AppendTextOf(b, refs[1], a)
			return extsort.AppendInt(b, r.key)
		},
		Decode: decodeRow, // (line: the packed row)
		Size:   csvRowSize,
	}
}

// ruleTexts keeps the numbers of the reference texts of each rule's
// message and advice (extsort.TextRefs.Ref) once both are made: a map
// keyed by a string and a byte took some 150 instructions a look-up, one
// a text. A run's rules are a few dozen, the last eight kept apart: a
// rule's name is most often the string the rule fired with, which ==
// tells by its address before its bytes.
type ruleTexts struct {
	recent [8]ruleText
	next   int
	byName map[string][2]int
}

type ruleText struct {
	rule string
	refs [2]int
	set  bool
}

// of is the numbers of rule's reference texts, m and a (its message and
// advice) making them when there are none yet.
func (t *ruleTexts) of(texts *extsort.TextRefs, rule, m, a string) [2]int {
	for i := range t.recent {
		if r := &t.recent[i]; r.set && r.rule == rule {
			return r.refs
		}
	}
	refs, ok := t.byName[rule]
	if !ok {
		refs = [2]int{texts.Ref(rule, 'm', m), texts.Ref(rule, 'a', a)}
		if refs[0] < 0 || refs[1] < 0 {
			return refs // (none yet for a text too long, or past MaxTextRefs: asked again)
		}
		if t.byName == nil {
			t.byName = map[string][2]int{}
		}
		t.byName[strings.Clone(rule)] = refs
	}
	t.recent[t.next] = ruleText{rule, refs, true}
	t.next = (t.next + 1) % len(t.recent)
	return refs
}

// unpackWarningRow appends the row of a warning read back (packed) from
// the texts refs, whose properties refCSV keeps, and the sources.
func unpackWarningRow(b []byte, packed string, refs, sources []string, refCSV *refFields) ([]byte, error) {
	var f extsort.Fields
	f.Reset(unsafe.Slice(unsafe.StringData(packed), len(packed)))
	b, err := appendWarningHead(b, f.Ref(), &refCSV.figures)
	if err != nil {
		return b, fmt.Errorf("sorting: reading back a warning: %w", err)
	}
	for range 2 {
		t, err := f.ReadText(refs)
		if err != nil {
			return b, fmt.Errorf("sorting: reading back a warning: %w", err)
		}
		b = append(refCSV.appendText(b, t, refs), ',')
	}
	n := f.Int()
	if err := f.Err(); err != nil {
		return b, fmt.Errorf("sorting: reading back a warning: %w", err)
	}
	if n < 0 || n >= int64(len(sources)) {
		return b, fmt.Errorf("sorting: reading back a warning: no source %d", n)
	}
	return append(refCSV.source(b, sources, int(n)), '\n'), nil
}

// refFields writes texts read back (extsort.TextPart) as CSV fields,
// appendCSVText's, from what it knows of their reference texts: a text
// whose reference is printable ASCII is written as its reference's
// prefix, the bytes between and the suffix, the bytes between alone
// looked at; whether it needs quotes is told by where the reference's
// first and last comma or quote are, and its prefix and suffix are
// copied from the reference with its quotes doubled once. Others are
// made whole and go through appendCSVText.
type refFields struct {
	refs    []refField
	buf     []byte
	figures [2]warningFigure // the value's and the threshold's
	// sources are the CSV fields of the warnings' sources by number,
	// made as they are first needed.
	sources [][]byte
}

// source appends the field of sources[n], made once.
func (c *refFields) source(b []byte, sources []string, n int) []byte {
	for len(c.sources) <= n {
		c.sources = append(c.sources, appendCSVText(nil, sources[len(c.sources)]))
	}
	return append(b, c.sources[n]...)
}

// refField is what refFields knows of a reference text.
type refField struct {
	plain       bool // every byte printable ASCII
	first, last int  // the first and last comma or quote (len and -1: none)
	// quotes are where its quotes are, doubled the text with each
	// doubled (a source that quotes its document: the prefix of a text,
	// most often the reference whole, copied from there).
	quotes  []int
	doubled string
}

// prefix is the reference's first p bytes, quotes doubled.
func (f *refField) prefix(p int) string {
	k := 0
	for k < len(f.quotes) && f.quotes[k] < p {
		k++
	}
	return f.doubled[:p+k]
}

// suffix is the reference's last q bytes (of n), quotes doubled.
func (f *refField) suffix(n, q int) string {
	k := 0
	for k < len(f.quotes) && f.quotes[len(f.quotes)-1-k] >= n-q {
		k++
	}
	return f.doubled[len(f.doubled)-q-k:]
}

// of is what is known of refs[n], learnt on the way.
func (c *refFields) of(refs []string, n int) *refField {
	for len(c.refs) <= n {
		s := refs[len(c.refs)]
		f := refField{plain: true, first: len(s), last: -1}
		for i := 0; i < len(s); i++ {
			switch ch := s[i]; {
			case ch < 0x20 || ch >= 0x7f:
				f.plain = false
			case ch == ',' || ch == '"':
				f.first, f.last = min(f.first, i), i
				if ch == '"' {
					f.quotes = append(f.quotes, i)
				}
			}
		}
		if f.quotes != nil {
			f.doubled = string(appendQuotesDoubled(nil, s))
		}
		c.refs = append(c.refs, f)
	}
	return &c.refs[n]
}

// textBytes tells, for each byte, what appendText needs to know of it:
// not printable ASCII (1), a comma or quote (2), a quote (4).
var textBytes = func() (t [256]byte) {
	for i := range t {
		if i < 0x20 || i >= 0x7f {
			t[i] = 1
		}
	}
	t[','], t['"'] = 2, 2|4
	return t
}()

// appendText appends t, a text of refs read back, as appendCSVText
// writes it whole.
func (c *refFields) appendText(b []byte, t extsort.TextPart, refs []string) []byte {
	if t.Ref < 0 {
		return appendCSVText(b, t.Mid)
	}
	ref := refs[t.Ref]
	f := c.of(refs, t.Ref)
	pre, suf := ref[:t.P], ref[len(ref)-t.Q:]
	var mid byte
	for i := 0; i < len(t.Mid); i++ {
		mid |= textBytes[t.Mid[i]]
	}
	n := len(pre) + len(t.Mid) + len(suf)
	if !f.plain || mid&1 != 0 || n < 3 { // (n: not \.)
		c.buf = t.Append(c.buf[:0], refs)
		return appendCSVText(b, unsafe.String(unsafe.SliceData(c.buf), len(c.buf)))
	}
	var first byte
	switch {
	case len(pre) > 0:
		first = pre[0]
	case len(t.Mid) > 0:
		first = t.Mid[0]
	default:
		first = suf[0]
	}
	formula := startsFormula(first)
	if !(mid&2 != 0 || f.first < t.P || f.last >= len(ref)-t.Q || !formula && first == ' ') {
		if formula {
			b = append(b, '\'')
		}
		b = append(b, pre...)
		b = append(b, t.Mid...)
		return append(b, suf...)
	}
	b = append(b, '"')
	if formula {
		b = append(b, '\'')
	}
	if f.quotes != nil || mid&4 != 0 {
		if f.quotes != nil {
			b = append(b, f.prefix(t.P)...)
		} else {
			b = append(b, pre...)
		}
		b = appendQuotesDoubled(b, t.Mid)
		if f.quotes != nil {
			b = append(b, f.suffix(len(ref), t.Q)...)
		} else {
			b = append(b, suf...)
		}
	} else {
		b = append(b, pre...)
		b = append(b, t.Mid...)
		b = append(b, suf...)
	}
	return append(b, '"')
}

// cmpTableRows orders the rows of the tables and indices tables.
func cmpTableRows(a, b *csvRow) int {
	if c := cmp.Compare(b.rank, a.rank); c != 0 {
		return c
	}
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	if a.grp == b.grp {
		if a.grp != 0 && a.num != b.num {
			return cmp.Compare(a.num, b.num) // (as byName: nameGroups)
		}
	} else if a.cls != b.cls && a.cls != 0 && b.cls != 0 {
		return cmp.Compare(a.cls, b.cls) // (as byName: groupClasses)
	}
	if c := byName(a.s[0], b.s[0]); c != 0 {
		return c
	}
	if c := byName(a.s[1], b.s[1]); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// cmpIndexNames orders index rows by table and name.
func cmpIndexNames(a, b *csvRow) int {
	if c := cmp.Compare(a.s[1], b.s[1]); c != 0 {
		return c
	}
	if c := cmp.Compare(a.s[0], b.s[0]); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

func compareWarningRows(a, b csvRow) int { return cmpWarningRows(&a, &b) }

// cmpWarningRows is compareWarningRows on pointers, for a sort
// (extsort.KeySort) that compares rows of a hundred bytes in place.
func cmpWarningRows(a, b *csvRow) int {
	if c := cmp.Compare(b.rank, a.rank); c != 0 {
		return c
	}
	if c := cmp.Compare(b.mag, a.mag); c != 0 {
		return c
	}
	for i := range a.s {
		if c := cmp.Compare(a.s[i], b.s[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.id, b.id)
}

// newCSVSorter sorts rows by cmp, whose last key is the id: no two rows
// of a run compare equal, so that a sort that is not stable (faster)
// gives the order of a stable one.
func newCSVSorter(cmpP func(a, b *csvRow) int, codec extsort.Codec[csvRow]) *extsort.Sorter[csvRow] {
	cmp := func(a, b csvRow) int { return cmpP(&a, &b) }
	return extsort.New(cmp, codec, csvRowBudget).SortWith(func(rows []csvRow) { sort.Sort(rowSort{rows, cmpP}) }).CompareWith(cmpP)
}

// rowSort sorts rows by cmp, comparing them in place: slices.SortFunc
// passes the two rows of each comparison by value, 224 bytes.
type rowSort struct {
	rows []csvRow
	cmp  func(a, b *csvRow) int
}

func (s rowSort) Len() int           { return len(s.rows) }
func (s rowSort) Less(i, j int) bool { return s.cmp(&s.rows[i], &s.rows[j]) < 0 }
func (s rowSort) Swap(i, j int)      { s.rows[i], s.rows[j] = s.rows[j], s.rows[i] }

// newIndexSorter is newCSVSorter for the tables and indices tables, whose
// batches are sorted by indexBatch.
func newIndexSorter() *extsort.Sorter[csvRow] {
	cmp := func(a, b csvRow) int { return cmpTableRows(&a, &b) }
	return extsort.New(cmp, tableRowCodec, csvRowBudget).SortWith(newIndexBatch().sort).CompareWith(cmpTableRows)
}

// indexBatch sorts a batch of table or index rows as cmpTableRows orders
// them, with their names' groups in classes (groupClasses): by rank and
// key as a number (tableRowKey), then by class and number as another
// (groupClasses.tie). The indices of the benchmark output tie by the
// thousand on their rank and size; sorted by cmpTableRows alone, their
// batches took a tenth of the run of the indices table.
type indexBatch struct {
	classes groupClasses
	keys    extsort.KeySort[csvRow]
}

func newIndexBatch() *indexBatch {
	b := &indexBatch{}
	b.keys = extsort.KeySort[csvRow]{Key: tableRowKey, Tie: b.classes.tie, Free: tableRowFree, Cmp: cmpTableRows}
	return b
}

func (b *indexBatch) sort(rows []csvRow) {
	b.classes.mark(rows)
	b.keys.Sort(rows)
}

// tableRowKey holds a row's key whole from 0 to tableRowMaxKey (a size of
// 64 TiB, a count of 70 thousand billion) above its tableRowFree low
// bits, which it leaves to a row's place in its batch
// (extsort.KeySort.Free): a batch of rows of 120 bytes and more in
// csvRowBudget has far fewer than 2¹⁶.
const (
	tableRowFree   = 16
	tableRowMaxKey = 1<<(62-tableRowFree) - 1
)

// tableRowKey orders as the first two keys of cmpTableRows: the rank
// from 3 down, then the key from the biggest down, above its
// tableRowFree low bits. A key out of 0 to tableRowMaxKey is held as
// that end of it, a rank out of 0 to 3 as extsort.RankKey holds it:
// tableRowKeyWhole is false for those rows.
func tableRowKey(r *csvRow) uint64 {
	if r.rank < 0 || r.rank > 3 {
		return extsort.RankKey(r.rank, 0)
	}
	k := uint64(tableRowMaxKey - min(max(r.key, 0), tableRowMaxKey))
	return uint64(3-r.rank)<<62 | k<<tableRowFree
}

// tableRowKeyWhole says that tableRowKey(r) holds r's rank and key whole:
// two such rows whose keys are equal above their tableRowFree low bits
// tie on both.
func tableRowKeyWhole(r *csvRow) bool {
	return r.rank >= 0 && r.rank <= 3 && r.key >= 0 && r.key <= tableRowMaxKey
}

// newWarningSorter is newCSVSorter for the warnings table, whose batches
// are sorted by severity and magnitude as a number first. (Table and
// index rows tie by the thousand on their size in the benchmark output,
// told apart by their names in natural order: a key saved 7 % of their
// sort, under 1 % of a run.)
func newWarningSorter(codec extsort.Codec[csvRow]) *extsort.Sorter[csvRow] {
	ks := &extsort.KeySort[csvRow]{Key: warningRowKey, Cmp: cmpWarningRows}
	return extsort.New(compareWarningRows, codec, csvRowBudget).SortWith(ks.Sort).CompareWith(cmpWarningRows)
}

// warningRowKey orders as the first two keys of compareWarningRows.
func warningRowKey(r *csvRow) uint64 { return extsort.RankKey(r.rank, extsort.DescFloat(r.mag)) }

// NewGstatCSV writes the table opt.Table of gstat runs on w; vopt.Sort
// orders the tables and indices.
func NewGstatCSV(w io.Writer, opt Options, vopt GstatOptions) *GstatCSV {
	g := &GstatCSV{w: w, opt: opt, vopt: vopt, by: cmp.Or(vopt.Sort, "size")}
	switch opt.Table {
	case "", "tables":
		g.rows = "tables"
	case "indices", "warnings":
		g.rows = opt.Table
	}
	return g
}

// Stream is what analyze.StreamGstat calls as it reads an input: the
// warnings table's rows go to a sink that spools them; the other tables
// show no warning, which are only counted.
func (g *GstatCSV) Stream() analyze.GstatStream {
	s := analyze.GstatStream{
		Prepare: func(t *analyze.TableStats) any { return g.prepare(t) },
		Table:   g.table,
		Run:     func(a *analyze.GstatAnalysis, _ *parse.GstatReport) error { return g.run(a) },
	}
	if g.rows == "warnings" {
		s.Sink = g.sink
		s.EncodeWarning = appendWarningCut // (on the workers)
	} else {
		s.CountWarnings = true
		s.IndexWarningsOnly = g.rows == "indices" && g.CountsNone
	}
	return s
}

// MaxHeld is the most rows a run held in memory at once.
func (g *GstatCSV) MaxHeld() int {
	n := g.maxHeld
	for _, r := range []*gstatCSVRun{g.cur, g.pending} {
		if r != nil {
			n = max(n, r.maxHeld())
		}
	}
	return n
}

func (r *gstatCSVRun) maxHeld() int {
	n := r.rows.MaxHeld()
	if r.named != nil {
		n = max(n, r.named.MaxHeld())
	}
	return n
}

// runOf is the run a belongs to, started when a is new.
func (g *GstatCSV) runOf(a *analyze.GstatAnalysis) *gstatCSVRun {
	if g.cur == nil || g.cur.a != a {
		g.cur = &gstatCSVRun{a: a}
		switch g.rows {
		case "warnings":
			g.cur.texts = new(extsort.TextRefs)
			g.cur.rows = newWarningSorter(warningCodec(g.cur.texts))
		case "indices":
			g.cur.rows = newIndexSorter()
		default:
			// (tables tie on size as indices do, one-page ones most)
			g.cur.rows = newIndexSorter()
		}
		if g.rows == "indices" {
			g.cur.names = newHashes(csvRowBudget / 8)
			g.cur.seed = maphash.MakeSeed()
		}
	}
	return g.cur
}

func (g *GstatCSV) sink(a *analyze.GstatAnalysis) analyze.WarningSink {
	return (*warningRows)(g.runOf(a))
}

// warningRows spools a run's warnings as rows of the warnings table.
type warningRows gstatCSVRun

func (r *warningRows) Put(id int, w analyze.Warning) error {
	return r.PutEncoded(id, w, appendWarningCut(nil, &w))
}

// PutEncoded spools warning w with its row and cut, made by
// appendWarningCut: the row up to its source, and for key the source's
// number (sourceOf).
func (r *warningRows) PutEncoded(id int, w analyze.Warning, enc []byte) error {
	n := len(enc) - warningCut
	if n < 0 {
		return fmt.Errorf("warning %s on %s: no row", w.Rule, w.Object)
	}
	x := csvRow{rank: int64(w.Severity.Rank()), mag: w.Magnitude, s: [3]string{w.Rule, w.Object, w.Table},
		id: int64(id), key: r.sourceOf(w.Source)}
	for i := range x.cut {
		x.cut[i] = int32(binary.LittleEndian.Uint32(enc[n+4*i:]))
	}
	x.line = r.rows.Hold(enc[:n])
	return r.rows.Add(x)
}

// sourceOf is the number of source among the run's sources, numbered as
// they come. A run's sources are its thresholds' (a few dozen, each one
// string that == tells by its address): looked at in turn, then in a map.
func (r *warningRows) sourceOf(source string) int64 {
	if len(r.sources) <= 16 {
		for i, s := range r.sources {
			if s == source {
				return int64(i)
			}
		}
	} else if n, ok := r.sourceAt[source]; ok {
		return n
	}
	n := int64(len(r.sources))
	r.sources = append(r.sources, source)
	if len(r.sources) > 16 {
		if r.sourceAt == nil {
			r.sourceAt = make(map[string]int64, 2*len(r.sources))
			for i, s := range r.sources {
				r.sourceAt[s] = int64(i)
			}
		}
		r.sourceAt[source] = n
	}
	return n
}

// warningCut is the bytes of a row's cut after the row (appendWarningCut).
const warningCut = 12

// firstText is the column of the findings' message, followed by their
// advice and source: the texts warningCodec tells from their rule's.
const firstText = 6

// appendWarningCut appends w's row of the warnings table (appendCSVRow's
// of findingCells(GstatFinding(*w))) as the tail writes it
// (appendWarningHead, appendWarningRow, unpackWarningRow) but for its
// source, which the run numbers (warningRows.sourceOf): the head, then
// the message and advice as they are, then the cut, where the message
// and the advice start and where the advice ends (three little-endian
// uint32s). The head is the value and threshold (their float64 bits),
// whether they are bytes, the length of the fields before them, those
// fields (severity, rule, object) and the unit's, each with its comma. The fields are written
// from w's fields, with no Finding nor cells between: a big run's
// warnings made a string of each object's name ("index IX on T") and
// nine cells a row. The figures are written with the row: in the order
// of the sort, most are the row before's (warningFigure). The texts are
// written as CSV fields with the row too: most of their bytes are their
// rule's reference text's, whose bytes are looked at once (warningTail).
func appendWarningCut(b []byte, w *analyze.Warning) []byte {
	start := len(b)
	le := binary.LittleEndian
	b = le.AppendUint64(b, math.Float64bits(w.Value))
	b = le.AppendUint64(b, math.Float64bits(w.Threshold))
	if w.Unit == "bytes" {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = append(b, 0, 0, 0, 0)
	at := len(b)
	b = appendCSVText(b, string(w.Severity))
	b = append(b, ',')
	b = appendCSVText(b, w.Rule)
	b = append(b, ',')
	b = appendWarningObject(b, w)
	b = append(b, ',')
	le.PutUint32(b[at-4:], uint32(len(b)-at))
	b = appendCSVText(b, w.Unit) // (csvUnit: a warning's unit is its MachineUnit)
	b = append(b, ',')
	var cut [3]uint32
	for i, s := range [2]string{w.Reason, w.Advice} {
		cut[i] = uint32(len(b) - start)
		b = append(b, s...)
	}
	cut[2] = uint32(len(b) - start)
	for _, c := range cut {
		b = le.AppendUint32(b, c)
	}
	return b
}

// warningFigures is the bytes of a warning's head before its fields
// (appendWarningCut).
const warningFigures = 21

// appendWarningHead appends the fields of the head of a warning's row
// (appendWarningCut's) up to its message, the figures through memo (nil:
// none).
func appendWarningHead(b []byte, head string, memo *[2]warningFigure) ([]byte, error) {
	if len(head) < warningFigures {
		return b, errors.New("a warning's row cut short")
	}
	le := binary.LittleEndian
	h := unsafe.Slice(unsafe.StringData(head), len(head))
	v, th := math.Float64frombits(le.Uint64(h)), math.Float64frombits(le.Uint64(h[8:]))
	bytes := h[16] == 1
	n := int(le.Uint32(h[17:]))
	if n > len(head)-warningFigures {
		return b, errors.New("a warning's row cut short")
	}
	fields := head[warningFigures:]
	b = append(b, fields[:n]...)
	if memo == nil {
		memo = new([2]warningFigure)
	}
	b = memo[0].append(b, v, bytes)
	b = append(b, ',')
	b = memo[1].append(b, th, bytes)
	b = append(b, ',')
	return append(b, fields[n:]...), nil
}

// warningFigure is the field of the last figure it wrote: in the order of
// the sort, most warnings have the value and threshold of the one before
// (a value such as 0.09090909090909091 took 300 instructions).
type warningFigure struct {
	bits  uint64
	bytes bool
	set   bool
	field []byte
}

// append appends the field of v (appendWarningFigure's), bytes when in
// bytes.
func (m *warningFigure) append(b []byte, v float64, bytes bool) []byte {
	if u := math.Float64bits(v); !m.set || u != m.bits || bytes != m.bytes {
		unit := ""
		if bytes {
			unit = "bytes"
		}
		m.field = appendWarningFigure(m.field[:0], v, unit)
		m.bits, m.bytes, m.set = u, bytes, true
	}
	return append(b, m.field...)
}

// appendWarningRow appends the row of the warnings table of x, a row of
// appendWarningCut held in memory, whose source is source.
func appendWarningRow(b []byte, x *csvRow, source string, memo *[2]warningFigure) ([]byte, error) {
	b, err := appendWarningHead(b, x.line[:x.cut[0]], memo)
	b = appendCSVText(b, x.line[x.cut[0]:x.cut[1]])
	b = append(b, ',')
	b = appendCSVText(b, x.line[x.cut[1]:x.cut[2]])
	b = append(b, ',')
	b = appendCSVText(b, source)
	return append(b, '\n'), err
}

// appendWarningObject appends the object field of w's row: GstatFinding's
// "index IX on T", made in a buffer on the stack.
func appendWarningObject(b []byte, w *analyze.Warning) []byte {
	var buf [128]byte
	o := buf[:0]
	if w.Kind != w.Object {
		o = append(append(o, w.Kind...), ' ')
	}
	o = append(o, w.Object...)
	if w.Table != "" {
		o = append(append(o, " on "...), w.Table...)
	}
	return appendCSVText(b, unsafe.String(unsafe.SliceData(o), len(o)))
}

// appendWarningFigure appends a value or threshold of a warning in unit,
// as appendCSVCell writes GstatFinding's cell of it: bytes as a count,
// other figures plain, none for NaN or an infinity.
func appendWarningFigure(b []byte, v float64, unit string) []byte {
	switch {
	case unit == "bytes":
		return numfmt.AppendInt(b, int64(v))
	case bad(v):
		return b
	}
	return appendPlain(b, v)
}

func (r *warningRows) Drop(id int) error {
	if r.gone == nil {
		r.gone = map[int64]bool{}
	}
	r.gone[int64(id)] = true
	return nil
}

// csvPrep is the rows of a table in the table streamed, made on the
// worker that evaluated it: the table's (tables) or its indices' (ixs),
// each with its sort key.
type csvPrep struct {
	line string
	key  int64
	ok   bool
	ixs  []csvIndexPrep
	// held is ixs's room while the table has four indices or fewer (most
	// have one to four): the rows come with the csvPrep, not apart.
	held [4]csvIndexPrep
}

type csvIndexPrep struct {
	line string
	key  int64
}

// prepare makes the rows of table t in the table streamed.
func (g *GstatCSV) prepare(t *analyze.TableStats) *csvPrep {
	switch g.rows {
	case "tables":
		var room [256]byte // (made on the stack while it fits, then copied once)
		p := &csvPrep{line: string(appendTableCSVRow(room[:0], t))}
		p.key, p.ok = tableKey(g.by, t)
		return p
	case "indices":
		p := &csvPrep{}
		p.ixs = g.indexRows(p.held[:0], t.Indices)
		return p
	}
	return nil
}

// indexRows appends to rows the rows of the indices ixs. Their lines are
// made in a buffer on the stack while they fit, then copied into one
// string, which is all indexRows allocates when rows has room for them.
// The buffer holds some five rows (most tables have one to four
// indices): Go clears it on each call, and 2 KiB took 260 instructions a
// table.
func (g *GstatCSV) indexRows(rows []csvIndexPrep, ixs []analyze.IndexStats) []csvIndexPrep {
	var room [512]byte
	var endsRoom [8]int
	b, ends := room[:0], endsRoom[:0]
	for i := range ixs {
		b = appendIndexCSVRow(b, &ixs[i])
		ends = append(ends, len(b))
	}
	all := string(b)
	from := 0
	rows = slices.Grow(rows, len(ixs))
	for i := range ixs {
		rows = append(rows, csvIndexPrep{line: all[from:ends[i]], key: indexKey(g.by, &ixs[i])})
		from = ends[i]
	}
	return rows
}

// appendIndexCSVRow appends the CSV row of index ix: the line
// appendCSVRow writes of its cells (appendIndexCells) for the columns
// gstatIndexColumns, written without the cells (11 of 72 bytes) and
// without the kind's short name, which only people's tables show.
func appendIndexCSVRow(b []byte, ix *analyze.IndexStats) []byte {
	b = appendCSVText(b, ix.QualifiedName())
	b = append(b, ',')
	b = appendCSVText(b, ix.QualifiedTable())
	b = append(b, ',')
	switch ix.Kind { // (analyze's words need no quotes: no scan)
	case analyze.IndexPrimaryKey, analyze.IndexForeignKey, analyze.IndexUnique, analyze.IndexPlain, analyze.IndexSystem, analyze.IndexUnknown:
		b = append(b, ix.Kind...)
	default:
		b = appendCSVText(b, ix.Kind)
	}
	b = append(b, ',')
	b = appendCSVIntP(b, ix.Depth)
	b = append(b, ',')
	b = appendCSVIntP(b, ix.LeafBuckets)
	b = append(b, ',')
	b = appendCSVIntP(b, ix.Nodes)
	b = append(b, ',')
	b = appendCSVFloatP(b, ix.Selectivity)
	b = append(b, ',')
	b = appendCSVFloatP(b, ix.DupRatio)
	b = append(b, ',')
	b = appendCSVIntP(b, ix.MaxDup)
	b = append(b, ',')
	b = appendCSVIntP(b, ix.SizeBytes)
	return append(b, '\n')
}

// appendTableCSVRow appends the CSV row of table t: the line appendCSVRow
// writes of its cells (appendTableCells) for the columns
// gstatTableColumns, written without the cells (10 of 72 bytes).
func appendTableCSVRow(b []byte, t *analyze.TableStats) []byte {
	b = appendCSVText(b, t.QualifiedName())
	b = append(b, ',')
	b = appendCSVIntP(b, t.Records)
	b = append(b, ',')
	b = appendCSVIntP(b, t.Versions)
	b = append(b, ',')
	b = appendCSVFloatP(b, t.VersionsPerRecord)
	b = append(b, ',')
	b = appendCSVIntP(b, t.MaxVersions)
	b = append(b, ',')
	b = appendCSVFloatP(b, t.FragmentsPerRecord)
	b = append(b, ',')
	b = appendCSVIntP(b, t.DataPages)
	b = append(b, ',')
	if t.AverageFill != nil {
		b = appendPlain(b, float64(*t.AverageFill)/100) // (as Percent)
	}
	b = append(b, ',')
	b = appendCSVIntP(b, t.SizeBytes)
	b = append(b, ',')
	b = appendCSVIntP(b, t.IndexBytes)
	return append(b, '\n')
}

// appendCSVIntP appends the field of a count or size cell (appendCSVCell):
// empty for nil.
func appendCSVIntP(b []byte, p *int64) []byte {
	if p == nil {
		return b
	}
	return numfmt.AppendInt(b, *p)
}

// appendCSVFloatP appends the field of a figure or share cell
// (appendCSVCell): empty for nil, NaN and the infinities.
func appendCSVFloatP(b []byte, p *float64) []byte {
	if p == nil || bad(*p) {
		return b
	}
	return appendPlain(b, *p)
}

// table takes one analysed table of run a.
func (g *GstatCSV) table(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
	r := g.runOf(a)
	p := a.Prepared().(*csvPrep) // (Stream's Prepare made it on a worker)
	switch g.rows {
	case "tables":
		rank := int64(0)
		if p.ok {
			rank = 1
		}
		r.n++
		name := t.QualifiedName()
		grp, num := g.groups.of(name)
		return r.rows.Add(csvRow{rank: rank, key: p.key, s: [3]string{name}, id: r.n, line: p.line, grp: grp, num: num})
	case "indices":
		return g.indices(r, t.Indices, p.ixs, a.TableWarnings())
	}
	return nil
}

// indices adds the rows of indices ixs, made by indexRows, each ranked
// by the worst of the warnings fired on it.
func (g *GstatCSV) indices(r *gstatCSVRun, ixs []analyze.IndexStats, rows []csvIndexPrep, fired []analyze.Warning) error {
	ranks := newIndexRanks(fired, 8)
	for i := range ixs {
		ix := &ixs[i]
		name := ix.QualifiedName()
		rank := ranks.of([2]string{ix.QualifiedTable(), name})
		r.n++
		grp, num := g.groups.of(name)
		if err := r.rows.Add(csvRow{rank: int64(rank), key: rows[i].key, s: [3]string{name, ix.QualifiedTable()}, id: r.n, line: rows[i].line, grp: grp, num: num}); err != nil {
			return err
		}
		var h maphash.Hash
		h.SetSeed(r.seed)
		h.WriteString(ix.QualifiedTable())
		h.WriteByte(0)
		h.WriteString(ix.QualifiedName())
		if err := r.names.Add(h.Sum64(), nil); err != nil {
			return err
		}
	}
	return nil
}

// rerankIndices, when an index's table and name came twice (their hashes
// repeat, or two hashes collide), reads the rows again by table and name
// to rank each as the worst of its copies (rankIndices). Without a
// repeat, each row keeps its own rank: the rows are sorted already.
func (r *gstatCSVRun) rerankIndices() (again bool, err error) {
	if repeat, err := hashRepeats(r.names); !repeat {
		return false, err
	}
	r.named = newCSVSorter(cmpIndexNames, tableRowCodec)
	err = r.rows.Each(func(x csvRow) error {
		x.s = [3]string{strings.Clone(x.s[0]), strings.Clone(x.s[1]), strings.Clone(x.s[2])}
		x.line = strings.Clone(x.line) // (the record is the sorter's until this returns)
		return r.named.Add(x)
	})
	if err != nil {
		return true, err
	}
	r.rows = newIndexSorter()
	return true, r.rankIndices()
}

// rankIndices ranks each index row by the worst warning of the rows of
// its table and name (worstIndexWarnings), and sorts them for the table.
func (r *gstatCSVRun) rankIndices() error {
	var same []csvRow // the rows of one table and name
	flush := func() error {
		worst := int64(0)
		for _, x := range same {
			worst = max(worst, x.rank)
		}
		for _, x := range same {
			x.rank = worst
			if err := r.rows.Add(x); err != nil {
				return err
			}
		}
		same = same[:0]
		return nil
	}
	err := r.named.Each(func(x csvRow) error {
		if len(same) > 0 && (x.s != same[0].s) {
			if err := flush(); err != nil {
				return err
			}
		}
		x.s = [3]string{strings.Clone(x.s[0]), strings.Clone(x.s[1]), strings.Clone(x.s[2])}
		x.line = strings.Clone(x.line)
		same = append(same, x) // (a copy: the record is the sorter's until this returns)
		return nil
	})
	if err == nil {
		err = flush()
	}
	return err
}

// run ends run a: the run before it is written.
func (g *GstatCSV) run(a *analyze.GstatAnalysis) error {
	r := g.runOf(a)
	if g.rows == "indices" {
		ixs := a.UnattachedIndices
		if err := g.indices(r, ixs, g.indexRows(nil, ixs), a.UnattachedWarnings()); err != nil {
			return err
		}
		// The last batch sorted and spilled on the sorter's goroutine
		// while this one looks for a block printed twice.
		if err := r.rows.Flush(); err != nil {
			return err
		}
		again, err := r.rerankIndices()
		if err != nil {
			return err
		}
		if again {
			g.reranked++
		}
	}
	g.cur = nil
	var err error
	if g.pending != nil {
		err = g.write(g.pending, true)
	}
	g.pending = r
	return err
}

// Close writes the last run.
func (g *GstatCSV) Close() error {
	if g.pending == nil {
		return nil
	}
	err := g.write(g.pending, g.n > 0)
	g.pending = nil
	return err
}

// Abort drops the runs not written (an error stopped the reading).
func (g *GstatCSV) Abort() {
	for _, r := range []*gstatCSVRun{g.cur, g.pending} {
		if r != nil {
			r.rows.Close()
			if r.named != nil {
				r.named.Close()
			}
			if r.names != nil {
				r.names.Close()
			}
		}
	}
	g.cur, g.pending = nil, nil
}

// write writes one run; several says whether it is one of several.
func (g *GstatCSV) write(r *gstatCSVRun, several bool) error {
	defer r.rows.Close()
	g.maxHeld = max(g.maxHeld, r.maxHeld())
	if g.Written != nil {
		g.Written(r.a)
	}
	vopt := g.vopt
	vopt.Several = several
	d := Gstat(r.a, vopt) // (the run's end: no tables, no warnings)
	g.n++
	if g.x == nil {
		opt := g.opt
		opt.Source = several
		// The streamed rows go past the terminal's guard: it scanned the
		// 100 MB of warnings' rows of 100 MiB of gstat output.
		raw := g.w
		if pw, ok := raw.(*printable.Writer); ok {
			raw = pw.Unguarded()
		}
		g.x = &csvWriter{w: csv.NewWriter(g.w), opt: opt, raw: raw}
	}
	t, err := csvTable(d, g.opt.Table)
	if err != nil || g.rows == "" {
		return g.x.write(d)
	}
	return g.x.writeLines(d, t, func(line func(string) error) error {
		// The rows read back from the temporary file are written on a
		// goroutine of their own while the merge reads on.
		var tail *extsort.Tail
		var buf []byte
		var figures [2]warningFigure
		err := r.rows.EachRaw(func(x csvRow, raw []byte) error {
			if g.rows == "warnings" && r.gone[x.id] { // (no map look-up a row for the others)
				return nil // (replaced by a worse one)
			}
			if raw == nil { // (held in memory: none was spooled)
				if tail != nil { // (EachRaw passes bytes for all or none)
					return errors.New("a row held in memory after spooled ones")
				}
				if r.texts != nil { // (a warning's head and texts as they are)
					var err error
					if x.key < 0 || x.key >= int64(len(r.sources)) {
						return fmt.Errorf("warning %d: no source %d", x.id, x.key)
					}
					if buf, err = appendWarningRow(buf[:0], &x, r.sources[x.key], &figures); err != nil {
						return err
					}
					return line(unsafe.String(unsafe.SliceData(buf), len(buf)))
				}
				return line(x.line)
			}
			if tail == nil {
				if r.texts == nil && !g.x.opt.Source {
					// The lines as they are, a batch of them a call.
					tail = extsort.NewBatchTail(csvTailBatch, func(recs []byte) error {
						return line(unsafe.String(unsafe.SliceData(recs), len(recs)))
					})
				} else {
					tail = extsort.NewTail(csvTailBatch, r.writeSpooled(line))
				}
			}
			return tail.Add(unsafe.Slice(unsafe.StringData(x.line), len(x.line)))
		})
		if tail != nil {
			if terr := tail.Close(); err == nil || errors.Is(err, extsort.ErrTailFailed) {
				err = terr
			}
		}
		return err
	})
}

// csvTailBatch is the bytes of rows read back that the merge hands to the
// goroutine that writes them at once (a variable for the tests).
var csvTailBatch = 256 << 10

// writeSpooled writes the line of a row read back from the run's
// temporary file, a warning's as unpackWarningRow makes it of its packed
// one.
func (r *gstatCSVRun) writeSpooled(line func(string) error) func(rec []byte) error {
	var buf []byte
	var refCSV refFields
	return func(rec []byte) error {
		s := unsafe.String(unsafe.SliceData(rec), len(rec))
		if r.texts == nil {
			return line(s)
		}
		var err error
		if buf, err = unpackWarningRow(buf[:0], s, r.texts.Refs(), r.sources, &refCSV); err != nil {
			return err
		}
		return line(unsafe.String(unsafe.SliceData(buf), len(buf)))
	}
}

// nameGroups numbers the groups of table or index names that share their bytes
// before their last run of digits (units.LastNumber): the copies of a
// replicated table's indices, "RDB$INDEX_15_00017" and
// "RDB$INDEX_15_00018". Two rows of one group that tie on rank and size
// are ordered by that run's value when it differs, as units.Compare
// orders their names, with no look at the names: the indices of the
// benchmark output tie on their size by the thousand, mostly within a
// group. A group is remembered in one of two slots of a small table chosen
// by a hash of its bytes; a group that takes another's slot is numbered anew,
// so a number is of one group only and two rows of one group may have
// two numbers (then their names are compared).
type nameGroups struct {
	seed  maphash.Seed
	slots []nameGroup
	n     uint32 // groups numbered
}

type nameGroup struct {
	head string // the names' bytes before their last number
	grp  uint32
}

// nameGroupSlots is the groups remembered at once, a power of two (a
// variable for the tests).
var nameGroupSlots = 1024

// of is the group of name (0: none) and its last number; a name whose
// last number is over 2³² - 1 (the rows take 120 bytes, not 128) is of
// none.
func (g *nameGroups) of(name string) (grp, num uint32) {
	from, _, v, ok := units.LastNumber(name)
	if !ok || v > math.MaxUint32 {
		return 0, 0
	}
	if g.slots == nil {
		g.slots = make([]nameGroup, nameGroupSlots)
		g.seed = maphash.MakeSeed()
	}
	head := name[:from]
	h := maphash.String(g.seed, head)
	mask := uint64(len(g.slots) - 1)
	s, t := &g.slots[h&mask], &g.slots[h>>32&mask] // (two places: few groups take each other's)
	switch {
	case s.grp != 0 && s.head == head:
	case t.grp != 0 && t.head == head:
		s = t
	default:
		if g.n == math.MaxUint32 {
			return 0, 0
		}
		if t.grp < s.grp { // (the older group goes)
			s = t
		}
		g.n++
		*s = nameGroup{head: head, grp: g.n}
	}
	return s.grp, uint32(v)
}

// groupClasses puts the name groups (nameGroups) of a batch of index rows
// in classes, numbered in the order of their names: every name of a class
// comes before every name of the next (units.Compare), so that rows of
// two classes that tie on rank and size are ordered by their classes, with
// no look at their names. A group's names are its bytes before their last
// number (its head), then that number, then the rest: the names of two
// groups compare as their heads do when the heads part before either ends
// (at the first level of units.Compare: their text's lower case, the
// values of their numbers), whatever their numbers. A group whose head
// starts another's (at that level: "IX_" and "IX_1_", "ix_") shares its
// class, and so do the groups in between in the order of heads; a head
// with bytes that are not ASCII, or a number of over 19 digits, is in no
// class (0).
type groupClasses struct {
	// seen remembers where in heads the groups met last are: a group
	// met again after its slot was taken is given a second place, whose
	// head is the same and so in the same class.
	seen  [1024]struct{ grp, place uint32 }
	gen   uint32 // heads met: a place of seen is of this batch when above its first
	heads []groupHead
	order []int32
	key   []byte
	// classes are the batch's classes by number (from 1), and bits the
	// bits of the biggest (tie).
	classes []groupClass
	bits    int
}

// groupClass is what tie needs of a class: whether its rows are of one
// group (grp, not 0) or of several.
type groupClass struct {
	grp   uint32
	mixed bool
}

type groupHead struct {
	key []byte // the head at units.Compare's first level (appendHeadKey)
	cls uint32
}

// mark sets the class of each row of a batch.
func (c *groupClasses) mark(rows []csvRow) {
	c.heads, c.key = c.heads[:0], c.key[:0]
	if c.gen > math.MaxUint32-uint32(len(rows)) {
		c.seen, c.gen = [len(c.seen)]struct{ grp, place uint32 }{}, 0
	}
	// A place of seen counts from base: below it, it is of an earlier batch.
	base := c.gen
	for i := range rows {
		r := &rows[i]
		r.cls = 0
		if r.grp == 0 {
			continue
		}
		s := &c.seen[r.grp%uint32(len(c.seen))]
		if s.grp != r.grp || s.place <= base {
			from, _, _, _ := units.LastNumber(r.s[0])
			start := len(c.key)
			var clean bool
			c.key, clean = appendHeadKey(c.key, r.s[0][:from])
			h := groupHead{}
			if clean {
				h.key = c.key[start:len(c.key):len(c.key)]
			}
			c.heads = append(c.heads, h)
			c.gen++
			s.grp, s.place = r.grp, c.gen
		}
		r.cls = s.place - base // (its place in heads, from 1)
	}
	c.order = c.order[:0]
	for i, h := range c.heads {
		if h.key != nil {
			c.order = append(c.order, int32(i))
		}
	}
	slices.SortFunc(c.order, func(a, b int32) int { return bytes.Compare(c.heads[a].key, c.heads[b].key) })
	cls := uint32(0)
	var first []byte // the first head of the class
	for _, i := range c.order {
		h := &c.heads[i]
		if cls == 0 || !bytes.HasPrefix(h.key, first) {
			cls++
			first = h.key
		}
		h.cls = cls
	}
	c.classes = slices.Grow(c.classes[:0], int(cls)+1)[:cls+1]
	clear(c.classes)
	c.bits = bits.Len32(cls)
	for i := range rows {
		r := &rows[i]
		if r.cls == 0 {
			continue
		}
		if r.cls = c.heads[r.cls-1].cls; r.cls == 0 {
			continue // (a head in no class)
		}
		if k := &c.classes[r.cls]; k.grp == 0 {
			k.grp = r.grp
		} else if k.grp != r.grp {
			k.mixed = true
		}
	}
}

// tie orders the rows of a batch that tie on their rank and key
// (tableRowKey) as cmpTableRows does, by their class and, in a class of
// one group, by their number: it takes a row marked with a class whose
// key tableRowKey holds whole. Rows of two classes are of two groups
// and are ordered by their classes; rows of a class of one group are of
// that group and are ordered by their numbers.
func (c *groupClasses) tie(r *csvRow) (uint64, bool) {
	if r.cls == 0 || !tableRowKeyWhole(r) {
		return 0, false
	}
	k := uint64(r.cls) << (64 - c.bits)
	if !c.classes[r.cls].mixed {
		k |= uint64(r.num) << 32 >> c.bits // (under the class; a place may take its last bits)
	}
	return k, true
}

// appendHeadKey appends to b the head of a group's names as
// units.Compare's first level reads it, in bytes that order as it does
// (bytes.Compare), each run whole: a run of text as its lower case, two
// more on each byte, and a 0; a number (a run of digits) as a 1, the
// count of its digits but leading zeros, and those digits; an empty head
// as a 1. A head that starts another (bytes.HasPrefix) is one whose names
// the other's may come before or after. clean is false for a head that is not ASCII or has a
// number of over 19 digits: its order against the others is left to
// units.Compare.
func appendHeadKey(b []byte, head string) (_ []byte, clean bool) {
	if head == "" {
		// Names that start with their number: before those whose head
		// starts with text, among those whose head starts with a number.
		return append(b, 1), true
	}
	for i := 0; i < len(head); {
		c := head[i]
		switch {
		case c >= utf8.RuneSelf:
			return b, false
		case '0' <= c && c <= '9':
			j := i
			for j < len(head) && '0' <= head[j] && head[j] <= '9' {
				j++
			}
			d := strings.TrimLeft(head[i:j], "0")
			if len(d) > 19 {
				return b, false
			}
			b = append(b, 1, byte(len(d)))
			b = append(b, d...)
			i = j
		default:
			for i < len(head) && (head[i] < '0' || head[i] > '9') {
				c := head[i]
				if c >= utf8.RuneSelf {
					return b, false
				}
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				b = append(b, c+2)
				i++
			}
			b = append(b, 0)
		}
	}
	return b, true
}
