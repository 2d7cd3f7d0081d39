package analyze

// StoredSelectivity is an index's selectivity as the catalogue stores it
// (RDB$INDICES.RDB$STATISTICS, computed when the index was built or by the
// last SET STATISTICS); nil when never computed. fbdiag collect reads it
// over SQL.
type StoredSelectivity struct {
	Table  string
	Index  string
	Stored *float64
}

// SelectivityCheck compares an index's stored selectivity with the actual
// one from gstat: 1 / unique keys, where unique keys = nodes − total dup.
// The optimizer plans with the stored value, so a stale one misleads it.
type SelectivityCheck struct {
	Table      string   `json:"table"`
	Index      string   `json:"index"`
	Stored     *float64 `json:"stored_selectivity"` // null: never computed
	Actual     *float64 `json:"actual_selectivity"` // null: no gstat figures or empty index
	UniqueKeys *int64   `json:"unique_keys"`
	Stale      bool     `json:"stale"` // run SET STATISTICS INDEX
}

// CheckSelectivity compares each stored value with the gstat figures of
// the same index in a. An index is stale when the stored value is missing
// or zero while the index has keys, or when the two differ by more than
// the index-stale-statistics.factor threshold either way.
func CheckSelectivity(a *GstatAnalysis, stored []StoredSelectivity, th Thresholds) []SelectivityCheck {
	type key struct{ table, index string }
	unique := map[key]int64{}
	if a != nil {
		for _, t := range a.Tables {
			for _, ix := range t.Indices {
				if ix.UniqueKeys != nil {
					unique[key{t.Name, ix.Name}] = *ix.UniqueKeys
				}
			}
		}
	}
	factor := th.at(thIndexStaleStatisticsFactor)
	out := make([]SelectivityCheck, 0, len(stored))
	for _, s := range stored {
		c := SelectivityCheck{Table: s.Table, Index: s.Index, Stored: s.Stored}
		if u, ok := unique[key{s.Table, s.Index}]; ok && u > 0 {
			act := 1 / float64(u)
			c.UniqueKeys, c.Actual = &u, &act
			if s.Stored == nil || *s.Stored <= 0 {
				c.Stale = true
			} else {
				r := *s.Stored / act
				c.Stale = r > factor || r < 1/factor
			}
		}
		out = append(out, c)
	}
	return out
}
