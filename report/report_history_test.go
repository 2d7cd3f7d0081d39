package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// The real pair: shop.fdb before and after a sweep, 278 s apart. ORDERS
// lost 5000 records and 40 data pages (808 -> 768 of 8 KiB), and its
// 5000 back versions were collected.
func TestHistorySection(t *testing.T) {
	r := buildReport(t, "t", []string{testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"), testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")})
	var h *Section
	for _, s := range r.Sections {
		if s.Kind == KindDatabase {
			h = s
		}
	}
	if h == nil {
		t.Fatalf("no database section among %d", len(r.Sections))
	}
	if h.ID != "db-shop.fdb" || h.Title != "Database /var/lib/firebird/data/shop.fdb" || len(h.Sources) != 2 {
		t.Errorf("section %q %q from %v", h.ID, h.Title, h.Sources)
	}
	// First and last by execution time, whatever the input order.
	if !strings.Contains(string(h.Fragment), "the first (shop-gstat-a-r.txt, 2026-12-02 14:09:54) and the last (shop-gstat-r-later.txt, 2026-12-02 14:14:32) are 0:04:38 apart") {
		t.Errorf("fragment %q", h.Fragment)
	}
	// The summary's figures, as the trend view prints them: the change
	// from the first to the last, then the span (no growth a day from
	// 278 s).
	var heads []string
	for _, hl := range h.Headlines {
		heads = append(heads, hl.Label+": "+hl.Value)
	}
	if strings.Join(heads, "; ") != "Database change: -472 KiB; Span: 0:04:38" {
		t.Errorf("headlines %q", heads)
	}
	// The diff and the trend views, their rows as gstat diff and gstat
	// trend print them: ORDERS lost 5000 records, 320 KiB (-5.0 %), its
	// back versions collected; Next 18 -> 26.
	frag := string(h.Fragment)
	for _, want := range []string{
		"<h3>The latest snapshot and the one before (fbdiag gstat diff)</h3>",
		`<tr><td><bdi>ORDERS</bdi></td><td><bdi>changed</bdi></td><td class="num" data-sort="95000">95000</td><td class="num" data-sort="-5000">-5000</td>` +
			`<td class="num" data-sort="0">0</td><td><bdi>collected</bdi></td><td class="num" data-sort="-327680">-320 KiB</td>` +
			`<td class="num" data-sort="-0.04950495049504951">-5.0 %</td><td class="num" data-sort=""></td></tr>`,
		`<tr><td><bdi>next transaction</bdi></td><td><bdi>next_transaction</bdi></td><td class="num" data-sort="18">18</td><td class="num" data-sort="26">26</td><td class="num" data-sort="8">8</td></tr>`,
		"<h3>Every snapshot (fbdiag gstat trend)</h3>",
		// (8 transactions in 4:38: no rate an hour, as the trend below
		// gives no rate a day.)
		`<div class="headline" data-key="transactions_per_hour"><span class="v">not shown (0:04:38 of counters, under 1:00:00)</span>`,
		`<div class="headline" data-key="transactions_per_day"><span class="v">not shown (0:04:38 of counters, under 1:00:00)</span>`,
	} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment lacks %q", want)
		}
	}
	if strings.Count(frag, `<div class="view">`) != 3 {
		t.Errorf("%d views in the fragment, want the latest snapshot, the diff and the trend", strings.Count(frag, `<div class="view">`))
	}
	// The trend charts, with the analysis' figures.
	var kinds []plot.Kind
	for _, f := range h.Figures[len(h.Figures)-2:] {
		kinds = append(kinds, f.Chart.Kind)
	}
	if !slices.Equal(kinds, []plot.Kind{plot.KindHistorySize, plot.KindHistoryVersions}) {
		t.Fatalf("charts %v", kinds)
	}
	v := h.Figures[len(h.Figures)-1].Chart.Series("ORDERS")
	if v == nil || len(v.Y) != 2 || v.Y[0] != 5000 || v.Y[1] != 0 {
		t.Errorf("ORDERS back versions plotted %+v, want 5000 then 0", v)
	}
	db := h.Figures[len(h.Figures)-1].Chart.Series("database")
	if db == nil || db.Y[0] != 30000 || db.Y[1] != 0 {
		t.Errorf("database back versions plotted %+v, want 30000 then 0", db)
	}
}

