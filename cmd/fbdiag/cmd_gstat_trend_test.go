package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gstat trend prints the trend view: the same bytes as its golden files
// on testdata/growth (a folder of seven runs, with a 1 GiB target) and on
// the fb30 pair, in text, markdown, CSV and OpenMetrics.
func TestGstatTrendPrintsTheView(t *testing.T) {
	for format, ext := range map[string]string{"text": "txt", "markdown": "md", "csv": "csv", "openmetrics": "om"} {
		historyGolden(t, "history-trend-growth."+ext, "gstat", "trend", "--format", format, "--until", "1GB", "testdata/growth")
	}
	out := historyGolden(t, "history-trend-fb30.txt", "gstat", "trend", "testdata/fb30/shop-gstat-a-r.txt", "testdata/fb30/shop-gstat-r-later.txt")
	assertWidth(t, out)
	historyGolden(t, "history-trend-growth-tables.csv", "gstat", "trend", "--format", "csv", "--table", "tables", "--until", "1GiB", "testdata/growth")
}

// writeGrowingShop writes daily snapshots built from the real gstat -a -r
// output: execution time moved one day per file and ORDERS' data pages
// set to pages[i] (nothing else edited, so only ORDERS grows).
func writeGrowingShop(t *testing.T, dir string, pages ...int) {
	t.Helper()
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	start := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC)
	for i, p := range pages {
		s := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:09:54 2026",
			"Gstat execution time "+start.AddDate(0, 0, i).Format(time.ANSIC), 1)
		s = strings.Replace(s, "Data pages: 808, average fill: 67%", fmt.Sprintf("Data pages: %d, average fill: 67%%", p), 1)
		// Named so that the file order is not the time order.
		name := filepath.Join(dir, fmt.Sprintf("snap-%c.txt", 'z'-i))
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type trendJSON struct {
	Snapshots []struct {
		File string     `json:"file"`
		Time *time.Time `json:"time"`
	} `json:"snapshots"`
	UntilBytes *int64 `json:"until_bytes"`
	Database   struct {
		BytesPerDay    *float64 `json:"bytes_per_day"`
		PerDayReliable bool     `json:"per_day_reliable"`
		SpanDays       float64  `json:"span_days"`
		Best           *string  `json:"best"`
		Forecast       *struct {
			Status   string     `json:"status"`
			Date     *time.Time `json:"date"`
			Earliest *time.Time `json:"earliest"`
			Latest   *time.Time `json:"latest"`
		} `json:"forecast"`
	} `json:"database"`
	Tables []struct {
		Name        string   `json:"name"`
		BytesPerDay *float64 `json:"bytes_per_day"`
		Fastest     bool     `json:"fastest"`
	} `json:"tables"`
}

