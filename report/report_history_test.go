package report

import (
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
	ins, errs := Inputs([]string{testutil.Testdata(t, "fb30", "shop-gstat-r-later.txt"), testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := Build("t", "fbdiag test", ins)
	var h *Section
	for _, s := range r.Sections {
		if s.Kind == KindHistory {
			h = s
		}
	}
	if h == nil {
		t.Fatalf("no history section among %d", len(r.Sections))
	}
	if h.ID != "history-shop.fdb" || h.Title != "History: /var/lib/firebird/data/shop.fdb" || len(h.Sources) != 2 {
		t.Errorf("section %q %q from %v", h.ID, h.Title, h.Sources)
	}
	// First and last by execution time, whatever the input order.
	if !strings.Contains(h.Text[0], "the first (shop-gstat-a-r.txt, 2026-12-02 14:09:54) and the last (shop-gstat-r-later.txt, 2026-12-02 14:14:32) are 4 min 38 s apart") {
		t.Errorf("text %q", h.Text[0])
	}
	heads := map[string]string{}
	for _, hl := range h.Headlines {
		heads[hl.Label] = hl.Value
	}
	if heads["tables changed / added / dropped"] != "3 / 0 / 0" || heads["time between first and last"] != "4 min 38 s" {
		t.Errorf("headlines %v", heads)
	}
	// Next 18 -> 26: 8 transactions in 278 s.
	if heads["transactions per hour"] != "103.6" {
		t.Errorf("transaction rate %q, want 103.6", heads["transactions per hour"])
	}
	var found []string
	for _, f := range h.Findings {
		found = append(found, f.Severity+" "+f.Text)
	}
	for _, want := range []string{"info ORDERS: back versions collected, 5000 → 0", "info STOCK: back versions collected, 15000 → 0",
		"info CUSTOMER: back versions collected, 10000 → 0"} {
		if !slices.Contains(found, want) {
			t.Errorf("no %q in %v", want, found)
		}
	}
	tb := h.Tables[0]
	var orders []string
	for _, row := range tb.Rows {
		if row[0] == "ORDERS" {
			orders = row
		}
	}
	if !slices.Equal(orders, []string{"ORDERS", "changed", "100000 → 95000", "-5000", "5000 → 0", "collected", "-320.0 KiB"}) {
		t.Errorf("ORDERS row %q", orders)
	}
	// The trend charts, with the analysis' figures.
	var kinds []plot.Kind
	for _, f := range h.Figures {
		kinds = append(kinds, f.Chart.Kind)
	}
	if !slices.Equal(kinds, []plot.Kind{plot.KindHistorySize, plot.KindHistoryVersions}) {
		t.Fatalf("charts %v", kinds)
	}
	v := h.Figures[1].Chart.Series("ORDERS")
	if v == nil || len(v.Y) != 2 || v.Y[0] != 5000 || v.Y[1] != 0 {
		t.Errorf("ORDERS back versions plotted %+v, want 5000 then 0", v)
	}
	db := h.Figures[1].Chart.Series("database")
	if db == nil || db.Y[0] != 30000 || db.Y[1] != 0 {
		t.Errorf("database back versions plotted %+v, want 30000 then 0", db)
	}
}

// One snapshot, or snapshots of two databases, make no History section;
// runs of other gstat switches are left out of it and named.
func TestHistorySectionNeedsTwo(t *testing.T) {
	ins, _ := Inputs([]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-h.txt")})
	for _, s := range Build("t", "fbdiag test", ins).Sections {
		if s.Kind == KindHistory {
			t.Errorf("history section from one -a -r run and one -h run: %v", s.Sources)
		}
	}
	ins, _ = Inputs([]string{testutil.Testdata(t, "fb30")})
	var h *Section
	for _, s := range Build("t", "fbdiag test", ins).Sections {
		if s.Kind == KindHistory {
			h = s
		}
	}
	if h == nil || len(h.Sources) != 2 || !strings.Contains(strings.Join(h.Text, " "), "Left out: 5 runs") {
		t.Fatalf("history of testdata/fb30: %+v", h)
	}
	// The reasons, as gstat trend gives them (issue 13).
	if text := strings.Join(h.Text, " "); !strings.Contains(text, "Left out: 5 runs of this database whose size adds up other things "+
		"(shop-gstat-d.txt: no index statistics (gstat -d): its size counts the tables only; shop-gstat-e.txt: no table statistics") ||
		!strings.Contains(text, "shop-gstat-s-r.txt: system tables included (gstat -s): 42 tables, the others 6") {
		t.Errorf("left out %q", text)
	}
	var resolved []string
	for _, f := range h.Findings {
		if strings.Contains(f.Text, " resolved on ") {
			resolved = append(resolved, f.Severity+" "+f.Text)
		}
	}
	if want := []string{
		"info table-version-length resolved on ORDERS: 1.047 version/record length (threshold 0.8)",
		"info table-versions resolved on CUSTOMER: 0.3333 versions/record (threshold 0.2)",
		"info table-versions resolved on STOCK: 0.3 versions/record (threshold 0.2)",
	}; strings.Join(resolved, "\n") != strings.Join(want, "\n") {
		t.Errorf("resolved findings %q", resolved)
	}
}
