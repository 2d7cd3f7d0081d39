package view

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// indexSortNames are index names as a sort of a big run meets them: the
// benchmark output's copies of a report's names ("RDB$INDEX_15_00017"),
// names whose last number is not at their end, names in both cases,
// with leading zeros, UTF-8 and bytes that are not, names with no digits.
func indexSortNames(rng *rand.Rand, n int) []string {
	bases := []string{"RDB$INDEX_15_", "RDB$INDEX_1_", "RDB$INDEX_10_", "rdb$index_15_", "RDB$PRIMARY1_", "RDB$PRIMARY12_",
		"RDB$FOREIGN3_", "CUSTNAMEX_", "CUSTREGION_", "NEEDX_", "N", "n", "", "IX_", "IX_0", "IX_00_", "É_", "\u212a_", "K_", "\xff_", "\xc3_"}
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

// The index rows' comparison with their names' groups (nameGroups)
// orders as byName does: 300,000 pairs of rows of random names that tie
// on rank and size, numbered by a table of few slots (groups numbered
// anew as they take each other's slots) and by one of many.
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
	rows := make([]csvRow, len(names))
	for i, s := range names {
		rows[i] = csvRow{rank: 1, key: 8192, s: [3]string{s, "T"}, id: int64(i)}
		rows[i].grp, rows[i].num = g.of(s)
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
		plain := func(x *csvRow) *csvRow { y := *x; y.grp, y.num = 0, 0; return &y }
		if got, want := cmpTableRows(a, b), cmpTableRows(plain(a), plain(b)); got != want {
			t.Fatalf("%q (group %d, %d) against %q (group %d, %d): %d, want %d", a.s[0], a.grp, a.num, b.s[0], b.grp, b.num, got, want)
		}
	}
	if grouped < 50000 {
		t.Errorf("only %d pairs of one group", grouped)
	}
}