// One snapshot, or snapshots of two databases, make no History section;
// runs of other gstat switches are left out of it and named.
func TestHistorySectionNeedsTwo(t *testing.T) {
	ins, _, _ := Inputs([]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-h.txt")})
	for _, s := range Build("t", "fbdiag test", ins).Sections {
		if strings.Contains(string(s.Fragment), "<h3>History</h3>") {
			t.Errorf("history from one -a -r run and one -h run: %v", s.Sources)
		}
	}
	ins, _, _ = Inputs([]string{testutil.Testdata(t, "fb30")})
	var h *Section
	for _, s := range Build("t", "fbdiag test", ins).Sections {
		if s.Kind == KindDatabase {
			h = s
		}
	}
	if h == nil || len(h.Sources) != 7 || !strings.Contains(string(h.Fragment), "Left out: 5 runs") {
		t.Fatalf("history of testdata/fb30: %+v", h)
	}
	// The reasons, as gstat trend gives them (issue 13).
	if text := string(h.Fragment); !strings.Contains(text, "Left out: 5 runs of this database whose size adds up other things "+
		"(shop-gstat-d.txt: no index statistics (gstat -d): its size counts the tables only; shop-gstat-h.txt: no table statistics") ||
		!strings.Contains(text, "shop-gstat-s-r.txt: system tables included (gstat -s): 42 tables, the others 6") {
		t.Errorf("left out %q", text)
	}
	// The warnings that resolved, in the diff view's table.
	for _, want := range []string{
		`<tr><td><bdi>resolved</bdi></td><td><bdi>info</bdi></td><td></td><td><bdi>table-version-length</bdi></td><td><bdi>table ORDERS</bdi></td>` +
			`<td class="num" data-sort="1.0470682090147587">1.05</td><td class="num" data-sort=""></td><td class="num" data-sort="0.8">0.8</td><td><bdi>version/record length</bdi></td></tr>`,
		`<td><bdi>table-versions</bdi></td><td><bdi>table CUSTOMER</bdi></td><td class="num" data-sort="0.3333333333333333">0.333</td>`,
		`<td><bdi>table-versions</bdi></td><td><bdi>table STOCK</bdi></td><td class="num" data-sort="0.3">0.3</td>`,
	} {
		if !strings.Contains(string(h.Fragment), want) {
			t.Errorf("fragment lacks %q", want)
		}
	}
}

// A folder of the shop pair and a copy of the later run (latest.txt, as a
// cron job keeps beside the dated ones): the diff compared the later run
// with its copy ("the one before it (shop-gstat-r-later.txt), at the same
// time", nothing changed) and the trend counted 3 snapshots of 2. The
// copy is counted once and named; the diff is the real pair's, 4:38 apart.
func TestHistorySectionCopyCountedOnce(t *testing.T) {
	dir := t.TempDir()
	for name, from := range map[string]string{"a.txt": "shop-gstat-a-r.txt", "b.txt": "shop-gstat-r-later.txt", "latest.txt": "shop-gstat-r-later.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), testutil.ReadTestdata(t, "fb30", from), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	ins, _, errs := Inputs([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var h *Section
	for _, s := range Build("t", "fbdiag test", ins).Sections {
		if s.Kind == KindDatabase {
			h = s
		}
	}
	if h == nil {
		t.Fatal("no database section")
	}
	frag := string(h.Fragment)
	for _, want := range []string{
		"2 gstat snapshots of /var/lib/firebird/data/shop.fdb; the first (a.txt, 2026-12-02 14:09:54) and the last (latest.txt, 2026-12-02 14:14:32) are 0:04:38 apart.",
		"Counted once: b.txt as latest.txt (the same database, execution time, counters and sizes).",
		`<td class="num" data-sort="-327680">-320 KiB</td>`,
	} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment lacks %q", want)
		}
	}
	if strings.Contains(frag, "at the same time") || strings.Contains(frag, "same execution time") {
		t.Errorf("a run compared with its copy: %q", frag)
	}
}
