package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// navLines are the items of a written report's list of sections, as
// text.
func navLines(t *testing.T, index string) []string {
	t.Helper()
	doc := parseHTML(t, index)
	var text func(*html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var s strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			s.WriteString(text(c))
		}
		return s.String()
	}
	var lines []string
	var walk func(n *html.Node, inNav bool)
	walk = func(n *html.Node, inNav bool) {
		if n.Type == html.ElementNode && n.Data == "nav" {
			inNav = true
		}
		if inNav && n.Type == html.ElementNode && n.Data == "li" {
			lines = append(lines, text(n))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inNav)
		}
	}
	walk(doc, false)
	return lines
}

// TestReportSectionFigures: the first screen's list of sections gives
// each restore, comparison and benchmark its answer (its first two
// headline figures, as its section shows them), a database none (its
// verdict is above). The embedded sample. A second series' caveat (the
// superclassic points' noise) comes after that series' best: it was
// listed alone, a caveat on a figure the list did not show.
func TestReportSectionFigures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if _, errs, code := runCLI(t, nil, "report", "--out", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := navLines(t, filepath.Join(dir, "index.html"))
	want := []string{
		"Database /var/lib/firebird/data/shop.fdb",
		"gbak backup: shop-gbak-backup-v-st.log — backup completed: 2.194 s",
		"gbak restore: shop-gbak-restore-v-st.log — restore completed: 35.170 s",
		"gbak restore: restore-balanced.log — restore incomplete: last timestamp 3:41:44",
		"gbak restore: restore-high-performance.log — restore incomplete: last timestamp 2:11:34",
		"Comparison: restore-balanced.log vs restore-high-performance.log — Last timestamp, high-performance / balanced: ×0.593 (-40.7 %, faster); Span of matched steps, high-performance / balanced: ×0.687 (-31.3 %, faster)",
		"Throughput (load): degradation-load-sata.csv — median load speed (MiB/s) (95 % interval 3.28–3.42): 3.36; load speed per size doubling (not significant, p=0.200; set by the 1.77 TiB point alone, leverage 0.929): -0.7 %",
		"Throughput (degradation): degradation-throughput-sata.csv — first to last size (9.04 GiB → 1.77 TiB): -65.8 %; lost per size doubling (power fit, R² 0.992): 13.4 %; predicted at 3.54 TiB (95 % interval 140–157, power fit; extrapolated 2× past the largest size, which alone sets the curve (leverage 0.929); its leave-last-out check missed by +14.2 %, outside its 95 % interval): 148",
		"Throughput (sweep): page-buffers-1.7tb.csv — classic_points: best page_buffers (390, 1 run): 1500; classic_points: worst setting off the best (at 2048): 26.9 %; " +
			"classic_points: assumed noise (--noise) (looks too small: 1024 reads 312 between 362 at 768 and 390 at 1500, 12.8 % of the best beyond both): 2.0 %; " +
			"superclassic_points: best page_buffers (392, 1 run): 1500; superclassic_points: assumed noise (--noise) (looks too small: 512 reads 359 between 372 at 256 and 386 at 768, 3.3 % of the best beyond both): 2.0 %",
		"Throughput (ab): power-plan-tpcc.tsv — High performance vs Balanced (×1.25, faster; 1 run each, no test): +24.6 %",
		"Bench run: run-w1-t4.jsonl — tpmC: 10127.0; tpmTotal: 22508.0",
	}
	testutil.EqualLines(t, "sections", got, want)
	// One figure reads the same in report.json: each benchmark's first
	// headline is its line's first figure.
	type headline struct {
		Label, Value, Group string
		Caveat              bool
	}
	var sum struct {
		Benchmarks []struct {
			Headline, Value, Section string
			Headlines                []headline
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || json.Unmarshal(b, &sum) != nil || len(sum.Benchmarks) == 0 {
		t.Fatalf("report.json: %v\n%s", err, b)
	}
	for _, bm := range sum.Benchmarks {
		part := " — " + bm.Headline + ": " + bm.Value
		if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, part) }) {
			t.Errorf("report.json's %s headline %q is in no section line", bm.Section, part)
		}
		if len(bm.Headlines) == 0 || bm.Headlines[0].Label != bm.Headline || bm.Headlines[0].Value != bm.Value {
			t.Errorf("report.json's %s headlines %+v do not start with its headline %q: %q", bm.Section, bm.Headlines, bm.Headline, bm.Value)
		}
		if bm.Section != "page-buffers-1.7tb.csv" {
			continue
		}
		// Every figure of the sweep, both series', each with its series
		// and its caveat: report.json gave the classic points' best alone.
		want := []headline{
			{"classic_points: best page_buffers (390, 1 run)", "1500", "classic_points", false},
			{"classic_points: worst setting off the best (at 2048)", "26.9 %", "classic_points", false},
			{"classic_points: assumed noise (--noise) (looks too small: 1024 reads 312 between 362 at 768 and 390 at 1500, 12.8 % of the best beyond both)", "2.0 %", "classic_points", true},
			{"superclassic_points: best page_buffers (392, 1 run)", "1500", "superclassic_points", false},
			{"superclassic_points: worst setting off the best (at 2048)", "27.6 %", "superclassic_points", false},
			{"superclassic_points: assumed noise (--noise) (looks too small: 512 reads 359 between 372 at 256 and 386 at 768, 3.3 % of the best beyond both)", "2.0 %", "superclassic_points", true},
		}
		if !slices.Equal(bm.Headlines, want) {
			t.Errorf("the sweep's headlines in report.json:\n got %+v\nwant %+v", bm.Headlines, want)
		}
	}
}

