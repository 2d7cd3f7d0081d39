package view

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/sampletest"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// indexSortNames are index names as a sort of a big run meets them: the
// benchmark output's copies of a report's names ("RDB$INDEX_15_00017"),
// names whose last number is not at their end, names in both cases,
// with leading zeros, UTF-8 and bytes that are not, names with no digits.
func indexSortNames(rng *rand.Rand, n int) []string {
	bases := []string{"RDB$INDEX_15_", "RDB$INDEX_1_", "RDB$INDEX_10_", "rdb$index_15_", "RDB$INDEX_015_", "RDB$PRIMARY1_", "RDB$PRIMARY12_",
		"RDB$FOREIGN3_", "CUSTNAMEX_", "CUSTREGION_", "NEEDX_", "N", "n", "NE", "", "IX_", "IX_0", "IX_00_", "IX_1_", "ix_1_", "IX_1_2_",
		"IX_\x00", "IX_\x01", "IX_\x7f", "IX__", "IX_^", "X12345678901234567890_", "X1234567890123456789_", "É_", "\u212a_", "K_", "k_", "\xff_", "\xc3_"}
	tails := []string{"", "", "", "_X", "_x", "A", "é", "_1", "\xe2\x82"}
	parts := []string{"A", "a", "B", "0", "1", "9", "00", "_", "$", "é", "\u212a", "k", "\xff"}
	names := make([]string, n)
	for i := range names {
		switch rng.IntN(4) {
		case 0: // a name of random parts
			s := ""
			for range rng.IntN(7) {
				s += parts[rng.IntN(len(parts))]
			}
			names[i] = s
		default:
			zeros := rng.IntN(6)
			names[i] = fmt.Sprintf("%s%0*d%s", bases[rng.IntN(len(bases))], zeros, rng.IntN(3000), tails[rng.IntN(len(tails))])
		}
	}
	return names
}

// The index rows' comparison with their names' groups (nameGroups) and
// the groups' classes (groupClasses) orders as byName does: 300,000 pairs
// of rows of random names that tie on rank and size, numbered by a table
// of few slots (groups numbered anew as they take each other's slots) and
// by one of many, in classes of a batch marked after another; and the
// batch sorted.
func TestIndexRowsByGroup(t *testing.T) {
	defer func(n int) { nameGroupSlots = n }(nameGroupSlots)
	for _, nameGroupSlots = range []int{4, 1024} {
		t.Run(fmt.Sprint(nameGroupSlots), testIndexRowsByGroup)
	}
}

func testIndexRowsByGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 6))
	names := indexSortNames(rng, 20000)
	var g nameGroups
	all := make([]csvRow, 2*len(names))
	for i := range all {
		s := names[i%len(names)]
		all[i] = csvRow{rank: 1, key: 8192, s: [3]string{s, "T"}, id: int64(i)}
		all[i].grp, all[i].num = g.of(s)
	}
	var c groupClasses
	c.mark(all[:len(names)])
	rows := all[len(names):]
	c.mark(rows)
	classes := map[uint32]bool{}
	for _, r := range rows {
		classes[r.cls] = true
	}
	if len(classes) < 20 {
		t.Errorf("%d classes", len(classes))
	}
	byGroup := map[uint32][]int{}
	for i := range rows {
		byGroup[rows[i].grp] = append(byGroup[rows[i].grp], i)
	}
	grouped := 0
	for range 300000 {
		a, b := &rows[rng.IntN(len(rows))], &rows[rng.IntN(len(rows))]
		if rng.IntN(2) == 0 { // (a pair of one group)
			same := byGroup[a.grp]
			b = &rows[same[rng.IntN(len(same))]]
		}
		if a.grp != 0 && a.grp == b.grp {
			grouped++
		}
		if got, want := cmpTableRows(a, b), cmpTableRows(ungrouped(a), ungrouped(b)); got != want {
			t.Fatalf("%q (group %d, %d, class %d) against %q (group %d, %d, class %d): %d, want %d", a.s[0], a.grp, a.num, a.cls, b.s[0], b.grp, b.num, b.cls, got, want)
		}
	}
	if grouped < 50000 {
		t.Errorf("only %d pairs of one group", grouped)
	}
	checkIndexBatch(t, "tied", newIndexBatch(), rows)
}

