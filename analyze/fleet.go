package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Verdicts of a database.
const (
	VerdictHealthy   = "healthy"
	VerdictAttention = "attention"
	VerdictCritical  = "critical"
	// VerdictUnknown is a database none of whose snapshots showed
	// anything the rules judge (no header, no table, no index: an
	// encryption summary alone): not healthy, not judged.
	VerdictUnknown = "unknown"
)

// Database is what the snapshots of one database say together: the
// verdict of the latest, its headline figures, and its findings each once
// with the number of snapshots that showed it. The HTML report opens with
// one row per database (the fleet view) and report.json lists them.
type Database struct {
	// Database is the path gstat printed (the input's name when it printed
	// none).
	Database string `json:"database"`
	// Verdict is healthy (no current warning), attention (warnings),
	// critical (a critical finding) or unknown (nothing to judge); Reason
	// says why in one line.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// Snapshots are the inputs, oldest first ("file" or "file#2" for the
	// second run of a file); Latest is the last of them.
	Snapshots  []string   `json:"snapshots"`
	Latest     string     `json:"latest"`
	LatestTime *time.Time `json:"latest_time"`
	// SizeBytes is tables plus indices in the latest snapshot that listed
	// them; NextMinusOAT and Versions come from the latest snapshot that
	// printed them.
	SizeBytes    *int64 `json:"size_bytes"`
	NextMinusOAT *int64 `json:"next_minus_oat"`
	Versions     *int64 `json:"versions"`
	// Findings are the current warnings, worst first, each with how many
	// of the snapshots showed it: those the latest snapshot able to show
	// them shows (a header for the database rules, tables for the others).
	Findings []DatabaseFinding `json:"findings"`
	// Resolved are warnings earlier snapshots showed and a later one able
	// to show them does not.
	Resolved []DatabaseFinding `json:"resolved"`

	worst *Warning
}

// DatabaseFinding is one warning of a database across its snapshots.
type DatabaseFinding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Kind     string   `json:"kind"`
	Table    string   `json:"table,omitempty"`
	Object   string   `json:"object"`
	// Snapshots is how many snapshots showed it, Of how many could: those
	// holding what its rule reads (a header, table or index statistics),
	// so that a gstat -h or -d run beside the -a runs does not read as a
	// snapshot where an index finding went away.
	Snapshots int    `json:"snapshots"`
	Of        int    `json:"of"`
	Reason    string `json:"reason"`
	Advice    string `json:"advice"`
	Source    string `json:"source"`
}

// SnapshotName names run r of file for Database.Snapshots.
func SnapshotName(a *GstatAnalysis) string {
	if a.Report == 0 {
		return a.File
	}
	return fmt.Sprintf("%s#%d", a.File, a.Report+1)
}

// DatabaseKey is what tells databases apart: the path in the header, as
// gstat printed it (two servers' /data/shop.fdb are one, which gstat
// text cannot tell apart), else the input's name.
func DatabaseKey(a *GstatAnalysis) string {
	if a.Header != nil && a.Header.Database != nil && *a.Header.Database != "" {
		return *a.Header.Database
	}
	return a.File
}

// Fleet gathers snapshots by database and judges each from its latest
// snapshot, worst first: critical before attention before healthy, then
// by the worst finding's magnitude, then by name.
func Fleet(snaps []*GstatAnalysis) []Database {
	var b FleetBuilder
	for _, a := range snaps {
		b.Add(a)
	}
	return b.Databases()
}

// FleetBuilder is Fleet fed one snapshot at a time: it keeps of each
// snapshot its name, time, totals and header, and of each finding its
// count and its newest copy, so that a caller that drops a snapshot's
// tables and warnings once added (the report, over a year of daily
// snapshots) holds one copy of each finding, not one per snapshot.
type FleetBuilder struct {
	byKey map[string]*fleetDB
	order []string
}

// fleetDB is what a FleetBuilder keeps of one database: its snapshots in
// the order added (name, header and totals alone) and its findings.
type fleetDB struct {
	runs []*GstatAnalysis
	keys map[findingKey]*fleetFinding
}

type findingKey struct{ rule, kind, table, object string }

// fleetFinding is one finding of a database across its snapshots.
type fleetFinding struct {
	count int
	// latest is the copy of the snapshot that sorts last (judge's
	// order), at, and first where the finding was first met in that
	// order: the snapshot and the warning's place in it.
	latest    Warning
	at, first fleetPlace
}

// fleetPlace is a warning's place: its snapshot (in fleetDB.runs) and
// its position there.
type fleetPlace struct{ run, pos int }

