package report

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
)

// sweepSection is a section with one real chart (seed 001's page buffer
// sweep, Table 1) and a table of 20 rows named like a hostile input.
func sweepSection(t *testing.T) *Section {
	t.Helper()
	s := &Section{ID: "sweep", Title: "Sweep <b>bold</b>", Kind: "throughput", Sources: []string{"page-buffers-1.7tb.csv"}}
	x := []float64{256, 512, 768, 1024, 1500, 2048}
	s.AddChart(plot.SweepChart(plot.Sweep{Title: "Order Lines <x> & page buffers", XLabel: "page buffers", YLabel: "points",
		Series: []plot.Series{{Name: "Classic", X: x, Y: []float64{299, 371, 362, 312, 390, 285}}}}))
	s.Findings = []Finding{{Severity: "critical", Text: `table "Order Lines <x>" has 3 back versions per record`}}
	s.Headlines = []Headline{{Label: "best page buffers", Value: "1500"}}
	tb := &Table{Name: "rows", Title: "Order Lines <x>", Columns: Cols("name", ">records")}
	for i := 0; i < LargeTable+5; i++ {
		tb.Add(fmt.Sprintf("<script>alert(%d)</script>", i), fmt.Sprint(i*1000))
	}
	s.Tables = []*Table{tb}
	s.Notices = []string{"x.csv:3: skipped <line>"}
	return s
}

func testReport(t *testing.T) *Report {
	r := &Report{Title: "Report <i>", Generator: "fbdiag test", Sections: []*Section{sweepSection(t)}}
	r.finish()
	if err := r.Render(plot.Options{Width: 600, Height: 340, DPI: 96}); err != nil {
		t.Fatal(err)
	}
	return r
}

// walk calls f for every node of the tree.
func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func TestHTMLSelfContainedAndEscaped(t *testing.T) {
	r := testReport(t)
	var b bytes.Buffer
	if err := WriteHTML(&b, r, 600, 340); err != nil {
		t.Fatal(err)
	}
	// A data URI is written as base64, not with each "+" as "&#43;" (a
	// fifth more bytes per chart).
	if n := bytes.Count(b.Bytes(), []byte("&#43;")); n != 0 {
		t.Errorf("%d escaped + in the page", n)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var imgs, details, scripts, links int
	var texts []string
	metas := map[string]string{}
	walk(doc, func(n *html.Node) {
		if n.Type == html.TextNode {
			texts = append(texts, n.Data)
		}
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "script":
			// The one inline table sort, fbdiag's own text; an input's
			// "<script>" would be a second.
			if attr(n, "src") != "" || n.FirstChild == nil || !strings.Contains(n.FirstChild.Data, "aria-sort") {
				scripts++
			}
		case "x", "b", "i", "line":
			scripts++ // any of these is input that became markup
		case "meta":
			metas[attr(n, "name")] = attr(n, "content")
		case "details":
			details++
		case "link", "iframe", "object", "embed":
			links++
		case "img":
			imgs++
			src := attr(n, "src")
			data, ok := strings.CutPrefix(src, "data:image/png;base64,")
			if !ok {
				t.Fatalf("image not embedded: %.40q", src)
			}
			raw, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() != 600 || img.Bounds().Dy() != 340 {
				t.Errorf("image %v", img.Bounds())
			}
			if alt := attr(n, "alt"); alt != "Order Lines <x> & page buffers (chart)" {
				t.Errorf("alt %q", alt)
			}
		case "a":
			if h := attr(n, "href"); !strings.HasPrefix(h, "#") {
				t.Errorf("link leaves the page: %q", h)
			}
		}
	})
	if scripts != 0 || links != 0 {
		t.Errorf("%d elements made from input text, %d external resources", scripts, links)
	}
	if imgs != 1 {
		t.Errorf("%d images", imgs)
	}
	// The 20-row table and the reader notes are collapsible; the inputs
	// list too.
	if details != 3 {
		t.Errorf("%d <details>", details)
	}
	if !strings.HasPrefix(metas["generator"], GeneratorPrefix) || metas["viewport"] == "" {
		t.Errorf("meta tags %v", metas)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Order Lines <x>", "<script>alert(19)</script>", "Sweep <b>bold</b>", `table "Order Lines <x>" has 3 back versions per record`, "x.csv:3: skipped <line>"} {
		if !strings.Contains(all, want) {
			t.Errorf("text %q missing", want)
		}
	}
	// The summary repeats the critical finding with a link to its section.
	if len(r.Summary) != 1 || r.Summary[0].Section != "sweep" {
		t.Errorf("summary %+v", r.Summary)
	}
}

