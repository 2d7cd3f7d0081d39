package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// KindHistory is the Kind of the sections comparing gstat snapshots of
// one database over time.
const KindHistory = "history"

// HistorySections groups the dated gstat runs by database path and makes
// a History section for each database seen at two times or more: what
// `fbdiag gstat diff` says of the first and last, and the charts of
// `fbdiag gstat trend`. Runs without an execution time, or without a
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
		same, left := analyze.ComparableSnapshots(byDB[db])
		if len(same) >= 2 {
			s := HistorySection(db, same)
			if len(left) > 0 {
				var why []string
				for _, l := range left {
					why = append(why, filepath.Base(l.File)+": "+l.Reason)
				}
				s.Text = append(s.Text, fmt.Sprintf("Left out: %d runs of this database whose size adds up other things (%s).",
					len(left), strings.Join(why, "; ")))
			}
			out = append(out, s)
		}
	}
	return out
}

// HistorySection is the History section of one database's snapshots
// (two or more, dated).
func HistorySection(db string, snaps []*analyze.HistorySnapshot) *Section {
	snaps = slices.Clone(snaps)
	slices.SortStableFunc(snaps, func(a, b *analyze.HistorySnapshot) int { return a.Time.Compare(*b.Time) })
	first, last := snaps[0], snaps[len(snaps)-1]
	d := analyze.Diff(first, last)
	base := filepath.Base(filepath.ToSlash(db))
	s := &Section{ID: "history-" + base, Short: "history " + base, Title: "History: " + db, Kind: KindHistory}
	for _, sn := range snaps {
		if !slices.Contains(s.Sources, sn.Analysis.File) {
			s.Sources = append(s.Sources, sn.Analysis.File)
		}
	}
	between := "at the same time"
	if d.SecondsBetween != nil {
		between = plot.FormatSeconds(*d.SecondsBetween) + " apart"
	}
	s.Text = append(s.Text, fmt.Sprintf("%d gstat snapshots of %s; the first (%s, %s) and the last (%s, %s) are %s. "+
		"The same as fbdiag gstat diff and fbdiag gstat trend on these files.",
		len(snaps), db, filepath.Base(first.Analysis.File), first.Time.Format(time.DateTime),
		filepath.Base(last.Analysis.File), last.Time.Format(time.DateTime), between))

	changed, _ := d.Count(analyze.StatusChanged)
	added, _ := d.Count(analyze.StatusAdded)
	dropped, _ := d.Count(analyze.StatusDropped)
	s.Headlines = append(s.Headlines, Headline{Label: "tables changed / added / dropped", Value: fmt.Sprintf("%d / %d / %d", changed, added, dropped)})
	if d.TransactionsPerHour != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "transactions per hour", Value: strconv.FormatFloat(*d.TransactionsPerHour, 'f', 1, 64)})
	}
	if d.SecondsBetween != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "time between first and last", Value: plot.FormatSeconds(*d.SecondsBetween)})
	}
	if ch := d.Totals.SizeBytes.Change(); ch != nil {
		s.Headlines = append(s.Headlines, Headline{Label: "size change", Value: signed(ch, Size)})
	}

	for _, w := range d.Warnings {
		s.Findings = append(s.Findings, Finding{Severity: "warning", Text: w})
	}
	// The health warnings that changed, as gstat diff lists them.
	for _, l := range []struct {
		what string
		ws   []analyze.WarningChange
	}{{"appeared", d.WarningsAppeared}, {"resolved", d.WarningsResolved}, {"changed severity", d.WarningsChanged}} {
		for _, w := range l.ws {
			sev := string(w.Severity)
			if l.what == "resolved" {
				sev = string(analyze.Info)
			}
			obj := w.Object
			if w.Table != "" {
				obj = w.Table + "." + obj
			}
			v := w.Values[1]
			if v == nil {
				v = w.Values[0]
			}
			s.Findings = append(s.Findings, Finding{Severity: sev, Text: fmt.Sprintf("%s %s on %s: %s %s (threshold %s)",
				w.Rule, l.what, obj, Num(*v), w.Unit, Num(w.Threshold))})
		}
	}
	for _, td := range d.Tables {
		if td.BackVersions == nil {
			continue
		}
		v := Int(td.Versions[0]) + " → " + Int(td.Versions[1])
		switch *td.BackVersions {
		case analyze.VersionsPilingUp:
			s.Findings = append(s.Findings, Finding{Severity: "warning", Text: td.Name + ": back versions piling up, " + v})
		case analyze.VersionsCollected:
			s.Findings = append(s.Findings, Finding{Severity: "info", Text: td.Name + ": back versions collected, " + v})
		}
	}
	s.Tables = append(s.Tables, historyTablesTable(d), historyCountersTable(d))
	s.AddCharts(HistoryCharts(analyze.TrendOf(snaps, 0), 0))
	return s
}

// historyTablesTable lists the tables that changed, biggest size change
// first.
func historyTablesTable(d *analyze.SnapshotDiff) *Table {
	t := &Table{Name: "history_tables", Title: "Tables that changed (first → last snapshot)",
		Columns: Cols("table", "status", ">records", ">change", ">back versions", "back versions are", ">size change")}
	rows := slices.Clone(d.Tables)
	rows = slices.DeleteFunc(rows, func(td analyze.TableDiff) bool { return td.Status == analyze.StatusUnchanged })
	abs := func(p *int64) int64 {
		if p == nil {
			return -1
		}
		return max(*p, -*p)
	}
	slices.SortStableFunc(rows, func(a, b analyze.TableDiff) int { return cmp.Compare(abs(b.SizeBytesChange), abs(a.SizeBytesChange)) })
	for _, td := range rows {
		state := ""
		if td.BackVersions != nil {
			state = strings.ReplaceAll(*td.BackVersions, "_", " ")
		}
		t.Add(td.Name, td.Status, Int(td.Records[0])+" → "+Int(td.Records[1]), signed(td.RecordsChange, Int),
			Int(td.Versions[0])+" → "+Int(td.Versions[1]), state, signed(td.SizeBytesChange, Size))
	}
	if n := len(d.Tables) - len(rows); n > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d unchanged tables not shown", n))
	}
	return t
}

// historyCountersTable is the header counters of both snapshots.
func historyCountersTable(d *analyze.SnapshotDiff) *Table {
	t := &Table{Name: "history_counters", Title: "Transaction counters", Columns: Cols("counter", ">first", ">last", ">change")}
	for _, c := range d.Counters {
		t.Add(c.Name, Int(c.Values[0]), Int(c.Values[1]), signed(c.Change, Int))
	}
	return t
}

// signed prints a change with its sign ("+5000", "-190.0 KiB"); empty
// when unknown.
func signed(p *int64, f func(*int64) string) string {
	switch {
	case p == nil:
		return ""
	case *p < 0:
		v := -*p
		return "-" + f(&v)
	case *p > 0:
		return "+" + f(p)
	}
	return f(p)
}

// historySnapshot places one analysed gstat run in time by its execution
// time (the analysis is the section's, not made again).
func historySnapshot(a *analyze.GstatAnalysis, rep *parse.GstatReport) *analyze.HistorySnapshot {
	return analyze.NewHistorySnapshot(rep, analyze.SnapshotOptions{Analysis: a})
}