// A batch of index rows sorted by their rank and key as numbers, then by
// their class and number (indexBatch), is in cmpTableRows' order: rows
// of benchmark names (ASCII, a class of one group or of several: "IX_"
// and "IX_1_", groups numbered anew in a table of 4 slots) that tie by
// the hundred on a rank and key, rows of those and of odd names (no group,
// no class) on another key, ranks and keys out of what tableRowKey holds
// whole or that differ in their last bits; and a batch whose places do
// not fit in the key's free bits (2¹⁶ rows and more).
func TestIndexBatchSort(t *testing.T) {
	defer func(n int) { nameGroupSlots = n }(nameGroupSlots)
	rng := rand.New(rand.NewPCG(42, 6))
	bases := []string{"RDB$INDEX_15_", "RDB$INDEX_1_", "rdb$index_15_", "RDB$PRIMARY1_", "RDB$FOREIGN3_", "CUSTNAMEX_",
		"IX_", "IX_1_", "ix_1_", "IX_1_2_", "IX__", "N", "n"}
	odd := indexSortNames(rng, 5000)
	keys := []int64{8192, 16384, 24576, 8193, 8192 + 1<<tableRowFree, 0}
	far := []int64{-1, tableRowMaxKey, tableRowMaxKey + 1, math.MaxInt64}
	for _, nameGroupSlots = range []int{4, 1024} {
		for _, n := range []int{20000, 1<<tableRowFree + 1} {
			var g nameGroups
			rows := make([]csvRow, n)
			for i := range rows {
				r := &rows[i]
				r.rank, r.key, r.id = int64(rng.IntN(4)), keys[rng.IntN(3)], int64(i)
				name := fmt.Sprintf("%s%0*d", bases[rng.IntN(len(bases))], rng.IntN(6), rng.IntN(3000))
				switch rng.IntN(100) {
				case 0, 1, 2: // (a key that ties with no other, or in its last bits)
					r.key = keys[3+rng.IntN(3)]
				case 3, 4: // (odd names, all on one key)
					r.rank, r.key, name = 2, 0, odd[rng.IntN(len(odd))]
				case 5:
					r.rank, r.key = int64(rng.IntN(7)-1), far[rng.IntN(len(far))]
				}
				r.s = [3]string{name, "T"}
				r.grp, r.num = g.of(name)
			}
			b := newIndexBatch()
			tie, took := b.keys.Tie, 0
			b.keys.Tie = func(r *csvRow) (uint64, bool) {
				k, ok := tie(r)
				if ok {
					took++
				}
				return k, ok
			}
			checkIndexBatch(t, fmt.Sprintf("%d rows, %d slots", n, nameGroupSlots), b, rows)
			mixed := 0
			for _, c := range b.classes.classes {
				if c.mixed {
					mixed++
				}
			}
			if n < 1<<tableRowFree && (took < n*9/10 || mixed == 0 && nameGroupSlots == 4) {
				t.Errorf("%d rows, %d slots: %d ordered by class and number, %d classes of several groups", n, nameGroupSlots, took, mixed)
			}
			if n > 1<<tableRowFree && took != 0 {
				t.Errorf("%d rows: %d ordered by class and number", n, took)
			}
		}
	}
}

// checkIndexBatch sorts a batch of rows with b and checks the order
// against that of rows with no group (cmpTableRows on their names alone).
func checkIndexBatch(t *testing.T, name string, b *indexBatch, rows []csvRow) {
	t.Helper()
	sorted := slices.Clone(rows)
	b.sort(sorted)
	want := slices.Clone(rows)
	slices.SortFunc(want, func(a, b csvRow) int { return cmpTableRows(ungrouped(&a), ungrouped(&b)) })
	for i := range want {
		if sorted[i].id != want[i].id {
			t.Fatalf("%s: row %d of the sorted batch: %q (rank %d, key %d), want %q (rank %d, key %d)", name, i,
				sorted[i].s[0], sorted[i].rank, sorted[i].key, want[i].s[0], want[i].rank, want[i].key)
		}
	}
}

// ungrouped is row x with no group and no class.
func ungrouped(x *csvRow) *csvRow {
	y := *x
	y.grp, y.num, y.cls = 0, 0, 0
	return &y
}

