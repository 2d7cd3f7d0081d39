package main

import (
	"bytes"
	"context"
	"encoding/json"
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

// reportDoc parses a written report and returns its sections' ids and
// the number of embedded images.
func reportDoc(t *testing.T, index string) (sections []string, images int, text string) {
	t.Helper()
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
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

// TestReportNoArguments: `fbdiag` alone writes the report of the embedded
// sample into ./fbdiag-report and says where.
func TestReportNoArguments(t *testing.T) {
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
	// The embedded sample has every input kind, so every chart kind.
	for _, k := range plot.Kinds {
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
	// The first screen is shop.fdb's verdict (one database).
	if first := chromiumCheck(t, index, images, len(sections)); !strings.HasPrefix(first, "attention index-low-selectivity on ORDERS.ORDERS_CARRIER") {
		t.Errorf("first screen %q", first)
	}
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

// chromiumCheck opens the report in headless Chromium through a small
// harness page that waits for every image of the report to decode and
// writes the count into its own DOM, which --dump-dom prints, with the
// first screen's verdict (the worst database's), the result of sorting
// a numeric column by clicking its header twice, and the requests the
// page made other than data: and its own file. Console errors are read
// from Chromium's log. Skips without Chromium, unless
// FBDIAG_CHROMIUM=required (CI). It returns the first verdict's text.
func chromiumCheck(t *testing.T, index string, images, sections int) string {
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
	dir := filepath.Dir(index)
	harness := filepath.Join(t.TempDir(), "harness.html")
	page := `<!DOCTYPE html><html><body>
<iframe id="f" src="file://` + index + `" style="width:1200px;height:900px"></iframe>
<script>
// The window's load event waits for the iframe and its images, so each
// image has decoded or failed by then (an await here would outlive
// --dump-dom).
window.addEventListener("load", () => {
  const d = document.getElementById("f").contentDocument;
  const imgs = Array.from(d.images);
  const bad = imgs.filter(im => !im.complete || im.naturalWidth === 0).map(im => im.alt);
  const p = document.createElement("pre");
  p.id = "result";
  p.textContent = "IMAGES " + imgs.length + " DECODED " + (imgs.length - bad.length) + " SECTIONS " + d.querySelectorAll("section").length + " BAD " + bad.join("|");
  document.body.appendChild(p);
  // The first screen: the fleet table's first row, else the verdict.
  const sum = d.getElementById("summary");
  const first = sum.querySelector("table.fleet tbody tr") || sum.querySelector(".verdict");
  const q = document.createElement("pre");
  q.id = "first";
  q.textContent = "FIRST " + (!first ? "none" : first.cells ? Array.from(first.cells).map(c => c.textContent.trim()).join(" | ") :
    first.textContent.replace(/\s+/g, " ").trim()) + " END";
  document.body.appendChild(q);
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
  const r = document.createElement("pre");
  r.id = "sorted";
  r.textContent = "SORTED " + sorted + " END";
  document.body.appendChild(r);
  const ext = d.defaultView.performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith("data:"));
  const x = document.createElement("pre");
  x.id = "requests";
  x.textContent = "REQUESTS " + ext.length + " " + ext.join("|") + " END";
  document.body.appendChild(x);
});
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
	m := regexp.MustCompile(`IMAGES (\d+) DECODED (\d+) SECTIONS (\d+) BAD (.*)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("harness did not report (page did not load?):\n%s\n%s", out.String(), errb.String())
	}
	if m[1] != m[2] || m[1] != itoa(images) || m[3] != itoa(sections) {
		t.Errorf("chromium: %s images, %s decoded, want %d; %s sections, want %d; bad: %s", m[1], m[2], images, m[3], sections, m[4])
	}
	dom := html.UnescapeString(out.String())
	if s := regexp.MustCompile(`<pre id="sorted">SORTED (.*?) END</pre>`).FindStringSubmatch(dom); s == nil || !strings.HasPrefix(s[1], "ok ") {
		t.Errorf("sorting by a clicked header: %q", s)
	}
	if r := regexp.MustCompile(`<pre id="requests">REQUESTS (\d+) (.*?) END</pre>`).FindStringSubmatch(dom); r == nil || r[1] != "0" {
		t.Errorf("requests beyond the page: %q in %s", r, dom[max(0, strings.Index(dom, "REQUESTS")-50):])
	}
	first := regexp.MustCompile(`<pre id="first">FIRST (.*?) END</pre>`).FindStringSubmatch(dom)
	if first == nil {
		t.Fatalf("no first screen in %s", dom)
	}
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") && (strings.Contains(l, dir) || strings.Contains(l, "harness")) {
			t.Errorf("console message: %s", l)
		}
	}
	return first[1]
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Four databases' gstat files: the first screen is the fleet table whose
// first row is the worst database, employee.fdb (a deep index), and its
// columns sort in the browser.
func TestReportFleetBrowser(t *testing.T) {
	t.Parallel() // (Chromium, a process of its own: beside the live tests)
	dir := filepath.Join(testutil.CorpusDir(t), "public", "gstat")
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
	if !slices.Equal(sections, []string{"summary", "db-employee.fdb", "db-fbtest25.fdb", "db-fbtest30.fdb", "db-c-temp-sohotech.fdb"}) {
		t.Errorf("sections %v", sections)
	}
	first := chromiumCheck(t, index, images, len(sections))
	if !strings.HasPrefix(first, "attention | /opt/firebird/examples/empbuild/employee.fdb | 8.97 MiB | 3 | 15 | "+
		"warning: index-deep on PK_CONFIGREVISIONSTORE (CONFIGREVISIONSTORE) | 05_fb21_doc_header_and_2x_table_index.txt") {
		t.Errorf("first screen %q", first)
	}
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