func TestWriteDirNeverOverwritesUserFiles(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, IndexFile)
	mine := []byte("<html><body>my own page</body></html>")
	if err := os.WriteFile(index, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	r := testReport(t)
	if _, err := WriteDir(dir, r, plot.Options{Width: 600, Height: 340, DPI: 96}); !errors.Is(err, ErrNotOurs) {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(index); !bytes.Equal(got, mine) {
		t.Fatal("user's index.html changed")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files in the folder", len(ents))
	}
	// A chart file name taken by a user file in a fresh folder: refused.
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, r.Figures()[0].File), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir2, r, plot.Options{}); !errors.Is(err, ErrNotOurs) {
		t.Fatalf("chart over a user file: %v", err)
	}
	// Our own earlier report is replaced.
	dir3 := filepath.Join(t.TempDir(), "new", "report")
	for i := 0; i < 2; i++ {
		p, err := WriteDir(dir3, r, plot.Options{Width: 600, Height: 340, DPI: 96})
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		if p != filepath.Join(dir3, IndexFile) {
			t.Fatalf("path %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir3, "sweep-sweep.png")); err != nil {
		t.Fatal(err)
	}
}

// TestBuildSurvivesPanics: a builder that panics gives a section with
// the error; the report is still built.
func TestBuildSurvivesPanics(t *testing.T) {
	const k = parse.InputKind("test-panic")
	Register(k, func([]Input) []*Section { panic("boom") })
	defer func() {
		buildersMu.Lock()
		delete(builders, k)
		buildersMu.Unlock()
	}()
	kindOrder = append(kindOrder, k)
	defer func() { kindOrder = kindOrder[:len(kindOrder)-1] }()
	r := Build("t", "fbdiag test", []Input{{Name: "x.txt", Kind: k}})
	if len(r.Sections) != 1 || !strings.Contains(r.Sections[0].Err, "boom") || r.Sections[0].Sources[0] != "x.txt" {
		t.Fatalf("%+v", r.Sections)
	}
}

// Two sections drawing the same chart embed its image once: the second
// links to the first.
func TestHTMLSameImageOnce(t *testing.T) {
	a, b := sweepSection(t), sweepSection(t)
	b.ID = "sweep-again"
	r := &Report{Title: "r", Generator: "fbdiag test", Sections: []*Section{a, b}}
	r.finish()
	if err := r.Render(plot.Options{Width: 600, Height: 340, DPI: 96}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Figures[0].PNG, b.Figures[0].PNG) {
		t.Fatal("the same chart drew different bytes")
	}
	var out bytes.Buffer
	if err := WriteHTML(&out, r, 600, 340); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(page, "data:image/png;base64,"); n != 1 {
		t.Errorf("%d images embedded, want 1", n)
	}
	want := `<p class="muted">Order Lines &lt;x&gt; &amp; page buffers: the same image as <a href="#fig-sweep-sweep.png">sweep-sweep.png</a> above.</p>`
	if !strings.Contains(page, want) || !strings.Contains(page, `<figure id="fig-sweep-sweep.png">`) {
		t.Errorf("page lacks the link %q or its target", want)
	}
}