// appendIndexCSVRow writes the line appendCSVRow writes of an index's
// cells: for every index of five samples (Firebird 6 names, odd names
// among them), and for an index whose
// names need quotes, escapes or a formula's apostrophe (with a schema),
// whose figures are missing, NaN, infinite, negative zero, past 1e21 or
// tiny, and whose counts are the int64 limits.
func TestAppendIndexCSVRow(t *testing.T) {
	var ixs []analyze.IndexStats
	for _, a := range sampletest.Analyses(t, [2]string{"fb30", "shop-gstat-a-r.txt"}, [2]string{"fb30", "shop-gstat-i.txt"}, [2]string{"gstat", "shop-fb6-names.txt"}, [2]string{"gstat", "shop-odd-names-corrupt.txt"}, [2]string{"gstat", "codes-4k-gstat-a-r.txt"}) {
		for _, tb := range a.Tables {
			ixs = append(ixs, tb.Indices...)
		}
		ixs = append(ixs, a.UnattachedIndices...)
	}
	if len(ixs) < 20 {
		t.Fatalf("%d indices in the samples", len(ixs))
	}
	names, floats, ints := oddFields("IX", "ИНДЕКС_1")
	for i, n := range names {
		ixs = append(ixs, analyze.IndexStats{Name: n, Table: names[(i+3)%len(names)], Schema: []string{"", "PUBLIC", "S,1"}[i%3], Kind: []string{"", analyze.IndexPrimaryKey, "=x", analyze.IndexForeignKey, analyze.IndexUnique, analyze.IndexPlain, analyze.IndexSystem, analyze.IndexUnknown, "plain,x"}[i%9],
			Depth: ints[i%len(ints)], LeafBuckets: ints[(i+1)%len(ints)], Nodes: ints[(i+2)%len(ints)], MaxDup: ints[(i+3)%len(ints)], SizeBytes: ints[(i+4)%len(ints)],
			Selectivity: floats[i%len(floats)], DupRatio: floats[(i+5)%len(floats)]})
	}
	for _, f := range floats {
		ixs = append(ixs, analyze.IndexStats{Name: "F", Selectivity: f, DupRatio: f})
	}
	var cells [11]Cell
	for i := range ixs {
		want := string(appendCSVRow(nil, gstatIndexColumns, appendIndexCells(cells[:0], &ixs[i])))
		if got := string(appendIndexCSVRow(nil, &ixs[i])); got != want {
			t.Errorf("index %q: %q, want %q", ixs[i].Name, got, want)
		}
	}
}

// TestFiredRank: the rank firedRank gives each index of a
// table's fired warnings is worstIndexWarnings' of them, for 2,000 random
// lists of up to 12 warnings of indices and tables (of the same names),
// of every severity.
func TestFiredRank(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 1))
	names := []string{"IX_A", "IX_B", "T1", "T2", ""}
	sevs := []analyze.Severity{analyze.Info, analyze.Warn, analyze.Critical}
	ranked := 0
	for range 2000 {
		fired := make([]analyze.Warning, rnd.IntN(13))
		for i := range fired {
			fired[i] = analyze.Warning{Kind: []string{"index", "table"}[rnd.IntN(2)], Object: names[rnd.IntN(len(names))],
				Table: names[rnd.IntN(len(names))], Severity: sevs[rnd.IntN(len(sevs))]}
		}
		worst := worstIndexWarnings(fired)
		for _, table := range names {
			for _, name := range names {
				want := worst[[2]string{table, name}]
				if got := firedRank(fired, [2]string{table, name}); got != want {
					t.Fatalf("index %q of %q in %+v: rank %d, want %d", name, table, fired, got, want)
				}
				if want > 0 {
					ranked++
				}
			}
		}
	}
	if ranked < 5000 {
		t.Errorf("%d indices ranked by a warning", ranked)
	}
}

