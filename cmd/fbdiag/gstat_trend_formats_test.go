package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// writeGrowthDaily copies testdata/growth's five gstat -a -r snapshots
// (a database growing by 2 MiB and 6 to 11 transactions a step) into
// dir with their runs a day apart instead of ten minutes, so that every
// rate a day is shown; the figures are the captured ones.
func writeGrowthDaily(t *testing.T, dir string) {
	t.Helper()
	start := time.Date(2026, 12, 3, 10, 15, 18, 0, time.UTC)
	run := regexp.MustCompile(`(?m)^Gstat (execution|completion) time .*$`)
	for i, step := range []string{"00", "10", "20", "30", "40"} {
		raw := testutil.ReadTestdata(t, "growth", "grow-"+step+"-a-r.txt")
		at := start.AddDate(0, 0, i).Format(time.ANSIC)
		s := run.ReplaceAllString(string(raw), "Gstat ${1} time "+at)
		if err := os.WriteFile(filepath.Join(dir, "grow-"+step+".txt"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gstat trend's headline figures read the same in JSON, the CSV summary,
// OpenMetrics, text and markdown. Over testdata/growth a day apart, Next
// transaction goes 20, 30, 36, 41, 47: 6.5 a day by the least-squares
// slope, which the text, markdown and CSV printed as 7 (rounded in the
// view) where JSON and OpenMetrics have 6.5.
func TestGstatTrendSummaryReadsAlike(t *testing.T) {
	dir := t.TempDir()
	writeGrowthDaily(t, dir)
	js, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", dir)
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); code != 0 || err != nil {
		t.Fatalf("json: exit %d %s %v", code, errs, err)
	}
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "csv", "--table", "summary", dir)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil {
		t.Fatalf("csv: exit %d %s %v", code, errs, err)
	}
	summary := map[string]string{}
	for _, r := range recs[1:] {
		summary[r[0]] = r[1]
	}
	om, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "openmetrics", dir)
	if code != 0 {
		t.Fatalf("openmetrics: exit %d %s", code, errs)
	}
	db := `{database="/var/lib/firebird/3.0/data/h13-grow-2608127074.fdb"}`

	best, _ := jget(doc, "database", "best").(string)
	figures := []struct {
		csv     string
		json    []any
		metric  string // the OpenMetrics family, "" for none
		want    float64
		unit    float64 // the CSV's resolution: 1 for whole bytes, 0 for JSON's float
		textual string  // the text's and markdown's value, "" not checked
	}{
		{"transactions_per_day", []any{"transactions", "per_day"}, "fbdiag_transactions_per_day", 6.5, 0, "6.5 (Next transaction)"},
		{"database_bytes_per_day", []any{"database", "bytes_per_day"}, "fbdiag_database_growth_bytes_per_day", 2109440, 1, "2.01 MiB"},
		{"database_growth_per_day", []any{"database", "growth_per_day"}, "", 0.18787392382898002, 0, "+18.8 % (of the mean size)"},
		{"fit_r2", []any{"database", best, "r2"}, "", 0.9999476698137166, 0, "0.9999"},
		{"database_change_bytes", []any{"database", "size_change"}, "", 8413184, 1, "8.02 MiB"},
	}
	text, _, _ := runCLI(t, nil, "gstat", "trend", dir)
	md, _, _ := runCLI(t, nil, "gstat", "trend", "--format", "markdown", dir)
	for _, f := range figures {
		j := jnum(jget(doc, f.json...))
		if math.Abs(j-f.want) > 1e-9*math.Abs(f.want) {
			t.Errorf("JSON %v = %v, want %v", f.json, j, f.want)
		}
		c, err := strconv.ParseFloat(summary[f.csv], 64)
		if err != nil || math.Abs(c-j) > f.unit/2 {
			t.Errorf("CSV %s = %q, JSON %v", f.csv, summary[f.csv], j)
		}
		if f.metric != "" {
			if m := sampleValue(t, om, f.metric+db); m != j {
				t.Errorf("OpenMetrics %s = %v, JSON %v", f.metric, m, j)
			}
		}
		if f.textual == "" {
			continue
		}
		label := map[string]string{"transactions_per_day": "Transactions a day", "database_bytes_per_day": "Growth a day",
			"database_growth_per_day": "Growth a day, relative", "fit_r2": "R²", "database_change_bytes": "Database change"}[f.csv]
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(label) + ` +` + regexp.QuoteMeta(f.textual) + `$`).MatchString(text) {
			t.Errorf("text: no %q %q in\n%s", label, f.textual, text)
		}
		if !strings.Contains(md, "- **"+label+"**: "+f.textual+"\n") {
			t.Errorf("markdown: no %q %q in\n%s", label, f.textual, md)
		}
	}
	// Each table's rate a day: CSV's bytes are JSON's to the byte
	// (ORDER_LINE 1487667 for 1487667.2), its share JSON's float.
	out, errs, code = runCLI(t, nil, "gstat", "trend", "--format", "csv", "--table", "tables", dir)
	recs, err = csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil {
		t.Fatalf("csv tables: exit %d %s %v", code, errs, err)
	}
	byName := map[string]any{}
	for _, x := range jlist(doc, "tables") {
		byName[jget(x, "name").(string)] = x
	}
	for _, r := range rows(t, "trend tables", recs, len(byName)) {
		x := byName[r.r[0]]
		r.is("growth_per_day", jget(x, "growth_per_day"))
		j := jnum(jget(x, "bytes_per_day"))
		c, err := strconv.ParseFloat(r.r[slices.Index(r.head, "bytes_per_day")], 64)
		if err != nil || math.Abs(c-j) > 0.5 {
			t.Errorf("%s: bytes_per_day CSV %v, JSON %v", r.what, c, j)
		}
		if r.r[0] == "ORDER_LINE" && (c != 1487667 || j != 1487667.2) {
			t.Errorf("ORDER_LINE bytes a day: CSV %v, JSON %v", c, j)
		}
	}
}
