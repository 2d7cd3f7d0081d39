package view

import (
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
)

// The fb30 pair's three resolved warnings with a top of 2: text shows two,
// says how many it left out and how many of each change there are; CSV
// keeps all three.
func TestHistoryDiffWarningChangesLimited(t *testing.T) {
	d := analyze.Diff(historySnap(t, "fb30", "shop-gstat-a-r.txt"), historySnap(t, "fb30", "shop-gstat-r-later.txt"))
	doc := HistoryDiff(d, HistoryOptions{Top: 2})
	text := string(historyRender(t, Text, Options{MoreHint: " (--all shows them)"}, doc))
	for _, want := range []string{
		"resolved  info           table-version-length  table ORDERS     1.05         0.8  version/record…\n" +
			"resolved  info           table-versions        table CUSTOMER  0.333         0.2  versions/record\n" +
			"2 of 3 warning changes shown (--all shows them)\n",
		"in all: 0 appeared, 0 changed severity, 3 resolved; the most severe first\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "table STOCK ") {
		t.Errorf("text shows the third change:\n%s", text)
	}
	csv := string(historyRender(t, CSV, Options{Table: "warning_changes"}, doc))
	if n := strings.Count(csv, "\nresolved,"); n != 3 {
		t.Errorf("CSV has %d resolved rows, want 3:\n%s", n, csv)
	}
}

// The most severe change comes first whatever its kind: a critical that
// appeared, then a warning that went to critical (counted at critical),
// before the infos that were resolved; among equals, appeared before a
// severity change before resolved.
func TestHistoryDiffWarningChangesOrder(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	warn := analyze.Warn
	d := &analyze.SnapshotDiff{
		WarningsAppeared: []analyze.WarningChange{
			{Rule: "table-versions", Kind: "table", Object: "STOCK", Severity: analyze.Info, Values: analyze.FloatPair{nil, v(0.6)}, Threshold: 0.2, Unit: "versions/record"},
			{Rule: "txid-headroom", Kind: "database", Object: "database", Severity: analyze.Critical, Values: analyze.FloatPair{nil, v(250000)}, Threshold: 100000, Unit: "transactions"},
		},
		WarningsChanged: []analyze.WarningChange{
			{Rule: "oat-stuck", Kind: "database", Object: "database", Severity: analyze.Critical, SeverityBefore: &warn, Values: analyze.FloatPair{v(20000), v(200000)}, Threshold: 100000, Unit: "transactions"},
		},
		WarningsResolved: []analyze.WarningChange{
			{Rule: "table-fragments", Kind: "table", Object: "DOCS", Severity: analyze.Info, Values: analyze.FloatPair{v(0.5), nil}, Threshold: 0.1, Unit: "share"},
		},
	}
	tb := diffWarningChanges(d, HistoryOptions{Top: 20})
	var got []string
	for _, r := range tb.Rows {
		got = append(got, r[0].Text+" "+r[1].Text+" "+r[3].Text)
	}
	want := "appeared critical txid-headroom|severity critical oat-stuck|appeared info table-versions|resolved info table-fragments"
	if strings.Join(got, "|") != want {
		t.Errorf("order %q, want %q", strings.Join(got, "|"), want)
	}
}