// appendCSVText writes what appendCSVField writes of csvText: for every
// string of up to two bytes, and for 75,000 random ones of up to 40 bytes
// of printable ASCII with now and then a byte a field quotes or escapes,
// one a formula starts with, a space, a byte that is not ASCII, at any
// place of the eight-byte words the scan reads.
func TestAppendCSVText(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := string(appendCSVText(nil, s)), string(appendCSVField(nil, csvText(s))); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	}
	check("")
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	check(`\.`)
	odd := []byte{',', '"', '\n', '\r', '\t', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xa9, 0xff, ' ', '=', '+', '-', '@', '\\', '.'}
	rng := rand.New(rand.NewPCG(40, 7))
	for range 75000 {
		b := make([]byte, rng.IntN(41))
		for i := range b {
			b[i] = byte(0x20 + rng.IntN(0x5f))
			if rng.IntN(12) == 0 {
				b[i] = odd[rng.IntN(len(odd))]
			}
		}
		check(string(b))
	}
	// Long texts (appendLongCSVText): reasons and advice of up to 600
	// bytes, with now and then a byte that is not printable ASCII, a
	// comma, a quote, a leading space or a formula's character.
	for range 25000 {
		s := randomCSVText(rng, 600)
		for len(s) < 32 {
			s += randomCSVText(rng, 40)
		}
		check(s)
	}
}

// randomCSVText is a text of up to n bytes, mostly printable ASCII, with
// now and then a byte CSV or the terminal's guard treats apart.
func randomCSVText(rng *rand.Rand, n int) string {
	odd := []byte{',', '"', '\n', '\r', '\t', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xa9, 0xe2, 0x80, 0xae, 0xff, ' ', '=', '+', '-', '@', '\\', '.', '\''}
	b := make([]byte, rng.IntN(n+1))
	rare := 1 + rng.IntN(60)
	for i := range b {
		b[i] = byte(0x20 + rng.IntN(0x5f))
		if rng.IntN(rare) == 0 {
			b[i] = odd[rng.IntN(len(odd))]
		}
	}
	return string(b)
}

// appendWarningCut writes a warning's row from its fields, and
// appendWarningRow the row of that, as appendCSVRow writes the cells of
// GstatFinding's finding; the cut is where the message and advice start
// and end, which follow the head as they are (the source is not in the
// row): random warnings of every unit, with figures that are not finite,
// huge or negative (some the row before's, in another unit), and texts
// of odd bytes.
func TestAppendWarningCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 1))
	units := []string{"", "bytes", "share", "share of RAM", "share of a page", "flag", "levels", "ratio", "pages", "=x"}
	kinds := []string{"index", "table", "database", "", "=k"}
	figures := []float64{0, 1, -1, 0.5, 0.09090909090909091, 1e21, -1e21, 1e300, 123456789012, math.NaN(), math.Inf(1), math.Inf(-1), 1 << 53, 5e-324, math.Copysign(0, -1)}
	figure := func() float64 {
		if rng.IntN(3) == 0 {
			return figures[rng.IntN(len(figures))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-10))
	}
	var memo [2]warningFigure // (the last row's: some figures and units repeat)
	var last analyze.Warning
	for i := range 15000 {
		w := analyze.Warning{Rule: randomCSVText(rng, 24), Severity: []analyze.Severity{analyze.Critical, analyze.Warn, analyze.Info, ""}[rng.IntN(4)],
			Kind: kinds[rng.IntN(len(kinds))], Object: randomCSVText(rng, 40), Table: randomCSVText(rng, 3*rng.IntN(2)*rng.IntN(60)),
			Value: figure(), Threshold: figure(), Unit: units[rng.IntN(len(units))],
			Reason: randomCSVText(rng, 500), Advice: randomCSVText(rng, 300), Source: randomCSVText(rng, 200)}
		if rng.IntN(4) == 0 {
			w.Value, w.Threshold = last.Value, last.Threshold
		}
		last = w
		switch rng.IntN(4) {
		case 0:
			w.Object = w.Kind // ("database")
		case 1:
			w.Object = randomCSVText(rng, 200) // (past appendWarningObject's buffer)
		}
		want := appendCSVRow(nil, findingsColumns, findingCells(GstatFinding(w)))
		enc := appendWarningCut([]byte("x,"), &w)[2:]
		n := len(enc) - warningCut
		x := csvRow{line: string(enc[:n])}
		for j := range x.cut {
			x.cut[j] = int32(binary.LittleEndian.Uint32(enc[n+4*j:]))
		}
		if x.line[x.cut[0]:x.cut[1]] != w.Reason || x.line[x.cut[1]:x.cut[2]] != w.Advice || int(x.cut[2]) != len(x.line) {
			t.Fatalf("warning %d %+v: cut %v of %q", i, w, x.cut, x.line)
		}
		if got, err := appendWarningRow([]byte("x,"), &x, w.Source, &memo); err != nil || string(got[2:]) != string(want) {
			t.Fatalf("warning %d %+v:\n got %q, %v\nwant %q", i, w, got[2:], err, want)
		}
	}
}