// Four daily snapshots of a folder in which ORDERS grows by 100 pages
// (800 KiB) a day, exactly, with notes beside them: a README and a
// README.md quoting a table line of gstat, which the gstat reader alone
// would take for a snapshot (issue 14), are skipped and named.
func TestGstatTrendFolder(t *testing.T) {
	dir := t.TempDir()
	writeGrowingShop(t, dir, 808, 908, 1008, 1108)
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("snapshots of shop.fdb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := "# Snapshots of shop.fdb\n\nTaken nightly with `gstat -a -r`; the table to watch:\n\nORDERS (128)\n"
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	pngDir := filepath.Join(t.TempDir(), "charts")
	// The database is 64069632 bytes on the first day (tables + indices);
	// 65 MiB = 68157440 is (68157440 − 64069632)/819200 = 4.99 days on,
	// 2 days after the last snapshot: within the 3 days observed.
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", "--until", "65MiB", "--png", pngDir, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var tr trendJSON
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Snapshots) != 4 || !strings.HasSuffix(tr.Snapshots[0].File, "snap-z.txt") || !strings.HasSuffix(tr.Snapshots[3].File, "snap-w.txt") {
		t.Fatalf("snapshots %s", jsonOf(tr.Snapshots))
	}
	for _, name := range []string{"README", "README.md"} {
		want := "skipped: " + filepath.Join(dir, name) + ": not gstat output (no gstat, gbak, benchmark, bench run or table lines in the first "
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %q", want, errs)
		}
	}
	if !is64(tr.UntilBytes, 65<<20) {
		t.Errorf("until_bytes %v", tr.UntilBytes)
	}
	db := tr.Database
	if db.BytesPerDay == nil || math.Abs(*db.BytesPerDay-819200) > 1e-6 || db.Best == nil || *db.Best != "linear" || !db.PerDayReliable || db.SpanDays != 3 {
		t.Errorf("database bytes/day %s best %s reliable %v over %v days", jsonOf(db.BytesPerDay), jsonOf(db.Best), db.PerDayReliable, db.SpanDays)
	}
	want := time.Date(2026, 12, 2, 14, 9, 54, 0, time.UTC).Add(time.Duration((68157440.0 - 64069632) / 819200 * 24 * float64(time.Hour)))
	if fc := db.Forecast; fc == nil || fc.Status != "forecast" || fc.Date == nil || fc.Date.Sub(want).Abs() > time.Minute {
		t.Errorf("forecast %s, want %s", jsonOf(db.Forecast), want)
	}
	if len(tr.Tables) != 6 || tr.Tables[0].Name != "ORDERS" || !tr.Tables[0].Fastest || tr.Tables[1].Fastest {
		t.Errorf("tables %s", jsonOf(tr.Tables))
	}
	for _, name := range []string{"history-size.png", "history-versions.png", "history-forecast.png"} {
		f, err := os.Open(filepath.Join(pngDir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 675 {
			t.Errorf("%s is %v", name, b)
		}
	}
	if ents, _ := os.ReadDir(pngDir); len(ents) != 3 {
		t.Errorf("%d files in the chart folder, want 3 (no temporary files left)", len(ents))
	}

	// The text form: the growth a day, the forecast with its interval,
	// ORDERS first at +800 KiB a day (+10.4 % of its mean size), reaching
	// 65 MiB only in 2027: 39 times the 3 days, unreliable.
	out, _, code = runCLI(t, nil, "gstat", "trend", "--until", "65MiB", dir)
	if code != 0 {
		t.Fatalf("text exit %d", code)
	}
	assertWidth(t, out)
	wantLines(t, out,
		"Growth a day               800 KiB\n",
		"Growth a day, relative     +1.3 % (of the mean size)\n",
		"Best fit                   linear\n",
		"Target                     65.0 MiB\n",
		"Forecast                   forecast (linear fit)\n",
		"Reaches the target         2026-12-07 13:55:30\n",
		"After the last snapshot    1d 23:45:36\n",
		"Earliest (95 %)            2026-12-07 13:55:30\n",
		"Latest (95 %)              2026-12-07 13:55:30\n",
		"By the exponential fit     forecast on 2026-12-07 12:19:21\n", // the linear fit 13:55:30: the date alone read the same
		"Transactions a day         0 (Next transaction)\n",
		"Fastest growing            ORDERS\n",
		"ORDERS      8.66 MiB  2.34 MiB   +37.1 %  800 KiB  +10.4 %  linear  1.0000  unreliable\n")
	// The same folder as a diff of the first and the last day: 300 pages
	// in 3 days, 800 KiB a day.
	out, errs, code = runCLI(t, nil, "gstat", "diff", filepath.Join(dir, "snap-z.txt"), filepath.Join(dir, "snap-w.txt"))
	if code != 0 {
		t.Fatalf("diff exit %d: %s", code, errs)
	}
	wantLines(t, out, "Between                3d 0:00:00\n",
		"ORDERS      changed     100000          0      5000  steady   2.34 MiB   +37.1 %  800 KiB\n")
	// A README named on the command line is an error, not a snapshot.
	_, errs, code = runCLI(t, nil, "gstat", "trend", filepath.Join(dir, "README.md"), filepath.Join(dir, "snap-z.txt"))
	if code != 1 || !strings.Contains(errs, "README.md: not gstat output") {
		t.Errorf("README.md named: exit %d, %q", code, errs)
	}
}

// Header-only snapshots (gstat -h) have counters but no sizes: they are
// placed in time with null sizes, nothing is fitted on one size, and no
// chart is drawn from no values.
func TestGstatTrendHeaderOnly(t *testing.T) {
	h := testutil.Testdata(t, "fb30", "shop-gstat-h.txt")
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", h, testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var tr struct {
		Snapshots []struct {
			SizeBytes *int64 `json:"size_bytes"`
		} `json:"snapshots"`
		Days     float64 `json:"days"`
		Database struct {
			SizeChange  *int64   `json:"size_change"`
			BytesPerDay *float64 `json:"bytes_per_day"`
		} `json:"database"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	// 14:14:21 (-h) and 14:14:32 (-r): 11 s apart.
	if len(tr.Snapshots) != 2 || tr.Snapshots[0].SizeBytes != nil || !is64(tr.Snapshots[1].SizeBytes, 63586304) ||
		math.Abs(tr.Days*86400-11) > 1e-6 {
		t.Errorf("snapshots %s, days %v", jsonOf(tr.Snapshots), tr.Days)
	}
	if tr.Database.SizeChange != nil || tr.Database.BytesPerDay != nil {
		t.Errorf("database change %s per day %s, want null", jsonOf(tr.Database.SizeChange), jsonOf(tr.Database.BytesPerDay))
	}
	pngDir := t.TempDir()
	_, errs, code = runCLI(t, nil, "gstat", "trend", "--png", pngDir, h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"no history-size chart", "no history-versions chart"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q: %q", w, errs)
		}
	}
	out, _, _ = runCLI(t, nil, "gstat", "trend", h)
	wantLines(t, out, "WARNING  gstat-trend  snapshots\n         a trend needs at least 2 snapshots with an execution time\n")
	if _, errs, _ := runCLI(t, nil, "gstat", "trend", "--format", "json", h); !strings.Contains(errs, "warning: a trend needs at least 2 snapshots") {
		t.Errorf("JSON: stderr lacks the warning: %q", errs)
	}
	if ents, _ := os.ReadDir(pngDir); len(ents) != 0 {
		t.Errorf("%d files written from a header-only snapshot", len(ents))
	}
}

// An excerpt without the "Gstat execution time" line is dated by its
// file's modification time, and says so.
func TestGstatTrendFileTime(t *testing.T) {
	raw := testutil.ReadTestdata(t, "fb30", "shop-gstat-r-later.txt")
	// The real later snapshot with its execution time line removed.
	text := strings.Replace(string(raw), "Gstat execution time Wed Dec  2 14:14:32 2026\n", "", 1)
	if text == string(raw) {
		t.Fatal("execution time line not found")
	}
	path := filepath.Join(t.TempDir(), "later-no-time.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 12, 3, 14, 9, 54, 0, time.UTC)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	a := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", a, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, path+": run 1 has no execution time; dated by the file's modification time 2026-12-03 14:09:54") {
		t.Errorf("stderr %q", errs)
	}
	var tr struct {
		Snapshots []struct {
			Time       *time.Time `json:"time"`
			TimeSource string     `json:"time_source"`
		} `json:"snapshots"`
		Days float64 `json:"days"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Snapshots) != 2 || tr.Snapshots[1].TimeSource != "file_mtime" || !tr.Snapshots[1].Time.Equal(mtime) ||
		tr.Snapshots[0].TimeSource != "execution_time" || tr.Days != 1 {
		t.Errorf("snapshots %s days %v", jsonOf(tr.Snapshots), tr.Days)
	}
	out, _, _ = runCLI(t, nil, "gstat", "trend", "--format", "csv", a, path)
	recs := csvRows(t, out)
	if got := csvRow(recs, "2"); got != "2,later-no-time,2026-12-03T14:09:54,file,12.0,6,63586304,counted,26,26" {
		t.Errorf("second snapshot %q", got)
	}
	out, _, _ = runCLI(t, nil, "gstat", "trend", a, path)
	wantLines(t, out, "dated by file: the run has no execution time, its file's modification time stands for it\n")
}

