package report

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/view"
)

// KindDatabase is the Kind of the section about one database: every
// gstat snapshot of it gathered (analyze.DatabaseKey).
const KindDatabase = "database"

// HeaderField is one figure of a database's header block, as the gstat
// view words it; Class colours it ("critical", "warning", "ok") when a
// rule reads it: the severity of the current finding of that rule, "ok"
// when the snapshot shows the figure and the rule stayed silent.
type HeaderField struct {
	Label, Value, Detail, Class string
}

// headerFields are the gstat view's headline keys of the header block,
// in its order: the transaction markers and their gaps, the sweep, the
// writes, the page and the cache, the structure, the state.
var headerFields = []string{
	"oldest_transaction", "oldest_active", "oldest_snapshot", "next_transaction",
	"oat_minus_oit", "ost_minus_oit", "next_minus_oat", "next_minus_ost", "sweep_gap_share", "transaction_id_headroom",
	"sweep_interval", "forced_writes",
	"page_size", "page_buffers", "page_cache_bytes", "page_cache_total_bytes",
	"ods_version", "firebird_version", "dialect", "attributes", "execution_time",
}

// headerRules are the rules reading a header figure: the field takes the
// colour of the rule's current finding.
var headerRules = map[string]string{
	"next_minus_oat": "oat-stuck", "ost_minus_oit": "sweep-gap", "sweep_gap_share": "sweep-gap",
	"sweep_interval": "sweep-disabled", "transaction_id_headroom": "txid-headroom",
	"forced_writes": "forced-writes-off", "page_buffers": "page-buffers", "ods_version": "ods-old",
	"dialect": "dialect-1", "attributes": "shutdown", "page_size": "page-size-small",
}