// refFields writes a text read back as appendCSVText writes it whole:
// random references and texts made of a prefix and a suffix of theirs
// and bytes between, with commas, quotes, leading spaces, formulas'
// characters and bytes that are not printable ASCII in any of the three.
func TestRefFieldsAppendText(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	var refs []string
	var c refFields
	for i := range 300000 {
		if len(refs) < 2000 && rng.IntN(100) == 0 || len(refs) == 0 {
			refs = append(refs, randomCSVText(rng, []int{2, 8, 40, 300}[rng.IntN(4)]))
		}
		n := rng.IntN(len(refs))
		ref := refs[n]
		p := rng.IntN(len(ref) + 1)
		q := rng.IntN(len(ref) - p + 1)
		if rng.IntN(4) == 0 {
			p, q = len(ref), 0 // (the reference itself)
		}
		part := extsort.TextPart{Ref: n, P: p, Q: q, Mid: randomCSVText(rng, []int{0, 3, 20, 60}[rng.IntN(4)])}
		if rng.IntN(50) == 0 {
			part.Ref = -1
		}
		whole := string(part.Append(nil, refs))
		if got, want := c.appendText([]byte("x"), part, refs), appendCSVText([]byte("x"), whole); !bytes.Equal(got, want) {
			t.Fatalf("text %d %+v of %q: %q, want %q", i, part, ref, got, want)
		}
	}
}

// The tables' rows, like the indices', are sorted with their names'
// groups and classes: streamed through GstatCSV in batches of a few rows,
// 3,000 tables of random names that tie on their size (and their one
// index each, named alike) have the order Writer gives them by byName,
// with 4 slots of groups and with 1024.
func TestTableRowsByGroup(t *testing.T) {
	defer func(b, n int) { csvRowBudget, nameGroupSlots = b, n }(csvRowBudget, nameGroupSlots)
	csvRowBudget = 16 << 10
	src := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	start := strings.Index(src, "CUSTOMER (129)\n")
	end := strings.Index(src, "    Index RDB$PRIMARY2 (0)\n")
	block := src[start:end] // (CUSTOMER and its index CUSTOMER_LAST)
	rng := rand.New(rand.NewPCG(41, 6))
	var in strings.Builder
	in.WriteString(src[:start])
	n := 0
	for _, name := range indexSortNames(rng, 6000) {
		if name == "" || strings.ContainsAny(name, " ()\x00\x01\x7f") || !utf8.ValidString(name) {
			continue // (not a name gstat prints)
		}
		n++
		b := strings.Replace(block, "CUSTOMER (129)", fmt.Sprintf("%s (%d)", name, 128+n), 1)
		in.WriteString(strings.Replace(b, "Index CUSTOMER_LAST (1)", "Index "+name+"_IX (1)", 1))
	}
	if n < 3000 {
		t.Fatalf("%d names", n)
	}
	reps, err := parse.ReadGstat(strings.NewReader(in.String()), "names")
	if err != nil {
		t.Fatal(err)
	}
	th := analyze.NewThresholds()
	for _, nameGroupSlots = range []int{4, 1024} {
		for _, table := range []string{"tables", "indices"} {
			var want bytes.Buffer
			a := analyze.Gstat(reps[0], th)
			if err := Write(&want, CSV, Options{Table: table}, Gstat(a, GstatOptions{})); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			g := NewGstatCSV(&got, Options{Table: table}, GstatOptions{})
			if err := analyze.StreamGstat(strings.NewReader(in.String()), "names", th, analyze.GstatOptions{}, g.Stream()); err != nil {
				t.Fatal(err)
			}
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			if lines := strings.Count(got.String(), "\n"); lines != n+1 {
				t.Errorf("%s, %d slots: %d lines, want %d", table, nameGroupSlots, lines, n+1)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, %d slots: streamed CSV differs:\n%.400s\nwant\n%.400s", table, nameGroupSlots, got.Bytes(), want.Bytes())
			}
		}
	}
}

