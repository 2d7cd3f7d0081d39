package report

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/view"
)

// KindHistory is the Kind of the sections comparing gstat snapshots of
// one database over time.
const KindHistory = "history"

// HistorySections groups the dated gstat runs by database path and makes
// a History section for each database seen at two times or more: what
// `fbdiag gstat diff` says of the first and last, and what `fbdiag gstat
// trend` says of them all. Runs without an execution time, or without a
// database path, cannot be placed and are left out.
func HistorySections(snaps []*analyze.HistorySnapshot) []*Section {
	byDB := map[string][]*analyze.HistorySnapshot{}
	var dbs []string
	for _, s := range snaps {
		h := s.Analysis.Header
		if s.Time == nil || h == nil || h.Database == nil {
			continue
		}
		if _, ok := byDB[*h.Database]; !ok {
			dbs = append(dbs, *h.Database)
		}
		byDB[*h.Database] = append(byDB[*h.Database], s)
	}
	var out []*Section
	for _, db := range dbs {
		// Runs of other gstat switches (-h, -i, -d, -s) add up other
		// figures: a size over them would jump with the switches, not
		// with the data. Those left out are named with the reason, as
		// fbdiag gstat trend lists them.
		runs, again := analyze.CountedOnce(byDB[db])
		same, left := analyze.ComparableSnapshots(runs)
		if len(same) >= 2 {
			s := HistorySection(db, same)
			if len(again) > 0 {
				var which []string
				for _, r := range again {
					which = append(which, filepath.Base(analyze.SnapshotName(r.Run.Analysis))+" as "+filepath.Base(analyze.SnapshotName(r.As.Analysis)))
				}
				s.Text = append(s.Text, fmt.Sprintf("Counted once: %s (the same database, execution time, counters and sizes).",
					strings.Join(which, "; ")))
			}
			if len(left) > 0 {
				var why []string
				for _, l := range left {
					why = append(why, filepath.Base(l.File)+": "+l.Reason)
				}
				s.Text = append(s.Text, fmt.Sprintf("Left out: %s of this database whose size adds up other things (%s).",
					units.Count(len(left), "run"), strings.Join(why, "; ")))
			}
			out = append(out, s)
		}
	}
	return out
}

// historySummaryFigures are the headline fields of the trend view the
// report's summary repeats (it keeps the first two known): how much the
// database grew from the first snapshot to the last, how fast, over how
// long.
var historySummaryFigures = []string{"database_change_bytes", "database_bytes_per_day", "span_seconds"}

// HistorySection is the History section of one database's snapshots
// (two or more, dated): the HTML of the gstat diff view of the latest
// and the one before it (its tables list the objects that changed), and
// of the gstat trend view of them all, one row a snapshot, with the
// trend's charts; the summary takes its figures and warnings from the
// views. What it holds grows with the database's tables, not with its
// snapshots: one diff, one trend, one set of charts.
func HistorySection(db string, snaps []*analyze.HistorySnapshot) *Section {
	snaps = slices.Clone(snaps)
	slices.SortStableFunc(snaps, func(a, b *analyze.HistorySnapshot) int { return a.Time.Compare(*b.Time) })
	first, prev, last := snaps[0], snaps[len(snaps)-2], snaps[len(snaps)-1]
	d := analyze.Diff(prev, last)
	tr := analyze.TrendOf(snaps, 0)
	base := baseName(db)
	s := &Section{ID: "history-" + base, Title: "History: " + db, Kind: KindHistory}
	for _, sn := range snaps {
		if !slices.Contains(s.Sources, sn.Analysis.File) {
			s.Sources = append(s.Sources, sn.Analysis.File)
		}
	}
	apart := func(a, b *analyze.HistorySnapshot) string {
		if a.Time.Equal(*b.Time) {
			return "at the same time"
		}
		return units.Seconds(b.Time.Sub(*a.Time).Seconds()) + " apart"
	}
	at := func(sn *analyze.HistorySnapshot) string {
		return filepath.Base(sn.Analysis.File) + ", " + sn.Time.Format(time.DateTime)
	}
	text := fmt.Sprintf("%d gstat snapshots of %s; the first (%s) and the last (%s) are %s.",
		len(snaps), db, at(first), at(last), apart(first, last))
	if len(snaps) > 2 {
		text += fmt.Sprintf(" The diff compares the last with the one before it (%s), %s.", at(prev), apart(prev, last))
	}
	s.Text = append(s.Text, text+" The same as fbdiag gstat diff and fbdiag gstat trend on these files.")

	docs := []struct {
		heading string
		doc     *view.Doc
		hint    string
	}{
		{"The latest snapshot and the one before (fbdiag gstat diff)", view.HistoryDiff(d, view.HistoryOptions{Top: view.HistoryTop, Changed: true}), " (fbdiag gstat diff --all lists them)"},
		{"Every snapshot (fbdiag gstat trend)", view.HistoryTrend(tr, view.HistoryOptions{Top: view.HistoryTop}), " (fbdiag gstat trend --all lists them)"},
	}
	fields := map[string]view.Field{}
	var b bytes.Buffer
	seen := map[string]bool{}
	for _, x := range docs {
		for _, f := range x.doc.Headline {
			fields[f.Key] = f
		}
		for _, f := range x.doc.Findings {
			if !seen[f.Message] {
				seen[f.Message] = true
				s.Findings = append(s.Findings, Finding{Severity: f.Severity, Text: f.Message})
			}
		}
		// The heading is fbdiag's own text; the view escapes every text
		// it writes (view/html.go).
		fmt.Fprintf(&b, "<h3>%s</h3>\n", template.HTMLEscapeString(x.heading))
		if err := writeFragment(&b, x.doc, x.hint); err != nil {
			s.Err = err.Error()
		}
	}
	s.Fragment = template.HTML(b.String())
	for _, k := range historySummaryFigures {
		if f, ok := fields[k]; ok && !f.Value.Null {
			s.Headlines = append(s.Headlines, Headline{Label: f.Label, Value: f.Text()})
		}
	}
	s.AddCharts(view.HistoryTrendCharts(tr, 0))
	return s
}

// historySnapshot places one analysed gstat run in time (the analysis
// is the section's, not made again).
func historySnapshot(a *analyze.GstatAnalysis, rep *parse.GstatReport) *analyze.HistorySnapshot {
	return analyze.NewHistorySnapshot(rep, analyze.SnapshotOptions{Analysis: a})
}
