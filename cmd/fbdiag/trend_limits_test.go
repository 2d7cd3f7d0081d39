package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Issue 13 on testdata/growth (a database growing for 40 minutes, real
// gstat runs): the -d and -h runs are left out of the sizes, with the
// reason; 1 GiB is 3.4 days away by the line, 125 times the 39 min 28 s
// observed: unreliable, in the text, the JSON and the charts (no forecast
// chart; the size chart's title says why).
func TestGstatTrendUnreliableLeftOut(t *testing.T) {
	dir := testutil.Testdata(t, "growth")
	png := filepath.Join(t.TempDir(), "charts")
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--until", "1GB", "--png", png, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkHistWidth(t, out)
	wantLines(t, out,
		"Database    6.7 MiB -> 14.7 MiB (tables + indices)\n",
		"Forecast    1.0 GiB: unreliable\n"+
			"            the linear fit reaches the target 3d 10:22:51 after the last snapshot, 125× the 0:39:29\n"+
			"            the snapshots span; fbdiag forecasts no further ahead than 1× the span\n"+
			"            exponential fit: unreliable\n",
		"Left out    grow-15-d.txt: no index statistics (gstat -d): its size counts the tables only\n"+
			"            grow-20-h.txt: no table statistics (gstat -h or -e): no size\n",
		"* ORDER_LINE    9.2 MiB    +5.7 MiB                  linear       0.9998  unreliable\n")
	if r := strings.Join(row(out, "3", "2026-12-03"), " "); !strings.HasPrefix(r, "3 2026-12-03 10:29:49 6 7.4 MiB (left out) 25 30 ") {
		t.Errorf("the -d run's row %q", r)
	}
	if strings.Contains(out, "in 3.4 days") {
		t.Errorf("a date 125 times the span away given as a forecast:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(png, "history-forecast.png")); !os.IsNotExist(err) {
		t.Errorf("forecast chart written for an unreliable forecast: %v", err)
	}
	if _, err := os.Stat(filepath.Join(png, "history-size.png")); err != nil {
		t.Error(err)
	}

	out, _, code = runCLI(t, nil, "gstat", "trend", "--format", "json", "--until", "1GB", dir)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var tr struct {
		LeftOut []struct {
			File   string `json:"file"`
			Reason string `json:"reason"`
		} `json:"left_out"`
		Database struct {
			Points []struct {
				SizeBytes *int64 `json:"size_bytes"`
			} `json:"points"`
			Forecast struct {
				Status       string   `json:"status"`
				SpanMultiple *float64 `json:"span_multiple"`
				Reason       string   `json:"reason"`
			} `json:"forecast"`
		} `json:"database"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	fc := tr.Database.Forecast
	if len(tr.LeftOut) != 2 || !strings.HasSuffix(tr.LeftOut[0].File, "grow-15-d.txt") || tr.Database.Points[2].SizeBytes != nil ||
		fc.Status != "unreliable" || fc.SpanMultiple == nil || math.Abs(*fc.SpanMultiple-125.19) > 0.01 || !strings.HasPrefix(fc.Reason, "the linear fit reaches") {
		t.Errorf("json %+v", tr)
	}

	// The first and the last snapshot alone: refused, and the line
	// through them has no R².
	two := []string{filepath.Join(dir, "grow-00-a-r.txt"), filepath.Join(dir, "grow-40-a-r.txt")}
	out, _, code = runCLI(t, nil, append([]string{"gstat", "trend", "--until", "1GB"}, two...)...)
	if code != 0 {
		t.Fatalf("two: exit %d", code)
	}
	wantLines(t, out, "Forecast    1.0 GiB: refused\n"+
		"            2 sizes: a line through 2 points fits them exactly and has no error estimate; a forecast\n"+
		"            needs 3 comparable snapshots or more\n",
		"* ORDER_LINE    9.2 MiB    +5.7 MiB                  line (2 sizes)      refused\n")
	if strings.Contains(out, "1.0000") {
		t.Errorf("an R² for 2 sizes:\n%s", out)
	}
}

// Issue 13 on testdata/growth: the first snapshot was taken 3 s after the
// database was created, so the rate's 1 min 24 s for its OAT is left out;
// the later OAT (a snapshot transaction opened at 10:20:18, really 24 min
// 35 s old) is estimated at 22 min 31 s, within the 29 min 34 s since the
// first snapshot (it started after it). The warnings that appeared are
// listed, with their figures, in the text and the JSON; against the -d run
// the sizes and the warnings are not compared.
func TestGstatDiffOATBoundsAndWarnings(t *testing.T) {
	a, b := testutil.Testdata(t, "growth", "grow-00-a-r.txt"), testutil.Testdata(t, "growth", "grow-30-a-r.txt")
	out, errs, code := runCLI(t, nil, "gstat", "diff", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkHistWidth(t, out)
	wantLines(t, out,
		"OAT age     before: at most 3 s (the database was created 3.000 s before; the rate estimate,\n"+
			"                    0:01:24, is longer than that: left out)\n"+
			"            after:  22 min 31 s, at most 29 min 34 s\n",
		"appeared  info      table-versions         STOCK                      0.6  0.2 versions/record\n")
	out, _, code = runCLI(t, nil, "gstat", "diff", "--format", "json", a, b)
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var d struct {
		OATAgeHours [2]*float64 `json:"oat_age_hours"`
		OATAge      [2]struct {
			EstimateHours *float64 `json:"estimate_hours"`
			MinHours      *float64 `json:"min_hours"`
			MaxHours      *float64 `json:"max_hours"`
			Note          string   `json:"note"`
		} `json:"oat_age"`
		Appeared []struct {
			Rule      string      `json:"rule"`
			Object    string      `json:"object"`
			Severity  string      `json:"severity"`
			Values    [2]*float64 `json:"values"`
			Threshold float64     `json:"threshold"`
		} `json:"warnings_appeared"`
		Resolved       []any `json:"warnings_resolved"`
		SizeComparable bool  `json:"size_comparable"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	before, after := d.OATAge[0], d.OATAge[1]
	if d.OATAgeHours[0] != nil || before.EstimateHours != nil || math.Abs(*before.MaxHours*3600-3) > 1e-9 ||
		math.Abs(*after.EstimateHours*3600-1351.6) > 0.1 || math.Abs(*after.MaxHours*3600-1774) > 1e-9 || *after.MinHours != 0 {
		t.Errorf("oat age %+v", d.OATAge)
	}
	found := false
	for _, w := range d.Appeared {
		if w.Rule == "table-versions" && w.Object == "STOCK" {
			found = w.Severity == "info" && w.Values[0] == nil && *w.Values[1] == 0.6 && w.Threshold == 0.2
		}
	}
	if !found || len(d.Resolved) != 0 || !d.SizeComparable {
		t.Errorf("appeared %+v resolved %v size comparable %v", d.Appeared, d.Resolved, d.SizeComparable)
	}

	out, _, code = runCLI(t, nil, "gstat", "diff", testutil.Testdata(t, "growth", "grow-10-a-r.txt"), testutil.Testdata(t, "growth", "grow-15-d.txt"))
	if code != 0 {
		t.Fatalf("-d exit %d", code)
	}
	wantLines(t, out,
		"Indices     0 changed, 0 added, 0 dropped, 0 unchanged, 10 not shown in one snapshot\n",
		"Size        8.7 MiB -> 7.4 MiB (not comparable: see the warning)\n",
		"warning: sizes do not compare: the later snapshot has no index statistics (gstat -d): its size\ncounts the tables only\n")
}