// appendTableCSVRow writes the line appendCSVRow writes of a table's
// cells: for every table of five samples (Firebird 6 names, odd names
// among them), for tables whose names need quotes, escapes or a
// formula's apostrophe (with a schema), whose figures are missing, NaN,
// infinite, negative zero, past 1e21 or tiny, whose counts are the int64
// limits and whose fill is any of 0 to 100 % and beyond; and for 100,000
// tables of random figures.
func TestAppendTableCSVRow(t *testing.T) {
	var ts []analyze.TableStats
	for _, a := range sampletest.Analyses(t, [2]string{"fb30", "shop-gstat-a-r.txt"}, [2]string{"fb30", "shop-gstat-d.txt"}, [2]string{"gstat", "shop-fb6-names.txt"}, [2]string{"gstat", "shop-odd-names-corrupt.txt"}, [2]string{"gstat", "codes-4k-gstat-a-r.txt"}) {
		ts = append(ts, a.Tables...)
	}
	if len(ts) < 20 {
		t.Fatalf("%d tables in the samples", len(ts))
	}
	names, floats, ints := oddFields("T", "ТАБЛИЦА_1")
	fills := []*int{nil}
	for v := -1; v <= 101; v++ {
		fills = append(fills, &v)
	}
	for i := range 200 {
		ts = append(ts, analyze.TableStats{Name: names[i%len(names)], Schema: []string{"", "PUBLIC", "S,1"}[i%3],
			Records: ints[i%len(ints)], Versions: ints[(i+1)%len(ints)], MaxVersions: ints[(i+2)%len(ints)], DataPages: ints[(i+3)%len(ints)],
			SizeBytes: ints[(i+4)%len(ints)], IndexBytes: ints[(i+5)%len(ints)],
			VersionsPerRecord: floats[i%len(floats)], FragmentsPerRecord: floats[(i+7)%len(floats)], AverageFill: fills[i%len(fills)]})
	}
	rng := rand.New(rand.NewPCG(41, 7))
	for range 100000 {
		n, v := rng.Int64N(1<<uint(rng.IntN(63))), rng.Int64N(1<<uint(rng.IntN(40)))+1
		fill := rng.IntN(101)
		ts = append(ts, analyze.TableStats{Name: fmt.Sprintf("T_%05d", rng.IntN(100000)), Records: &n, Versions: &v, MaxVersions: &v, DataPages: &v,
			SizeBytes: &n, IndexBytes: &v, VersionsPerRecord: new(float64(v) / float64(n+1)), FragmentsPerRecord: new(math.Float64frombits(rng.Uint64())), AverageFill: &fill})
	}
	var cells [10]Cell
	for i := range ts {
		want := string(appendCSVRow(nil, gstatTableColumns, appendTableCells(cells[:0], &ts[i])))
		if got := string(appendTableCSVRow(nil, &ts[i])); got != want {
			t.Fatalf("table %q: %q, want %q", ts[i].Name, got, want)
		}
	}
}

// oddFields are the names (of stem, and wide, a name not in ASCII),
// figures and counts a row's fast path is held to its cells' on: names
// that need quotes, escapes or a formula's apostrophe; figures missing,
// NaN, infinite, negative zero, past 1e21 or tiny; counts at the int64
// limits.
func oddFields(stem, wide string) (names []string, floats []*float64, ints []*int64) {
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	names = []string{"", stem, stem + ",1", stem + ` "A"`, stem + "\nA", "=SUM(A1)", "-" + stem, "+" + stem, "@" + stem, "\t" + stem, " " + stem, `\.`, stem + "\u202eA", stem + "\x85", "\xff\xfe", wide}
	floats = []*float64{nil, f64(math.NaN()), f64(math.Inf(1)), f64(math.Inf(-1)), f64(math.Copysign(0, -1)), f64(0), f64(1e21), f64(9.999999999999999e20), f64(1e-7), f64(1.0 / 3), f64(-2.5)}
	ints = []*int64{nil, i64(0), i64(-1), i64(math.MaxInt64), i64(math.MinInt64), i64(8192)}
	return names, floats, ints
}