// Add adds a snapshot; the builder keeps no pointer to its tables,
// indices or warnings.
func (b *FleetBuilder) Add(a *GstatAnalysis) {
	if b.byKey == nil {
		b.byKey = map[string]*fleetDB{}
	}
	k := DatabaseKey(a)
	d := b.byKey[k]
	if d == nil {
		d = &fleetDB{keys: map[findingKey]*fleetFinding{}}
		b.byKey[k] = d
		b.order = append(b.order, k)
	}
	i := len(d.runs)
	d.runs = append(d.runs, a.Slim())
	for pos, w := range a.Warnings {
		fk := findingKey{w.Rule, w.Kind, w.Table, w.Object}
		here := fleetPlace{i, pos}
		f := d.keys[fk]
		if f == nil {
			d.keys[fk] = &fleetFinding{count: 1, latest: w, at: here, first: here}
			continue
		}
		f.count++
		if f.at.run == i || d.before(f.at.run, i) {
			f.latest, f.at = w, here
		}
		if d.before(i, f.first.run) {
			f.first = here
		}
	}
}

// before is judge's order of the database's snapshots i and j.
func (d *fleetDB) before(i, j int) bool { return SnapshotBefore(d.runs[i], i, d.runs[j], j) }

// SnapshotBefore is the order in which Fleet reads a database's
// snapshots, x and y given to it i-th and j-th: those with an execution
// time first, oldest first, then the others; the order given among
// equals.
func SnapshotBefore(x *GstatAnalysis, i int, y *GstatAnalysis, j int) bool {
	tx, okx := snapTime(x)
	ty, oky := snapTime(y)
	switch {
	case okx && oky:
		if c := tx.Compare(ty); c != 0 {
			return c < 0
		}
	case okx != oky:
		return okx
	}
	return i < j
}

// Databases judges the databases added, worst first (Fleet).
func (b *FleetBuilder) Databases() []Database {
	out := make([]Database, 0, len(b.order))
	for _, k := range b.order {
		out = append(out, b.byKey[k].judge(k))
	}
	slices.SortStableFunc(out, func(a, b Database) int {
		if c := cmp.Compare(VerdictRank(b.Verdict), VerdictRank(a.Verdict)); c != 0 {
			return c
		}
		if a.worst != nil && b.worst != nil {
			if c := cmp.Compare(b.worst.Magnitude, a.worst.Magnitude); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Database, b.Database)
	})
	for i := range out {
		out[i].worst = nil
	}
	return out
}

// VerdictRank orders verdicts, worst highest: critical, attention,
// unknown (a DBA does not know the database is well), healthy.
func VerdictRank(v string) int {
	switch v {
	case VerdictCritical:
		return 3
	case VerdictAttention:
		return 2
	case VerdictUnknown:
		return 1
	}
	return 0
}

// snapTime orders snapshots: gstat's execution time, else input order.
func snapTime(a *GstatAnalysis) (time.Time, bool) {
	if a.Header != nil && a.Header.ExecutionTime != nil {
		return *a.Header.ExecutionTime, true
	}
	return time.Time{}, false
}

func (fd *fleetDB) judge(key string) Database {
	d := Database{Database: key}
	// order are the snapshots oldest first; rank each one's place in it.
	order := make([]int, len(fd.runs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		switch {
		case i == j:
			return 0
		case fd.before(i, j):
			return -1
		}
		return 1 // (a total order: two snapshots are never equal)
	})
	rank := make([]int, len(order))
	runs := make([]*GstatAnalysis, len(order))
	d.Snapshots = make([]string, len(order))
	for r, i := range order {
		rank[i], runs[r] = r, fd.runs[i]
		d.Snapshots[r] = SnapshotName(fd.runs[i])
	}
	last := runs[len(runs)-1]
	d.Latest = d.Snapshots[len(d.Snapshots)-1]
	if t, ok := snapTime(last); ok {
		d.LatestTime = &t
	}
	for i := len(runs) - 1; i >= 0; i-- {
		a := runs[i]
		if d.SizeBytes == nil && a.Totals.Tables > 0 && (a.Totals.TableBytes != nil || a.Totals.IndexBytes != nil) {
			d.SizeBytes = ptr(val0(a.Totals.TableBytes) + val0(a.Totals.IndexBytes))
		}
		if d.Versions == nil && a.Totals.Tables > 0 {
			d.Versions = a.Totals.Versions
		}
		if d.NextMinusOAT == nil && a.Header != nil {
			d.NextMinusOAT = a.Header.NextMinusOAT
		}
	}
	// A finding is current when the latest snapshot that could show it
	// (a header for the database rules, tables for the others) shows it;
	// otherwise it was resolved. A gstat -h taken after a gstat -a -r
	// does not resolve the -a -r's index findings. The findings are
	// taken in the order first met, the snapshots oldest first.
	keys := make([]*fleetFinding, 0, len(fd.keys))
	for _, f := range fd.keys {
		keys = append(keys, f)
	}
	slices.SortFunc(keys, func(x, y *fleetFinding) int {
		return cmp.Or(cmp.Compare(rank[x.first.run], rank[y.first.run]), cmp.Compare(x.first.pos, y.first.pos))
	})
	latestFor := func(w Warning) int {
		for i := len(runs) - 1; i >= 0; i-- {
			if canShow(runs[i], w) {
				return i
			}
		}
		return -1
	}
	var current, resolved []*fleetFinding
	for _, f := range keys {
		if rank[f.at.run] == latestFor(f.latest) {
			current = append(current, f)
		} else {
			resolved = append(resolved, f)
		}
	}
	// (SortWarnings's order)
	byKey := func(x, y *fleetFinding) int { return CompareWarningKeys(x.latest.Key(), y.latest.Key()) }
	slices.SortFunc(current, byKey)
	slices.SortFunc(resolved, byKey)
	finding := func(f *fleetFinding) DatabaseFinding {
		w := f.latest
		of := 0
		for _, a := range runs {
			if canShow(a, w) {
				of++
			}
		}
		return DatabaseFinding{Rule: w.Rule, Severity: w.Severity, Kind: w.Kind, Table: w.Table, Object: w.Object,
			Snapshots: f.count, Of: max(of, f.count), Reason: w.Reason, Advice: w.Advice, Source: w.Source}
	}
	d.Findings = []DatabaseFinding{}
	ws := make([]Warning, len(current))
	for i, f := range current {
		d.Findings = append(d.Findings, finding(f))
		ws[i] = f.latest
	}
	d.Resolved = []DatabaseFinding{}
	for _, f := range resolved {
		d.Resolved = append(d.Resolved, finding(f))
	}
	if len(ws) > 0 {
		d.worst = &ws[0]
	}
	d.Verdict, d.Reason = verdict(ws, last)
	return d
}