// DatabaseSection is the section of one database: the verdict of
// analyze.Fleet and its reason, the header block of the latest snapshot
// that has a header, the recommendations once each across the snapshots,
// the latest snapshot's tables and indices (the gstat view), then the
// history of the earlier ones. runs are the database's kept runs.
func DatabaseSection(d *analyze.Database, runs []GstatRun) *Section {
	base := baseName(d.Database)
	s := &Section{ID: "db-" + base, Title: "Database " + d.Database, Kind: KindDatabase, Database: d}
	byName := map[string]GstatRun{}
	for _, r := range runs {
		byName[analyze.SnapshotName(r.Analysis)] = r
		if !contains(s.Sources, r.Analysis.File) {
			s.Sources = append(s.Sources, r.Analysis.File)
		}
	}
	// Oldest first, as Fleet ordered them.
	var ordered []GstatRun
	for _, n := range d.Snapshots {
		if r, ok := byName[n]; ok {
			ordered = append(ordered, r)
		}
	}
	if len(ordered) == 0 {
		s.Err = "no snapshot of this database was kept"
		return s
	}
	rule := map[string]string{}
	for _, f := range d.Findings {
		if f.Kind == "database" && rule[f.Rule] == "" {
			rule[f.Rule] = string(f.Severity)
		}
	}
	// The header block: the latest snapshot with a header.
	var headerFrom *analyze.GstatAnalysis
	for i := len(ordered) - 1; i >= 0; i-- {
		a := ordered[i].Analysis
		if a.Header == nil {
			continue
		}
		headerFrom = a
		s.HeaderFrom = filepath.Base(analyze.SnapshotName(a))
		fields := map[string]view.Field{}
		for _, f := range view.Gstat(a.Slim(), view.GstatOptions{Top: 1}).Headline { // (the header and totals: none of its warnings)
			fields[f.Key] = f
		}
		for _, k := range headerFields {
			f, ok := fields[k]
			if !ok {
				continue
			}
			v := f.Text()
			if f.Value.Null {
				if f.Unknown == "" {
					continue
				}
				v = f.Unknown
			}
			hf := HeaderField{Label: f.Label, Value: v, Detail: f.Detail}
			if r := headerRules[k]; r != "" {
				switch sev := rule[r]; {
				case sev == "critical" || sev == "warning":
					hf.Class = sev
				case sev == "" && !f.Value.Null:
					hf.Class = "ok"
				}
			}
			s.Header = append(s.Header, hf)
		}
		break
	}
	// The findings of the summary: each once, with its database.
	for _, f := range d.Findings {
		obj := f.Object
		if f.Table != "" {
			obj += " on " + f.Table
		}
		if f.Kind != f.Object {
			obj = f.Kind + " " + obj
		}
		text := base + ": " + obj + ": " + f.Reason
		if len(d.Snapshots) > 1 {
			text += " (" + snapshotsOf(f, len(d.Snapshots)) + ")"
		}
		s.Findings = append(s.Findings, Finding{Severity: string(f.Severity), Text: withAdvice(text, f.Advice)})
	}
	// The latest snapshot with tables in full (else the latest).
	latest := ordered[len(ordered)-1]
	for i := len(ordered) - 1; i >= 0; i-- {
		if ordered[i].Analysis.Totals.Tables > 0 || ordered[i].Analysis.Totals.Indices > 0 {
			latest = ordered[i]
			break
		}
	}
	s.ShownFrom = filepath.Base(analyze.SnapshotName(latest.Analysis))
	s.TablesWithVersions = -1
	if latest.Analysis.Totals.Versions != nil {
		s.TablesWithVersions = 0
		if latest.streamed != nil {
			s.TablesWithVersions = latest.streamed.withVersions // (counted as it was read)
		} else {
			for _, t := range latest.Analysis.Tables {
				if t.Versions != nil && *t.Versions > 0 {
					s.TablesWithVersions++
				}
			}
		}
	}
	// The header block's figures, and the path the title has, are not
	// repeated when the block is of the snapshot shown.
	var omit map[string]bool
	if headerFrom == latest.Analysis {
		omit = map[string]bool{"database": true}
		for _, k := range headerFields {
			omit[k] = true
		}
	}
	g := gstatSection(latest.Analysis, latest.streamed, omit)
	var frag bytes.Buffer
	fmt.Fprintf(&frag, "<h3>Tables and indices of %s</h3>\n", template.HTMLEscapeString(s.ShownFrom))
	frag.WriteString(string(g.Fragment))
	s.Figures = append(s.Figures, g.Figures...)
	if g.Err != "" {
		s.Err = g.Err
	}
	// Earlier snapshots: the diff and trend of the comparable dated ones.
	// The runs read as streams are read again for the diff (runKeeper
	// kept those it may compare), for this section only.
	var snaps []*analyze.HistorySnapshot
	var rereadErr error
	if len(ordered) > 1 {
		snaps, rereadErr = historySnapshots(ordered)
	}
	if rereadErr != nil {
		s.Text = append(s.Text, "No history is drawn: "+rereadErr.Error()+".")
	} else if len(ordered) > 1 {
		if h := HistorySections(snaps); len(h) > 0 {
			frag.WriteString("<h3>History</h3>\n")
			for _, t := range h[0].Text {
				fmt.Fprintf(&frag, "<p>%s</p>\n", isolate(t))
			}
			frag.WriteString(string(h[0].Fragment))
			s.Figures = append(s.Figures, h[0].Figures...)
			s.Headlines = append(s.Headlines, h[0].Headlines...)
		} else if runs, _ := analyze.CountedOnce(snaps); len(runs) == 1 && runs[0].Time != nil {
			s.Text = append(s.Text, fmt.Sprintf("The %d snapshots are one gstat run (the same execution time, counters and sizes), so no history is drawn.", len(snaps)))
		} else {
			s.Text = append(s.Text, "The snapshots cannot be placed in time or do not show the same things, so no history is drawn.")
		}
	}
	// The view escapes every text it writes (view/html.go).
	s.Fragment = template.HTML(frag.String())
	for _, r := range ordered {
		for _, n := range r.Analysis.Notices {
			// (a notice names its file and line already: the run's name
			// only when it says more, the second run of a file "f#2")
			note, name := n.String(), analyze.SnapshotName(r.Analysis)
			if !strings.HasPrefix(note, name+":") {
				note = name + ": " + note
			}
			s.Notices = append(s.Notices, note)
		}
	}
	return s
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// databaseSections makes one section per database of fleet (the
// analyze.Fleet of the runs all), worst first, from the kept runs of
// every gstat input.
func databaseSections(all []GstatRun, fleet []analyze.Database) []*Section {
	byKey := map[string][]GstatRun{}
	for _, r := range all {
		k := analyze.DatabaseKey(r.Analysis)
		byKey[k] = append(byKey[k], r)
	}
	out := make([]*Section, 0, len(fleet))
	for i := range fleet {
		out = append(out, DatabaseSection(&fleet[i], byKey[fleet[i].Database]))
	}
	return out
}

// snapshotLabel is "file" or "file (run n)" for the many-runs note.
func snapshotLabel(in Input, total, kept int) string {
	return fmt.Sprintf("%s: %d runs; the report reads %d of them (the first, the last, evenly spaced).",
		filepath.Base(in.Name), total, kept)
}

// counts are the summary's headline counts over the databases' current
// findings (analyze.Fleet) and the restores' and benchmarks' findings:
// indices with a warning, deep indices, tables holding back versions,
// critical findings and warnings.
func counts(r *Report) []Headline {
	var deepIdx, tablesVer, crit, warn int
	haveVer := false
	// An index with several warnings (ORDERS_CARRIER of the shop sample:
	// low selectivity and sparse) is one index with a warning, as the
	// label says, not one per warning.
	type indexKey struct{ db, table, index string }
	badIdx := map[indexKey]bool{}
	for _, s := range r.Databases {
		for _, f := range s.Database.Findings {
			if f.Kind == "index" && (f.Severity == analyze.Warn || f.Severity == analyze.Critical) {
				badIdx[indexKey{s.Database.Database, f.Table, f.Object}] = true
			}
			if f.Rule == "index-deep" {
				deepIdx++
			}
		}
		if s.TablesWithVersions >= 0 {
			haveVer = true
			tablesVer += s.TablesWithVersions
		}
	}
	for _, f := range r.Summary {
		switch f.Severity {
		case "critical":
			crit++
		case "warning":
			warn++
		}
	}
	var out []Headline
	// The noun agrees with the count: a tile read "1 databases".
	add := func(n int, noun, rest string) {
		out = append(out, Headline{Label: units.Plural(n, noun) + rest, Value: fmt.Sprint(n)})
	}
	if len(r.Databases) > 0 {
		add(len(r.Databases), "database", "")
		add(len(badIdx), "index", " with a warning")
		add(deepIdx, "deep index", " (index-deep)")
		if haveVer {
			add(tablesVer, "table", " holding back versions")
		}
	}
	add(crit, "critical finding", "")
	add(warn, "warning", "")
	return out
}

// fullStop ends s with a full stop unless it ends a sentence already.
func fullStop(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// snapshotsOf says in how many of the snapshots that could show a finding
// it was shown: "4 of 7 snapshots", or, when some runs hold nothing its
// rule reads (a gstat -h or -d beside the -a runs), "5 of 5 snapshots
// with index statistics" rather than "5 of 7", which reads as a finding
// that came and went.
func snapshotsOf(f analyze.DatabaseFinding, total int) string {
	of := f.Of
	if of <= 0 || of > total {
		of = total
	}
	s := fmt.Sprintf("%d of %d snapshot", f.Snapshots, of)
	if of != 1 {
		s += "s"
	}
	if of == total {
		return s
	}
	return s + " with " + f.ShownBy()
}

// findingTarget names what a recommendation is about: "index
// ORDERS_CARRIER", "table CUSTOMER", and "database" alone for a header
// finding, whose object is the word "database" too ("database database").
func findingTarget(f analyze.DatabaseFinding) string {
	if f.Object == "" || f.Object == f.Kind {
		return f.Kind
	}
	return f.Kind + " " + f.Object
}
