package view

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
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
	sorted := slices.Clone(rows)
	sort.Sort(rowSort{sorted, cmpTableRows})
	want := slices.Clone(rows)
	slices.SortFunc(want, func(a, b csvRow) int { return cmpTableRows(ungrouped(&a), ungrouped(&b)) })
	for i := range want {
		if sorted[i].id != want[i].id {
			t.Fatalf("row %d of the sorted batch: %q, want %q", i, sorted[i].s[0], want[i].s[0])
		}
	}
}

// ungrouped is row x with no group and no class.
func ungrouped(x *csvRow) *csvRow {
	y := *x
	y.grp, y.num, y.cls = 0, 0, 0
	return &y
}