// canShow says whether a snapshot holds what a warning's rule reads
// (shownBy).
func canShow(a *GstatAnalysis, w Warning) bool {
	switch shownBy(w.Rule, w.Kind) {
	case byHeader:
		return a.Header != nil
	case byIndices:
		return a.Totals.Indices > 0
	case byRecords:
		return a.Totals.Tables > 0 && a.Totals.Versions != nil // (gstat -r: a -d run prints no records)
	case byTables:
		return a.Totals.Tables > 0
	}
	return a.Totals.Tables > 0 || a.Totals.Indices > 0
}

// What a snapshot must hold to show a warning (shownBy).
const (
	byHeader  = "a header"
	byIndices = "index statistics"
	byRecords = "record statistics"
	byTables  = "table statistics"
	byAny     = "tables or indices"
)

// shownBy is what a snapshot must hold to show a warning of rule and
// kind, in words: the header for the database rules, index statistics
// for the index rules and page-size-small (a gstat -d run has none), table
// statistics for the table rules, with the record statistics (gstat -r)
// all but table-sparse read.
func shownBy(rule, kind string) string {
	switch {
	case kind == "database" && rule != "page-size-small":
		return byHeader
	case kind == "index" || rule == "page-size-small":
		return byIndices
	case kind == "table" && rule != "table-sparse":
		return byRecords
	case kind == "table":
		return byTables
	}
	return byAny
}

// ShownBy is what a snapshot must hold to show f ("index statistics"):
// the snapshots that hold it are the Of that f.Snapshots counts in.
func (f *DatabaseFinding) ShownBy() string { return shownBy(f.Rule, f.Kind) }

// verdict judges a database by its current findings (worst first):
// critical, attention for a warning, healthy when nothing above info
// fired; last is its latest snapshot.
func verdict(ws []Warning, a *GstatAnalysis) (string, string) {
	var crit, warn int
	for _, w := range ws {
		switch w.Severity {
		case Critical:
			crit++
		case Warn:
			warn++
		}
	}
	// "index X on T", as gstat names it: "T.X" reads as a schema and
	// its object in Firebird 6, whose names are SCHEMA.NAME already.
	worst := func() string {
		w := ws[0]
		if w.Kind == "database" {
			return fmt.Sprintf("%s: %s", w.Rule, w.Reason)
		}
		obj := w.Kind + " " + w.Object
		if w.Kind == "index" && w.Table != "" {
			obj += " on " + w.Table
		}
		return fmt.Sprintf("%s, %s: %s", w.Rule, obj, w.Reason)
	}
	more := func(n int, noun string) string {
		if n <= 1 {
			return ""
		}
		return fmt.Sprintf(" (%d %s findings)", n, noun)
	}
	switch {
	case crit > 0:
		return VerdictCritical, worst() + more(crit, "critical")
	case warn > 0:
		return VerdictAttention, worst() + more(warn, "warning")
	}
	indices := fmt.Sprintf("%d %s", a.Totals.Indices, pick(a.Totals.Indices == 1, "index", "indices"))
	var what string
	switch {
	case a.Totals.Tables > 0:
		what = fmt.Sprintf("%d %s, %s", a.Totals.Tables, pick(a.Totals.Tables == 1, "table", "tables"), indices)
	case a.Totals.Indices > 0:
		what = indices
	case a.Header != nil:
		what = "header only"
	default:
		return VerdictUnknown, "nothing to judge: no header page, no table or index statistics"
	}
	return VerdictHealthy, fmt.Sprintf("no warning (%s checked)", what)
}

// pick is one when cond, else other.
func pick(cond bool, one, other string) string {
	if cond {
		return one
	}
	return other
}
