package view

import (
	"fmt"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
)

// Collect lays out fbdiag collect: the snapshot's gstat analysis as Gstat
// does, followed by the live figures (LiveTables).
func Collect(g *analyze.GstatAnalysis, l *analyze.LiveAnalysis, opt GstatOptions) *Doc {
	d := Gstat(g, opt)
	d.Tables = append(d.Tables, LiveTables(l)...)
	d.Metrics = append(d.Metrics, liveMetrics(GstatDatabase(g), l)...)
	return d
}

// liveMetrics are the OpenMetrics families of what collect read live: the
// age of the oldest active transaction of the other attachments (0 with
// none), their number, and the indices whose stored selectivity is stale.
func liveMetrics(database string, l *analyze.LiveAnalysis) []MetricFamily {
	db := []Label{{"database", database}}
	one := func(name, help, unit string, v float64) MetricFamily {
		return MetricFamily{Name: name, Help: help, Type: Gauge, Unit: unit, Samples: func(yield func(Sample) bool) {
			yield(Sample{Labels: db, Value: v})
		}}
	}
	age := 0.0
	if oa := l.OldestActive; oa != nil {
		age = float64(oa.AgeSeconds)
	}
	return []MetricFamily{
		one("fbdiag_oldest_active_age_seconds", "Age of the oldest active transaction of the other attachments (MON$TRANSACTIONS; 0 with none)", "seconds", age),
		one("fbdiag_attachments", "Other attachments to the database (MON$ATTACHMENTS)", "", float64(l.Attachments)),
		one("fbdiag_indices_stale_statistics", "Indices whose stored selectivity (RDB$STATISTICS) is off from gstat's by more than index-stale-statistics.factor", "", float64(l.Stale)),
	}
}

// LiveTables are the live figures of fbdiag collect: "snapshot" (where,
// when and how the statistics were read), "transactions" (the markers of
// MON$DATABASE), "io" (MON$IO_STATS) and "selectivity" (the stored index
// selectivity against gstat's, with the statements for the stale ones).
func LiveTables(l *analyze.LiveAnalysis) []*Table {
	snap := &Table{Name: "snapshot", Title: "Snapshot", Rows: [][]Cell{}, Columns: []Column{
		{Key: "item", Title: "item"}, {Key: "value", Title: "value"},
	}}
	for _, r := range []struct {
		item  string
		value Cell
	}{
		{"server", Str(l.Server + " (" + l.ServerVersion + ")")},
		{"connection", Str(connectionText(l))},
		{"database", Str(l.Database)},
		{"switches", Str(l.Switches)},
		{"collected (UTC)", Time(l.CollectedAt.UTC())},
		{"file", Str(l.File)},
		{"gstat lines", Int(int64(l.Lines))},
	} {
		snap.Rows = append(snap.Rows, []Cell{Str(r.item), r.value})
	}

	tx := &Table{Name: "transactions", Title: "Transactions (MON$DATABASE)", Noun: "markers", Rows: [][]Cell{}, Columns: []Column{
		{Key: "marker", Title: "marker"},
		{Key: "value", Title: "value", Kind: CountKind},
		{Key: "behind_next", Title: "behind next", Kind: CountKind},
	}}
	for _, m := range l.Markers {
		tx.Rows = append(tx.Rows, []Cell{Str(m.Name), Int(m.Value), Int(m.BehindNext)})
	}
	tx.Notes = append(tx.Notes, fmt.Sprintf("%s; page size %s, %s (%s), %s, sweep interval %d",
		units.Count(l.Attachments, "other attachment"), units.Size(l.PageSize), units.Count(l.Pages, "page"), units.Size(l.SizeBytes), units.Count(l.PageBuffers, "page buffer"), l.SweepInterval))
	if oa := l.OldestActive; oa != nil {
		tx.Notes = append(tx.Notes, fmt.Sprintf("oldest active transaction %d: %s old, user %s, attachment %d, from %s, process %s (pid %s)",
			oa.ID, units.WholeSeconds(oa.AgeSeconds), oa.User, oa.AttachmentID,
			StrP(oa.RemoteAddress).orDash(), StrP(oa.RemoteProcess).orDash(), IntP(oa.RemotePID).orDash()))
	} else {
		tx.Notes = append(tx.Notes, "no active transaction in other attachments")
	}

	io := &Table{Name: "io", Title: "Page I/O since the database was opened (MON$IO_STATS)", Rows: [][]Cell{}, Columns: []Column{
		{Key: "reads", Title: "reads", Kind: CountKind},
		{Key: "writes", Title: "writes", Kind: CountKind},
		{Key: "fetches", Title: "fetches", Kind: CountKind},
		{Key: "marks", Title: "marks", Kind: CountKind},
		{Key: "cache_hit_share", Title: "cache hit", Kind: ShareKind},
	}}
	io.Rows = append(io.Rows, []Cell{Int(l.PageReads), Int(l.PageWrites), Int(l.PageFetches), Int(l.PageMarks), ShareP(l.CacheHit)})

	ix := &Table{Name: "selectivity", Title: "Index statistics (RDB$INDICES) vs. gstat", Noun: "indices", Rows: [][]Cell{}, Columns: []Column{
		{Key: "table", Title: "table"},
		{Key: "index", Title: "index"},
		{Key: "stored_selectivity", Title: "stored", Kind: NumberKind},
		{Key: "actual_selectivity", Title: "actual", Kind: NumberKind},
		{Key: "unique_keys", Title: "unique keys", Kind: CountKind},
		{Key: "status", Title: "status"},
	}}
	for _, c := range l.Selectivity {
		status := ""
		if c.Stale {
			status = "stale"
		}
		ix.Rows = append(ix.Rows, []Cell{Str(c.Table), Str(c.Index), NumP(c.Stored), NumP(c.Actual), IntP(c.UniqueKeys), Str(status)})
	}
	if l.Stale > 0 {
		ix.Notes = append(ix.Notes, fmt.Sprintf("%d of %s %s stale stored selectivity (never computed, or off by more than %gx);",
			l.Stale, units.Count(len(l.Selectivity), "index"), units.Plural(l.Stale, "has"), l.StaleFactor), "the optimizer plans with the stored value, so run:")
		for _, s := range l.Statements {
			ix.Notes = append(ix.Notes, "  "+s)
		}
	}
	return []*Table{snap, tx, io, ix}
}

// connectionText says how the login and the wire were protected: the
// server's account of fbdiag's SQL attachment, and the cipher the driver
// armed on the Services API connection.
func connectionText(l *analyze.LiveAnalysis) string {
	wire := "not encrypted"
	if l.WireEncrypted == nil {
		wire = "encryption unknown"
	} else if *l.WireEncrypted {
		wire = "encrypted"
	}
	return fmt.Sprintf("login %s, wire %s (%s); services wire %s; --wire-crypt %s", StrP(l.Login).orDash(), wire,
		orNone(l.WireCipher), orNone(l.ServicesCipher), l.WireCrypt)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// orDash is the cell as people read it, "-" when null.
func (c Cell) orDash() string {
	if c.Null {
		return "-"
	}
	return c.Human()
}
