package analyze

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Snapshots of one database made with other gstat switches add up other
// things: a gstat -d run has no index statistics, so its "size" is the
// tables alone; gstat -s adds the system tables; gstat -h has no size at
// all. A size series across them jumps with the switches, not with the
// data. So a trend compares the snapshots whose size adds up the same
// things (the same tables, with or without indices, sized the same way)
// and lists the others with the reason.

// LeftOut is a snapshot left out of the size series, and why.
type LeftOut struct {
	File   string     `json:"file"`
	Report int        `json:"report"`
	Time   *time.Time `json:"time"`
	Reason string     `json:"reason"`
}

// sizeBasis is what a snapshot's database size adds up. The user tables
// are not part of it: tables created or dropped between two snapshots are
// growth (a gstat -t run, which lists some tables only, cannot be told
// from that and is compared).
type sizeBasis struct {
	database string   // the database path, "" when not printed
	sized    bool     // the snapshot has a size at all
	tables   int      // tables listed
	system   int      // how many of them are system tables
	indices  bool     // index statistics counted
	sources  []string // sorted table size sources (data_pages, table_size)
	cut      bool     // the run ends before its completion time
}

func basisOf(s *HistorySnapshot) sizeBasis {
	// (Totals.Indices counts the tables' indices and the unattached ones.)
	samples := s.growthSamples()
	b := sizeBasis{sized: s.SizeBytes() != nil, indices: s.Analysis.Totals.Indices > 0, tables: len(samples), cut: s.cut()}
	if h := s.Analysis.Header; h != nil && h.Database != nil {
		b.database = *h.Database
	}
	for i := range samples {
		t := &samples[i]
		if IsSystemTable(t.name) {
			b.system++
		}
		if t.has&hasSource != 0 && !slices.Contains(b.sources, t.sizeSource) {
			b.sources = append(b.sources, t.sizeSource)
		}
	}
	slices.Sort(b.sources)
	return b
}

func (b sizeBasis) key() string {
	return fmt.Sprint(b.database, b.sized, b.indices, b.system > 0, b.sources, b.cut)
}

// ReasonAnotherDatabase starts the LeftOut reason of a snapshot of
// another database: its size, and its transaction counters too, are
// left out of a trend.
const ReasonAnotherDatabase = "another database"

// differs says why a snapshot's size does not compare with the
// reference's, "" when it does.
func (b sizeBasis) differs(ref sizeBasis) string {
	switch {
	case b.database != "" && ref.database != "" && b.database != ref.database:
		return fmt.Sprintf("%s (%s)", ReasonAnotherDatabase, b.database)
	case !b.sized && b.tables == 0:
		return "no table statistics (gstat -h or -e): no size"
	case !b.sized:
		return "no table sizes (gstat -i): index statistics only"
	case b.cut && !ref.cut:
		return "no Gstat completion time, which gstat prints last: the run was cut short, its size counts the tables before the cut"
	case !b.cut && ref.cut:
		return "a whole run, where the others have no Gstat completion time (cut short)"
	case ref.indices && !b.indices:
		return "no index statistics (gstat -d): its size counts the tables only"
	case !ref.indices && b.indices:
		return "index statistics, which the others lack: its size counts the indices too"
	case b.system > 0 && ref.system == 0:
		return fmt.Sprintf("system tables included (gstat -s): %d tables, the others %d", b.tables, ref.tables)
	case b.system == 0 && ref.system > 0:
		return fmt.Sprintf("no system tables (the others were made with gstat -s): %d tables, the others %d", b.tables, ref.tables)
	case !slices.Equal(b.sources, ref.sources):
		return fmt.Sprintf("table sizes from %s, the others from %s (the 5.0.2+ Table size line comes with -r)",
			sourceNames(b.sources), sourceNames(ref.sources))
	}
	return ""
}

func sourceNames(src []string) string {
	var out []string
	for _, s := range src {
		switch s {
		case "table_size":
			out = append(out, "the Table size line")
		case "data_pages":
			out = append(out, "data pages × page size")
		default:
			out = append(out, s)
		}
	}
	return strings.Join(out, " and ")
}

// comparable splits snapshots into those whose sizes compare and those
// left out. The reference is the basis most snapshots with a size share,
// a whole run before a cut one (no Gstat completion time, 3.0+);
// on a tie, the one of the latest snapshot (what the DBA runs now). With
// no sized snapshot at all nothing is left out: there is no size series.
//
// sameDB is false for the snapshots of another database than the
// reference's: their transaction counters do not belong either.
func comparable(snaps []*HistorySnapshot) (keep, sameDB []bool, left []LeftOut) {
	keep, sameDB = make([]bool, len(snaps)), make([]bool, len(snaps))
	bases := make([]sizeBasis, len(snaps))
	count := map[string]int{}
	for i, s := range snaps {
		if bases[i] = basisOf(s); bases[i].sized {
			count[bases[i].key()]++
		}
	}
	ref := -1
	later := func(i, j int) bool {
		a, b := snaps[i].Time, snaps[j].Time
		return a != nil && (b == nil || a.After(*b))
	}
	for i := range snaps {
		if !bases[i].sized {
			continue
		}
		if ref < 0 {
			ref = i
			continue
		}
		// A whole run is the reference before a cut one (no Gstat
		// completion time), however many are cut.
		if bi, br := bases[i], bases[ref]; bi.cut != br.cut {
			if !bi.cut {
				ref = i
			}
			continue
		}
		c, r := count[bases[i].key()], count[bases[ref].key()]
		if c > r || c == r && later(i, ref) {
			ref = i
		}
	}
	if ref < 0 {
		for i := range keep {
			keep[i], sameDB[i] = true, true
		}
		return keep, sameDB, []LeftOut{}
	}
	left = []LeftOut{}
	refDB := bases[ref].database
	for i, s := range snaps {
		why := bases[i].differs(bases[ref])
		keep[i] = why == ""
		sameDB[i] = bases[i].database == "" || refDB == "" || bases[i].database == refDB
		if !keep[i] {
			left = append(left, LeftOut{File: s.Analysis.File, Report: s.Analysis.Report, Time: s.Time, Reason: why})
		}
	}
	return keep, sameDB, left
}

// ComparableSnapshots returns the snapshots of one database whose sizes
// compare (see Trend.LeftOut), and the others with the reason, in the
// order given.
func ComparableSnapshots(snaps []*HistorySnapshot) (same []*HistorySnapshot, left []LeftOut) {
	keep, _, left := comparable(snaps)
	for i, s := range snaps {
		if keep[i] {
			same = append(same, s)
		}
	}
	return same, left
}
