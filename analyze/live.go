package analyze

// Figures of the live server's monitoring tables (fbdiag collect): the
// collect package reads MON$DATABASE and MON$IO_STATS, these say what the
// numbers mean.

// CacheHitShare is the share of page fetches the page cache served
// without reading the disk: 1 − reads / fetches, from MON$IO_STATS
// (MON$PAGE_FETCHES counts every page asked for, MON$PAGE_READS those read
// from disk, both since the database was opened); null before any fetch.
func CacheHitShare(reads, fetches int64) *float64 {
	if fetches <= 0 {
		return nil
	}
	return ptr(1 - float64(reads)/float64(fetches))
}

// TransactionMarker is one transaction number of the header and how far
// it is behind Next.
type TransactionMarker struct {
	// Name is the marker as the DBA's tools name it: "oldest
	// transaction (OIT)", "oldest active (OAT)", "oldest snapshot
	// (OST)", "next transaction".
	Name  string
	Value int64
	// BehindNext is Next − Value: how many transactions started after
	// the marker's (Next − OAT is the age of the oldest active
	// transaction in transactions; OST − OIT is the sweep gap).
	BehindNext int64
}

// TransactionMarkers are the OIT, OAT, OST and Next of a header, each
// with its distance to Next.
func TransactionMarkers(oit, oat, ost, next int64) []TransactionMarker {
	out := make([]TransactionMarker, 0, 4)
	for _, m := range []struct {
		name string
		v    int64
	}{{"oldest transaction (OIT)", oit}, {"oldest active (OAT)", oat}, {"oldest snapshot (OST)", ost}, {"next transaction", next}} {
		out = append(out, TransactionMarker{Name: m.name, Value: m.v, BehindNext: next - m.v})
	}
	return out
}