// TestReportSectionOutcomes: a gbak log without times (no -st t) still
// gives its outcome on the first screen, a failed restore as failed.
// Published logs of the corpus, read in place.
func TestReportSectionOutcomes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	failed := testutil.Corpus(t, "public", "gbak", "09_restore_deferred_index_failure_issue7269.log")
	done := testutil.Corpus(t, "public", "gbak", "12_fb6_services_backup_restore_verbose.log")
	if _, errs, code := runCLI(t, nil, "report", "--out", dir, failed, done); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := navLines(t, filepath.Join(dir, "index.html"))
	want := []string{
		"gbak restore: 09_restore_deferred_index_failure_issue7269.log — restore: failed",
		"gbak backup: 12_fb6_services_backup_restore_verbose.log — backup: completed",
	}
	testutil.EqualLines(t, "sections", got, want)
}

// The seed articles fbdiag throughput reads (markdown and tab-separated
// tables inside Spanish, French and Korean prose, decimal commas) have
// their sections in the report of their folder: detect no longer says
// "no … table lines" of them. The English article (004), in which the
// reader finds no table, stays not analysed.
func TestReportSeedArticles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	seeds := filepath.Dir(testutil.SeedArticle(t, "000"))
	if _, errs, code := runCLI(t, nil, "report", "--out", dir, seeds); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := strings.Join(navLines(t, filepath.Join(dir, "index.html")), "\n")
	for _, w := range []string{
		"Throughput (degradation): 000_2bef0fda4e54c2f6.txt — first to last size (9.04 GiB → 1.77 TiB): -65.8 %;",
		"Throughput (sweep): 001_859817793a7b6ae7.txt — Classic, points de test: best Buffers de pages (390, 1 run): 1500;",
		"Throughput (sweep): 002_93288e933ab92a8c.txt — Classic, 테스트 포인트: best 페이지 버퍼 (390, 1 run): 1500;",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("sections lack %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "000_2bef0fda4e54c2f6.txt: not analysed") || strings.Count(got, "not analysed") > 1 {
		t.Errorf("sections:\n%s", got)
	}
	out, _, code := runCLI(t, nil, "detect", testutil.SeedArticle(t, "000"))
	if code != exitOK || !strings.Contains(out, `throughput  markdown table with 4 columns inside prose, header line 23: "| # | tamaño de base de datos, gb | tie…"`) {
		t.Errorf("detect: exit %d\n%s", code, out)
	}
}
