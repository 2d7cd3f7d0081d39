package report

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/plot"
)

// The HTML report is one self-contained file: inline CSS, the charts as
// data URIs, a few lines of inline script that sort tables (sortScript)
// and nothing fetched from the network, so it can be
// mailed to a consultant, opened on a phone and printed. html/template
// escapes every name that comes from an input (a table called
// "Order Lines <x>" stays text), and isolate keeps bidi controls in
// their word.

// GeneratorPrefix starts the content of the generator meta tag; WriteDir
// refuses to overwrite an index.html without it.
const GeneratorPrefix = "fbdiag"

// LargeTable is the row count above which a table is collapsed into a
// <details> element.
const LargeTable = 15

// HTMLRows bounds the rows a table shows in the page: a throughput
// table of 100,000 rows took seconds to write and made a page of 15 MB
// no one scrolls. The rest is counted under the table; the command's
// own output (CSV, JSON) lists them all.
const HTMLRows = 1000

// SummaryFindings bounds the findings repeated in the summary; the
// sections keep them all.
const SummaryFindings = 12

// HTMLRecommendations bounds the recommendations a database's section
// lists, worst first; the others are counted by severity and rule under
// the list, and report.json lists them all. A 100 MiB gstat output
// (78,546 tables) has 117,819: listed, they made a page of 69 MB.
const HTMLRecommendations = 100

// ruleCount is how many of a database's recommendations left off the
// page one rule has, of one severity.
type ruleCount struct {
	Severity analyze.Severity
	Rule     string
	N        int
}

// recsLeftOff counts by severity and rule the recommendations past the
// first HTMLRecommendations, the worst severity first, then the most.
func recsLeftOff(fs []analyze.DatabaseFinding) []ruleCount {
	if len(fs) <= HTMLRecommendations {
		return nil
	}
	n := map[ruleCount]int{}
	for _, f := range fs[HTMLRecommendations:] {
		n[ruleCount{Severity: f.Severity, Rule: f.Rule}]++
	}
	out := make([]ruleCount, 0, len(n))
	for k, c := range n {
		k.N = c
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b ruleCount) int {
		return cmp.Or(cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), cmp.Compare(b.N, a.N), cmp.Compare(a.Rule, b.Rule))
	})
	return out
}

var htmlFuncs = template.FuncMap{
	"large":  func(t *Table) bool { return len(t.Rows) > LargeTable },
	"rows":   func(t *Table) [][]string { return t.Rows[:min(len(t.Rows), HTMLRows)] },
	"hidden": func(t *Table) int { return max(len(t.Rows)-HTMLRows, 0) },
	"cell": func(row []string, i int) string {
		if i < len(row) {
			return row[i]
		}
		return ""
	},
	"align": func(c Column) string {
		if c.Right {
			return "num"
		}
		return ""
	},
	"first": func(n int, fs []Finding) []Finding {
		if len(fs) > n {
			return fs[:n]
		}
		return fs
	},
	"more":     func(n int, fs []Finding) int { return max(len(fs)-n, 0) },
	"critical": criticalFirst,
	"actFirst": actFirst,
	"afterCritical": func(fleet bool, fs []Finding) []Finding {
		if fleet {
			return fs[len(criticalFirst(fs)):]
		}
		return fs
	},
	"firstH":         summaryHeadlines,
	"summaryFigures": func() int { return SummaryHeadlinesPerSection },
	"snapshotsOf":    snapshotsOf,
	"target":         findingTarget,
	"recs": func(fs []analyze.DatabaseFinding) []analyze.DatabaseFinding {
		return fs[:min(len(fs), HTMLRecommendations)]
	},
	"recsMore":    func(fs []analyze.DatabaseFinding) int { return max(len(fs)-HTMLRecommendations, 0) },
	"recsLeftOff": recsLeftOff,
	"join":        strings.Join,
	"base":        filepath.Base,
	"figID":       func(f *Figure) string { return "fig-" + f.File },
	"iso":         isolate,
	"counted":     func(n int, noun string) string { return units.Count(n, noun) },
	"agree":       func(n int, word string) string { return units.Plural(n, word) },
	"alt":         altText,
	"summaryCap":  func() int { return SummaryFindings },
	"maxPage":     maxPageText,
	"sortScript":  func() template.JS { return sortScript },
	"rank":        analyze.VerdictRank,
	"num": func(p *int64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatInt(*p, 10)
	},
	"size": func(p *int64) string {
		if p == nil {
			return "–"
		}
		return units.Size(*p)
	},
	"count": func(p *int64) string {
		if p == nil {
			return "–"
		}
		return strconv.FormatInt(*p, 10)
	},
}