// The fb30 pair is 4 min 38 s apart: trend printed "Growth -143.3 MiB per
// day (-235.34%/day)" and ORDERS at -1577.62 %/day, figures a day from
// minutes; the rates are not shown (history-rate.min_span), the JSON has
// them.
func TestGstatTrendMinutesApartHidesRates(t *testing.T) {
	pair := []string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt")}
	out, errs, code := runCLI(t, nil, append([]string{"gstat", "trend"}, pair...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantLines(t, out,
		"Growth a day               not shown (0:04:38 of sizes, under 1:00:00)\n",
		"ORDERS      6.00 MiB   -320 KiB    -5.0 %                  linear\n")
	for _, bad := range []string{"MiB per day", "-1577", "-235"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
	js, _, _ := runCLI(t, nil, append([]string{"gstat", "trend", "--format", "json"}, pair...)...)
	if !strings.Contains(js, `"bytes_per_day": -`) || !strings.Contains(js, `"per_day_reliable": false`) {
		t.Errorf("JSON lost bytes_per_day:\n%.2000s", js)
	}
	// OpenMetrics has no rate a day either: none of the families has a
	// sample.
	om, _, _ := runCLI(t, nil, append([]string{"gstat", "trend", "--format", "openmetrics"}, pair...)...)
	if strings.Contains(om, "fbdiag_database_growth_bytes_per_day{") || strings.Contains(om, "fbdiag_table_growth_bytes_per_day{") ||
		!strings.Contains(om, `fbdiag_table_size_bytes{database="/var/lib/firebird/data/shop.fdb",table="ORDERS"} 6291456`+"\n") {
		t.Errorf("openmetrics:\n%s", om)
	}
}

// Daily snapshots give rates a day in OpenMetrics: ORDERS 819200 bytes a
// day, the database as much, from the latest snapshot's figures.
func TestGstatTrendOpenMetricsRates(t *testing.T) {
	dir := t.TempDir()
	writeGrowingShop(t, dir, 808, 908, 1008, 1108)
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "openmetrics", "--until", "65MiB", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	db := `{database="/var/lib/firebird/data/shop.fdb"}`
	wantLines(t, out,
		`fbdiag_table_size_bytes{database="/var/lib/firebird/data/shop.fdb",table="ORDERS"} 9076736`+"\n",
		`fbdiag_table_growth_bytes_per_day{database="/var/lib/firebird/data/shop.fdb",table="CUSTOMER"} 0`+"\n",
		"fbdiag_transactions_per_day"+db+" 0\n",
		"fbdiag_next_transaction"+db+" 18\n",
		// 2026-12-05 14:09:54 and the crossing 2026-12-07 13:55:30.
		"fbdiag_snapshot_timestamp_seconds"+db+" 1796479794\n",
		"fbdiag_database_forecast_timestamp_seconds"+db+" 1796651730\n",
		"# EOF\n")
	for _, sample := range []string{"fbdiag_database_growth_bytes_per_day" + db, `fbdiag_table_growth_bytes_per_day{database="/var/lib/firebird/data/shop.fdb",table="ORDERS"}`} {
		if v := sampleValue(t, out, sample); math.Abs(v-819200) > 1e-6 {
			t.Errorf("%s = %v, want 819200", sample, v)
		}
	}
}

// sampleValue is the value of one sample of an OpenMetrics exposition.
func sampleValue(t *testing.T, out, sample string) float64 {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, sample+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Errorf("no sample %s in\n%s", sample, out)
	return math.NaN()
}

// A folder of snapshots that also holds the charts 'gstat trend --png'
// wrote there: the PNGs are skipped as not gstat, not an error.
func TestGstatTrendFolderWithCharts(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shop-gstat-a-r.txt", "shop-gstat-r-later.txt"} {
		data := testutil.ReadTestdata(t, "fb30", name)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := runCLI(t, nil, "gstat", "trend", "--png", dir, dir)
	if code != 0 || !strings.Contains(errs, "wrote "+filepath.Join(dir, "history-size.png")) {
		t.Fatalf("first run: exit %d, stderr %q", code, errs)
	}
	out, errs, code := runCLI(t, nil, "gstat", "trend", dir)
	want := "skipped: " + filepath.Join(dir, "history-size.png") + ": binary data"
	if code != 0 || !strings.Contains(errs, want) || !strings.Contains(out, "Snapshots                  2\n") {
		t.Errorf("second run: exit %d, stderr %q; want %q\n%s", code, errs, want, out)
	}
}

// A 2018 snapshot before the fb30 pair: the span is 3164 days, but STOCK
// and ORDERS have sizes only in the pair, minutes apart; the 2018
// snapshot is of another database (FBTEST30.FDB), left out of the sizes
// and the counters, and the pair's two sizes forecast nothing.
func TestGstatTrendTableRatesOwnSpan(t *testing.T) {
	args := []string{"gstat", "trend", "--until", "100GB",
		testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"),
		testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out")}
	out, errs, code := runCLI(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantLines(t, out,
		"Growth a day               not shown (0:04:38 of sizes, under 1:00:00)\n",
		"Target                     100 GiB\n",
		"Forecast                   refused (linear fit) (see the notes)\n",
		"another database (/home/fdb/test/FBTEST30.FDB)",
		"table           size     Δ size  Δ size %  a day  % a day  fit     R²  at 100 GiB  in\n",
		"STOCK       3.56 MiB  -64.0 KiB    -1.7 %                  linear      refused\n",
		// The counters of the shop pair only, 278 s apart.
		"Transactions a day         not shown (0:04:38 of counters, under 1:00:00)\n",
		"a day: not shown for a table whose sizes span under 1:00:00 (history-rate.min_span); the JSON has\n")
	assertWidth(t, out)
	js, errs, code := runCLI(t, nil, append([]string{"gstat", "trend", "--format", "json"}, args[2:]...)...)
	if code != 0 || !strings.Contains(js, `"exponential": null`) {
		t.Errorf("JSON: exit %d, stderr %q", code, errs)
	}
}

// --until reads sizes as units.ParseSize does, GB meaning GiB, and shows
// them in the same units; a bad size, a bad --top and an unknown table
// are usage errors.
func TestGstatTrendUntilAndErrors(t *testing.T) {
	h := testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")
	for in, want := range map[string]int64{"100GB": 100 << 30, "100 GiB": 100 << 30, "2T": 2 << 40, "512MiB": 512 << 20, "64069632": 64069632} {
		out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", "--until", in, h)
		var tr trendJSON
		if code != 0 || json.Unmarshal([]byte(out), &tr) != nil || !is64(tr.UntilBytes, want) {
			t.Errorf("--until %q: exit %d %s, until_bytes %s, want %d", in, code, errs, jsonOf(tr.UntilBytes), want)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--until", "lots"}, `--until: size "lots": no number`},
		{[]string{"--until", "0"}, `--until: size "0": want a positive size`},
		{[]string{"--until", "12 parsecs"}, `unknown unit "parsecs"`},
		{[]string{"--top", "-1"}, "--top must be 0 or more"},
		{[]string{"--format", "csv", "--table", "indices"}, `--table: no table "indices" (want one of snapshots, tables, left_out, summary, warnings)`},
		{[]string{"--format", "html"}, `unknown format "html"`},
	} {
		_, errs, code := runCLI(t, nil, append(append([]string{"gstat", "trend"}, tc.args...), h)...)
		if code != 2 || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.msg)
		}
	}
	if _, errs, code := runCLI(t, nil, "gstat", "trend"); code != 2 || !strings.Contains(errs, "no snapshots") {
		t.Errorf("no input: exit %d %q", code, errs)
	}
}

// A run cut short (no Gstat completion time) beside a whole one, as gstat
// trend and gstat diff read them from files (streamed): the cut run's size
// is left out of the trend, and the diff says the sizes do not compare.
func TestGstatCutRunStreamed(t *testing.T) {
	raw := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	dir := t.TempDir()
	whole, cut := filepath.Join(dir, "whole.txt"), filepath.Join(dir, "cut.txt")
	if os.WriteFile(whole, []byte(raw), 0o644) != nil || os.WriteFile(cut, []byte(strings.Join(strings.SplitAfter(raw, "\n")[:100], "")), 0o644) != nil {
		t.Fatal("write")
	}
	out, _, code := runCLI(t, nil, "gstat", "trend", "--format", "csv", "--table", "left_out", dir)
	if want := "snapshot,time,reason\ncut,2026-12-02T14:09:54,\"no Gstat completion time, which gstat prints last: the run was cut short, its size counts the tables before the cut\"\n"; code != 0 || out != want {
		t.Errorf("trend: exit %d\n%s\nwant\n%s", code, out, want)
	}
	out, _, code = runCLI(t, nil, "gstat", "diff", "--format", "csv", "--table", "warnings", whole, cut)
	if !strings.Contains(out, "sizes do not compare: the later snapshot has no Gstat completion time") || code != 0 {
		t.Errorf("diff: exit %d\n%s", code, out)
	}
}

// A gstat -h run after the -a runs (an hourly -h beside a nightly -a):
// OpenMetrics gave the last -a run's counters and time (grow-10: Next 30,
// 10:25:19) though the -h run at 10:34:50 had Next 36, so an alert on
// Next − OAT saw the night's figures all day. The counters and time are
// now the -h run's, the sizes still the last -a run's.
func TestGstatTrendOpenMetricsLatestHeader(t *testing.T) {
	var args []string
	for _, f := range []string{"grow-00-a-r.txt", "grow-10-a-r.txt", "grow-20-h.txt"} {
		args = append(args, testutil.Testdata(t, "growth", f))
	}
	out, errs, code := runCLI(t, nil, append([]string{"gstat", "trend", "--format", "openmetrics"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	db := `{database="/var/lib/firebird/3.0/data/h13-grow-2608127074.fdb"}`
	wantLines(t, out,
		"fbdiag_oldest_transaction"+db+" 24\n",
		"fbdiag_oldest_active"+db+" 25\n",
		"fbdiag_next_transaction"+db+" 36\n",
		// 2026-12-03 10:34:50, the -h run.
		"fbdiag_snapshot_timestamp_seconds"+db+" 1796294090\n",
		// grow-10's tables and ORDERS, the -h run having no size.
		"fbdiag_tables_size_bytes"+db+" 7806976\n",
		`fbdiag_table_size_bytes{database="/var/lib/firebird/3.0/data/h13-grow-2608127074.fdb",table="ORDERS"} 917504`+"\n")
}

// A file named twice, or a folder and a file in it, is read once: it was
// read twice and its second run "skipped: …/shop-gstat-a-r.txt: the same
// gstat run as …/shop-gstat-a-r.txt", the file compared with itself.
func TestGstatTrendFileNamedTwiceReadOnce(t *testing.T) {
	t.Chdir(testutil.Root(t))
	a := filepath.Join("testdata", "fb30", "shop-gstat-a-r.txt")
	later := filepath.Join("testdata", "fb30", "shop-gstat-r-later.txt")
	out, errs, code := runCLI(t, nil, "gstat", "trend", "--format", "json", a, later, a)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "skipped: " + a + ": the same file as " + a + ", read once\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	var tr trendJSON
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Snapshots) != 2 || tr.Snapshots[0].File != a || tr.Snapshots[1].File != later {
		t.Errorf("snapshots %s", jsonOf(tr.Snapshots))
	}
	dir := t.TempDir()
	writeGrowingShop(t, dir, 808, 908)
	_, errs, code = runCLI(t, nil, "gstat", "trend", "--format", "json", dir, filepath.Join(dir, "snap-y.txt"))
	if want := "skipped: " + filepath.Join(dir, "snap-y.txt") + ": the same file as " + filepath.Join(dir, "snap-y.txt") + ", read once\n"; code != 0 || errs != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}
