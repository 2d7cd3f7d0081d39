package analyze

import "time"

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

// LiveInput is what fbdiag collect read from a live server, handed over
// by the command as plain figures (analyze does not import the driver).
type LiveInput struct {
	// The snapshot: where and when gstat ran, and the file it was saved to.
	Server, ServerVersion, Database, Switches string
	CollectedAt                               time.Time
	File                                      string
	Lines                                     int
	// The connection: the login plugin the server reports for fbdiag's
	// SQL attachment (nil before Firebird 3), whether its wire is
	// encrypted (nil: unknown) and with which cipher, the cipher of the
	// Services API connection ("" for none), and the level asked for.
	Login          *string
	WireEncrypted  *bool
	WireCipher     string
	ServicesCipher string
	WireCrypt      string
	// MON$DATABASE.
	Attachments                    int
	PageSize, Pages, PageBuffers   int64
	SweepInterval                  int64
	OIT, OAT, OST, NextTransaction int64
	// OldestActive is the oldest transaction of another attachment; nil
	// when none is active.
	OldestActive *LiveTransaction
	// MON$IO_STATS of the database since it was opened.
	PageReads, PageWrites, PageFetches, PageMarks int64
	// Selectivity is CheckSelectivity's result for the snapshot.
	Selectivity []SelectivityCheck
}

// LiveTransaction is the oldest active transaction of another attachment
// and who opened it.
type LiveTransaction struct {
	ID, AgeSeconds, AttachmentID int64
	User                         string
	// Remote names the client; nil for a local attachment.
	RemoteAddress, RemoteProcess *string
	RemotePID                    *int64
}

// LiveAnalysis is the live figures of fbdiag collect and what they mean.
type LiveAnalysis struct {
	LiveInput
	// SizeBytes is the database file: pages × page size.
	SizeBytes int64
	// Markers are OIT, OAT, OST and Next with their distance to Next.
	Markers []TransactionMarker
	// CacheHit is CacheHitShare of the page I/O; nil before any fetch.
	CacheHit *float64
	// Stale counts the indices whose stored selectivity is stale, by the
	// factor StaleFactor (index-stale-statistics.factor); Statements are
	// the SET STATISTICS statements that refresh them, in input order.
	Stale       int
	StaleFactor float64
	Statements  []string
}

// Live works out the figures of what collect read.
func Live(in LiveInput, th Thresholds) *LiveAnalysis {
	a := &LiveAnalysis{LiveInput: in,
		SizeBytes:   in.Pages * in.PageSize,
		Markers:     TransactionMarkers(in.OIT, in.OAT, in.OST, in.NextTransaction),
		CacheHit:    CacheHitShare(in.PageReads, in.PageFetches),
		StaleFactor: th.Get("index-stale-statistics", "factor"),
	}
	for _, c := range in.Selectivity {
		if c.Stale {
			a.Stale++
			a.Statements = append(a.Statements, (&IndexStats{Name: c.Index}).StatisticsAdvice(""))
		}
	}
	return a
}