// isolate writes a text for HTML, escaped, with every word that holds a
// bidi control (U+202E and the like) in a <bdi> element: the control then
// reorders that word only, not the sentence around it, and the name is
// shown as the input has it. Every text the template prints from an
// input goes through it.
func isolate(s string) template.HTML {
	if !printable.HasBidi(s) {
		return template.HTML(template.HTMLEscapeString(s))
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		words[i] = template.HTMLEscapeString(w)
		if printable.HasBidi(w) {
			words[i] = "<bdi>" + words[i] + "</bdi>"
		}
	}
	return template.HTML(strings.Join(words, " "))
}

// altText describes a figure for screen readers and when images are off.
// imgTag writes a chart as an <img> with its PNG as a data URI. The tag is
// built here rather than in the template: html/template escapes every "+"
// of a base64 URL in an attribute as "&#43;", a fifth more bytes per image.
// The bytes are fbdiag's own PNG and base64 has no character that needs
// escaping in a quoted attribute; the alt text is escaped.
func imgTag(f *Figure, width, height int) template.HTML {
	var b strings.Builder
	b.WriteString(imgHead)
	b.WriteString(base64.StdEncoding.EncodeToString(f.PNG))
	b.WriteString(imgTail(f, width, height))
	return template.HTML(b.String())
}

const imgHead = `<img src="data:image/png;base64,`

func imgTail(f *Figure, width, height int) string {
	return fmt.Sprintf(`" alt="%s" width="%d" height="%d">`, template.HTMLEscapeString(altText(f)), width, height)
}

// imgTagLen is len(imgTag(f, width, height)), without encoding the PNG.
func imgTagLen(f *Figure, width, height int) int {
	return len(imgHead) + base64.StdEncoding.EncodedLen(len(f.PNG)) + len(imgTail(f, width, height))
}

// linkTag stands for a chart the page does not embed (MaxPageBytes): a
// link to its file beside the page.
func linkTag(f *Figure) template.HTML {
	name := template.HTMLEscapeString(f.File)
	return template.HTML(`<p class="linked"><a href="` + name + `">` + name + `</a>: not embedded, to keep this page under ` +
		maxPageText() + `; the file is beside it.</p>`)
}

func altText(f *Figure) string {
	var b strings.Builder
	b.WriteString(f.Chart.Title)
	if b.Len() == 0 {
		b.WriteString(string(f.Chart.Kind))
	}
	b.WriteString(" (chart)")
	return b.String()
}