// tableRowCodec reads back what csvRowCodec did, the name group and
// number too, for 200,000 random rows: names and tables that need quotes
// or an apostrophe, empty ones, lines that start with them or not (a
// table's row, whose second field is no table; rows of other lines), and
// group numbers to the uint32 limit. A record cut short is an error.
func TestTableRowCodec(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	names := indexSortNames(rng, 2000)
	names = append(names, `A,B`, `"Q"`, `=1`, ` X`, "", "T\n", `IX_1,"T"`,
		strings.Repeat("N", 64), strings.Repeat("IX_", 30)+"1", strings.Repeat("é", 200)) // (lengths of two bytes)
	pick := func() string { return names[rng.IntN(len(names))] }
	short := 0
	for i := range 200000 {
		r := csvRow{rank: rng.Int64N(6) - 1, key: rng.Int64() >> rng.IntN(64), id: int64(i),
			s: [3]string{pick(), pick()}}
		if rng.IntN(3) == 0 {
			r.s[1] = ""
		}
		if rng.IntN(2) == 0 {
			r.grp, r.num = rng.Uint32(), rng.Uint32()>>rng.IntN(32)
		}
		var b []byte
		switch rng.IntN(4) {
		case 0: // an index's row
			b = appendCSVText(b, r.s[0])
			b = append(b, ',')
			b = appendCSVText(b, r.s[1])
			b = append(b, ",plain,1,2,3,0.5,,7,8192\n"...)
		case 1: // the name as it is, then anything
			b = append(b, r.s[0]...)
			b = append(b, pick()...)
			b = append(b, pick()...)
		case 2: // a table's row
			b = appendCSVText(b, r.s[0])
			b = append(b, ",1,2,0.5,3,,4,0.87,8192,16384\n"...)
		default:
			b = append(b, pick()...)
		}
		r.line = string(b)
		rec := tableRowCodec.Append(nil, r)
		got, err := tableRowCodec.Decode(rec)
		if err != nil || got != r {
			t.Fatalf("%+v read back as %+v, %v", r, got, err)
		}
		old, err := decodeRow(csvRowCodec.Append(nil, r))
		old.grp, old.num = r.grp, r.num
		if err != nil || got != old {
			t.Fatalf("%+v read back as %+v, csvRowCodec's as %+v, %v", r, got, old, err)
		}
		if n, _ := binary.Uvarint(rec[tableRowHead:]); (n&1 == 1) != strings.HasPrefix(r.line, r.s[0]) {
			t.Fatalf("%+v: name read from the line %v", r, n&1 == 1)
		}
		if cut := rng.IntN(len(rec)); cut < len(rec)-len(r.line) {
			if _, err := tableRowCodec.Decode(rec[:cut]); err != nil {
				short++
			} else if r.s[0] == "" && r.s[1] == "" {
				short++ // (nothing left to miss but the line)
			}
		}
	}
	if short < 10000 {
		t.Errorf("%d records cut short told", short)
	}
}

// FuzzIndexBatch sorts a batch of rows of any names (one a line of the
// input), ranks and keys (from the first bytes of each name) with
// indexBatch and checks it against cmpTableRows on the names alone
// (checkIndexBatch), with groups numbered in a table of 4 slots (so
// that one head has several numbers) or of 1,024.
func FuzzIndexBatch(f *testing.F) {
	rng := rand.New(rand.NewPCG(43, 6))
	f.Add([]byte(strings.Join(indexSortNames(rng, 300), "\n")), false)
	f.Add([]byte("RDB$INDEX_15_00002\nRDB$INDEX_15_00001\nIX_1_7\nix_1_7\nIX_1_2_3\nIX_10\nIX_9\nN1\nn1\nN01"), true)
	f.Fuzz(func(t *testing.T, data []byte, few bool) {
		defer func(n int) { nameGroupSlots = n }(nameGroupSlots)
		nameGroupSlots = 1024
		if few {
			nameGroupSlots = 4
		}
		keys := []int64{8192, 8192, 8193, 0, -1, tableRowMaxKey, tableRowMaxKey + 1, 8192 + 1<<tableRowFree}
		var g nameGroups
		var rows []csvRow
		for i, name := range strings.Split(string(data), "\n") {
			r := csvRow{rank: 1, key: 8192, s: [3]string{name, "T"}, id: int64(i)}
			if len(name) > 0 {
				r.rank = int64(name[0]%7) - 1
			}
			if len(name) > 1 {
				r.key = keys[name[1]%byte(len(keys))]
			}
			r.grp, r.num = g.of(name)
			rows = append(rows, r)
		}
		checkIndexBatch(t, "fuzz", newIndexBatch(), rows)
	})
}
