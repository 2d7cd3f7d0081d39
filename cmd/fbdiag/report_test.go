package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/plot"
)

// parseHTML parses a written report.
func parseHTML(t *testing.T, index string) *html.Node {
	t.Helper()
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// reportDoc parses a written report and returns its sections' ids and
// the number of embedded images.
func reportDoc(t *testing.T, index string) (sections []string, images int, text string) {
	t.Helper()
	doc := parseHTML(t, index)
	var texts []string
	var scripts int
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			texts = append(texts, n.Data)
		}
		if n.Type == html.ElementNode {
			switch n.Data {
			case "section":
				for _, a := range n.Attr {
					if a.Key == "id" {
						sections = append(sections, a.Val)
					}
				}
			case "img":
				images++
			case "script":
				// One inline script (the table sort), nothing loaded.
				scripts++
				for _, a := range n.Attr {
					if a.Key == "src" {
						t.Errorf("script loaded from %q", a.Val)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if scripts > 1 {
		t.Errorf("%d script elements, want the one table sort", scripts)
	}
	return sections, images, strings.Join(texts, "\n")
}

// TestReportInBrowser: `fbdiag` alone, and a report of four databases,
// as a browser shows them (one Chromium for both).
func TestReportInBrowser(t *testing.T) {
	corpus := testutil.CorpusPath(t) // (before reportNoArguments changes the folder)
	pages := []browserPage{reportNoArguments(t)}
	if _, err := os.Stat(corpus); err == nil {
		pages = append(pages, reportFleet(t, corpus))
	} else {
		t.Logf("shared corpus not found at %s: the four databases' report skipped", corpus)
	}
	firsts := chromiumCheck(t, pages...)
	// The first screen of the sample's is shop.fdb's verdict (one
	// database).
	if !strings.HasPrefix(firsts[0], "attention index-low-selectivity, index ORDERS_CARRIER on ORDERS") {
		t.Errorf("first screen %q", firsts[0])
	}
	// The four databases': the fleet table, whose first row is the
	// worst database, employee.fdb (a deep index).
	if len(firsts) > 1 && !strings.HasPrefix(firsts[1], "attention | /opt/firebird/examples/empbuild/employee.fdb | 8.97 MiB | 3 | 15 | "+
		"warning: index-deep on PK_CONFIGREVISIONSTORE (CONFIGREVISIONSTORE) | 05_fb21_doc_header_and_2x_table_index.txt") {
		t.Errorf("first screen %q", firsts[1])
	}
}

// reportNoArguments: `fbdiag` alone writes the report of the embedded
// sample into ./fbdiag-report and says where.
func reportNoArguments(t *testing.T) browserPage {
	dir := t.TempDir()
	t.Chdir(dir)
	out, errs, code := runCLI(t, nil)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	index := filepath.Join(dir, "fbdiag-report", "index.html")
	if !strings.Contains(out, "wrote "+index) {
		t.Fatalf("output does not name %s:\n%s", index, out)
	}
	sections, images, _ := reportDoc(t, index)
	if len(sections) < 2 || sections[0] != "summary" {
		t.Fatalf("sections %v", sections)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "fbdiag-report", "*.png"))
	if images != len(pngs) {
		t.Errorf("%d images in the page, %d PNG files", images, len(pngs))
	}
	// The embedded sample has every input kind, so every chart kind but a
	// comparison of backups (it has one backup log).
	for _, k := range plot.Kinds {
		if k == plot.KindBackupComparison {
			continue
		}
		n := 0
		for _, p := range pngs {
			if strings.HasPrefix(filepath.Base(p), string(k)+"-") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no %s chart among %d", k, len(pngs))
		}
	}
	// Its shop.fdb snapshots make one database section, whose two -a -r
	// snapshots, 278 s apart, draw the history.
	if !slices.Contains(sections, "db-shop.fdb") {
		t.Errorf("no shop.fdb section in %v", sections)
	}
	for _, f := range []string{"history-size-db-shop.fdb.png", "history-versions-db-shop.fdb.png"} {
		if !slices.Contains(pngs, filepath.Join(dir, "fbdiag-report", f)) {
			t.Errorf("no %s among %v", f, pngs)
		}
	}
	// Run again: our own report is replaced, not refused.
	if out, errs, code := runCLI(t, nil, "report"); code != exitOK {
		t.Fatalf("second run exit %d: %s%s", code, out, errs)
	}
	return browserPage{index, images, len(sections)}
}

// TestReportRefusesUserIndex: an index.html fbdiag did not write stays.
func TestReportRefusesUserIndex(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := []byte("<!DOCTYPE html><title>mine</title>")
	if err := os.WriteFile(filepath.Join(out, "index.html"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, nil, "report", "--out", out, testutil.Testdata(t, "seeds"))
	if code != exitError || !strings.Contains(errs, "not written by fbdiag") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); !bytes.Equal(b, mine) {
		t.Fatal("user's index.html was changed")
	}
}

// TestReportUnreadableInput: the report is written from what could be
// read, and the exit status is 1.
func TestReportUnreadableInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	stdout, errs, code := runCLI(t, nil, "report", "--out", out, "/nonexistent/gstat.txt", testutil.Testdata(t, "seeds", "power-plan-tpcc.tsv"))
	if code != exitError || !strings.Contains(errs, "/nonexistent/gstat.txt") || !strings.Contains(stdout, "wrote ") {
		t.Fatalf("exit %d, out %q, err %q", code, stdout, errs)
	}
	_, images, text := reportDoc(t, filepath.Join(out, "index.html"))
	if images != 1 || !strings.Contains(text, "+24.6 %") {
		t.Fatalf("%d images; text has +24.6 %%: %v", images, strings.Contains(text, "+24.6 %"))
	}
}

func TestReportUsage(t *testing.T) {
	if _, errs, code := runCLI(t, nil, "report", "--width", "10", "x"); code != exitUsage || !strings.Contains(errs, "chart size") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, _, code := runCLI(t, nil, "detect"); code != exitUsage {
		t.Fatalf("detect without files: exit %d", code)
	}
}

func TestDetectCommand(t *testing.T) {
	out, errs, code := runCLI(t, nil, "detect", "--format", "json", testutil.Testdata(t, "seeds"), testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []struct{ File, Kind, Reason string }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, g := range got {
		kinds[filepath.Base(g.File)] = g.Kind
	}
	want := map[string]string{
		"degradation-load-sata.csv": "throughput", "degradation-throughput-sata.csv": "throughput",
		"page-buffers-1.7tb.csv": "throughput", "power-plan-tpcc.tsv": "throughput",
		"restore-balanced.log": "gbak", "restore-high-performance.log": "gbak", "shop-gstat-h.txt": "gstat",
	}
	if len(kinds) != len(want) {
		t.Fatalf("got %v", kinds)
	}
	for f, k := range want {
		if kinds[f] != k {
			t.Errorf("%s: %s, want %s", f, kinds[f], k)
		}
	}
	// A missing file is an error, the others are still printed.
	out, errs, code = runCLI(t, nil, "detect", "/nonexistent/x.txt", testutil.Testdata(t, "fb30", "shop-gstat-h.txt"))
	if code != exitError || !strings.Contains(errs, "/nonexistent/x.txt") || !strings.Contains(out, "gstat") {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
}

// browserPage is a report for chromiumCheck: its index.html and the
// images and sections its HTML has.
type browserPage struct {
	index            string
	images, sections int
}

// chromiumCheck opens the reports in one headless Chromium (a launch
// takes some 4 s of CPU) through a small harness page, an iframe each,
// that waits for every image of the reports to decode and writes, per
// report, the count into its own DOM, which --dump-dom prints, with the
// first screen's verdict (the worst database's), the result of sorting
// a numeric column by clicking its header twice, and the requests the
// page made other than data: and its own file. Console errors are read
// from Chromium's log. Skips without Chromium, unless
// FBDIAG_CHROMIUM=required (CI). It returns each report's first verdict.
func chromiumCheck(t *testing.T, pages ...browserPage) []string {
	t.Helper()
	bin := os.Getenv("FBDIAG_CHROMIUM_BIN")
	for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if bin != "" {
			break
		}
		bin, _ = exec.LookPath(c)
	}
	if bin == "" {
		if _, err := os.Stat("/usr/bin/chromium"); err == nil {
			bin = "/usr/bin/chromium"
		}
	}
	if bin == "" {
		if os.Getenv("FBDIAG_CHROMIUM") == "required" {
			t.Fatal("FBDIAG_CHROMIUM=required but no Chromium found")
		}
		t.Skip("no Chromium on PATH or at /usr/bin/chromium: browser check skipped (set FBDIAG_CHROMIUM_BIN)")
	}
	harness := filepath.Join(t.TempDir(), "harness.html")
	var frames strings.Builder
	for i, p := range pages {
		fmt.Fprintf(&frames, "<iframe id=\"f%d\" src=\"file://%s\" style=\"width:1200px;height:900px\"></iframe>\n", i, p.index)
	}
	page := `<!DOCTYPE html><html><body>
` + frames.String() + `<script>
// The window's load event waits for the iframes and their images, so
// each image has decoded or failed by then (an await here would outlive
// --dump-dom).
window.addEventListener("load", () => {
  for (const f of document.querySelectorAll("iframe")) check(f.id, f.contentDocument);
});
function check(id, d) {
  const out = (what, text) => {
    const p = document.createElement("pre");
    p.id = what + "-" + id;
    p.textContent = text;
    document.body.appendChild(p);
  };
  const imgs = Array.from(d.images);
  const bad = imgs.filter(im => !im.complete || im.naturalWidth === 0).map(im => im.alt);
  out("result", "IMAGES " + imgs.length + " DECODED " + (imgs.length - bad.length) + " SECTIONS " + d.querySelectorAll("section").length + " BAD " + bad.join("|") + " END");
  // The first screen: the fleet table's first row, else the verdict.
  const sum = d.getElementById("summary");
  const first = sum.querySelector("table.fleet tbody tr") || sum.querySelector(".verdict");
  out("first", "FIRST " + (!first ? "none" : first.cells ? Array.from(first.cells).map(c => c.textContent.trim()).join(" | ") :
    first.textContent.replace(/\s+/g, " ").trim()) + " END");
  // Sort the first column of three or more numbers by its header, twice.
  let sorted = "none";
  for (const tb of d.querySelectorAll("table")) {
    if (!tb.tHead || !tb.tBodies.length || tb.tBodies[0].rows.length < 3) continue;
    const ths = tb.tHead.rows[0].cells;
    let col = -1;
    for (let i = 0; i < ths.length && col < 0; i++) {
      const vals = Array.from(tb.tBodies[0].rows).map(r => r.cells[i] && r.cells[i].getAttribute("data-sort")).filter(v => v);
      if (vals.length >= 3 && new Set(vals).size >= 3) col = i;
    }
    if (col < 0) continue;
    const read = () => Array.from(tb.tBodies[0].rows).map(r => r.cells[col].getAttribute("data-sort")).filter(v => v).map(Number);
    ths[col].click();
    const up = read();
    ths[col].click();
    const down = read();
    const asc = up.every((v, i) => i === 0 || up[i - 1] <= v);
    const desc = down.every((v, i) => i === 0 || down[i - 1] >= v);
    sorted = (asc && desc ? "ok " : "bad ") + (tb.caption ? tb.caption.textContent : tb.getAttribute("data-table")) + ": " + up.join(",");
    break;
  }
  out("sorted", "SORTED " + sorted + " END");
  const ext = d.defaultView.performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith("data:"));
  out("requests", "REQUESTS " + ext.length + " " + ext.join("|") + " END");
}
</script></body></html>`
	if err := os.WriteFile(harness, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--allow-file-access-from-files", "--virtual-time-budget=10000",
		"--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+harness)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	dom := html.UnescapeString(out.String())
	var console []string // (Chromium's log lines of the pages' console)
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	firsts := make([]string, len(pages))
	for i, p := range pages {
		get := func(what, pattern string) []string {
			return regexp.MustCompile(`<pre id="` + what + `-f` + itoa(i) + `">` + pattern + ` END</pre>`).FindStringSubmatch(dom)
		}
		m := get("result", `IMAGES (\d+) DECODED (\d+) SECTIONS (\d+) BAD (.*?)`)
		if m == nil {
			t.Fatalf("%s: harness did not report (page did not load?):\n%s\n%s", p.index, out.String(), errb.String())
		}
		if m[1] != m[2] || m[1] != itoa(p.images) || m[3] != itoa(p.sections) {
			t.Errorf("%s: chromium: %s images, %s decoded, want %d; %s sections, want %d; bad: %s", p.index, m[1], m[2], p.images, m[3], p.sections, m[4])
		}
		if s := get("sorted", `SORTED (.*?)`); s == nil || !strings.HasPrefix(s[1], "ok ") {
			t.Errorf("%s: sorting by a clicked header: %q", p.index, s)
		}
		if r := get("requests", `REQUESTS (\d+) (.*?)`); r == nil || r[1] != "0" {
			t.Errorf("%s: requests beyond the page: %q", p.index, r)
		}
		first := get("first", `FIRST (.*?)`)
		if first == nil {
			t.Fatalf("%s: no first screen in %s", p.index, dom)
		}
		firsts[i] = first[1]
		for _, l := range console {
			if strings.Contains(l, filepath.Dir(p.index)) {
				t.Errorf("console message: %s", l)
			}
		}
	}
	for _, l := range console {
		if strings.Contains(l, "harness") {
			t.Errorf("console message: %s", l)
		}
	}
	return firsts
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// reportFleet: four databases' gstat files make a section each after
// the summary.
func reportFleet(t *testing.T, corpus string) browserPage {
	dir := filepath.Join(corpus, "public", "gstat")
	out := filepath.Join(t.TempDir(), "r")
	args := []string{"report", "--out", out}
	for _, f := range []string{"FirebirdSQL-fdb__gstat30-a.out", "FirebirdSQL-fdb__gstat25-a.out",
		"05_fb21_doc_header_and_2x_table_index.txt", "Delapro-DelaproImport__Firebird3oder4-fb3010-h.snippet.txt"} {
		args = append(args, filepath.Join(dir, f))
	}
	stdout, stderr, code := runCLI(t, nil, args...)
	if code != exitOK || !strings.Contains(stdout, "4 inputs, 4 sections, 9 charts; 0 critical, 5 warnings") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	index := filepath.Join(out, "index.html")
	sections, images, _ := reportDoc(t, index)
	if !slices.Equal(sections, []string{"summary", "db-employee.fdb", "db-fbtest25.fdb", "db-fbtest30.fdb", "db-sohotech.fdb"}) {
		t.Errorf("sections %v", sections)
	}
	return browserPage{index, images, len(sections)}
}

// Seed 003, an article with two tables and two restore excerpts, makes a
// report of its four parts: two restores, their comparison, two A/B.
func TestReportMixedSeed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	p := testutil.Testdata(t, "mixed", "003_f44fd1243848db85.txt")
	out, errs, code := runCLI(t, nil, "report", "--out", dir, p)
	if code != exitOK || errs != "" || !strings.Contains(out, "\n4 inputs, 5 sections, 5 charts; 0 critical, 0 warnings\n") {
		t.Fatalf("exit %d %q:\n%s", code, errs, out)
	}
	sections, images, _ := reportDoc(t, filepath.Join(dir, "index.html"))
	want := []string{"summary", "003_f44fd1243848db85.txt-gbak-1", "003_f44fd1243848db85.txt-gbak-2",
		"compare-003_f44fd1243848db85.txt-gbak-1-003_f44fd1243848db85", "003_f44fd1243848db85.txt-table-1", "003_f44fd1243848db85.txt-table-2"}
	if !slices.Equal(sections, want) || images != 5 {
		t.Errorf("%d images, sections %v", images, sections)
	}
	var sum struct {
		Runs []struct {
			File, Outcome string
		}
		Benchmarks []struct {
			Files []string
			Kind  string
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || json.Unmarshal(b, &sum) != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 2 || sum.Runs[0].File != filepath.ToSlash(p)+"#gbak-1" || sum.Runs[0].Outcome != "incomplete" ||
		len(sum.Benchmarks) != 2 || sum.Benchmarks[1].Files[0] != p+"#table-2" || sum.Benchmarks[1].Kind != "ab" {
		t.Errorf("report.json:\n%s", b)
	}
}
