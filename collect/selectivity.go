package collect

import "math"

// StaleSelectivityFactor is how far the stored selectivity may drift from
// the one gstat's figures give before fbdiag calls it stale. Source:
// health-rules.md §3 (IBAnalyst compares stored vs. actual and suggests SET
// STATISTICS; it publishes no factor) — 2× is fbdiag's choice: a factor the
// optimizer's cost estimates visibly feel, well above rounding.
const StaleSelectivityFactor = 2.0

// SelectivityCheck compares an index's stored selectivity
// (RDB$STATISTICS) with the actual one from gstat: 1 / unique keys, where
// unique keys = nodes − total dup.
type SelectivityCheck struct {
	Table      string   `json:"table"`
	Index      string   `json:"index"`
	Stored     *float64 `json:"stored_selectivity"` // null: never computed
	Actual     *float64 `json:"actual_selectivity"` // null: no gstat figures or empty index
	UniqueKeys *int64   `json:"unique_keys"`
	Stale      bool     `json:"stale"` // run SET STATISTICS INDEX
}

// KeyCounts gives gstat's figures for an index: nodes and total dup.
type KeyCounts func(table, index string) (nodes, totalDup int64, ok bool)

// CheckSelectivity compares every index of m with gstat's figures. An
// index is stale when the stored value is missing or zero while the index
// has keys, or when the two differ by more than StaleSelectivityFactor.
func CheckSelectivity(indices []IndexStatistics, keys KeyCounts) []SelectivityCheck {
	out := make([]SelectivityCheck, 0, len(indices))
	for _, ix := range indices {
		c := SelectivityCheck{Table: ix.Table, Index: ix.Index, Stored: ix.Stored}
		if nodes, dup, ok := keys(ix.Table, ix.Index); ok && nodes-dup > 0 {
			u := nodes - dup
			a := 1 / float64(u)
			c.UniqueKeys, c.Actual = &u, &a
			switch {
			case ix.Stored == nil || *ix.Stored <= 0:
				c.Stale = true
			default:
				r := *ix.Stored / a
				c.Stale = r > StaleSelectivityFactor || r < 1/StaleSelectivityFactor || math.IsNaN(r)
			}
		}
		out = append(out, c)
	}
	return out
}