// pageTemplate is parsed on its first use: parsing it took 0.9 ms of the
// start of every command, most of which write no HTML.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(htmlFuncs).Parse(pageText))
})

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="{{.Generator}}">
<title>{{.Title}}</title>
<style>
:root { --crit: #c62828; --warn: #9a5b00; --info: #1565c0; --ink: #222; --muted: #666; --line: #ddd; --ok: #2e7d32; }
* { box-sizing: border-box; }
body { overflow-wrap: anywhere; font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: var(--ink); margin: 0 auto; max-width: 70rem; padding: 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; margin-top: 2.2rem; }
.sechead { display: flex; align-items: baseline; gap: 1rem; border-bottom: 2px solid var(--line); margin-top: 2.2rem; }
.sechead h2 { flex: 1; border-bottom: 0; margin: 0; }
.up { font-size: .85rem; white-space: nowrap; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
nav ul { padding-left: 1.2rem; }
.meta, .muted { color: var(--muted); font-size: .9rem; }
.headlines { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: .6rem; margin: 1rem 0; }
.headline { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; }
.headline .v { font-size: 1.25rem; font-weight: bold; display: block; }
.headline .l { font-size: .85rem; color: var(--muted); }
ul.findings { list-style: none; padding: 0; }
ul.findings li { padding: .3rem .5rem; margin: .2rem 0; border-left: 5px solid var(--line); background: #fafafa; }
li.critical { border-left-color: var(--crit) !important; }
li.warning { border-left-color: var(--warn) !important; }
li.info { border-left-color: var(--info) !important; }
tr.critical td:first-child { border-left: 5px solid var(--crit); } tr.attention td:first-child { border-left: 5px solid var(--warn); } tr.healthy td:first-child { border-left: 5px solid var(--ok); } tr.unknown td:first-child { border-left: 5px solid #999; }
.sev { white-space: nowrap; font-weight: bold; text-transform: uppercase; font-size: .75rem; margin-right: .4rem; }
.critical .sev { color: var(--crit); } .warning .sev { color: var(--warn); } .info .sev { color: var(--info); }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
.linked { border: 1px dashed var(--line); padding: 1.5rem 1rem; margin: 0; }
figcaption { font-size: .85rem; color: var(--muted); }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-size: .88rem; margin: .4rem 0 1rem; }
caption { text-align: left; font-weight: bold; padding: .3rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
th.sortable { cursor: pointer; } th[aria-sort=ascending]::after { content: " ▲"; } th[aria-sort=descending]::after { content: " ▼"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }
th { overflow-wrap: normal; } td { overflow-wrap: break-word; } .fleet td { overflow-wrap: anywhere; }
.fleet td.num, .fleet th, .fleet td:first-child { white-space: nowrap; }
details { margin: .5rem 0 1rem; }
summary { cursor: pointer; font-weight: bold; }
.error { color: var(--crit); }
.verdict { font-size: 1.15rem; padding: .4rem .6rem; border-left: 6px solid var(--ok); background: #f6fbf6; }
.verdict.critical { border-left-color: var(--crit); background: #fdf3f3; } .verdict.attention { border-left-color: var(--warn); background: #fdf8ef; } .verdict.unknown { border-left-color: #999; background: #f5f5f5; }
.verdict .sev { font-size: .9rem; } .healthy .sev { color: var(--ok); } .unknown .sev { color: #666; } .attention .sev { color: var(--warn); }
.headline.critical { border-color: var(--crit); background: #fdf3f3; } .headline.warning { border-color: var(--warn); background: #fdf8ef; } .headline.ok { border-color: var(--ok); }
.hdr .v { font-size: 1.05rem; } .hdr .sev { display: block; margin-top: .2rem; } .ok .sev { color: var(--ok); }
code { background: #f3f3f3; padding: 0 .2rem; }
footer { margin-top: 3rem; font-size: .8rem; color: var(--muted); }
@media (max-width: 600px) { body { padding: .5rem; } h1 { font-size: 1.3rem; } }
@media print {
  body { max-width: none; }
  nav, .up { display: none; }
  section, figure { break-inside: avoid; }
  details::details-content { content-visibility: visible; display: contents; }
  summary { list-style: none; } summary::-webkit-details-marker { display: none; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
</style>
</head>
<body>
<header>
<h1>{{iso .Title}}</h1>
<p class="meta">{{len .Inputs}} input{{if ne (len .Inputs) 1}}s{{end}}, {{len .Sections}} section{{if ne (len .Sections) 1}}s{{end}}. Written by {{.Generator}}.</p>
</header>
<section id="summary">
<h2>Summary</h2>
{{- $fleet := gt (len .Databases) 1}}
{{- if $fleet}}{{template "counts" .}}
{{- with critical (first summaryCap .Summary)}}{{template "findinglist" .}}{{end}}
<h3>Databases, worst first</h3>
<div class="scroll"><table class="fleet" data-table="databases">
<thead><tr><th data-key="verdict">verdict</th><th data-key="database">database</th><th class="num" data-key="size_bytes">size</th><th class="num" data-key="next_minus_oat">Next − OAT</th><th class="num" data-key="versions">back versions</th><th data-key="worst">worst finding</th><th data-key="latest_time">latest snapshot</th></tr></thead>
<tbody>
{{- range .Databases}}{{$id := .ID}}{{with .Database}}
<tr class="{{.Verdict}}"><td data-sort="{{rank .Verdict}}"><span class="sev">{{.Verdict}}</span></td><td><a href="#{{$id}}">{{iso .Database}}</a></td><td class="num" data-sort="{{num .SizeBytes}}">{{size .SizeBytes}}</td><td class="num" data-sort="{{num .NextMinusOAT}}">{{count .NextMinusOAT}}</td><td class="num" data-sort="{{num .Versions}}">{{count .Versions}}</td><td>{{with .Findings}}{{with index . 0}}{{.Severity}}: {{.Rule}}{{if ne .Kind "database"}} on {{iso .Object}}{{with .Table}} ({{iso .}}){{end}}{{end}}{{end}}{{else}}{{.Reason}}{{end}}</td><td>{{with .LatestTime}}{{.Format "2006-01-02 15:04"}}{{else}}{{iso (base .Latest)}}{{end}}</td></tr>
{{- end}}{{end}}
</tbody>
</table></div>
{{- else}}{{range .Databases}}
<p><a href="#{{.ID}}">{{iso .Title}}</a></p>
{{template "dbhead" .}}
{{- end}}{{template "counts" .}}{{end}}
{{- with .NotEmbedded}}
<p class="muted">{{counted . "chart"}} {{agree . "is"}} not embedded, to keep this page under {{maxPage}}: each is linked where it would be, its PNG file beside the page (a section's main chart first: the tables and size history of a database, then the others in page order).</p>
{{- end}}
{{- if .Summary}}
{{- with afterCritical $fleet (first summaryCap .Summary)}}{{template "findinglist" .}}{{end}}
{{- with more summaryCap .Summary}}<p class="muted">and {{.}} more in the sections below.</p>{{end}}
{{- with .SkippedCut}}<p class="warning"><span class="sev">warning</span>Not analysed: {{iso .Text}} (<a href="#{{.ID}}">why</a>).</p>{{end}}
{{- else}}
<p>No critical findings and no warnings.</p>
{{- end}}
<nav>
<h3>Sections</h3>
<ul>
{{- range .Sections}}
<li><a href="#{{.ID}}">{{iso .Title}}</a>{{if not .Database}}{{with firstH summaryFigures .Headlines}} — {{range $i, $h := .}}{{if $i}}; {{end}}{{iso $h.Label}}: <strong>{{iso $h.Value}}</strong>{{end}}{{end}}{{end}}</li>
{{- end}}
</ul>
</nav>
<details>
<summary>Inputs ({{len .Inputs}})</summary>
<div class="scroll"><table>
<tr><th>file</th><th>recognised as</th><th>why</th></tr>
{{- range .Inputs}}
<tr><td>{{iso .Name}}{{with .Part}} <span class="muted">(lines {{.First}}–{{.Last}})</span>{{end}}</td><td>{{.Kind}}</td><td>{{iso .Reason}}</td></tr>
{{- end}}
</table></div>
{{- range .SplitNotes}}
<p class="muted">{{iso .}}</p>
{{- end}}
</details>
</section>
{{- range .Sections}}
<section id="{{.ID}}" class="kind-{{.Kind}}">
<div class="sechead"><h2>{{iso .Title}}</h2><a class="up" href="#summary">↑ Summary</a></div>
{{- if .Sources}}<p class="meta">From {{iso (join .Sources ", ")}}</p>{{end}}
{{- if .Err}}<p class="error">{{iso .Err}}</p>{{end}}
{{template "dbhead" .}}
{{- with .Database}}
<h3>Recommendations</h3>{{$n := len .Snapshots}}{{$fs := .Findings}}
{{- if .Findings}}
<ul class="findings recs">
{{- range recs .Findings}}
<li class="{{.Severity}}"><span class="sev">{{.Severity}}</span><strong>{{iso (target .)}}{{with .Table}} on {{iso .}}{{end}}</strong> <span class="muted">({{.Rule}}; {{snapshotsOf . $n}})</span><br>{{iso .Reason}}{{with .Advice}}<br>Do: <code>{{iso .}}</code>{{end}}</li>
{{- end}}
</ul>
{{- with recsMore .Findings}}
<p class="muted">and {{.}} more, listed in report.json: {{range $i, $c := recsLeftOff $fs}}{{if $i}}, {{end}}{{$c.N}} {{$c.Severity}} {{$c.Rule}}{{end}}.</p>
{{- end}}
{{- else}}
<p>Nothing to do: no rule fired on the latest snapshots.</p>
{{- end}}
{{- with .Resolved}}
<details><summary>Resolved ({{len .}}): shown by earlier snapshots only</summary>
<ul class="findings">
{{- range .}}
<li class="info"><span class="sev">{{.Severity}}</span>{{iso (target .)}}{{with .Table}} on {{iso .}}{{end}}: {{iso .Reason}}</li>
{{- end}}
</ul></details>
{{- end}}
{{- end}}
{{- range .Text}}
<p>{{iso .}}</p>
{{- end}}
{{- if .Fragment}}
{{.Fragment}}
{{- else}}
{{- if .Headlines}}
<div class="headlines">
{{- range .Headlines}}
<div class="headline"><span class="v">{{iso .Value}}</span><span class="l">{{iso .Label}}</span></div>
{{- end}}
</div>
{{- end}}
{{- if .Findings}}
<ul class="findings">
{{- range .Findings}}
<li class="{{.Severity}}"><span class="sev">{{.Severity}}</span>{{iso .Text}}</li>
{{- end}}
</ul>
{{- end}}
{{- end}}
{{- range .Figures}}{{$f := .}}
{{- if not .Chart.Drawn}}
<p class="chart-notes"><span class="muted">{{iso .Chart.Title}}:</span> {{iso (join .Chart.Notes "; ")}}.</p>
{{- else}}{{with $.Same .}}
<p class="muted">{{iso $f.Chart.Title}}: the same image as <a href="#{{figID .}}">{{iso .File}}</a> above.</p>
{{- else}}
<figure id="{{figID $f}}">
{{$.Picture $f}}
<figcaption>{{iso $f.Chart.Title}} <span class="muted">({{iso $f.File}})</span>{{range $f.Chart.Notes}}<br>{{iso .}}{{end}}</figcaption>
</figure>
{{- end}}{{end}}
{{- end}}
{{- if not .Fragment}}
{{- range .Tables}}
{{- if large .}}
<details>
<summary>{{iso .Title}} ({{len .Rows}} rows)</summary>
{{template "table" .}}
</details>
{{- else}}
{{template "table" .}}
{{- end}}
{{- end}}
{{- end}}
{{- if .Notices}}
<details>
<summary>Reader notes ({{len .Notices}})</summary>
<ul>
{{- range .Notices}}
<li>{{iso .}}</li>
{{- end}}
</ul>
</details>
{{- end}}
</section>
{{- end}}
<footer>Generated by {{.Generator}}. Self-contained: nothing loaded from the network; a few lines of inline script sort the tables by a clicked header (without it they stay as written).</footer>
<script>{{sortScript}}</script>
</body>
</html>
{{define "findinglist"}}
<ul class="findings">
{{- range .}}
<li class="{{.Severity}}"><span class="sev">{{.Severity}}</span>{{iso .Text}} <a href="#{{.Section}}" aria-label="{{with .SectionTitle}}to the section {{.}}{{else}}to the top of the page{{end}}">→</a></li>
{{- end}}
</ul>
{{- end}}
{{define "counts"}}{{if .Counts}}
<div class="headlines">
{{- range .Counts}}
<div class="headline"><span class="v">{{iso .Value}}</span><span class="l">{{iso .Label}}</span></div>
{{- end}}
</div>
{{- end}}{{end -}}
{{define "dbhead"}}{{with .Database}}
<p class="verdict {{.Verdict}}"><span class="sev">{{.Verdict}}</span> {{iso .Reason}}{{with actFirst .}}<br><strong>Do:</strong> {{iso .}}{{end}}</p>
<p class="meta">{{len .Snapshots}} snapshot{{if ne (len .Snapshots) 1}}s{{end}}; the latest: {{iso .Latest}}{{with .LatestTime}}, taken {{.Format "2006-01-02 15:04:05"}}{{end}}.</p>
{{- end}}
{{- if .Header}}
<h3>Header{{with .HeaderFrom}} <span class="muted">({{iso .}})</span>{{end}}</h3>
<div class="headlines hdr">
{{- range .Header}}
<div class="headline {{.Class}}"><span class="v">{{iso .Value}}</span><span class="l">{{iso .Label}}{{with .Detail}} {{iso .}}{{end}}</span>{{with .Class}}<span class="sev">{{.}}</span>{{end}}</div>
{{- end}}
</div>
<p class="muted">Critical or warning (red or amber) when a rule fired on the figure (see the recommendations), ok (green) when the figure is there and no rule fired; no mark when no rule judges it.</p>
{{- end}}
{{end}}
{{define "table"}}<div class="scroll"><table>
{{- if .Title}}<caption>{{iso .Title}}</caption>{{end}}
<tr>{{range .Columns}}<th class="{{align .}}">{{iso .Name}}</th>{{end}}</tr>
{{- $cols := .Columns}}
{{- range rows .}}{{$row := .}}
<tr>{{range $i, $c := $cols}}<td class="{{align $c}}">{{iso (cell $row $i)}}</td>{{end}}</tr>
{{- end}}
</table></div>
{{- with hidden .}}
<p class="muted">and {{.}} more rows, not shown in this page.</p>
{{- end}}
{{- range .Notes}}
<p class="muted">{{iso .}}</p>
{{- end}}{{end}}`

// sortScript sorts a table with a head (the views' tables and the fleet
// table) by the clicked column, again to reverse: numbers by their
// data-sort value (empty ones last), text in natural order. Without
// script the tables stay in the order the analysis wrote them. It also
// opens the collapsed blocks for printing: a table of more than 15 rows
// is in one, and a printed report had its summary line only.
const sortScript = template.JS(`(function () {
  function key(row, i) {
    var c = row.cells[i];
    if (!c) return "";
    var s = c.getAttribute("data-sort");
    if (s === null) return c.textContent;
    return s === "" ? null : parseFloat(s);
  }
  document.querySelectorAll("table").forEach(function (t) {
    if (!t.tHead || !t.tBodies.length) return;
    var head = t.tHead.rows[0].cells;
    Array.prototype.forEach.call(head, function (th, i) {
      th.classList.add("sortable");
      th.tabIndex = 0;
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(head, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var a = key(x, i), b = key(y, i);
          if (a === null || b === null) return (a === null) - (b === null);
          var r = typeof a === "number" && typeof b === "number" ? a - b :
            String(a).localeCompare(String(b), undefined, {numeric: true});
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
    });
  });
  // Printed, the collapsed blocks are open (the print style opens them
  // where ::details-content is known).
  var shut = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details:not([open])").forEach(function (d) { d.open = true; shut.push(d); });
  });
  window.addEventListener("afterprint", function () {
    shut.forEach(function (d) { d.open = false; });
    shut = [];
  });
})();`)

// MaxPageBytes bounds the page when the charts are what would pass it:
// they are embedded while they fit (embedded), the others linked to their
// files beside the page. A folder of 30 databases' snapshots drew 100
// charts, 4 MB of PNG in base64 alone.
const MaxPageBytes = 4_000_000

// maxPageText is MaxPageBytes for people ("4 MB").
func maxPageText() string { return strconv.Itoa(MaxPageBytes/1_000_000) + " MB" }

// htmlPage is what the template sees: the report plus the images' pixel
// size, so the browser reserves their room before decoding, and for a
// chart whose PNG bytes an earlier one has, that earlier one: the page
// embeds each image once.
type htmlPage struct {
	*Report
	Width, Height int
	same          map[*Figure]*Figure
	// embed holds the charts the page embeds; nil embeds none.
	embed map[*Figure]bool
	// NotEmbedded counts the charts linked instead.
	NotEmbedded int
}

// Same is the earlier figure with the same PNG bytes, or nil.
func (p htmlPage) Same(f *Figure) *Figure { return p.same[f] }

// Picture is a chart's image, or the link to its file when the page
// does not embed it.
func (p htmlPage) Picture(f *Figure) template.HTML {
	if p.embed[f] {
		return imgTag(f, p.Width, p.Height)
	}
	return linkTag(f)
}

// sameImages maps each figure whose PNG an earlier figure has already
// drawn to that figure.
func sameImages(figs []*Figure) map[*Figure]*Figure {
	first := map[string]*Figure{}
	same := map[*Figure]*Figure{}
	for _, f := range figs {
		if len(f.PNG) == 0 {
			continue
		}
		if g, ok := first[string(f.PNG)]; ok {
			same[f] = g
			continue
		}
		first[string(f.PNG)] = f
	}
	return same
}

// chartTier ranks the charts for the page's room: a section's main
// chart first (a database's tables and size history, a restore's
// timeline, a benchmark's chart), then the index and back version
// charts, then the page fill.
func chartTier(k plot.Kind) int {
	switch k {
	case plot.KindIndices, plot.KindHistoryVersions:
		return 1
	case plot.KindFill:
		return 2
	}
	return 0
}

// embedding chooses the charts the page embeds: all when the page fits
// in MaxPageBytes; else, the page's text counted with every chart
// linked, the charts by tier and then in page order, each while it
// still fits.
func embedding(p *htmlPage) error {
	figs := embeddable(p)
	var n countingWriter
	if err := pageTemplate().Execute(&n, p); err != nil {
		return err
	}
	room := MaxPageBytes - int(n)
	grow := make(map[*Figure]int, len(figs))
	total := 0
	for _, f := range figs {
		grow[f] = imgTagLen(f, p.Width, p.Height) - len(linkTag(f))
		total += grow[f]
	}
	if total <= room {
		p.embed = embedAll(figs)
		return nil
	}
	p.embed = make(map[*Figure]bool, len(figs))
	// The note in the summary takes room too.
	room -= 400
	slices.SortStableFunc(figs, func(a, b *Figure) int { return chartTier(a.Chart.Kind) - chartTier(b.Chart.Kind) })
	for _, f := range figs {
		if grow[f] <= room {
			p.embed[f] = true
			room -= grow[f]
		} else {
			p.NotEmbedded++
		}
	}
	return nil
}

// countingWriter counts the bytes written through it.
type countingWriter int64

func (c *countingWriter) Write(b []byte) (int, error) {
	*c += countingWriter(len(b))
	return len(b), nil
}

// WriteHTML writes the report as one HTML page, of at most MaxPageBytes
// when its charts are what would pass it (embedding). Render must have
// been called so the figures carry their PNG bytes; the charts the page
// links to are the files WriteDir writes beside it.
func WriteHTML(w io.Writer, r *Report, width, height int) error {
	p := &htmlPage{Report: r, Width: width, Height: height, same: sameImages(r.Drawn())}
	// Most pages fit with every chart embedded, embedding's first
	// choice: written once into a buffer that stops past MaxPageBytes,
	// and only a page that does not fit is counted and written again.
	p.embed = embedAll(embeddable(p))
	page := cappedBuffer{max: MaxPageBytes}
	switch err := pageTemplate().Execute(&page, p); {
	case err == nil:
		_, err = w.Write(page.b)
		return err
	case !errors.Is(err, errPageFull):
		return err
	}
	p.embed = nil
	if err := embedding(p); err != nil {
		return err
	}
	return pageTemplate().Execute(w, p)
}

// embeddable is every chart the page may embed, in page order: those
// whose PNG no earlier chart has.
func embeddable(p *htmlPage) []*Figure {
	var figs []*Figure
	for _, f := range p.Drawn() {
		if p.same[f] == nil {
			figs = append(figs, f)
		}
	}
	return figs
}

// embedAll embeds every one of figs.
func embedAll(figs []*Figure) map[*Figure]bool {
	embed := make(map[*Figure]bool, len(figs))
	for _, f := range figs {
		embed[f] = true
	}
	return embed
}

// errPageFull stops a page that would pass MaxPageBytes (cappedBuffer).
var errPageFull = errors.New("page over its bound")

// cappedBuffer holds up to max bytes; a write past them fails with
// errPageFull.
type cappedBuffer struct {
	b   []byte
	max int
}

func (c *cappedBuffer) Write(b []byte) (int, error) {
	if len(c.b)+len(b) > c.max {
		return 0, errPageFull
	}
	c.b = append(c.b, b...)
	return len(b), nil
}

// summaryHeadlines are the figures of a section the summary repeats: its
// first n, and any later one that carries a caveat (a prediction whose
// own check missed is not to be read without it), after the first figure
// of its group when none of the group's is listed yet (a second series'
// noise note without its best was a caveat on a figure not shown).
func summaryHeadlines(n int, hs []Headline) []Headline {
	var out []Headline
	listed := map[string]bool{}
	for i, h := range hs {
		if i >= n && !h.Caveat {
			continue
		}
		if i >= n && h.Group != "" && !listed[h.Group] {
			if j := slices.IndexFunc(hs, func(g Headline) bool { return g.Group == h.Group }); j < i {
				out = append(out, hs[j])
			}
		}
		listed[h.Group] = true
		out = append(out, h)
	}
	return out
}

// criticalFirst is the critical findings leading fs (the summary's are
// sorted worst first). With several databases the summary shows them
// above the fleet table, the counts with them, and the warnings under
// it: a fleet of 33 databases pushed six failed restores below its 33
// rows, off the first screen.
func criticalFirst(fs []Finding) []Finding {
	n := 0
	for n < len(fs) && fs[n].Severity == "critical" {
		n++
	}
	return fs[:n]
}

// actFirst is the advice of the finding a database's verdict names (its
// worst, critical or warning), empty for a healthy or unknown one: the
// verdict line said what was wrong, and what to do only in the findings
// under the header block ("Do: if no query plan uses it: DROP INDEX
// ORDERS_CARRIER; …"), below the first screen.
func actFirst(d *analyze.Database) string {
	if len(d.Findings) == 0 {
		return ""
	}
	f := d.Findings[0]
	if f.Severity != analyze.Critical && f.Severity != analyze.Warn {
		return ""
	}
	return f.Advice
}
